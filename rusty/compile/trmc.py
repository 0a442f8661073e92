"""A function that builds its list by consing onto a call of itself, as a
loop (tail recursion modulo cons).

`(define (merge a b) … (cons (car a) (merge (cdr a) b)))`: each call leaves
a cell to fill once the inner call returns, so the reference evaluator (and
a plain compiled function) nests one run level per element. When the call
`(cons X (self args…))` is in tail position and nothing could tell the
difference, the compiled function makes the cell now, hangs it on the last
one, and loops with the arguments, one level deeper (`d`): when a level
returns a value at last, it is the cdr of the last cell (what `cons` makes
of it, if it is no list: values.cons's rule) and the first cell is the
function's value.

Nothing can tell while OK holds (`cons` and the function's own name hold
what the code assumes) and the depth limit has room for one more level
(`d < GATE`, as a call tests; a tool watching calls keeps the gate shut).
So that OK cannot change in the middle of a run, the whole body must run
no Lisp code (`runs_no_lisp`): its calls are all of first-order builtins
(which OK then also assumes the globals hold) or of the function itself,
and its special forms only choose. Anything else is compiled as before
(lower.py: the call, then the cell).

What each level would have shown when a failure leaves it is kept: the
level's call site, the last self tail call it made (`site`) and its
parameters' values, a tuple per level (`levels_`). A failure is reported as
the innermost level's handler reports it (FAILED, from the locals), then
each level's own way outwards (support.unwound: its call site's
CALL_FAILED, then its handler's frame and tail call): the backtrace, the
frames of ,frames and the messages are the reference's, entry for entry.
The depth limit fails at the same level, with the same report.
"""
from . import pyast as ast

from ..resolve import GlobalRef, body_defines, resolve
from ..values import EMPTY, Builtin, List, Symbol, sym
from . import kinds, walks
from .nodes import L, assign, attr, attr_store, call, const, is_, name, statements, walk_parts

CONS = sym('cons')
HEAD, LAST, LEVELS = 'head_', 'last_', 'levels_'     # the first cell, the last cell, the levels entered


def qualifies(root_name: str, params, rest, body, scope, genv):
    """When the root lambda (named root_name, its body's forms `body`) may
    loop at a cons of a call of itself, the (global cell, builtin) pairs
    the code must assume (OK) for its body to run no Lisp code; else None.
    It may when it has a fixed number of parameters, no body defines, a
    body that runs no Lisp code but its own, and such a call in tail
    position."""
    if rest is not None or root_name == 'lambda' or body_defines(body):
        return None
    forms = [c.car for c in body.cells() if c.car.__class__ is not str or c.cdr is EMPTY]
    if not forms:
        return None
    builtins = runs_no_lisp(forms, scope, genv, root_name, len(params))
    if builtins is None or not _site_in_tail(forms[-1], scope, genv, root_name, len(params)):
        return None
    return builtins


def runs_no_lisp(forms, scope, genv, me: str, arity: int, quiet=None):
    """The (global cell, builtin) pairs of the calls in forms if evaluating
    them runs no Lisp code but calls of `me` (the global root lambda,
    `arity` arguments) while each cell holds its builtin; else None
    (walks.runs_no_lisp: calls of first-order builtins or of `me`).
    `quiet(cell, head, nargs)`, if given, may also accept the call of a
    library lambda that runs no code but the library's own (its pair too)."""
    builtins = []
    builtin_call = walks.first_order(builtins)

    def may_call(cell, head, nargs):
        if (head.name == me and nargs == arity) or builtin_call(cell, head, nargs):
            return True
        if quiet is not None and quiet(cell, head, nargs):
            builtins.append((cell, cell.current()))
            return True
        return False
    return builtins if walks.runs_no_lisp(forms, scope, genv, may_call) else None


def _site_in_tail(x, scope, genv, me: str, arity: int) -> bool:
    """True if a tail position of form x holds a `site`."""
    if site(x, scope, genv, me, arity):
        return True
    if x.__class__ is not List or x is EMPTY:
        return False
    head, args = x.car, list(x.cdr)
    if head is sym('if'):
        return any(_site_in_tail(a, scope, genv, me, arity) for a in args[1:])
    if head in (sym('when'), sym('unless'), sym('begin'), sym('and'), sym('or')):
        return bool(args) and _site_in_tail(args[-1], scope, genv, me, arity)
    if head is sym('cond'):
        return any(_site_in_tail(list(c)[-1], scope, genv, me, arity) for c in args if len(c) > 1)
    return False


def site(x, scope, genv, me: str, arity: int) -> bool:
    """True if x is `(cons X (me a…))`, cons the global holding the builtin
    and me called with its arity."""
    if x.__class__ is not List or x is EMPTY or x.car is not CONS or len(x) != 3:
        return False
    ref = resolve(scope, CONS, genv)
    if ref.__class__ is not GlobalRef or ref.cell.current().__class__ is not Builtin \
            or ref.cell.current().name != 'cons':
        return False
    inner = x.cdr.cdr.car
    if inner.__class__ is not List or inner is EMPTY or inner.car.__class__ is not Symbol \
            or inner.car.name != me or len(inner) != arity + 1:
        return False
    return resolve(scope, inner.car, genv).__class__ is GlobalRef


def step(cell_var: str, car, params, rebound, here) -> list:
    """The statements of one level more: a fresh cell holding car hung on
    the last (the first cell, and the levels' list, on the first step), this
    level kept (its call site `here`, its last self tail call, its
    parameters' values), the parameters rebound (the statements `rebound`),
    and one level deeper; then the loop goes on."""
    level = ast.Tuple([here, name('site')] + [name(p) for p in params], L)
    first = [assign(HEAD, name(cell_var)), assign(LEVELS, ast.List([level], L))]
    later = [ast.Assign([attr_store(name(LAST), 'cdr')], name(cell_var)),
             ast.Expr(call(attr(name(LEVELS), 'append'), kinds.clone(level)))]
    return [assign(cell_var, call(name('NEW'))), ast.Assign([attr_store(name(cell_var), 'car')], car),
            ast.If(is_(name(LAST), const(None)), first, later),
            assign(LAST, name(cell_var))] + rebound + [
            assign('site', const(None)),                # the new level has made no tail call yet
            ast.AugAssign(ast.Name('d', ast.Store()), ast.Add(), const(1)),
            ast.Continue()]


def opening() -> list:
    """A call starts with no cell made and no level entered."""
    return [ast.Assign([ast.Name(LAST, ast.Store()), ast.Name(LEVELS, ast.Store())], const(None))]


def unwinding(failed, names):
    """The handler's exception: what FAILED made of it, then each level's report (support.unwound)."""
    return call(name('UNWOUND'), failed, name(LEVELS), name('SELF'), names, name('D'))


def finish_returns(fdef) -> None:
    """Every `return v` of fdef's own body returns the first cell, v hung
    on the last, once a cell is made (CONSED)."""
    for st in statements(fdef.body):
        if st.__class__ is ast.Return and st.value is not None:
            v = st.value
            done = call(name('CONSED'), kinds.clone(v), name(HEAD), name(LAST))
            st.value = ast.IfExp(is_(name(LAST), const(None)), v, done)
            for n in walk_parts(st.value):
                if 'lineno' in n._attributes and not hasattr(n, 'lineno'):
                    ast.copy_location(n, st)
