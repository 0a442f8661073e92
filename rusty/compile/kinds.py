"""What the generated code knows of its locals' classes, and the tests that
knowledge decides.

A pass over one generated function (after the lowering): walking its
statements in order, it learns that a local holds an exact integer, a
float or a bool (from an assignment of an expression of that kind, or in
the true branch of a test of the local's class), forgets it where the
local may change (any other assignment, a loop's entry, a handler), and
folds what it knows into the code: a class test of a known local becomes a
constant, so the inlined builtins' guards fall away (an `IfExp` whose test
is decided becomes its branch) and `x is not False` of a known bool is x.

The kinds of expressions, and their folding, are expr_kinds.py's.

`specialize` gives a small function a copy of its body for exact integer
arguments, entered after one class test per parameter: the copy's guards
are decided by this pass. Where the copy entered first (lower.uncounted)
calls its own function while OK holds (guards.py marks the call) with
arguments known to be exact integers, it passes INTS as the call's last
argument: the callee enters its copy on that one test.
"""
from . import pyast as ast

from . import copies
from .expr_kinds import AUDITED, INT, INT_IF_OK, LIST, OK_FALSE, _fold, _int_tests_if_ok, _learned, _pair_known, kind_of
from .guards import gate_open
from .nodes import BARE, PARTS, parts, statements, walk

_clone, clone, twin = copies._clone, copies.clone, copies.twin     # (kinds.clone, kinds.twin: copies.py's)

SPECIALIZED_NODES = 5000        # a body this large (in ast nodes) is not copied


# ── statements ──

def simplify(fdef: ast.FunctionDef, root: bool = True, cells=None, nonlocals: bool = True) -> None:
    """Fold fdef's known kinds into its code (each nested function on its
    own; a local a nested function assigns, `nonlocal`, is never known: one
    it only reads changes only where fdef assigns it). `cells` maps each
    local an exit writes into closure cells (expansion.exit_values) to the names of
    the functions writing it: it is never known in any other function; in
    those it is forgotten where they write it. `nonlocals`: False if no
    function of fdef declares a name nonlocal (none then looked for)."""
    if root:
        AUDITED[0] = False
        _CELLS[0] = cells or {}
        _BELOW.clear()
        if nonlocals:
            _nonlocals(fdef)
    seen = {n for n, writers in _CELLS[0].items() if fdef.name not in writers}
    seen.update(_BELOW.get(fdef, ()))
    outer, _AUDIT[0] = _AUDIT[0], _ResultAudit(fdef.name, root)
    try:
        fdef.body, _ = _block(fdef.body, {}, seen)
    finally:
        _AUDIT[0] = outer
        if root:
            _BELOW.clear()


_CELLS = [{}]       # the `cells` of the unit being simplified
_BELOW: dict = {}   # each function of the unit -> the names the functions defined in it (at any depth) declare nonlocal


def _nonlocals(fdef) -> set:
    """The names fdef itself declares nonlocal; _BELOW filled for it and the
    functions defined in it (each function's statements read once: only a
    statement holds a function)."""
    own, below = set(), set()
    for st in statements(fdef.body):
        if st.__class__ is ast.Nonlocal:
            own.update(st.names)
        elif st.__class__ is ast.FunctionDef:
            below |= _nonlocals(st)
            below |= _BELOW[st]
    _BELOW[fdef] = below
    return own


