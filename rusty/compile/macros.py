"""Macro calls in compiled code: expanded while lowering, the expansion lowered.

The reference expands a call each time it is evaluated (eval.expand_macro),
keeping the expansion at the call site while the macro is pure
(macro_cache.is_pure: its expansion depends on nothing but its arguments
and the globals its body names) and no global changed. A pure macro's
expansion is therefore the same whenever it is made: the lowering makes it
once, with the reference's own steps (make_frame, run, to_code,
check_in_scope; the expansion's forms have the call site's span: the unit
`from_data`), and lowers it in place. At run time the site tests that the
macro's global and every global its body names still hold what they held
(else the call runs on the reference, which expands it: exits.py), and
a change of the macro's global deoptimises the lambda (its cell is one of
the lowering's `heads`: link.Deopt). A non-tail expansion counts one level
toward the depth limit while its code runs, as expand_macro's does.

An expansion that fails is made at run time instead (on the reference),
where it fails as the reference's does, at the same moment. A macro that is
not pure, or a call while a tool watches calls or the profiler counts
them (either would see the expansion run early), keeps the lambda on the reference (Unsupported with
the macro's cell: link.Refused lowers it again once that cell changes).

`prescan` expands every call of a global macro in the body before lowering
starts, so that the lowering's scans (set! targets, functions made, a named
let's name only called) see the expansions, not the calls.
"""
from . import pyast as ast
from _weakref import ref

from ..apply import make_frame, run
from ..errors import RustyError
from ..resolve import MISSING, GlobalRef, resolve
from ..syntax import check_in_scope
from ..values import EMPTY, List, Macro, Symbol, sym
from .exits import to_reference
from .nodes import Unsupported, assign, attr, call, const, is_, name
from .tripper import Tripper

MAX_EXPANSIONS = 200        # per lowering: past it (a macro expanding into itself) the lambda stays on the reference
MAX_NESTING = 24            # expansions inside expansions
QUOTE, QUASIQUOTE, SET = sym('quote'), sym('quasiquote'), sym('set!')
UNQUOTES = (sym('unquote'), sym('unquote-splicing'))
FAILED = object()           # an expansion that raised: made at run time, where it raises again


class Expansion:
    """One macro call's expansion made while lowering: the form (or FAILED),
    the (cell, value) pairs it depends on (the macro's global first) and
    the call form (the disk cache expands it again at load: codecache)."""
    __slots__ = ('form', 'depends', 'call')

    def __init__(self, form, depends, call=None):
        self.form, self.depends, self.call = form, depends, call


def refuse(cell, why='macro call'):
    refused = Unsupported(why)
    refused.cell = cell
    return refused


def prescan(low, body, scope) -> None:
    """Expand (into low.expanded, by the call form's id) every call of a
    global macro (seen from scope, the root's) in body, and in the
    expansions; record the set! targets of body and of the expansions
    (low.assigned, as low.scan_assigned finds them: one walk)."""
    todo = [(x, 0) for x in body]
    assigned = low.assigned
    while todo:
        x, depth = todo.pop()
        if x.__class__ is not List or x is EMPTY:
            continue
        head = x.car
        if head is QUOTE:
            continue
        if head is SET and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol:
            assigned.add(x.cdr.car)
        if head is QUASIQUOTE:
            low.scan_assigned([x])      # (a template's every part, as scan_assigned reads it)
            todo += [(u.cdr.car, depth) for u in _unquoted(x.cdr)]
            continue
        todo += [(y, depth) for y in x]
        if head.__class__ is not Symbol or id(x) in low.expanded or not low.genv.is_macro(head):
            continue
        ref = resolve(scope, head, low.genv)
        if ref.__class__ is not GlobalRef or not ref.cell.holds_macro():
            continue
        e = expansion(low, x, ref.cell, depth)
        if e is not None and e.form is not FAILED:
            low.scan_assigned([e.form])
            todo.append((e.form, depth + 1))


def _unquoted(t):
    """The unquote forms of template t (not nested templates' own)."""
    stack = [t]
    while stack:
        y = stack.pop()
        if y.__class__ is List and y is not EMPTY:
            if y.car in UNQUOTES and len(y) == 2:
                yield y
            else:
                stack.extend(y)


