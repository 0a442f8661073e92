"""The trainer builtins: sgd, adam, graph-compile-train, graph-train, train!,
trainer-params, trainer-reset!.

Composition-root glue, like rusty.compile_graph: the graph package gives the
forward and backward graph, the shapes and the optimizer rules
(rusty.graph.optimizers); the compiled trainer is rendered by
rusty.jit.train_codegen, the interpreted one is rusty.graph.train. Both are
wrapped in a `Trainer` value, and train! checks its arguments here, once for
both. Everything heavy is imported on first use.
"""
from .errors import EvalError
from .values import EMPTY, BuiltinTable, Lambda, List, Symbol, Tensor, Trainer, make_list

TABLE = BuiltinTable()
COMPILED, INTERPRETED = 'graph-compile-train', 'graph-train'
MAX_STEPS = 2.0 ** 53


# ── Optimizers ───────────────────────────────────────────────────────────

@TABLE.fn('sgd', 1, 3, host=True, sig="(sgd lr ['momentum m])",
          doc='The optimizer for trainers: stochastic gradient descent with learning rate `lr`, '
              'optionally with momentum (PyTorch\'s SGD, dampening 0). It is data: a list.',
          examples=(("(sgd 0.1 'momentum 0.9)", '(sgd 0.1 momentum 0.9)'),))
def sgd(host, *args):
    from .graph.optimizers import make_sgd
    return make_sgd(args, host.display)


@TABLE.fn('adam', 1, 4, host=True, sig='(adam lr [b1 b2 eps])',
          doc='The optimizer for trainers: Adam with learning rate `lr` (β1 0.9, β2 0.999, '
              'ε 1e-8 unless given; PyTorch\'s Adam without weight decay). It is data: a list.',
          examples=(('(adam 0.01)', '(adam 0.01 0.9 0.999 0.00000001)'),))
def adam(host, *args):
    from .graph.optimizers import make_adam
    return make_adam(args, host.display)


# ── Making trainers ──────────────────────────────────────────────────────

def _trained(prefix: str, f, names, show) -> tuple:
    """The parameter indices of the names in `names` (a list of symbols)."""
    items, x = [], names
    while x.__class__ is List and x is not EMPTY:
        items.append(x.car)
        x = x.cdr
    if not items or x is not EMPTY or any(n.__class__ is not Symbol for n in items):
        raise EvalError('%s: the trained parameters must be a non-empty list of parameter '
                        'names, got %s' % (prefix, show(names)))
    params = list(f.params)
    indices = []
    for n in items:
        if n not in params:
            raise EvalError('%s: %s is not a parameter of %s (%s)'
                            % (prefix, n.name, f.name, ' '.join(p.name for p in params)))
        if params.index(n) in indices:
            raise EvalError('%s: %s is named twice' % (prefix, n.name))
        indices.append(params.index(n))
    return tuple(indices)


def _numbers(args) -> list:
    """The arguments with exact integers as floats (trainers compute in f64)."""
    from .graph.optimizers import number
    return [x if x.__class__ is Tensor else (number(x) if number(x) is not None else x)
            for x in args]


def prepare(prefix: str, f, names, optimizer, args, show) -> tuple:
    """Everything both trainers check and need: (trained indices, rule,
    hyperparameters, args, graph, outputs, node shapes, parameter shapes)."""
    from .graph.builtins import check_args
    from .graph.grad import backward
    from .graph.interp import LOSS_NOT_SCALAR
    from .graph.optimize import optimize
    from .graph.optimizers import read_optimizer
    from .graph.shapes import infer, shape_of
    from .graph.trace import build
    forward, loss = build(f, show)
    trained = _trained(prefix, f, names, show)
    rule, hyper = read_optimizer(optimizer, prefix, show)
    args = _numbers(args)
    check_args(prefix, f, args, show)
    g, (loss,) = optimize(forward, [loss])
    outputs = backward(g, loss, len(f.params))
    g, outputs = optimize(g, [outputs[0]] + [outputs[1 + i] for i in trained])
    param_shapes = tuple(shape_of(x) for x in args)
    shapes = infer(g, param_shapes, prefix)
    if shapes[outputs[0]] is not None:
        raise EvalError(prefix + LOSS_NOT_SCALAR[len('graph-grad'):])
    return trained, rule, hyper, args, g, outputs, shapes, param_shapes


def _lambda(prefix: str, f, show):
    if f.__class__ is not Lambda:
        raise EvalError('%s: the loss must be a lambda, got %s' % (prefix, show(f)))


@TABLE.fn('graph-compile-train', 3, None, host=True,
          sig="(graph-compile-train loss '(P ...) optimizer arg ...)",
          doc='A compiled trainer: `train!` runs forward, backward and the optimizer\'s update '
              'of the named parameters in native code, many steps in one call. The args are '
              'the initial values (their shapes fix the trainer\'s). Bit-identical to '
              '`graph-train`.',
          examples=(("(graph-compile-train (lambda (w x) (* (- w x) (- w x))) '(w) (sgd 0.1) 0 3)",
                     '#<native-train:lambda (scalar) sgd>'),))
