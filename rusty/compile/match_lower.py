"""Lowering of `match`: each clause's pattern written out as nested tests on
the subject, binding the clause's variables (Python locals of a scope made
as patterns.comp_match makes the clause's frame) as it goes; the first
clause whose pattern matches records its number, then its body runs.

A pattern is tested as patterns.comp_pattern's matcher tests it, in the same
order: literals by `equal?`'s rules, `(? pred p…)` computing pred in the
match's own scope each time it is tried (a builtin type test as the matcher
runs it, any other procedure called: `holds`), `(cons h t)`, lists with a
`.` rest, and `p ...` as a loop binding each variable of p to the list of
what it matched. A failed test falls through to the next clause; when none
matches, the reference's error at the form's position.
"""
from . import pyast as ast

from ..apply import apply_procedure
from ..errors import EvalError
from ..printer import display_form
from ..resolve import Scope, body_defines
from ..specials import DOT
from ..values import EMPTY, PROCEDURE_TYPES, Builtin, List, Macro, Py, Symbol, equal, make_list, sym
from .nodes import L, Unsupported, assign, attr, call, const, is_, is_not, name


QUOTE, QMARK, CONS, UNDERSCORE, ELLIPSIS = sym('quote'), sym('?'), sym('cons'), sym('_'), sym('...')


def holds(pred, v, span, shown, d, D) -> bool:
    """`(? pred …)`'s test of v, as comp_predicate's matcher makes it."""
    from ..patterns import PREDICATES       # (loaded before any match runs)
    if pred.__class__ is Builtin and pred.name in PREDICATES:
        return PREDICATES[pred.name](v)
    if (isinstance(pred, PROCEDURE_TYPES) and pred.__class__ is not Macro) or \
            (pred.__class__ is Py and callable(pred.obj)):
        D.n = d
        return apply_procedure(pred, [v], span, False, D) is not False
    raise EvalError('match: (? %s) needs a procedure' % shown, span)


def slot_order(p, out=None) -> list:
    """The variables of pattern p in the order patterns.comp_pattern gives
    them slots (a `.` rest's before the elements'): the clause frame's order."""
    out = {} if out is None else out
    cls = p.__class__
    if cls is Symbol:
        if p is not UNDERSCORE and p is not ELLIPSIS and p is not DOT:
            out.setdefault(p, None)
    elif cls is List and p is not EMPTY and not (p.car is QUOTE and len(p) == 2):
        if p.car is QMARK:
            parts = list(p.cdr.cdr)
        elif p.car is CONS and len(p) == 3:
            parts = list(p.cdr)
        else:
            parts = list(p)
            if DOT in parts:
                i = parts.index(DOT)
                for q in parts[i + 1:i + 2]:
                    slot_order(q, out)
                parts = parts[:i]
        for q in parts:
            slot_order(q, out)
    return list(out)


def _binders(p) -> list:
    from ..patterns import binders          # (the form's module, loaded with its first use)
    return binders(p)


def no_match(v, span):
    return EvalError('match: no clause matched ' + display_form(v), span)


class _Clause:
    """What the pattern of one clause is written with."""
    __slots__ = ('low', 'vars', 'scope', 'span', 'fn')

    def __init__(self, low, vars_, scope, span, fn):
        self.low, self.vars, self.scope, self.span, self.fn = low, vars_, scope, span, fn


def _is_list(v):
    return is_(attr(name(v), '__class__'), name('List'))


def _length(low, v):
    return call(low.k(len), name(v))


def pattern(cl, p, v: str, cont: list) -> list:
    """Statements testing the value in local v against pattern p, running
    cont when it matches (and falling through when it does not)."""
    low = cl.low
    cls = p.__class__
    if cls is Symbol:
        if p is ELLIPSIS:
            raise Unsupported('match: lone ...')
        if p is UNDERSCORE:
            return cont
        return [assign(cl.vars[p], name(v))] + cont
    if cls is float or cls is int:
        kind = ast.BoolOp(ast.Or(), [is_(attr(name(v), '__class__'), name('float')),
                                     is_(attr(name(v), '__class__'), name('int'))])
        return [ast.If(ast.BoolOp(ast.And(), [kind, ast.Compare(name(v), [ast.Eq()], [low.k(p)])]), cont, [])]
    if cls is str:
        return [ast.If(ast.BoolOp(ast.And(), [is_(attr(name(v), '__class__'), name('str')),
                                              ast.Compare(name(v), [ast.Eq()], [const(p)])]), cont, [])]
    if cls is bool:
        return [ast.If(is_(name(v), const(p)), cont, [])]
    if cls is not List:
        return []
    if p is EMPTY:
        return [ast.If(is_(name(v), name('EMPTY')), cont, [])]
    if p.car is QUOTE and len(p) == 2:
        return [ast.If(call(low.k(equal), name(v), low.k(p.cdr.car)), cont, [])]
    if p.car is QMARK and p.cdr is not EMPTY:
        return _predicate(cl, p, v, cont)
    if p.car is CONS and len(p) == 3:
        h, t = low.fresh('t'), low.fresh('t')
        inner = pattern(cl, p.cdr.car, h, [assign(t, attr(name(v), 'cdr'))] + pattern(cl, p.cdr.cdr.car, t, cont))
        test = ast.BoolOp(ast.And(), [_is_list(v), is_not(name(v), name('EMPTY'))])
        return [ast.If(test, [assign(h, attr(name(v), 'car'))] + inner, [])]
    elems = list(p)
    rest = None
    if DOT in elems:
        i = elems.index(DOT)
        after = elems[i + 1:]
        if len(after) != 1 or after[0].__class__ is not Symbol or after[0] is ELLIPSIS:
            raise Unsupported('match: malformed rest')
        rest, elems = after[0], elems[:i]
    if ELLIPSIS in elems:
        return _ellipsis(cl, elems, rest is not None, v, cont)
    k = len(elems)
    size = ast.Compare(_length(low, v), [ast.Eq() if rest is None else ast.GtE()], [const(k)])
    return [ast.If(ast.BoolOp(ast.And(), [_is_list(v), size]), _elements(cl, elems, v, rest, cont), [])]


