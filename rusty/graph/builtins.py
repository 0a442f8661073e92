"""The Graph IR builtins: graph-ir, graph-node-count, graph-eval, graph-grad.

graph-grad keeps the optimised forward+backward graph of each lambda (by its
source body) per argument shapes, compiled to a straight-line plan, so a
training loop builds it once. Every builtin here is declared `host=True` only to render
values in messages (`host.display`): the graph package never imports the printer.
The table is light: the graph package proper (and the tensor module) is
imported by the builtins when first called, so start-up does without it.
"""
from ..errors import EvalError
from ..values import BuiltinTable, Lambda, Tensor, make_list, to_f64

TABLE = BuiltinTable()


def optimised(f, show):
    """The optimised graph of lambda f and its output node."""
    from .optimize import optimize
    from .trace import build
    g, out = build(f, show)
    g, (out,) = optimize(g, [out])
    return g, out


def f64_args(args) -> tuple:
    """The arguments with exact integers as f64s: graphs compute in f64."""
    return tuple(to_f64(x) if x.__class__ is int else x for x in args)


def check_args(prefix: str, f, args, show) -> None:
    """Argument checks of graph-eval: the count, then each a number or tensor."""
    if len(args) != len(f.params):
        raise EvalError('%s: expected %d arg(s), got %d' % (prefix, len(f.params), len(args)))
    for x in args:
        if x.__class__ is not float and x.__class__ is not Tensor:
            raise EvalError('%s: arguments must be numbers or tensors, got %s' % (prefix, show(x)))


@TABLE.fn('graph-ir', 1, 1, host=True, sig='(graph-ir f)',
          doc='The optimised graph of a one-expression lambda, as data: (NODES OUTPUT-INDEX).',
          examples=(('(graph-ir (lambda (x) (* x 2)))', '(((0 param 0) (1 const 2) (2 mul 0 1)) 2)'),))
def graph_ir(host, f):
    g, out = optimised(f, host.display)
    return g.to_data(out)


@TABLE.fn('graph-node-count', 1, 1, host=True, sig='(graph-node-count f)',
          doc='The number of nodes of the optimised graph of a lambda.',
          examples=(('(graph-node-count (lambda (x) (+ (* x 2) (* x 2))))', '4'),))
def graph_node_count(host, f):
    g, _ = optimised(f, host.display)
    return len(g)


@TABLE.fn('graph-eval', 1, None, host=True, sig='(graph-eval f arg ...)',
          doc="Build, optimise and evaluate a lambda's graph on the arguments.",
          examples=(('(graph-eval (lambda (x y) (+ (* x x) y)) 3 1)', '10'),))
def graph_eval(host, f, *args):
    g, out = optimised(f, host.display)
    args = f64_args(args)
    check_args('graph-eval', f, args, host.display)
    from .interp import evaluate
    return evaluate(g, args, [out])[0]


@TABLE.fn('graph-grad', 1, None, host=True, sig='(graph-grad f arg ...)',
          doc='(loss grad-1 ... grad-N): the value and gradients of a lambda by reverse mode.',
          examples=(('(graph-grad (lambda (x) (* x x)) 3)', '(9 6)'),))
def graph_grad(host, f, *args):
    return make_list(gradient(f, args, host.display))


# ── graph-grad and its cache ─────────────────────────────────────────────

def gradient(f, args, show) -> list:
    """[loss, grad-1, …, grad-N] for lambda f at args."""
    args = f64_args(args)
    key = _shape_key(args) if f.__class__ is Lambda else None
    plans = _CACHE.plans(f) if key is not None else None
    plan = plans.get(key) if plans is not None else None
    if plan is not None:
        return plan(args)
    from .grad import grad_graph
    from .interp import LOSS_NOT_SCALAR, compile_plan, evaluate
    from .shapes import infer
    from .trace import build
    forward, loss = build(f, show)
    check_args('graph-grad', f, args, show)
    g, outputs = grad_graph(forward, loss, len(f.params))
    values = evaluate(g, args, outputs)
    if values[0].__class__ is not float:
        raise EvalError(LOSS_NOT_SCALAR)
    if plans is not None:
        try:
            shapes = infer(g, key[1:], 'graph-eval')
        except EvalError:
            pass        # evaluates, but shapes depend on values: no plan
        else:
            plans[key] = compile_plan(g, outputs, shapes)
    return values


def _shape_key(args):
    """(kernel table, shape per argument) or None if an argument is neither kind."""
    from .. import tensor
    key = [id(tensor.kernels())]
    for x in args:
        if x.__class__ is float:
            key.append(None)
        elif x.__class__ is Tensor:
            key.append(x.shape)
        else:
            return None
    return tuple(key)


class _PlanCache:
    """Plans per lambda *source*: keyed by the body forms (by identity) and the
    parameters, then by argument shapes.

    A graph depends only on a lambda's parameters and body (its environment is
    ignored), and every closure made from one `(lambda …)` expression shares
    that body, so a loop that re-creates its lambda still hits. Only the body
    (source data) is held, never a closure or its environment; the table is a
    bounded LRU (a dict kept in use order: a hit moves its key to the end,
    the first key is the least recently used).
    """
    LIMIT = 256

    def __init__(self):
        self.entries: dict = {}

    def plans(self, f) -> dict:
        """The shape -> plan dict of lambda f (created empty on first use)."""
        key = (id(f.body), f.params, f.rest)
        entries = self.entries
        entry = entries.pop(key, None)
        if entry is not None and entry[0] is f.body:
            entries[key] = entry
            return entry[1]
        d: dict = {}
        entries[key] = (f.body, d)
        if len(entries) > self.LIMIT:
            del entries[next(iter(entries))]
        return d

    def clear(self) -> None:
        self.entries.clear()


_CACHE = _PlanCache()
clear_cache = _CACHE.clear