class _ResultAudit:
    """The copy without counting of a function that is no loop
    (lower.uncounted), folded once more assuming that a call of the function
    itself with INTS (and, for the root, such a call past the gate, GATED),
    returning while OK holds, returned an exact integer (INT_IF_OK: an
    integer copy's guards then test OK alone). The assumption holds, by
    induction on the calls' depth, if every return of the copy gives an
    exact integer wherever OK may hold (`returns`: all true); else the copy
    is folded as before. `on`: while the copy is being folded so."""
    __slots__ = ('me', 'root', 'on', 'returns', 'loops', 'quiet')

    def __init__(self, me, root):
        self.me, self.root, self.on, self.returns, self.loops, self.quiet = me, root, False, [], False, False

    def result(self, value, known) -> bool:
        """True if `x = value` gives x INT_IF_OK: a call of the function itself with INTS."""
        if value.__class__ is not ast.Call or value.func.__class__ is not ast.Name:
            return False
        if value.func.id == self.me:
            return bool(value.args) and value.args[-1].__class__ is ast.Name and value.args[-1].id == 'INTS'
        return (self.root and value.func.id == 'GATED' and value.args[0].__class__ is ast.Name
                and value.args[0].id == 'SELF' and value.args[1].__class__ is ast.List
                and all(kind_of(a, known) == INT for a in value.args[1].elts))

    def returned(self, value, known) -> None:
        if known.get(OK_FALSE) is False:
            return              # OK no longer holds: nothing to show
        if value.__class__ is ast.IfExp and value.test.__class__ is ast.Name and value.test.id == 'OK':
            value = value.body
        sure = {k: (INT if v == INT_IF_OK else v) for k, v in known.items()}
        self.returns.append(kind_of(value, sure) == INT)
        if not self.returns[-1]:
            raise _Disproved


class _Disproved(Exception):
    """The audit's assumption is shown false: the trial fold stops there (_audited)."""


_AUDIT: list = [None]           # the _ResultAudit of the function being folded


def _audited(body, known, seen, audit, quiet=False):
    """The uncounted copy `body` folded assuming its calls of itself return
    exact integers while OK holds, if that proves true; else folded as before.
    `quiet`: the copy of a self tail loop whose body runs no Lisp code but
    its own (lower.Fn.quiet), so that neither OK nor the gate changes while
    it runs: its calls of itself, made inside the gate, never see a hop
    fail (guards.gate_open), and the loop is audited like the rest. A copy
    making no call the audit counts (`_ResultAudit.result`) folds the same
    either way: folded once, as before."""
    if not _calls_itself(body, audit):
        return _block(body, known, seen)
    memo = {}
    trial = (_clone(st, memo) for st in body)      # (each copied when reached: none past a disproof)
    AUDITED[0] = True
    audit.on, audit.returns, audit.loops, audit.quiet = True, [], False, quiet
    proved = False
    try:
        folded, k = _block(trial, dict(known), seen)
        proved = audit.returns and all(audit.returns) and (quiet or not audit.loops)
    except _Disproved:          # (a return or a loop the assumption fails at: the rest not folded in vain)
        pass
    finally:
        audit.on = audit.quiet = False
    if proved:
        return folded, k
    return _block(body, known, seen)


def _calls_itself(body, audit) -> bool:
    """True if body makes a call the audit counts (_ResultAudit.result): of
    the audited function itself that may pass INTS (marked `uncounted`, and
    OK known there: guards.fold's `ok_known`; or passing INTS already), or,
    at the root, GATED of SELF. With none, nothing is ever known INT_IF_OK,
    and the trial folds the copy just as the fold without it would."""
    me = audit.me
    todo = list(body)
    push, pop, get = todo.append, todo.pop, PARTS.get
    Call, Name, Constant = ast.Call, ast.Name, ast.Constant
    while todo:                 # (any order: only whether one is found; names and constants never stacked)
        node = pop()
        cls = node.__class__
        if cls is Call and node.func.__class__ is Name:
            f = node.func.id
            if f == me:
                d = node.__dict__
                args = node.args
                if d.get('uncounted', False) and d.get('ok_known', False) or args and args[-1].__class__ is Name \
                        and args[-1].id == 'INTS':
                    return True
            elif f == 'GATED' and audit.root and node.args and node.args[0].__class__ is Name \
                    and node.args[0].id == 'SELF':
                return True
        f = get(cls)
        try:
            kids = parts(node) if f is None else f(node)
        except AttributeError:      # (a field left out when the node was made)
            kids = parts(node)
        for x in kids:
            c = x.__class__
            if c is not Name and c is not Constant:
                push(x)
    return False


