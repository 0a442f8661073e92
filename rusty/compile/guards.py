"""Dropping the OK tests a function has already made.

OK (lower.Lowering.ok) is true while every global the code assumes still
holds its value; it can only turn false while Lisp code runs, and Lisp code
runs only inside a call. So once a test of OK has passed, every later test
up to the next call that may run Lisp code is known to pass as well:
`fold` removes those tests (keeping their true branches), which turns a run
of inlined builtins into one test.
"""
from . import pyast as ast

from .nodes import PARTS, parts, statements

# Calls that never run Lisp code: an inlined builtin's own function on the
# operands its fast path refused (arithmetic, car, comparisons: they only
# raise), the length of a vector's or string's items (inline.py), the constructors of cells (CONS, NEW) and vectors, and a global
# read that found no value (a dyn binding read by name, or a pending value
# made: a builtin, or the library's lone define of a function or defmacro,
# which runs nothing; else it raises).
QUIET = frozenset(('CALL_BUILTIN', 'CONS', 'NEW', 'VECTOR', 'str', 'int', 'len', 'GLOBAL_MISSING'))
# Methods so called: a float's is_integer (inline.py asks it of a float index).
QUIET_METHODS = frozenset(('is_integer',))
# Exits to the reference (expansion.py): each a statement of its own, taken
# once OK no longer holds, that writes back what the form run there changed.
EXITS = frozenset(('EXIT', 'EXPAND_EXIT'))


def quiet_or_exit(f) -> bool:
    """True if a call of f (its ast) runs no Lisp code (QUIET, QUIET_METHODS), or is an exit to the reference."""
    if f.__class__ is ast.Name:
        return f.id in QUIET or f.id in EXITS
    return f.__class__ is ast.Attribute and f.attr in QUIET_METHODS


def _is_ok(node) -> bool:
    return node.__class__ is _Name and node.id == 'OK'


def _runs_code(node, quiet: bool = False) -> bool:
    """True if evaluating node may call anything that runs Lisp code (or
    makes a function); `quiet`: no call does while OK holds (see fold)."""
    if quiet and node.__class__ not in _COMPOUND:
        return False        # (quiet: only a function made counts, and the lowering makes every one a def)
    todo = [node]
    push, pop = todo.append, todo.pop
    get = PARTS.get
    Call, Name, Constant, FunctionDef, Lambda, Attribute = ast.Call, ast.Name, ast.Constant, ast.FunctionDef, \
        ast.Lambda, ast.Attribute
    while todo:                 # (any order: only whether one is found)
        n = pop()
        cls = n.__class__
        if cls is Attribute:    # (its one part looked at in place)
            x = n.value
            c = x.__class__
            if c is not Name and c is not Constant:
                push(x)
            continue
        if cls is Call:
            f = n.func
            if not quiet and (f.__class__ is not Name or f.id not in QUIET) and not (
                    f.__class__ is ast.Attribute and f.attr in QUIET_METHODS):
                return True
        elif cls is FunctionDef or cls is Lambda:
            return True
        f = get(cls)
        try:
            kids = parts(n) if f is None else f(n)
        except AttributeError:      # (a field left out when the node was made)
            kids = parts(n)
        for x in kids:          # (names and constants, most nodes, never stacked: neither calls nor makes)
            c = x.__class__
            if c is not Name and c is not Constant:
                push(x)
    return False


_Assign, _Return, _Expr, _If, _Try, _While, _FunctionDef, _BoolOp, _And, _Name, _Pass, _UnaryOp, _Not, _Raise = \
    ast.Assign, ast.Return, ast.Expr, ast.If, ast.Try, ast.While, ast.FunctionDef, ast.BoolOp, ast.And, ast.Name, \
    ast.Pass, ast.UnaryOp, ast.Not, ast.Raise

# The statements that hold others (a def among them): an expression or any
# other statement makes no function, as the lowering writes no Python lambda.
_COMPOUND = frozenset((ast.If, ast.While, ast.For, ast.Try, ast.With, ast.FunctionDef, ast.AsyncFunctionDef,
                       ast.ClassDef, ast.AsyncFor, ast.AsyncWith, ast.Match))


def fold(fdef: ast.FunctionDef, quiet: bool = False) -> None:
    """Drop fdef's OK tests that an earlier test decides (each nested
    function folded on its own, knowing nothing at its entry). `quiet`:
    fdef's body runs no Lisp code but its own while OK holds
    (lower.Fn.quiet): every global it calls is one OK assumes, holding a
    first-order builtin, a library car/cdr composition or the function
    itself, so while OK holds no call it makes, on any of its ways (direct,
    generic, past the gate, finishing a pending tail call), runs code that
    could clear OK: once known, OK stays known."""
    fdef.body, _ = _block(fdef.body, False, quiet)


