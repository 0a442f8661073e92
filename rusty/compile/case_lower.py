"""Lowering of `case`: the key computed once into a temporary, then each
clause's data compared with it as case_form.comp_case does (`equal?`),
written out for a symbol, boolean, string or number datum."""
from . import pyast as ast

from ..eval import Usage
from ..values import Symbol, equal
from .nodes import Unsupported, assign, attr, call, const, is_, name

_NUMBER = (int, float)


def datum_test(low, v: str, d):
    """The test that the value in local v is `equal?` to datum d."""
    cls = d.__class__
    if cls is Symbol or cls is bool:
        return is_(name(v), low.k(d))
    if cls is str:
        return ast.BoolOp(ast.And(), [is_(attr(name(v), '__class__'), name('str')),
                                      ast.Compare(name(v), [ast.Eq()], [const(d)])])
    if cls in _NUMBER:
        kind = ast.BoolOp(ast.Or(), [is_(attr(name(v), '__class__'), name('int')),
                                     is_(attr(name(v), '__class__'), name('float'))])
        return ast.BoolOp(ast.And(), [kind, ast.Compare(name(v), [ast.Eq()], [low.k(d)])])
    return call(low.k(equal), name(v), low.k(d))


def f_case(low, x, scope, span, fn, tail):
    """`(case key ((datum…) body…)… [(else body…)])`."""
    from ..case_form import clause_parts      # (the form's module, loaded with its first use)
    if len(x) < 2:
        raise Unsupported('case')
    cells = list(x.cdr.cdr.cells())
    try:
        clauses = [(clause_parts(x, c.car, i == len(cells) - 1), c) for i, c in enumerate(cells)]
    except Usage as u:
        raise Unsupported(u.message) from None
    ks, ke = low.value(x.cdr.car, scope, low.span_of(x.cdr, span), fn)
    v = low.fresh('t')
    r = None if tail else low.fresh('r')
    out = ks + [assign(v, ke)]
    target = out
    for (data, body), c in clauses:
        if data is not None and not data:
            continue                    # (no datum: never chosen)
        then = low.body_into(body, scope, low.span_of(c, span), fn, tail, r)
        if data is None:
            target += then
            return out if tail else (out, name(r))
        tests = [datum_test(low, v, d) for d in data]
        inner = []
        target.append(ast.If(tests[0] if len(tests) == 1 else ast.BoolOp(ast.Or(), tests), then, inner))
        target = inner
    target += low.result_into([], name('NIL'), tail, r)
    return out if tail else (out, name(r))
