"""A program's small functions computed in place.

A global holding a top-level lambda whose body is one call of an inlined
builtin (inline.INLINE), or a few nested, on its parameters and literals —
`(define (mcdr p) (vector-ref p 1))`, `(define (matrix-ref m i j)
(vector-ref (vector-ref m i) j))` — is called the way the library's `cadr` is
(BuiltinCalls.library_call): while OK holds (the global still holds that
lambda, and each builtin's global its builtin: all assumed), the depth limit
has room for the call it stands for and no profiler counts calls, the value
is computed in place under the first case of each builtin's guards (exact
integers), else under the second (floats: `(define (sq x) (* x x))` on
floats); when no guard holds, the lambda itself is called (so every error is
its own). The
lambda's value is named in the disk cache by its global and its text
(codecache: a changed body is a miss)."""
from . import pyast as ast

from ..resolve import GlobalRef, resolve
from ..values import EMPTY, Builtin, List, Symbol
from .inline import INLINE, _and

DEPTH = 2               # builtin calls nested at most this deep
MOST_CASES = 2          # alternatives tried in place (exact integers, floats) before the call
_LITERALS = (int, float, str, bool)


def small_spec(low, lam, nargs: int):
    """The builder `spec(*args) -> [(guard, value)…]` (its alternatives) of lambda `lam` (a global's)
    called with nargs arguments, if it is a small function computed in place;
    the cells of the builtins it calls are then assumed (Lowering.ok)."""
    if lam.env is not None or lam.rest is not None or len(lam.params) != nargs or lam.fast != nargs:
        return None
    body = lam.body
    if body.__class__ is not List or body is EMPTY or body.cdr is not EMPTY:
        return None
    find = getattr(low.unit.interp, 'library_procedure', None)
    if find is not None and find(lam.name) is lam:
        return None             # (the library's: its globals are its own)
    held = []
    plan = _plan(low, body.car, lam, DEPTH, held)
    if plan is None or plan[0] != 'call':
        return None
    for cell, b in held:
        low.ok(cell, b)

    def spec(*args):
        cases, texts = [], None        # (texts: the guards kept, each dumped once, once a second comes)
        for i in range(_cases(plan)):
            guards = []
            value = _built(plan, args, guards, i)
            guard = _and(*guards)
            if guard.__class__ is ast.Constant and guard.value is False:
                continue
            if cases:
                if texts is None:
                    texts = {ast.dump(g) for g, _ in cases}
                text = ast.dump(guard)
                if text in texts:
                    continue
                texts.add(text)
            cases.append((guard, value))
        return cases or [(ast.Constant(False), ast.Constant(None))]
    return spec


def _plan(low, x, lam, depth: int, held: list):
    """What x computes: ('arg', i), ('const', x) or ('call', builder, plans); None if it is no such form."""
    cls = x.__class__
    if cls is Symbol:
        return ('arg', lam.params.index(x)) if x in lam.params else None
    if cls in _LITERALS:
        return ('const', x)
    if cls is not List or x is EMPTY or depth == 0 or x.car.__class__ is not Symbol or x.car in lam.params:
        return None
    ref = resolve(lam.scope, x.car, low.genv)
    if ref.__class__ is not GlobalRef or ref.cell.holds_macro():
        return None
    b = ref.cell.current()
    args = list(x.cdr)
    spec = INLINE.get(b.name) if b.__class__ is Builtin else None
    if spec is None or spec[0] != len(args) or getattr(spec[1], 'stores', False):
        return None     # (an effect, inline.Effect, is no expression to compute in place)
    plans = [_plan(low, a, lam, depth - 1, held) for a in args]
    if any(p is None for p in plans):
        return None
    held.append((ref.cell, b))
    return ('call', spec[1], plans)


def _cases(plan) -> int:
    """How many alternatives plan is computed under: the most cases any of
    its builtins has (their guards for exact integers first, then floats:
    inline.py), at most MOST_CASES."""
    if plan[0] != 'call':
        return 1
    n = len(plan[1](*[ast.Name('_', ast.Load()) for _ in plan[2]]))
    return min(MOST_CASES, max([n] + [_cases(p) for p in plan[2]]))


def _built(plan, args, guards: list, case: int = 0):
    """The expression of plan on the argument expressions args under each
    builtin's case `case` (its last if it has fewer), its guards added to guards."""
    kind = plan[0]
    if kind == 'arg':
        return args[plan[1]]
    if kind == 'const':
        return ast.Constant(plan[1])
    cases = plan[1](*[_built(p, args, guards, case) for p in plan[2]])
    guard, value = cases[min(case, len(cases) - 1)]
    if guard is not None and not (guard.__class__ is ast.Constant and guard.value is True):
        guards.append(guard)
    return value
