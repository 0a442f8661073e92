"""Display form and print form (LANGUAGE.md §3.3–3.4); number formatting.

The two forms differ only in strings: display form quotes them (unescaped),
print form writes them raw. Lists are walked with an explicit stack, so deep
data never overflows the host stack; past MAX_DEPTH a list prints as `(...)`.
"""
from __future__ import annotations

from decimal import Decimal

from .values import (Builtin, Lambda, List, Macro, Native, NativeGrad,
                     NilType, Symbol, Tensor)

MAX_DEPTH = 4000
INF = float('inf')


def format_number(x: float) -> str:
    """The one number rule: integers plainly, others shortest round-trip, no exponent."""
    if x != x:
        return 'NaN'
    if x == INF:
        return 'inf'
    if x == -INF:
        return '-inf'
    if -1e15 < x < 1e15 and x == int(x):
        return str(int(x))
    text = format(Decimal(repr(x)), 'f')
    return text[:-2] if text.endswith('.0') else text


def dims_text(shape) -> str:
    """Dimensions joined by `x` (empty for rank 0)."""
    return 'x'.join(str(d) for d in shape)


def _lambda_params(params, rest) -> str:
    names = ' '.join(p.name for p in params)
    if rest is not None:
        return '(%s . %s)' % (names, rest.name) if names else '( . %s)' % rest.name
    return '(%s)' % names


def _tensor_text(t: Tensor) -> str:
    if len(t.data) > 8:
        return '#<tensor %s>' % dims_text(t.shape)
    return '#<tensor %s [%s]>' % (dims_text(t.shape), ' '.join(map(format_number, t.data)))


def _atom(x, quote: bool) -> str:
    cls = x.__class__
    if cls is float:
        return format_number(x)
    if cls is str:
        return '"' + x + '"' if quote else x
    if cls is Symbol:
        return x.name
    if cls is bool:
        return '#t' if x else '#f'
    if cls is NilType:
        return '()'
    if cls is Builtin:
        return '#<builtin:%s>' % x.shown
    if cls is Lambda:
        return '#<lambda %s>' % _lambda_params(x.params, x.rest)
    if cls is Macro:
        return '#<macro (%s)>' % ' '.join(p.name for p in x.params)
    if cls is Tensor:
        return _tensor_text(x)
    if cls is Native:
        return '#<native:%s/%d>' % (x.name, x.arity)
    if cls is NativeGrad:
        shapes = ' '.join('scalar' if s is None else dims_text(s) for s in x.shapes)
        return '#<native-grad:%s (%s)>' % (x.name, shapes)
    return '#<%s>' % cls.__name__


def _render(x, quote: bool) -> str:
    if x.__class__ is not List:
        return _atom(x, quote)
    out: list[str] = []
    # Each stack entry is the remaining cells of an open list.
    stack: list[List] = []
    item = x
    while True:
        if item.__class__ is List:
            if len(stack) >= MAX_DEPTH:
                out.append('(...)')
            elif item.len == 0:
                out.append('()')
            else:
                out.append('(')
                stack.append(item)
                item = item.car
                continue
        else:
            out.append(_atom(item, quote))
        # Advance to the next element, closing finished lists.
        while stack:
            rest = stack[-1].cdr
            if rest.len:
                stack[-1] = rest
                out.append(' ')
                item = rest.car
                break
            stack.pop()
            out.append(')')
        else:
            return ''.join(out)


def display_form(x) -> str:
    """Strings quoted (unescaped); used by display, ~s and error messages."""
    return _render(x, True)


def print_form(x) -> str:
    """Strings raw at every level; used by print, str, ~a and the REPL."""
    return _render(x, False)



