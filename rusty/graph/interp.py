"""The reference evaluator of graphs — the oracle for compiled kernels.

Values are floats (scalars) or Tensors. Nodes are evaluated once each, in index
order; `if` is eager (both branches are earlier nodes). Errors carry the
`graph-eval:` prefix whichever entry point evaluates, and point at the
construct of the failing node (except the loss-not-scalar one: the call's).
"""
from __future__ import annotations

from array import array

from .. import tensor as T
from ..errors import EvalError
from ..values import Tensor
from .ir import SOURCE_NAME, Graph

LOSS_NOT_SCALAR = 'graph-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)'


def evaluate(g: Graph, args, outputs: list[int]) -> list:
    """The values of the output nodes for these arguments (floats or Tensors)."""
    vals: list = []
    push = vals.append
    for i, op, a, attr in g.rows():
        if op == 'const':
            push(attr)
        elif op == 'param':
            push(args[attr])
        else:
            try:
                push(EVAL[op](*[vals[x] for x in a]))
            except EvalError as e:
                raise e if op == 'sum-to' else g.at_node(e, i)
    return [vals[o] for o in outputs]


# ── One function per op ──────────────────────────────────────────────────

def _scalar(op: str, x):
    if x.__class__ is Tensor:
        raise EvalError('graph-eval: %s expects a number, got a %s tensor — use the tensor-* ops'
                        % (SOURCE_NAME[op], T.dims_text(x.shape)))
    return x


def _arith(op):
    f = T.SCALAR_OPS[op]

    def run(a, b):
        return f(_scalar(op, a), _scalar(op, b))
    return run


def _compare(op, test):
    def run(a, b):
        return 1.0 if test(_scalar(op, a), _scalar(op, b)) else 0.0
    return run


def _if(c, t, e):
    return t if c != 0.0 else e


def _tensor_arith(name):
    op = name[len('tensor-'):]

    def run(a, b):
        if a.__class__ is Tensor and b.__class__ is Tensor and a.shape != b.shape:
            raise EvalError('graph-eval: %s: shape mismatch %s vs %s'
                            % (name, T.shape_text(a.shape), T.shape_text(b.shape)))
        return T.elementwise(op, a, b)
    return run


def _matmul(a, b):
    if (a.__class__ is not Tensor or b.__class__ is not Tensor
            or len(a.shape) != 2 or len(b.shape) != 2):
        raise EvalError('graph-eval: matmul: both arguments must be rank-2 tensors')
    if a.shape[1] != b.shape[0]:
        raise EvalError('graph-eval: matmul: inner dimensions differ (%d vs %d)'
                        % (a.shape[1], b.shape[0]))
    return T.matmul(a, b)


def _transpose(a):
    if a.__class__ is not Tensor or len(a.shape) != 2:
        raise EvalError('graph-eval: transpose: argument must be a rank-2 tensor')
    return T.transpose(a)


def _tensor_sum(a):
    return T.tensor_sum(a) if a.__class__ is Tensor else a


def _sum_to(g, like):
    """Undo scalar broadcasting: a scalar `like` receives the sum of `g`."""
    if like.__class__ is Tensor:
        if g.__class__ is not Tensor:
            raise EvalError(LOSS_NOT_SCALAR)
        return g
    return T.tensor_sum(g) if g.__class__ is Tensor else g


def _expand(g, like):
    """The gradient of tensor-sum: a scalar `g` spread over `like`'s shape."""
    if g.__class__ is Tensor or like.__class__ is not Tensor:
        return g
    return T.filled(like.shape, g)


EVAL = {
    'add': _arith('add'), 'sub': _arith('sub'), 'mul': _arith('mul'), 'div': _arith('div'),
    'lt': _compare('lt', lambda a, b: a < b), 'gt': _compare('gt', lambda a, b: a > b),
    'le': _compare('le', lambda a, b: a <= b), 'ge': _compare('ge', lambda a, b: a >= b),
    'eq': _compare('eq', lambda a, b: a == b),
    'if': _if,
    'tensor-add': _tensor_arith('tensor-add'), 'tensor-sub': _tensor_arith('tensor-sub'),
    'tensor-mul': _tensor_arith('tensor-mul'), 'tensor-div': _tensor_arith('tensor-div'),
    'matmul': _matmul, 'transpose': _transpose, 'tensor-sum': _tensor_sum,
    'relu': T.relu, 'step': T.step, 'sum-to': _sum_to, 'expand': _expand,
}


