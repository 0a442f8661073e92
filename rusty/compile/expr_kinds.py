"""The kinds of expressions (kinds.py's first half): the class (exact
integer, float, bool, pair) an expression of generated code is known to
have, given what is known of the locals it reads; what a test's true branch
learns; and an expression with what is known folded in (a class test of a
known local a constant, a guard whose test is decided its branch)."""
from . import pyast as ast

from .inline import _is

# (the node classes, read as module globals: the folds below test a node's class many times)
_Name, _Constant, _Is, _IsNot, _Compare, _Attribute, _IfExp, _Call, _BoolOp, _And = ast.Name, ast.Constant, ast.Is, \
    ast.IsNot, ast.Compare, ast.Attribute, ast.IfExp, ast.Call, ast.BoolOp, ast.And
_UnaryOp, _Not, _Eq, _NotEq, _NamedExpr, _BinOp, _Add, _Sub, _Mult, _Mod = ast.UnaryOp, ast.Not, ast.Eq, ast.NotEq, \
    ast.NamedExpr, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Mod

INT, FLOAT, BOOL, LIST = 'int', 'float', 'bool', 'List'     # LIST: a cell, never EMPTY (a pair)
INT_IF_OK = 'int if OK'     # an exact integer if OK holds (then or later): see _ResultAudit
OK_FALSE = '%OK'            # a key of `known`: present (False) where OK no longer holds
AUDITED = [True]            # False while no local can be known INT_IF_OK (no audit began in the unit: kinds.py)


# ── knowing ──

def kind_of(e, known: dict):
    """The class (INT, FLOAT, BOOL) expression e is known to have, or None."""
    cls = e.__class__
    if cls is _Constant:
        t = type(e.value)
        return BOOL if t is bool else INT if t is int else FLOAT if t is float else None
    if cls is _Name:
        return known.get(e.id)
    if cls is _BinOp:
        a, b = kind_of(e.left, known), kind_of(e.right, known)
        op = e.op.__class__
        if a == INT and b == INT and op in (_Add, _Sub, _Mult, _Mod):
            return INT
        if {a, b} <= {INT, FLOAT} and FLOAT in (a, b) and op in (_Add, _Sub, _Mult):
            return FLOAT
        return None
    if cls is _Compare:
        if all(op.__class__ in (_Is, _IsNot) for op in e.ops):
            return BOOL
        if all(kind_of(x, known) in (INT, FLOAT) for x in [e.left] + e.comparators):
            return BOOL
        return None
    if cls is _UnaryOp and e.op.__class__ is _Not:
        return BOOL
    if cls is _BoolOp:
        return BOOL if all(kind_of(v, known) == BOOL for v in e.values) else None
    if cls is _Call:         # a fresh cell; an inlined builtin closed over exact integers, called on them
        if e.func.__class__ is _Name and e.func.id == 'NEW':
            return LIST
        if getattr(e, 'int_closed', False) and all(kind_of(a, known) == INT for a in e.args[1].elts):
            return INT
        return None
    if cls is _IfExp:
        a = kind_of(e.body, known)
        return a if a is not None and a == kind_of(e.orelse, known) else None
    return None


def _learned(test, known: dict) -> dict:
    """What holds in the branch where test is true: `n.__class__ is int` (and
    conjunctions of such) tell a local's class."""
    out = {}
    parts = test.values if test.__class__ is _BoolOp and test.op.__class__ is _And else [test]
    for t in parts:
        if t.__class__ is _Compare and len(t.ops) == 1 and t.ops[0].__class__ is _Is:
            left, right = t.left, t.comparators[0]
            if left.__class__ is _Attribute and left.attr == '__class__' and left.value.__class__ is _Name \
                    and right.__class__ is _Name and right.id in (INT, FLOAT):
                out[left.value.id] = right.id
    return out


# ── folding expressions ──

_LEAVES = frozenset((_Name, _Constant))     # expressions _fold gives back as they are


def _const(v, like):
    return ast.copy_location(_Constant(v), like)