def _ok_false(test, then: dict, orelse: dict) -> None:
    """Mark the branch of an `if` in which OK no longer holds, if one is
    sure: the other branch of `if OK`, the branch of `if not OK and …`, and
    of a test that a local known to be an exact integer while OK holds is
    of another class (a pending tail call: `x.__class__ is tuple`)."""
    if test.__class__ is ast.Name and test.id == 'OK':
        orelse[OK_FALSE] = False
        return
    first = test.values[0] if test.__class__ is ast.BoolOp and test.op.__class__ is ast.And else test
    if first.__class__ is ast.UnaryOp and first.op.__class__ is ast.Not and first.operand.__class__ is ast.Name \
            and first.operand.id == 'OK':
        then[OK_FALSE] = False
    elif first.__class__ is ast.Compare and len(first.ops) == 1 and first.ops[0].__class__ is ast.Is \
            and first.left.__class__ is ast.Attribute and first.left.attr == '__class__' \
            and first.left.value.__class__ is ast.Name and then.get(first.left.value.id) == INT_IF_OK \
            and first.comparators[0].__class__ is ast.Name and first.comparators[0].id != INT:
        then[OK_FALSE] = False


def _assigned(nodes) -> set:
    """The names nodes assign (nested functions' own locals left out)."""
    out = set()
    todo = list(nodes)
    while todo:
        n = todo.pop()
        cls = n.__class__
        if cls is ast.FunctionDef:
            out.add(n.name)
            continue
        if cls is ast.Name and n.ctx.__class__ is not ast.Load:
            out.add(n.id)
        elif cls is ast.ExceptHandler and n.name:
            out.add(n.name)
        todo += parts(n)
    return out


def _rebound(targets, value, known) -> list:
    """(name, kind) of each name a tuple assignment `a, b = (x, y)` (a self
    tail call's rebinding) gives a known kind, from what is known before it."""
    if len(targets) != 1 or targets[0].__class__ is not ast.Tuple or value.__class__ is not ast.Tuple \
            or len(targets[0].elts) != len(value.elts):
        return []
    return [(t.id, k) for t, v in zip(targets[0].elts, value.elts)
            if t.__class__ is ast.Name and (k := kind_of(v, known)) is not None]


def _forget(known: dict, names) -> dict:
    return {k: v for k, v in known.items() if k not in names}


def _merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return {k: v for k, v in a.items() if b.get(k) == v}


_Assign, _IfExp, _Name, _If, _While, _Try, _Return, _Expr = ast.Assign, ast.IfExp, ast.Name, ast.If, ast.While, \
    ast.Try, ast.Return, ast.Expr
_Break, _Constant, _Raise, _Continue, _FunctionDef, _Nonlocal, _Pass = ast.Break, ast.Constant, ast.Raise, \
    ast.Continue, ast.FunctionDef, ast.Nonlocal, ast.Pass