def _block(stmts: list, known: bool, quiet: bool):
    """(stmts with decided OK tests dropped, whether OK is known true after them)."""
    if not stmts:           # (an `if` without else, most: known as it was)
        return stmts, known
    out = []
    for st in stmts:
        cls = st.__class__
        if cls is _Assign or cls is _Return or cls is _Expr:       # (most statements)
            if cls is _Assign and st.value.__dict__.get('self_call', False):
                st.value.ok_known = known       # (its arguments run no code: kinds.py)
            known = known and not _runs_code(st, quiet)
            out.append(st)
            continue
        if cls is _If:
            test = st.test
            holds = st.__dict__.get('holds')      # true whenever the body is entered (lower.uncounted)
            if holds is not None:
                first_ok = holds.__class__ is _BoolOp and _is_ok(holds.values[0])
                free = (known or first_ok) and not _runs_code(test, quiet)      # (asked once of the test)
                before = known and free
                entered = first_ok and free
                st.body, k1 = _block(st.body, before or entered, quiet)
                st.orelse, k2 = _block(st.orelse, before, quiet)
                known = k1 and k2
            elif _is_ok(test):
                if known:                   # decided: its true branch in place
                    body, known = _block(st.body, True, quiet)
                    out += body
                    continue
                st.body, k1 = _block(st.body, True, quiet)
                st.orelse, k2 = _block(st.orelse, False, quiet)
                known = k1 and k2
            elif known and _not_ok_first(test):     # `not OK and …`: decided false
                body, known = _block(st.orelse, True, quiet)
                out += body
                continue
            else:
                if test.__class__ is _BoolOp and test.op.__class__ is _And and _is_ok(test.values[0]):
                    if known:
                        rest = test.values[1:]
                        st.test = rest[0] if len(rest) == 1 else ast.BoolOp(ast.And(), rest)
                        ast.copy_location(st.test, test)
                    test = st.test
                    entered = not _runs_code(test, quiet)
                    before = known and entered          # (the same test: asked once)
                else:
                    entered = False
                    before = known and not _runs_code(test, quiet)
                st.body, k1 = _block(st.body, before or entered, quiet)
                st.orelse, k2 = _block(st.orelse, before, quiet)
                known = k1 and k2
            if not st.body:
                st.body = [ast.copy_location(ast.Pass(), st)]
        elif cls is _Try:
            st.body, kb = _block(st.body, known, quiet)
            for h in st.handlers:
                h.body, _ = _block(h.body, False, quiet)
            st.orelse, kb = _block(st.orelse, kb, quiet)
            st.finalbody, _ = _block(st.finalbody, False, quiet)
            known = kb and all(h.body and h.body[-1].__class__ is _Raise for h in st.handlers) \
                and not st.finalbody
        elif cls is _While:          # (`holds`: a test true at each entry of the body, lower.uncounted)
            holds = getattr(st, 'holds', None)
            entered = holds is not None and (_is_ok(holds) or holds.__class__ is _BoolOp and _is_ok(holds.values[0]))
            st.body, _ = _block(st.body, entered, quiet)
            st.orelse, _ = _block(st.orelse, False, quiet)
            known = False
        elif cls is _FunctionDef:
            fold(st)
        else:
            if cls is _Assign and getattr(st.value, 'self_call', False):
                st.value.ok_known = known       # (its arguments run no code: kinds.py)
            known = known and not _runs_code(st, quiet)
        out.append(st)
    return out, known


# ── Tail calls a function's own call can return ──

# Calls whose value is a Lisp value, never a pending tail call.
VALUES = frozenset(('CALL_BUILTIN', 'CONS', 'NEW', 'VECTOR', 'str', 'int', 'CLOCK'))
COUNTED = 'pret_'       # counting.py's temporary: `pret_ = value` stands for `return value`


def _pending(e) -> bool:
    """True if e may be a pending tail call (a tuple) as far as its shape
    tells: a tuple, a temporary, a call of anything but VALUES."""
    if getattr(e, 'no_tail_call', False):
        return False
    cls = e.__class__
    if cls is ast.Tuple:
        return True
    if cls is ast.Name:
        return not e.id.startswith('v_') and e.id not in ('NIL', 'EMPTY', 'SELF')
    if cls is ast.Call:
        return not (e.func.__class__ is ast.Name and e.func.id in VALUES)
    if cls is ast.IfExp:
        return _pending(e.body) or _pending(e.orelse)
    return False                # constants, arithmetic, comparisons, attributes of cells