def _fold(e, known: dict):
    """e with what `known` decides folded in."""
    cls = e.__class__
    if cls is _Name or cls is _Constant:
        return e
    if cls is _Attribute:           # (most expressions: `x.__class__`, a field of a cell)
        value = e.value
        if value.__class__ is not _Name and value.__class__ is not _Constant:
            new = _fold(value, known)
            if new is not value:
                e.value = new
        return e
    if cls is _Call:
        func = e.func
        if func.__class__ is not _Name and func.__class__ is not _Constant:
            new = _fold(func, known)
            if new is not func:
                e.func = new
        args = []           # (a new list, as every fold makes: a loop, no comprehension's frame)
        add = args.append
        for v in e.args:
            add(v if v.__class__ in _LEAVES else _fold(v, known) if isinstance(v, ast.expr) else v)
        e.args = args
        if 'uncounted' in e.__dict__ and e.uncounted and getattr(e, 'ok_known', False) \
                and all(kind_of(a, known) == INT for a in e.args[1:-1]):
            e.args[-1] = ast.copy_location(_Name('INTS', ast.Load()), e.args[-1])
        return e
    if cls is _Compare:
        left = e.left
        if left.__class__ is _Attribute:
            value = left.value
            if value.__class__ is not _Name and value.__class__ is not _Constant:
                left = _fold(left, known)
        elif left.__class__ is not _Name and left.__class__ is not _Constant:
            left = _fold(left, known)
        e.left = left
        comparators = e.comparators
        if len(comparators) == 1:       # (most: one operator)
            right = comparators[0]
            if right.__class__ is not _Name and right.__class__ is not _Constant:
                right = _fold(right, known)
            e.comparators = [right]
        else:
            e.comparators = [c if c.__class__ in _LEAVES else _fold(c, known) for c in comparators]
        if len(e.ops) == 1:
            left, op, right = e.left, e.ops[0].__class__, e.comparators[0]
            if (op is _Is or op is _IsNot) and (left.__class__ is _Constant or right.__class__ is _Constant):
                same = _is(left, right)             # (a literal that a fold put there: decided now)
                if same.__class__ is _Constant:
                    return _const(same.value is (op is _Is), e)
            if op is _Is and left.__class__ is _Attribute and left.attr == '__class__' \
                    and left.value.__class__ is _Name and right.__class__ is _Name:
                k = known.get(left.value.id)
                if k is not None and k != INT_IF_OK:
                    return _const(k == right.id, e)
            if (op is _Is or op is _IsNot) and left.__class__ is _Name and known.get(left.id) == LIST \
                    and right.__class__ is _Name and right.id in ('EMPTY', 'NIL'):
                return _const(op is _IsNot, e)       # a pair is neither
            if (op is _NotEq or op is _Eq) and left.__class__ is _Constant and right.__class__ is _Constant \
                    and left.value.__class__ is int and right.value.__class__ is int:
                return _const((left.value == right.value) is (op is _Eq), e)     # (`1000 != 0`: a literal divisor)
            if right.__class__ is _Constant and right.value is False and kind_of(left, known) == BOOL:
                if op is _IsNot:
                    return left
                if op is _Is:
                    return ast.copy_location(_UnaryOp(_Not(), left), e)
        return e
    if cls is _BoolOp:
        vals = []
        add = vals.append
        for v in e.values:
            add(v if v.__class__ in _LEAVES else _fold(v, known))
        stop, skip = (False, True) if e.op.__class__ is _And else (True, False)
        kept, tested = [], set()
        for v in vals:
            if v.__class__ is _Constant and v.value is skip:
                continue
            test = _class_test(v) if stop is False else None
            if test is not None:
                if test in tested:
                    continue            # (`x.__class__ is int and x.__class__ is int`: once)
                tested.add(test)
            elif v.__class__ is not _Name:
                tested.clear()          # (a test between may assign the name: `(x := …)`)
            if v.__class__ is _Constant and v.value is stop:
                if not kept:
                    return v
                kept.append(v)
                break
            kept.append(v)
        if not kept:
            return _const(skip, e)
        if len(kept) == 1:              # `True and x` is x, `False or x` is x
            return kept[0]
        e.values = kept
        return e
    if cls is _IfExp:
        e.test = _fold(e.test, known)
        if e.test.__class__ is _Constant and type(e.test.value) is bool:
            return _fold(e.body if e.test.value else e.orelse, known)
        if AUDITED[0] and _integers_if_ok(e, known):        # (INT_IF_OK known of none: OK decides no guard)
            e.test = ast.copy_location(_Name('OK', ast.Load()), e.test)
        e.body = _fold(e.body, known)
        e.orelse = _fold(e.orelse, known)
        return e
    if cls is _NamedExpr:            # the name changes here (evaluation follows the fields' order)
        e.value = _fold(e.value, known)
        known.pop(e.target.id, None)
        return e
    fields = _EXPR_FIELDS.get(cls)
    if fields is None:
        fields = _expr_fields(cls)
    d = e.__dict__
    for field in fields:
        value = d.get(field)
        c = value.__class__
        if c is list:
            d[field] = [v if v.__class__ in _LEAVES else _fold(v, known) if isinstance(v, ast.expr) else v
                        for v in value]
        elif c not in _LEAVES and value is not None and isinstance(value, ast.expr):    # (a name, a constant: as they are)
            new = _fold(value, known)
            if new is not value:
                d[field] = new
    if cls is _Call and getattr(e, 'uncounted', False) and getattr(e, 'ok_known', False) \
            and all(kind_of(a, known) == INT for a in e.args[1:-1]):
        e.args[-1] = ast.copy_location(_Name('INTS', ast.Load()), e.args[-1])
    return e