def _block(stmts, known, seen):
    """(stmts folded, what is known after them; None: they never finish)."""
    out = []
    for st in stmts:
        if known is None:           # unreachable
            break
        cls = st.__class__
        if cls is _Assign:             # (most statements)
            value = st.value = _fold(st.value, known)
            k = kind_of(value, known)
            pair = _pair_known(value) if value.__class__ is _IfExp else None
            targets = st.targets
            target = targets[0] if len(targets) == 1 else None
            if target.__class__ is _Name:       # (most: one local)
                known.pop(target.id, None)
                if 'written' in st.__dict__:        # (an exit's write-back: the locals it may write, exits.py)
                    known = _forget(known, st.written)
            else:
                parts = _rebound(targets, value, known)
                known = _forget(known, _assigned(targets))
                if 'written' in st.__dict__:
                    known = _forget(known, st.written)
                if parts:
                    known.update((n, kp) for n, kp in parts if n not in seen)
            audit = _AUDIT[0]
            if k is None and audit is not None and audit.on and audit.result(value, known):
                k = INT_IF_OK
            if k is not None and target.__class__ is _Name and target.id not in seen:
                known[target.id] = k
            if pair is not None and pair not in seen and pair not in _assigned(targets):
                known[pair] = LIST
        elif cls is _If:
            st.test = _fold(st.test, known)
            if len(st.orelse) == 1 and st.orelse[0].__class__ is _Break and _int_tests_if_ok(st.test, known):
                st.test = ast.copy_location(ast.Name('OK', ast.Load()), st.test)   # (a hop's test of the copy's kinds)
            if st.test.__class__ is _Constant and type(st.test.value) is bool:
                body, known = _block(st.body if st.test.value else st.orelse, known, seen)
                out += body
                continue
            then = dict(known)
            learned = _learned(st.__dict__.get('holds', st.test), known)
            if learned:
                then.update({k: v for k, v in learned.items() if k not in seen})
            audit = _AUDIT[0]
            auditing = audit is not None and audit.on
            orelse = dict(known) if auditing or st.orelse else None     # (None: no else branch, known as it is)
            if auditing:
                _ok_false(st.test, then, orelse)
                if audit.quiet and gate_open(st.test):
                    orelse[OK_FALSE] = False        # (a quiet loop's hop fails only with the gate shut, or without OK)
            if audit is not None and not audit.on and st.__dict__.get('uncounted_copy', False):
                st.body, k1 = _audited(st.body, then, seen, audit, getattr(st, 'quiet', False))
            else:
                st.body, k1 = _block(st.body, then, seen)
            if st.__dict__.get('integer_copy', False):
                k2 = None           # the general body: knowing nothing of the parameters, left as it is
            elif orelse is None:
                k2 = known
            else:
                st.orelse, k2 = _block(st.orelse, orelse, seen)
            if not st.body:
                st.body = [ast.copy_location(_Pass(), st)]
            known = _merge(k1, k2)
            if audit is not None and audit.on:
                for a, b in ((k1, k2), (k2, k1)):       # where OK no longer holds, "if OK" holds for good
                    if a is not None and a.get(OK_FALSE) is False and b is not None:
                        known.update((n, v) for n, v in b.items() if v == INT_IF_OK)
        elif cls is _While:          # (a self tail call's loop: it rebinds the parameters)
            audit = _AUDIT[0]
            if audit is not None:
                audit.loops = True
                if audit.on and not audit.quiet:
                    raise _Disproved
            holds = st.__dict__.get('holds')      # a test true at each entry of the body (lower.uncounted)
            entry = {} if holds is None else {k: v for k, v in _learned(holds, {}).items() if k not in seen}
            inner = set() if getattr(st, 'runs_no_lisp', False) else seen   # (no other function runs in it: walks.py)
            st.body, _ = _block(st.body, entry, inner)
            known = {}
        elif cls is _Try:            # (a handler only reports a failure: nothing to know there)
            st.body, kb = _block(st.body, dict(known), seen)
            ends = kb
            for h in st.handlers:
                h.body, kh = _block(h.body, {}, seen)
                ends = _merge(ends, kh)
            known = ends
        elif cls is _Return or cls is _Expr:
            if st.value is not None:
                st.value = _fold(st.value, known)
            if cls is _Return:
                audit = _AUDIT[0]
                if audit is not None and audit.on:
                    audit.returned(st.value if st.value is not None else _Constant(None), known)
                known = None
        elif cls is _Raise or cls is _Continue or cls is _Break:
            if cls is _Raise and st.exc is not None:
                st.exc = _fold(st.exc, known)
            audit = _AUDIT[0]
            if cls is _Break and audit is not None and audit.on and known.get(OK_FALSE) is not False:
                raise _Disproved        # leaving the copy while OK may hold: the general code decides
            known = None
        elif cls is _FunctionDef:
            simplify(st, root=False)
            known = _forget(known, {st.name})
        elif cls is _Nonlocal or cls is _Pass:
            pass
        else:
            known = _forget(known, _assigned([st]))
        out.append(st)
    return out, known


# ── the integer copy ──

def small(stmts: list, most: int = SPECIALIZED_NODES, size=None) -> bool:
    """True if stmts are no more than `most` nodes and make no functions
    (`size`: their count as specialize's `sized` gave it, if known)."""
    if size is not None:
        return size <= most
    size = 0
    for node in walk(ast.Module(stmts, [])):
        size += 1
        if size > most or node.__class__ is ast.FunctionDef or node.__class__ is ast.Lambda:
            return False
    return True


