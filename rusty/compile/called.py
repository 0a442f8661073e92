"""Whether a local function is only ever called (Lets.release and
calls._release free one after a tail call of it): `only_called`, each
form's part of the answer kept for the body's other defines."""
from ..values import EMPTY, List, Symbol, sym
from . import macros

FN_FORMS = frozenset(map(sym, ('lambda', 'fn', 'λ')))
QUOTE, LET, DEFINE, DEF = sym('quote'), sym('let'), sym('define'), sym('def')


def only_called(forms, s, expanded=None, group=frozenset(), memo=None) -> bool:
    """True if symbol s, and the name of each named let in forms, occurs in
    forms only as the head of a call, and they make no other function
    (lambda, define): no closure but those functions' own can hold the cell
    of a local function so called, and they only while their values live
    (what Lets.release and calls._release free); a macro call is read as its
    expansion too. A define of a function named in `group` (the body's
    function defines: _function_defines) is no other function when its
    name too is only called (its closure too lives only while its value).
    `memo`: each form's `_uses` by (id, group), for one lowering (its
    `expanded` is complete once macros.prescan ran)."""
    names, values = {s}, set()
    for form in forms:
        got = None if memo is None else memo.get((id(form), group))
        if got is None:
            got = _uses(form, expanded, group)
            if memo is not None:
                memo[(id(form), group)] = got
        if got is False:
            return False
        names |= got[0]
        values |= got[1]
    return not (names & values)


def _uses(form, expanded, group):
    """(the names form binds that must be only called, the symbols it reads
    as values), or False if it makes another function (see only_called)."""
    names, values = set(), set()
    stack = [form]
    while stack:
        x = stack.pop()
        if x.__class__ is Symbol:
            values.add(x)
            continue
        if x.__class__ is not List or x is EMPTY:
            continue
        head = x.car
        if head is QUOTE:
            continue
        if head is DEFINE and group:
            named = defined_function(x)
            if named is not None and named[0] in group:
                names.add(named[0])
                stack.extend(named[1])
                continue
        if head in FN_FORMS or head is DEFINE or head is DEF:
            return False
        if expanded and id(x) in expanded:
            e = expanded[id(x)]
            if e is None or e.form is macros.FAILED:
                return False
            stack.append(e.form)
        if head is LET and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol:
            names.add(x.cdr.car)        # a named let: its name too only called
            stack.extend(x.cdr.cdr)
            continue
        if head.__class__ is not Symbol:
            stack.append(head)
        stack.extend(x.cdr)
    return names, values


def defined_function(x):
    """(name, body forms) of `(define (name . params) . body)` or `(define
    name (lambda params . body))`, else None."""
    if len(x) < 3:
        return None
    target = x.cdr.car
    if target.__class__ is List and target is not EMPTY and target.car.__class__ is Symbol:
        return target.car, list(x.cdr.cdr)
    init = x.cdr.cdr.car
    if target.__class__ is Symbol and len(x) == 3 and init.__class__ is List and init is not EMPTY \
            and init.car in FN_FORMS and len(init) >= 3:
        return target, list(init.cdr.cdr)
    return None
