"""Optimizers for trainers: each update rule written once, as data.

An optimizer value is an ordinary list made by the builtins `sgd` and `adam`:
`(sgd lr)`, `(sgd lr momentum m)`, `(adam lr b1 b2 eps)`. Its rule has

- `scalars`: per-step numbers, computed once per step from the
  hyperparameters and `t` (the step's number, 1 for the first step);
- `update`: assignments run in order for every element of a trained
  parameter, over `p` (the parameter), `g` (its gradient), the rule's state
  slots (zero before the first step) and the scalars; the assignments to `p`
  and to the state slots are kept.

Expressions are a name, a float, or `(op, arg…)` with op one of RULE_OPS; `first`
is `(first a b)`: `a` on the first step, else `b`. The same data is evaluated
here over floats and tensors (the interpreted trainer, graph-train) and
rendered to Rust by rusty.jit.train_codegen (graph-compile-train), operation
for operation, so both give the same bits. The formulas are PyTorch's
(torch.optim.SGD with dampening 0, torch.optim.Adam without weight decay or
amsgrad), in one fixed order with no fused multiply-add: Adam's bias
corrections as PyTorch computes them (`lr / (1 - b1 ** t)`, `(1 - b2 ** t) ** 0.5`,
C's pow, then `sqrt(v) / that + eps`); its first moment as `m + (1 - b1) * (g - m)`
(PyTorch's lerp for β1 > 0.5; its vectorised loops fuse some multiply-adds, so
PyTorch agrees to rounding, not to the bit).
"""
from __future__ import annotations

import math
from array import array

from .. import tensor as T
from ..errors import EvalError
from ..values import EMPTY, List, Symbol, Tensor, make_list, sym


class Rule:
    """One optimizer's update rule (see the module docstring)."""
    __slots__ = ('name', 'hyper', 'state', 'scalars', 'update')

    def __init__(self, name, hyper, state, scalars, update):
        self.name = name            # the name a trainer prints
        self.hyper = hyper          # hyperparameter names, in the optimizer list's order
        self.state = state          # per-element state slots
        self.scalars = scalars      # ((name, expr), …) per step
        self.update = update        # ((target, expr), …) per element


SGD = Rule('sgd', ('lr',), (),
           (('nlr', ('neg', 'lr')),),
           (('p', ('add', 'p', ('mul', 'nlr', 'g'))),))

SGD_MOMENTUM = Rule('sgd', ('lr', 'momentum'), ('buf',),
                    (('nlr', ('neg', 'lr')),),
                    (('buf', ('first', 'g', ('add', ('mul', 'buf', 'momentum'), 'g'))),
                     ('p', ('add', 'p', ('mul', 'nlr', 'buf')))))

ADAM = Rule('adam', ('lr', 'b1', 'b2', 'eps'), ('m', 'v'),
            (('w1', ('sub', 1.0, 'b1')),
             ('w2', ('sub', 1.0, 'b2')),
             ('nss', ('neg', ('div', 'lr', ('sub', 1.0, ('pow', 'b1', 't'))))),
             ('c2', ('pow', ('sub', 1.0, ('pow', 'b2', 't')), 0.5))),
            (('m', ('add', 'm', ('mul', 'w1', ('sub', 'g', 'm')))),
             ('v', ('add', ('mul', 'v', 'b2'), ('mul', ('mul', 'w2', 'g'), 'g'))),
             ('p', ('add', 'p', ('div', ('mul', 'nss', 'm'),
                                        ('add', ('div', ('sqrt', 'v'), 'c2'), 'eps'))))))

RULE_OPS = ('add', 'sub', 'mul', 'div', 'neg', 'sqrt', 'pow', 'first')
ADAM_DEFAULTS = (0.9, 0.999, 1e-8)
MOMENTUM = sym('momentum')
SHAPES = "(sgd lr), (sgd lr 'momentum m), (adam lr) or (adam lr b1 b2 eps)"


# ── The optimizer values: the builtins sgd and adam, and reading them back ─

def number(x):
    """x as a float if it is a number (an exact integer included: the nearest
    float, ±inf beyond the range), else None."""
    if x.__class__ is float:
        return x
    if x.__class__ is int:
        try:
            return float(x)
        except OverflowError:
            return math.inf if x > 0 else -math.inf
    return None


def _checked(who: str, what: str, x, ok, rule: str, show) -> float:
    v = number(x)
    if v is None:
        raise EvalError('%s: %s must be a number, got %s' % (who, what, show(x)))
    if not ok(v):
        raise EvalError('%s: %s must be %s, got %s' % (who, what, rule, show(x)))
    return v