def specialize(stmts: list, params: list, stable, temp, fresh, never=(), sized=None, uncounted=False) -> list:
    """stmts, or, when they test the class of some of params against int
    (an inlined builtin's guard), or of locals of enclosing functions that
    never change (in `stable`, and not assigned here), are small and make no
    functions, `if OK and n.__class__ is int and …: <a copy> else: <stmts>`
    for those (OK only if the code tests it; not for parameters in `never`:
    the calls seen on the reference gave them no exact integer, evidence.py);
    the copy's temporaries are renamed (`twin`). `sized`: a list given
    the nodes counted in stmts (SPECIALIZED_NODES + 1: more, or a function
    among them), so that `small` need not count them again, then whether
    they test OK, if counted to the end; `uncounted`:
    the copy is the one entered first (lower.Lowering.uncounted: its calls
    of the function itself marked so)."""
    if sized is not None:
        sized.append(SPECIALIZED_NODES + 1)
    tested, stored, size, uses_ok = [], set(), 0, False
    copies = {}         # temporary -> the local it copies (Lowering.in_order: a local read before a call)
    todo = [ast.Module(stmts, [])]
    push = todo.append
    get, bare = PARTS.get, BARE.get
    Name, Constant, Load, Assign = ast.Name, ast.Constant, ast.Load, ast.Assign
    Attribute, FunctionDef, Lambda, If, Compare = ast.Attribute, ast.FunctionDef, ast.Lambda, ast.If, ast.Compare
    for node in todo:           # (nodes.walk's order, written out, less the contexts and operators: counted)
        cls = node.__class__
        if cls is Attribute:    # (most nodes stacked: itself and its context, and its one part, read in place)
            x = node.value
            c = x.__class__
            if c is Name:
                size += 4
                if x.id == 'OK':
                    uses_ok = True
                elif x.ctx.__class__ is not Load:
                    stored.add(x.id)
            elif c is Constant:
                size += 3
            else:
                size += 2
                push(x)
            if size > SPECIALIZED_NODES:
                return stmts
            continue
        f = get(cls)
        try:
            kids = parts(node) if f is None else f(node)
        except AttributeError:      # (a field left out when the node was made)
            kids = parts(node)
        extra = bare(cls)
        size += 1 + (extra if extra.__class__ is int else extra(node))
        for x in kids:          # (most nodes: a name and its context, or a constant, no part: counted here)
            c = x.__class__
            if c is Name:
                size += 2
                if x.id == 'OK':
                    uses_ok = True
                elif x.ctx.__class__ is not Load:
                    stored.add(x.id)
            elif c is Constant:
                size += 1
            else:
                push(x)
        if size > SPECIALIZED_NODES:
            return stmts
        if cls is Assign and node.value.__class__ is Name and node.targets[0].__class__ is Name \
                and temp(node.targets[0].id) and not temp(node.value.id):
            copies[node.targets[0].id] = node.value.id
        if cls is FunctionDef or cls is Lambda or cls is If and 'loop_copy' in node.__dict__:
            return stmts        # (a function; a loop with an integer copy of its own: loops.integer_copy)
        elif cls is Compare and node.left.__class__ is Attribute and node.left.attr == '__class__' \
                and node.left.value.__class__ is Name and node.comparators[0].__class__ is Name \
                and node.comparators[0].id == INT and node.left.value.id not in tested:
            tested.append(node.left.value.id)
    if sized is not None:
        sized[-1] = size
        sized.append(uses_ok)
    tested += [copies[n] for n in tested if n in copies and copies[n] not in tested]
    chosen = [p for p in params if p in tested and p not in never]
    chosen += sorted(n for n in tested if n not in params and n in stable and n not in stored)
    if not chosen:
        return stmts
    tests = [ast.Compare(ast.Attribute(ast.Name(p, ast.Load()), '__class__', ast.Load()), [ast.Is()],
                         [ast.Name(INT, ast.Load())]) for p in chosen]
    if uses_ok:
        tests.insert(0, ast.Name('OK', ast.Load()))
    test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
    copy = ast.If(test, twin(stmts, temp, fresh, uncounted), stmts)
    copy.integer_copy = True
    return [copy]