def _not_ok_first(test) -> bool:
    """True if test is `not OK and …`: its branch runs only while OK does not hold."""
    return test.__class__ is _BoolOp and test.op.__class__ is _And \
        and test.values[0].__class__ is _UnaryOp and test.values[0].op.__class__ is _Not \
        and _is_ok(test.values[0].operand)


def gate_open(test) -> bool:
    """True if test is `GATE >= 0`, alone or after OK (a self tail call's hop)."""
    parts = test.values if test.__class__ is ast.BoolOp and test.op.__class__ is ast.And else [test]
    gate = [p for p in parts if not _is_ok(p)]
    if len(gate) != 1:
        return False
    g = gate[0]
    if g.__class__ is not ast.Compare or g.left.__class__ is not ast.Name or g.left.id != 'GATE' \
            or len(g.ops) != 1 or g.ops[0].__class__ is not ast.GtE or g.left.ctx.__class__ is not ast.Load:
        return False
    c = g.comparators[0]
    return c.__class__ is ast.Constant and c.value.__class__ is int and c.value == 0 and c.kind is None


def _returns_pending(stmts, ok_false: bool, quiet: bool = False) -> bool:
    """True if some return in stmts that may run while OK holds may give a
    pending tail call (the else branch of a plain `if OK:`, and the branch
    of `if not OK and …:`, run only while it does not, as does the else
    branch of a test OK implies (`ok_implies`: a global holding the builtin
    OK assumes it holds); `quiet`: nor does the else branch of a hop's `if
    OK and GATE >= 0:` in a call made inside the gate, see finish_checks)."""
    for st in stmts:
        cls = st.__class__
        if cls is ast.FunctionDef:
            continue
        if not ok_false:
            if cls is ast.Return and st.value is not None and not (
                    st.value.__class__ is ast.Name and st.value.id == COUNTED) and _pending(st.value):
                return True
            if cls is ast.Assign and st.targets[0].__class__ is ast.Name and st.targets[0].id == COUNTED \
                    and _pending(st.value):
                return True
        if cls is ast.If:
            if _returns_pending(st.body, ok_false or _not_ok_first(st.test), quiet) or \
                    _returns_pending(st.orelse, ok_false or _is_ok(st.test) or (quiet and gate_open(st.test))
                                     or getattr(st, 'ok_implies', False), quiet):
                return True
        elif cls is ast.While or cls is ast.Try:
            if _returns_pending(st.body, ok_false, quiet) or _returns_pending(st.orelse, ok_false, quiet) or \
                    _returns_pending(getattr(st, 'finalbody', []), ok_false, quiet) or \
                    any(_returns_pending(h.body, ok_false, quiet) for h in getattr(st, 'handlers', ())):
                return True
    return False


def finish_checks(fdef: ast.FunctionDef, quiet: bool = False) -> None:
    """A call of one of the code's own functions (the lambda itself, a named
    let's loop) tests its value for a pending tail call only when OK no
    longer holds, if that function never returns one while OK holds: OK
    holding after the call means it held throughout, so the callee took the
    ways OK guards. `quiet`: fdef's body runs no Lisp code but its own while
    OK holds (lower.Fn.quiet), so nothing shuts the gate while it runs: a
    call of it made inside the gate (`d < GATE`, as every direct call is)
    never sees a self tail call's hop fail for the gate."""
    checks, defs = [], {}
    for st in statements(fdef.body):
        if st.__class__ is ast.FunctionDef:
            finish_checks(st)           # (its own calls lie inside it)
            defs[st.name] = st
        elif st.__class__ is ast.If and getattr(st, 'callee', None) is not None:
            checks.append(st)
    free = {}           # (each callee's, only where a test asks, all before any test changes)
    for node in checks:
        c = node.callee
        if c not in free:
            free[c] = not _returns_pending(defs[c].body, False) if c in defs else \
                c == fdef.name and not _returns_pending(fdef.body, False, quiet)
    for node in checks:
        if free[node.callee]:
            node.test = ast.copy_location(ast.BoolOp(ast.And(), [
                ast.copy_location(ast.UnaryOp(ast.Not(), ast.copy_location(ast.Name('OK', ast.Load()), node)), node),
                node.test]), node.test)