# ── Shape-specialised plans ──────────────────────────────────────────────
# For a graph evaluated many times with arguments of the same shapes (the
# graph-grad cache), the node-by-node dispatch and checks above are decided
# once: the graph becomes one straight-line Python function over raw buffers
# calling the same kernels, so it gives the same bits as `evaluate`.

def _plan_line(i, op, a, attr, s, shapes) -> str:
    """The Python statement computing node i (`v{i}`) from earlier nodes."""
    v = ['v%d' % x for x in a]
    sa = [shapes[x] for x in a]
    if op == 'const':
        return 'v%d = c%d' % (i, i)
    if op == 'param':
        return 'v%d = args[%d]%s' % (i, attr, '' if s is None else '.data')
    if op in ('add', 'sub', 'mul'):
        return 'v%d = %s %s %s' % (i, v[0], SOURCE_NAME[op], v[1])
    if op == 'div':
        return 'v%d = ieee_div(%s, %s)' % (i, v[0], v[1])
    if op in SOURCE_NAME:
        cmp = '==' if op == 'eq' else SOURCE_NAME[op]
        return 'v%d = 1.0 if %s %s %s else 0.0' % (i, v[0], cmp, v[1])
    if op == 'if':
        return 'v%d = %s if %s != 0.0 else %s' % (i, v[1], v[0], v[2])
    if op.startswith('tensor-') and op != 'tensor-sum':
        kind = op[len('tensor-'):]
        if sa[0] is None and sa[1] is None:
            return 'v%d = scalar_%s(%s, %s)' % (i, kind, v[0], v[1])
        case = ('t' if sa[0] is not None else 's') + ('t' if sa[1] is not None else 's')
        return 'v%d = K_%s_%s(%s, %s)' % (i, kind, case, v[0], v[1])
    if op == 'matmul':
        (n, k), m = sa[0], sa[1][1]
        return 'v%d = K_matmul(%s, %s, %d, %d, %d)' % (i, v[0], v[1], n, k, m)
    if op == 'transpose':
        n, m = sa[0]
        return 'v%d = K_transpose(%s, %d, %d)' % (i, v[0], n, m)
    if op == 'tensor-sum' or (op == 'sum-to' and sa[1] is None):
        return 'v%d = %s' % (i, v[0] if sa[0] is None else 'K_sum(%s)' % v[0])
    if op == 'sum-to':
        return 'v%d = %s' % (i, v[0])
    if op in ('relu', 'step'):
        if sa[0] is not None:
            return 'v%d = K_%s(%s)' % (i, op, v[0])
        value = v[0] if op == 'relu' else '1.0'
        return 'v%d = %s if %s > 0.0 else 0.0' % (i, value, v[0])
    if op == 'expand':
        if sa[0] is not None or sa[1] is None:
            return 'v%d = %s' % (i, v[0])
        return 'v%d = array("d", (%s,)) * %d' % (i, v[0], T.size_of(sa[1]))
    raise AssertionError('no plan for op %r' % op)


def compile_plan(g: Graph, outputs: list[int], shapes: list):
    """A function `run(args) -> list of values` equal to `evaluate(g, args, outputs)`
    for arguments whose shapes gave `shapes` (see shapes.infer)."""
    k = T.kernels()
    env = {'array': array, 'Tensor': Tensor, 'ieee_div': T.ieee_div}
    env.update(('K_' + name, fn) for name, fn in k.items())
    env.update(('scalar_' + name, fn) for name, fn in T.SCALAR_OPS.items())
    lines = ['def run(args):']
    for i, op, a, attr in g.rows():
        if op == 'const':
            env['c%d' % i] = attr
        lines.append('    ' + _plan_line(i, op, a, attr, shapes[i], shapes))
    results = []
    for o in outputs:
        if shapes[o] is None:
            results.append('v%d' % o)
        else:
            env['s%d' % o] = shapes[o]
            results.append('Tensor(v%d, s%d)' % (o, o))
    lines.append('    return [%s]' % ', '.join(results))
    source = '\n'.join(lines) + '\n'
    exec(compile(source, '<graph plan>', 'exec'), env)
    run = env['run']
    run.source = source
    return run