def expansion(low, x, cell, depth=0):
    """The Expansion of macro call x (the macro in cell), made once per
    lowering (low.expanded, by the call form's id); None when the macro may
    not be expanded early (the call then keeps the lambda on the reference)."""
    if id(x) in low.expanded:
        return low.expanded[id(x)]
    low.expanded[id(x)] = None
    m = cell.current()
    if m.__class__ is not Macro or watched(low.unit.depth) or depth > MAX_NESTING or len(low.expanded) > MAX_EXPANSIONS:
        return None
    from ..macro_cache import is_pure
    if not is_pure(m, low.genv):
        return None
    got = low.expanded[id(x)] = Expansion(_expand(m, x, low.unit.depth), [(cell, m)] + _named_globals(m, low.genv), x)
    return got


def watched(D) -> bool:
    """True while a tool watches every call or the profiler counts them (the
    reference's gate is shut for both: tools.Tools.update_gate): either
    would see the macro run when the reference runs it."""
    return D.gate < 0


def _expand(m, x, D):
    """The expansion of call x as expand_macro makes it (its span, which only
    an error would show, left out), or FAILED."""
    from ..eval import to_code
    n = D.n
    try:
        return to_code(run(m, make_frame(m, list(x.cdr)), None, D))
    except (RustyError, RecursionError):
        return FAILED
    finally:
        D.n = n


def _named_globals(m, genv) -> list:
    """(cell, value) of each global the macro's body names (as the purity
    check reads it: its expansion may depend on them), pending ones made."""
    seen, out = set(m.params) | {m.rest}, []
    stack = list(m.body)
    while stack:
        y = stack.pop()
        if y.__class__ is Symbol:
            if y not in seen:
                seen.add(y)
                c = genv.cells.get(y)
                if c is not None and (c.pending is not None or c.value is not MISSING):
                    out.append((c, c.current()))
        elif y.__class__ is List and y is not EMPTY:
            if y.car is QUASIQUOTE:             # (a template's own symbols are data)
                stack += [u.cdr.car for u in _unquoted(y.cdr)]
            elif y.car is not QUOTE:
                stack.extend(y)
    return out


def lower_call(low, x, cell, scope, span, fn, tail):
    """A call of the macro in global cell: its expansion lowered in place
    while the globals it depends on hold what they held, else the call on
    the reference (which expands at run time: exits.py); that alone when the
    expansion failed. Unsupported (with the cell) when it may not be expanded."""
    e = low.expanded.get(id(x))
    if e is None or low.expanding > MAX_NESTING:
        raise refuse(cell)
    low.heads[id(cell)] = cell          # (its change deoptimises: link.Deopt)
    form = e.form
    if form is not FAILED:
        try:
            check_in_scope(form, span, scope, low.genv)
        except RustyError:
            form = FAILED
    generic = to_reference(low, x, scope, span, fn, tail)
    if form is FAILED:
        return generic
    low.k(e)                            # (one of the code's objects: the disk cache's recipe of the expansion)
    tests = [is_(attr(low.k(c), 'value'), low.k(v)) for c, v in e.depends]
    for c, _ in e.depends[1:]:
        tripper = Tripper(cell)
        low.k(tripper)                  # (kept alive by the code's objects)
        c.watched_by(ref(tripper))
    test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
    saved = low.unit
    low.unit = saved.from_data()        # (the expansion's forms have the call's span)
    low.expanding += 1
    try:
        if tail:
            return [ast.If(test, low.tail(form, scope, span, fn), generic)]
        s, v = low.value(form, scope, span, fn)
    finally:
        low.unit = saved
        low.expanding -= 1
    r = low.fresh('r')
    deeper = [assign('d', ast.BinOp(name('d'), ast.Add(), const(1))),
              ast.If(ast.Compare(name('d'), [ast.Gt()], [attr(name('D'), 'limit')]),
                     [ast.Raise(call(name('TOO_DEEP'), low.k(span), name('D')), None)], [])]
    back = [assign(r, v), assign('d', ast.BinOp(name('d'), ast.Sub(), const(1)))]
    g_stmts, g_value = generic
    return [ast.If(test, deeper + s + back, g_stmts + [assign(r, g_value)])], name(r)