def _elements(cl, elems, v, rest, cont) -> list:
    """Each of elems matched against the successive elements from the list
    in v on (its length known to fit), then rest, if any, against the rest."""
    if not elems:
        return pattern(cl, rest, v, cont) if rest is not None else cont
    low = cl.low
    h, t = low.fresh('t'), low.fresh('t')
    more = _elements(cl, elems[1:], t, rest, cont)
    return [assign(h, attr(name(v), 'car'))] + pattern(cl, elems[0], h, [assign(t, attr(name(v), 'cdr'))] + more)


def _predicate(cl, p, v, cont) -> list:
    low = cl.low
    ps, pe = low.value(p.cdr.car, cl.scope, cl.span, cl.fn)
    t = low.fresh('t')
    test = call(low.k(holds), name(t), name(v), low.k(cl.span), const(display_form(p.cdr.car)), name('d'), name('D'))
    then = cont
    for sub in reversed(list(p.cdr.cdr)):
        then = pattern(cl, sub, v, then)
    return ps + [assign(t, pe), ast.If(test, then, [])]


def _ellipsis(cl, elems, dotted, v, cont) -> list:
    """`(p1 … q ... r1 … rm)`, as patterns.comp_ellipsis matches it."""
    from ..syntax_shapes import ellipsis_problem
    problem = ellipsis_problem(elems, dotted)
    if problem is not None:
        raise Unsupported(problem)
    low = cl.low
    e = elems.index(ELLIPSIS)
    before, repeated, after = elems[:e - 1], elems[e - 1], elems[e + 1:]
    k, m = len(before), len(after)
    names = [cl.vars[s] for s in dict.fromkeys(_binders(repeated))]
    n, u, x = low.fresh('t'), low.fresh('t'), low.fresh('t')
    found = [low.fresh('t') for _ in names]
    hop = [ast.Expr(call(attr(name(f), 'append'), name(var))) for f, var in zip(found, names)]
    hop += [assign(u, attr(name(u), 'cdr')), ast.Continue()]
    loop = ast.For(ast.Name(low.fresh('t'), ast.Store()),
                   call(low.k(range), ast.BinOp(name(n), ast.Sub(), const(k + m))),
                   [assign(x, attr(name(u), 'car'))] + pattern(cl, repeated, x, hop) + [ast.Break()],
                   [assign(var, call(low.k(make_list), name(f))) for f, var in zip(found, names)]
                   + _elements(cl, after, u, None, cont))
    start = [assign(f, ast.List([], L)) for f in found] + [loop]
    inner = _elements(cl, before, v, None, [assign(u, name(v))] + start) if not before else \
        _walk_then(cl, before, v, u, start)
    size = ast.Compare(ast.NamedExpr(ast.Name(n, ast.Store()), _length(low, v)), [ast.GtE()], [const(k + m)])
    return [ast.If(ast.BoolOp(ast.And(), [_is_list(v), size]), inner, [])]


def _walk_then(cl, elems, v, u, cont) -> list:
    """elems matched against the first elements of the list in v, then the
    rest of it left in u for cont."""
    if not elems:
        return [assign(u, name(v))] + cont
    low = cl.low
    h, t = low.fresh('t'), low.fresh('t')
    more = _walk_then(cl, elems[1:], t, u, cont)
    return [assign(h, attr(name(v), 'car'))] + pattern(cl, elems[0], h, [assign(t, attr(name(v), 'cdr'))] + more)


def f_match(low, x, scope, span, fn, tail):
    """`(match subject (pattern body…)…)`."""
    if len(x) < 3:
        raise Unsupported('match')
    cells = list(x.cdr.cdr.cells())
    if any(c.car.__class__ is not List or c.car is EMPTY for c in cells):
        raise Unsupported('match clause')
    ss, se = low.value(x.cdr.car, scope, low.span_of(x.cdr, span), fn)
    v, which = low.fresh('t'), low.fresh('t')
    out = ss + [assign(v, se), assign(which, const(0))]
    bodies = []
    for i, c in enumerate(cells, 1):
        clause = c.car
        cspan = low.span_of(c, span)
        order = slot_order(clause.car)
        mscope = Scope(order, scope)
        for dname in body_defines(clause.cdr):
            mscope.add(dname, maybe_unbound=True)
        names = low.bind(mscope, fn)
        low.stable.difference_update(names[:len(order)])      # (bound piece by piece, maybe in a loop)
        cl = _Clause(low, dict(zip(order, names)), scope, cspan, fn)
        tried = pattern(cl, clause.car, v, [assign(which, const(i))])
        out += tried if i == 1 else [ast.If(ast.Compare(name(which), [ast.Eq()], [const(0)]), tried, [])]
        start = [assign(n, name('UNBOUND')) for n in names[len(order):]]
        bodies.append((i, start, clause.cdr, mscope, cspan))
    r = None if tail else low.fresh('r')
    chain = [ast.Raise(call(low.k(no_match), name(v), low.k(span)), None)]
    for i, start, body, mscope, cspan in reversed(bodies):
        chain = [ast.If(ast.Compare(name(which), [ast.Eq()], [const(i)]),
                        start + low.body_into(body, mscope, cspan, fn, tail, r), chain)]
    out += chain
    return out if tail else (out, name(r))