def graph_compile_train(host, f, names, optimizer, *args):
    _lambda(COMPILED, f, host.display)
    trained, rule, hyper, args, g, outputs, shapes, param_shapes = prepare(
        COMPILED, f, names, optimizer, args, host.display)
    from .jit.train_codegen import compile_train
    native = compile_train(g, outputs, shapes, param_shapes, trained, rule)
    native.start(args, hyper)
    return _trainer('native-train', COMPILED, f, trained, param_shapes, rule, native)


@TABLE.fn('graph-train', 3, None, host=True, sig="(graph-train loss '(P ...) optimizer arg ...)",
          doc='The interpreted trainer: each step runs `graph-grad` and the optimizer\'s update '
              'with the tensor ops. The reference for `graph-compile-train`.',
          examples=(("(train! (graph-train (lambda (w x) (* (- w x) (- w x))) '(w) (sgd 0.1) 0 3) 2)",
                     '5.76'),))
def graph_train(host, f, names, optimizer, *args):
    _lambda(INTERPRETED, f, host.display)
    trained, rule, hyper, args, _, _, _, param_shapes = prepare(
        INTERPRETED, f, names, optimizer, args, host.display)
    from .graph.train import InterpretedTrainer
    run = InterpretedTrainer(f, trained, rule, hyper, args, host.display)
    return _trainer('train', INTERPRETED, f, trained, param_shapes, rule, run)


def _trainer(kind, maker, f, trained, param_shapes, rule, run) -> Trainer:
    run.maker = maker
    run.data = tuple(i for i in range(len(f.params)) if i not in trained)
    run.data_names = tuple(f.params[i].name for i in run.data)
    run.arg_shapes = param_shapes
    return Trainer(kind, f.name, tuple(param_shapes[i] for i in trained), rule.name, run)


# ── Using trainers ───────────────────────────────────────────────────────

def _is_trainer(who: str, tr, show) -> None:
    if tr.__class__ is not Trainer:
        raise EvalError('%s: expected a trainer, got %s' % (who, show(tr)))


def _data(run, args, show) -> dict:
    """Index -> value of the replacement data arguments, checked against the
    shapes the trainer was made for."""
    from .tensor import shape_text
    if len(args) != len(run.data):
        raise EvalError('train!: expected %d data arg(s) (%s), got %d'
                        % (len(run.data), ' '.join(run.data_names), len(args)))
    out = {}
    for i, x in zip(run.data, _numbers(args)):
        want = run.arg_shapes[i]
        if want is None:
            if x.__class__ is not float:
                raise EvalError('train!: expected a number, got %s' % show(x))
        elif x.__class__ is not Tensor:
            raise EvalError('train!: expected a tensor of shape %s, got %s'
                            % (shape_text(want), show(x)))
        elif x.shape != want:
            raise EvalError('train!: compiled for shape %s, got %s — run %s again for new shapes'
                            % (shape_text(want), shape_text(x.shape), run.maker))
        out[i] = x
    return out


@TABLE.fn('train!', 2, None, host=True, sig='(train! trainer steps [data-arg ...])',
          doc='Run `steps` training steps (forward, backward, update) and return the loss of the '
              'last one; `(train! tr 0)` is the loss at the current parameters. Data args, if '
              'given, replace the trainer\'s (same shapes). Ctrl-C stops between steps.',
          examples=(("(train! (graph-compile-train (lambda (w) (* w w)) '(w) (sgd 0.25) 4) 2)",
                     '4'),))
def train(host, tr, steps, *args):
    _is_trainer('train!', tr, host.display)
    n = steps if steps.__class__ is int else None
    if steps.__class__ is float and steps == steps and 0.0 <= steps < MAX_STEPS and steps == int(steps):
        n = int(steps)
    if n is None or n < 0 or n >= MAX_STEPS:
        raise EvalError('train!: steps must be a non-negative integer, got %s' % host.display(steps))
    data = _data(tr.run, args, host.display) if args else None
    return tr.run.train(n, data)


@TABLE.fn('trainer-params', 1, 1, host=True, sig='(trainer-params trainer)',
          doc="The trainer's current parameter values, in the order they were named.",
          examples=(("(trainer-params (graph-train (lambda (w) (* w w)) '(w) (sgd 0.25) 4))", '(4)'),))
def trainer_params(host, tr):
    _is_trainer('trainer-params', tr, host.display)
    return make_list(tr.run.params())


@TABLE.fn('trainer-reset!', 1, 1, host=True, sig='(trainer-reset! trainer)',
          doc='Put the trainer back to its initial parameters with a fresh optimizer state '
              '(the data args stay as last given); ⇒ the trainer.',
          examples=(("(let ((tr (graph-train (lambda (w) (* w w)) '(w) (sgd 0.25) 4))) "
                     "(train! tr 3) (trainer-params (trainer-reset! tr)))", '(4)'),))
def trainer_reset(host, tr):
    _is_trainer('trainer-reset!', tr, host.display)
    tr.run.reset()
    return tr