def _non_negative(who, what, x, show):
    return _checked(who, what, x, lambda v: v >= 0.0, 'a non-negative number', show)


def _beta(who, what, x, show):
    return _checked(who, what, x, lambda v: 0.0 <= v < 1.0, 'in [0, 1)', show)


def make_sgd(args, show, who='sgd'):
    """The optimizer list of `(sgd lr)` or `(sgd lr 'momentum m)`."""
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] is not MOMENTUM):
        raise EvalError("%s: expected (sgd lr) or (sgd lr 'momentum m)" % who)
    lr = _non_negative(who, 'the learning rate', args[0], show)
    if len(args) == 1:
        return make_list([sym('sgd'), lr])
    m = _non_negative(who, 'the momentum', args[2], show)
    return make_list([sym('sgd'), lr, MOMENTUM, m])


def make_adam(args, show, who='adam'):
    """The optimizer list of `(adam lr)` or `(adam lr b1 b2 eps)`."""
    if len(args) not in (1, 4):
        raise EvalError('%s: expected (adam lr) or (adam lr b1 b2 eps)' % who)
    lr = _non_negative(who, 'the learning rate', args[0], show)
    b1, b2, eps = args[1:] if len(args) == 4 else ADAM_DEFAULTS
    return make_list([sym('adam'), lr, _beta(who, 'beta1', b1, show),
                      _beta(who, 'beta2', b2, show), _non_negative(who, 'eps', eps, show)])


def read_optimizer(x, prefix: str, show) -> tuple:
    """(Rule, hyperparameter floats) of an optimizer list; a clear error for
    anything else."""
    items = _items(x)
    head = items[0] if items else None
    if head.__class__ is Symbol and head.name in ('sgd', 'adam'):
        try:
            checked = _items((make_sgd if head.name == 'sgd' else make_adam)(items[1:], show))
        except EvalError as e:
            raise EvalError('%s: bad optimizer %s: %s' % (prefix, show(x), e.message.split(': ', 1)[1]))
        if head.name == 'adam':
            return ADAM, tuple(checked[1:])
        if len(checked) == 2 or checked[3] == 0.0:      # PyTorch: no momentum buffer
            return SGD, (checked[1],)
        return SGD_MOMENTUM, (checked[1], checked[3])
    raise EvalError('%s: the optimizer must be %s, got %s' % (prefix, SHAPES, show(x)))


def _items(x) -> list:
    out = []
    while x.__class__ is List and x is not EMPTY:
        out.append(x.car)
        x = x.cdr
    return out


# ── Evaluating a rule (the interpreted reference) ───────────────────────

def _sqrt(x):
    """The IEEE square root (NaN below zero, as Rust's f64::sqrt)."""
    return math.sqrt(x) if x >= 0.0 else (x if x != x else math.inf - math.inf)


def _apply(op: str, args: list):
    """op over floats or tensors, with the tensor ops' kernels."""
    if op in ('add', 'sub', 'mul', 'div'):
        return T.elementwise(op, args[0], args[1])
    if op == 'neg':
        x = args[0]
        return -x if x.__class__ is not Tensor else Tensor(array('d', [-v for v in x.data]), x.shape)
    if op == 'sqrt':
        x = args[0]
        return _sqrt(x) if x.__class__ is not Tensor else Tensor(array('d', map(_sqrt, x.data)), x.shape)
    if op == 'pow':
        return math.pow(args[0], args[1])
    raise AssertionError('no rule op %r' % op)


def evaluate(expr, env: dict):
    """The value of a rule expression over `env` (names -> floats or tensors)."""
    if expr.__class__ is str:
        return env[expr]
    if expr.__class__ is float:
        return expr
    op = expr[0]
    if op == 'first':
        return evaluate(expr[1] if env['t'] == 1.0 else expr[2], env)
    return _apply(op, [evaluate(a, env) for a in expr[1:]])


def step_scalars(rule: Rule, hyper: tuple, t: float) -> dict:
    """The names a step's update sees: hyperparameters, `t` and the scalars."""
    env = dict(zip(rule.hyper, hyper))
    env['t'] = t
    for name, expr in rule.scalars:
        env[name] = evaluate(expr, env)
    return env


def update(rule: Rule, env: dict, p, g, state: list) -> tuple:
    """(new p, new state) after one step: the assignments over whole tensors
    (or floats), which is the element rule applied to every element."""
    env = dict(env, p=p, g=g)
    env.update(zip(rule.state, state))
    for target, expr in rule.update:
        env[target] = evaluate(expr, env)
    return env['p'], [env[s] for s in rule.state]
