"""Lowering of `quasiquote`: the template's data built where it is used,
as quasiquote.comp_template builds it (a part without unquote is the
template's own constant; each unquote computed left to right; a splice of
a list's elements, of Nil nothing, of anything else the reference's error
at the template's position, when its turn comes)."""
from ..errors import EvalError
from ..printer import display_form
from ..values import NIL, List, Vector, make_list
from .nodes import L, Unsupported, call
from . import pyast as ast


def splice_of(v, span):
    """v, a value to splice in: a list, or Nil (nothing); else the reference's error."""
    if v.__class__ is not List and v is not NIL:
        raise EvalError(',@: expected list, got ' + display_form(v), span)
    return v


def spliced(splices, *values):
    """The list of values, those at the positions `splices` says spliced in."""
    out = []
    for splice, v in zip(splices, values):
        if not splice:
            out.append(v)
        elif v.__class__ is List:
            out.extend(v)
    return make_list(out)


def vector_of(lst):
    """A fresh vector of a list's elements (a vector template's value)."""
    return Vector(list(lst))


def template(low, t, scope, span, fn):
    """(statements, expression) building the data of template t."""
    from ..quasiquote import UNQUOTE, UNQUOTE_SPLICING, _has_unquote, _is    # (loaded with the form's first use)
    if t.__class__ is Vector:
        s, e = template(low, make_list(t.items), scope, span, fn)
        return s, call(low.k(vector_of), e)
    if not _has_unquote(t):
        return [], low.k(t)
    if _is(t, UNQUOTE):
        return low.value(t.cdr.car, scope, low.span_of(t.cdr, span), fn)
    parts, splices = [], []
    for c in t.cells():
        e = c.car
        if _is(e, UNQUOTE_SPLICING):
            s, v = low.value(e.cdr.car, scope, low.span_of(e.cdr, span), fn)
            parts.append((s, call(low.k(splice_of), v, low.k(span))))      # (checked in its turn, as the reference)
            splices.append(True)
        else:
            parts.append(template(low, e, scope, low.span_of(c, span), fn))
            splices.append(False)
    stmts, values = low.in_order(parts)
    if not any(splices):
        return stmts, call(low.k(make_list), ast.List(values, L))
    return stmts, call(low.k(spliced), low.k(tuple(splices)), *values)


def f_quasiquote(low, x, scope, span, fn, tail):
    """`(quasiquote template)`."""
    if len(x) != 2:
        raise Unsupported('quasiquote')
    s, e = template(low, x.cdr.car, scope, span, fn)
    return low.result(s, e, tail)
