"""Lowering of `try-catch`: a Python `try` around the body, the handler's
variable a local bound to the message, as specials.comp_try runs it.

`(try-catch body (var) handler)`: the body is not in tail position; what it
raises is caught as the reference catches it (`caught`): a rusty error, Ctrl-C
(`interrupted`), Python's recursion error (the depth-limit message) and
running out of memory (`out of memory`, the reserve given back); a host
error the function's own code raised (an inlined builtin's) becomes the
rusty error the builtin would have raised first (apply.located, at the
position of that code). Anything else (exit, a second Ctrl-C) passes. The
handler runs in a frame of its own binding var (and its defines), in tail
position when the form is, with the run level's depth as it was at the try.
"""
from . import pyast as ast

from ..apply import located, recursion_message
from ..errors import Abort, Exit, Interrupted, RustyError, out_of_memory
from ..resolve import Scope, body_defines
from ..values import List, Symbol
from .nodes import Unsupported, assign, call, const, is_, name


def caught(e, table, D):
    """The message try-catch binds for exception e leaving the try's body,
    or None when try-catch lets it pass (`table`: the function's lines)."""
    if isinstance(e, RustyError):
        return e.message
    if isinstance(e, KeyboardInterrupt):
        return Interrupted().message
    if isinstance(e, RecursionError):
        return recursion_message(D)
    if isinstance(e, MemoryError):
        return out_of_memory().message
    if isinstance(e, (Exit, Abort)):
        return None
    tb = e.__traceback__
    if tb is not None and tb.tb_next is None and 'rusty_seen' not in e.__dict__:
        return located(e, table.get(tb.tb_lineno), D).message      # (as failed_here would make it)
    return None


def f_try(low, x, scope, span, fn, tail):
    """`(try-catch body (var) handler)`."""
    c = list(x.cells())
    if len(c) < 4 or c[2].car.__class__ is not List or len(c[2].car) != 1 or c[2].car.car.__class__ is not Symbol:
        raise Unsupported('try-catch')
    bs, be = low.value(c[1].car, scope, low.span_of(c[1], span), fn)
    var = c[2].car.car
    hscope = Scope([var], scope)
    for dname in body_defines([c[3].car]):
        hscope.add(dname, maybe_unbound=True)
    names = low.bind(hscope, fn)
    low.bound_once.add(names[0])
    depth, r = low.fresh('t'), low.fresh('r')
    message = low.fresh('t')
    grab = [assign(message, call(low.k(caught), name('e'), name('TABLE'), name('D'))),
            ast.If(is_(name(message), const(None)), [ast.Raise(None, None)], []),
            assign('d', name(depth)), assign(names[0], name(message))]
    grab += [assign(n, name('UNBOUND')) for n in names[1:]]
    hspan = low.span_of(c[3], span)
    if tail:
        handler = low.tail(c[3].car, hscope, hspan, fn)
        body = bs + [ast.Return(be)]
    else:
        hs, he = low.value(c[3].car, hscope, hspan, fn)
        handler = hs + [assign(r, he)]
        body = bs + [assign(r, be)]
    out = [assign(depth, name('d')),
           ast.Try(body, [ast.ExceptHandler(name('BaseException'), 'e', grab + handler)], [], [])]
    return out if tail else (out, name(r))