def _class_test(v):
    """(name, class name) if v is `name.__class__ is class`, else None."""
    if v.__class__ is _Compare and len(v.ops) == 1 and v.ops[0].__class__ is _Is \
            and v.left.__class__ is _Attribute and v.left.attr == '__class__' \
            and v.left.value.__class__ is _Name and v.comparators[0].__class__ is _Name:
        return v.left.value.id, v.comparators[0].id
    return None


_EXPR_FIELDS: dict = {}        # ast class -> the fields that hold expressions (made at its first node)


def _expr_fields(cls) -> tuple:
    """The fields of ast class cls that hold an expression or a list of
    them (as its signature, the class's docstring, types them)."""
    got = _EXPR_FIELDS.get(cls)
    if got is None:
        sig = (cls.__doc__ or '').split('\n')[0]
        inner = sig[len(cls.__name__) + 1:-1] if sig.startswith(cls.__name__ + '(') and sig.endswith(')') else None
        if inner is None:
            got = tuple(cls._fields)
        else:
            got = tuple(f for kind, f in (t.split(' ') for t in inner.split(', ') if t) if kind.rstrip('*?') == 'expr')
        _EXPR_FIELDS[cls] = got
    return got


def _integers_if_ok(e, known) -> bool:
    """True if IfExp e is an inlined builtin's guard (its other branch ends
    in the builtin's call) testing only that locals are exact integers, each
    known to be one, some only while OK holds: OK alone decides it."""
    other = e.orelse
    while other.__class__ is _IfExp:
        other = other.orelse
    if not (other.__class__ is _Call and other.func.__class__ is _Name and other.func.id == 'CALL_BUILTIN'):
        return False
    return _int_tests_if_ok(e.test, known)


def _int_tests_if_ok(test, known) -> bool:
    """True if test only tests that locals are exact integers, each known
    to be one, some only while OK holds (a guard whose other branch handles
    anything: OK alone may decide it)."""
    parts = test.values if test.__class__ is _BoolOp and test.op.__class__ is _And else [test]
    kinds = [_int_test_kind(t, known) for t in parts]
    return all(k in (INT, INT_IF_OK) for k in kinds) and INT_IF_OK in kinds


def _int_test_kind(t, known):
    """What is known of the local t tests to be an exact integer, if t is `n.__class__ is int`."""
    if t.__class__ is _Compare and len(t.ops) == 1 and t.ops[0].__class__ is _Is \
            and t.left.__class__ is _Attribute and t.left.attr == '__class__' \
            and t.left.value.__class__ is _Name and t.comparators[0].__class__ is _Name \
            and t.comparators[0].id == INT:
        return known.get(t.left.value.id)
    return None


def _pair_known(e):
    """The local that e, once it has a value, shows to be a pair: e is
    `x.car` (or cdr) behind the pair guard, else the builtin that fails
    unless x is a pair (inline.PAIR_ONLY)."""
    if e.__class__ is _IfExp and getattr(e.orelse, 'pair_only', False) and e.orelse.args[1].elts \
            and e.orelse.args[1].elts[0].__class__ is _Name:
        return e.orelse.args[1].elts[0].id
    return None
