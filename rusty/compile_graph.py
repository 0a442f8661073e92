"""The builtins graph-compile and graph-compile-grad.

Composition-root glue: trace, optimise, differentiate and infer shapes with the
graph package, then hand the graph to rusty.jit.graph_codegen, with the matmul
bridge (rusty.jit.matmul_bridge) wired to the native banded matmul. Both builtins
are `host=True` only to render values in messages (`host.display`). The JIT
(ctypes and all) is imported on first use, so sessions start without it.
"""
from _thread import allocate_lock

from .errors import EvalError
from .graph.builtins import check_args, f64_args, optimised
from .values import BuiltinTable

TABLE = BuiltinTable()
PREFIX = 'graph-compile-grad'


@TABLE.fn('graph-compile', 1, 1, host=True, sig='(graph-compile f)',
          doc="A native `graph-kernel` computing a scalar lambda's optimised graph.",
          examples=(('((graph-compile (lambda (x y) (* x y))) 3 4)', '12'),))
def graph_compile(host, f):
    g, out = optimised(f, host.display)
    from .jit import graph_codegen
    return graph_codegen.compile_scalar(g, out, len(f.params))


@TABLE.fn('graph-compile-grad', 1, None, host=True, sig='(graph-compile-grad f example-arg ...)',
          doc='A native-grad `grad-kernel` returning (loss grad-1 ... grad-N), '
              'specialised to the example arguments\' shapes.',
          examples=(('((graph-compile-grad (lambda (x) (* x x)) 1) 3)', '(9 6)'),))
def graph_compile_grad(host, f, *args):
    from .graph.grad import grad_graph          # the graph package: loaded on first use
    from .graph.interp import LOSS_NOT_SCALAR
    from .graph.shapes import infer, shape_of
    from .graph.trace import build
    forward, loss = build(f, host.display)          # as graph-grad does, up to evaluation
    args = f64_args(args)
    check_args(PREFIX, f, args, host.display)
    g, outputs = grad_graph(forward, loss, len(f.params))
    param_shapes = tuple(shape_of(x) for x in args)
    shapes = infer(g, param_shapes, PREFIX)
    if shapes[outputs[0]] is not None:
        raise EvalError(PREFIX + LOSS_NOT_SCALAR[len('graph-grad'):])
    from .jit import graph_codegen
    return graph_codegen.compile_grad(g, outputs, shapes, param_shapes, bridge(), host.display)


# ── The matmul bridge (one per process, kept alive for every kernel) ─────

_bridge = None
_lock = allocate_lock()


def bridge():
    """The process's matmul bridge (a matmul_bridge.MmBridge): the native
    banded matmul, its bands on the lanes of kernels.rs."""
    global _bridge
    with _lock:
        if _bridge is None:
            from .jit import kernels, matmul_bridge
            _bridge = matmul_bridge.make_bridge(kernels.matmul_into)
        return _bridge
