"""Tests a loop makes of a variable it never changes, made once before it.

A loop's body (a self tail loop, a walk) tests the values it calls and
computes with each time round: that a local procedure is a compiled lambda
of the arity, with a function to call directly (`p.__class__ is Lambda and
(q := p.code).__class__ is K`: compile/entry.py), or that a number is an exact
integer (`p.__class__ is int`). When p is a Lisp variable that only its
binding form assigns (a parameter or a `let` variable no `set!` targets:
Lowering.stable and bound_once) and the loop does not bind it, nothing can
change p while the loop runs (no other code may assign it), so the answer
is the same each time round. `hoist` computes it once before the loop,
into a local of its own:

- the procedure's Entry, or None: the test becomes `(q := h) is not None
  or <the test>` (a lambda compiled only later, no Entry yet at the loop's
  entry, is called directly once it is);
- the class test's value: the test becomes that local;
- a vector's length in an index's range test (`0 <= i < len(p.items)`):
  a vector never changes length (-1 when p is no vector: the test fails).

Such a p is bound before the loop can run (a parameter at the function's
entry, a `let` variable before its body), so reading it there cannot fail.
The one other writer of p is a macro expanded at run time in the loop
(expansion.py): its write-back is not counted as the loop assigning p, and
the hoisted tests are computed again after it.
"""
from . import pyast as ast

from .global_reads import global_reads
from .nodes import PARTS, attr, const, is_, is_not, name, parts, statements, store, walk_parts

_If, _IfExp, _Compare, _BoolOp, _And, _Is, _Attribute, _Name, _NamedExpr, _Call, _LtE, _Lt, _Constant, _Load = \
    ast.If, ast.IfExp, ast.Compare, ast.BoolOp, ast.And, ast.Is, ast.Attribute, ast.Name, ast.NamedExpr, ast.Call, \
    ast.LtE, ast.Lt, ast.Constant, ast.Load
_Assign, _AugAssign, _AnnAssign, _For, _FunctionDef, _Tuple, _List, _Starred = ast.Assign, ast.AugAssign, ast.AnnAssign, \
    ast.For, ast.FunctionDef, ast.Tuple, ast.List, ast.Starred
_CLASSES = frozenset(('int', 'float', 'List', 'Lambda', 'Symbol', 'VECTOR'))


def hoist(fdef: ast.FunctionDef, stable: set) -> None:
    """Hoist the invariant tests of every loop of fdef and of the functions
    it defines (`stable`: the Python names of the Lisp variables that only
    their binding form assigns), and their reads of globals
    (global_reads.py)."""
    count = [0]
    for node in _looping(fdef):
        node.body = _block(node.body, stable, count)


def _looping(fdef) -> list:
    """fdef and the functions defined in it (statements all: an expression
    holds none) that hold a loop of their own."""
    out, todo = [], [fdef]
    while todo:
        node = todo.pop()
        loops = False
        for st in statements(node.body):
            if st.__class__ is ast.FunctionDef:
                todo.append(st)
            elif st.__class__ is ast.While:
                loops = True
        if loops:
            out.append(node)
    return out


def _stores(loop) -> set:
    """The names the statements of loop assign (a function it defines: its
    name). Only statements assign a Lisp variable's local (an assignment
    inside an expression, `:=`, is a temporary's), and hoist asks only
    about those."""
    out = set()
    for st in statements([loop]):
        cls = st.__class__
        if getattr(st, 'write_back', False):     # (an expansion's write-back: hoisted tests are made again after it)
            continue
        if cls is _Assign:
            for t in st.targets:
                _names_into(t, out)
        elif cls is _AugAssign or cls is _AnnAssign or cls is _For:
            _names_into(st.target, out)
        elif cls is _FunctionDef:
            out.add(st.name)
    return out


def _names_into(target, out: set) -> None:
    """Add the names an assignment's target binds to out."""
    if target.__class__ is _Name:
        out.add(target.id)
    elif target.__class__ is _Tuple or target.__class__ is _List:
        for t in target.elts:
            _names_into(t, out)
    elif target.__class__ is _Starred:
        _names_into(target.value, out)


def _block(stmts: list, stable: set, count: list) -> list:
    """stmts with each loop preceded by its hoisted tests: a loop's tests
    of the variables it does not assign, an inner loop's of those it alone
    does not (not looking into nested functions: hoist visits each). The
    list itself where no loop is among stmts."""
    out, at = stmts, 0          # (at: how many statements out holds before stmts' current one)
    holding, While = _HOLDING, ast.While
    for st in stmts:
        cls = st.__class__
        if cls not in holding:      # (no block in it, or a function: hoist visits each)
            at += 1
            continue
        before = []
        if cls is While:
            fixed = stable - _stores(st)
            if fixed:
                before = _hoisted(st, fixed, count)
            before += _globals_hoisted(st, fixed, count)
            if before:
                _again_after_write_backs(st, before)
        d = st.__dict__
        for field in ('body', 'orelse', 'finalbody'):
            inner = d.get(field)
            if inner and inner.__class__ is list:
                d[field] = _block(inner, stable, count)
        for h in d.get('handlers', ()):
            h.body = _block(h.body, stable, count)
        if before:
            if out is stmts:
                out = list(stmts)
            out[at:at] = before
            at += len(before)
        at += 1
    return out


def _hoisted(loop: ast.While, fixed: set, count: list) -> list:
    """The statements computing loop's invariant tests (its body rewritten
    to use them)."""
    local, before = _before(loop, count)
    get = PARTS.get
    todo = [loop]
    Attribute, Compare = _Attribute, _Compare
    while todo:             # (loop's nodes, not inside a function it defines, parents first)
        node = todo.pop()
        cls = node.__class__
        if cls is Attribute:        # (most nodes: its one part looked at in place, unless a comparison)
            x = node.value
            c = x.__class__
            if c is not Compare:
                if c not in _PASSED:
                    todo.append(x)
                continue
        if cls is Compare:
            v = _range_of(node, fixed)
            if v is not None:       # (its bound a local: nothing else to hoist in it)
                node.comparators[1] = _at(name(local(('size', v), _size(v))), node)
        if cls is _If or cls is _IfExp:
            found = _callee_test(node.test, fixed)
            if found is not None:
                p, k, q = found
                value = ast.IfExp(ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Lambda')),
                                                         is_(attr(attr(name(p), 'code'), '__class__'), name(k))]),
                                  attr(name(p), 'code'), const(None))
                h = local(('direct', p, k), value)
                node.test = _at(ast.BoolOp(ast.Or(), [is_not(ast.NamedExpr(store(q), name(h)), const(None)),
                                                      node.test]), node.test)
                todo += _inner(parts(node))
                continue
        f = get(cls)
        try:
            kids = parts(node) if f is None else f(node)
        except AttributeError:      # (a field left out when the node was made)
            kids = parts(node)
        mark = len(todo)
        for x in kids:
            c = x.__class__
            if c in _PASSED:
                continue
            if c is _Compare and (y := x.left).__class__ is Attribute and (y := y.value).__class__ is _Name \
                    and y.id in fixed and _class_test(x, fixed) is not None:     # (of a fixed local, asked in full)
                _replace_class_tests(node, fixed, local)
                del todo[mark:]         # (its parts as they are now)
                todo += _inner(parts(node))
                break
            todo.append(x)
    return before


def _globals_hoisted(loop: ast.While, fixed: set, count: list) -> list:
    """The statements computing, before loop, its reads of globals and the
    tests of the vectors they give (global_reads.py; its body rewritten to
    use them)."""
    local, before = _before(loop, count)
    global_reads(loop, local, fixed)
    return before


def _before(loop: ast.While, count: list):
    """(local, before): local(key, value) names the local holding value,
    computed once in the statements `before` loop (count numbers them)."""
    made: dict = {}         # key -> the local holding the answer
    before = []

    def local(key, value):
        h = made.get(key)
        if h is None:
            count[0] += 1
            h = made[key] = 'hoisted%d_' % count[0]
            before.append(_at(ast.Assign([store(h)], value), loop))
        return h
    return local, before


def _again_after_write_backs(loop, before: list) -> None:
    """After each run of write-backs of an expansion in loop, the hoisted tests
    again: the very statements put before it where no loop inside it would
    hoist from them (no pass after rewrites them, and compile() reads a node
    shared by several places as a copy in each), else copies."""
    from .kinds import clone
    todo = [(loop, False)]
    While, FunctionDef = ast.While, ast.FunctionDef
    while todo:
        node, inner = todo.pop()
        d = node.__dict__
        for field in ('body', 'orelse', 'finalbody'):
            block = d.get(field)
            if not block or block.__class__ is not list:
                continue
            for i in range(len(block) - 1, -1, -1):
                if block[i].__dict__.get('write_back', False) and not (
                        i + 1 < len(block) and block[i + 1].__dict__.get('write_back', False)):
                    block[i + 1:i + 1] = [clone(b) for b in before] if inner else before
            for x in block:
                c = x.__class__
                if c is not FunctionDef and c in _HOLDING:
                    todo.append((x, inner or (c is While and x is not loop)))
        for h in d.get('handlers', ()):
            todo.append((h, inner))


# The statements that hold blocks (_again_after_write_backs looks into them).
_HOLDING = frozenset((ast.If, ast.While, ast.For, ast.Try, ast.With, ast.ExceptHandler))


def _replace_class_tests(node, fixed: set, local) -> None:
    """Each class test of a fixed local among node's fields, the local holding its answer."""
    for field in node._fields:
        v = getattr(node, field, None)
        if v.__class__ is list:
            for i, x in enumerate(v):
                if x.__class__ is ast.Compare:
                    cls = _class_test(x, fixed)
                    if cls is not None:
                        v[i] = _at(name(local(('class',) + cls, x)), x)
        elif v.__class__ is ast.Compare:
            cls = _class_test(v, fixed)
            if cls is not None:
                setattr(node, field, _at(name(local(('class',) + cls, v)), v))


_PASSED = frozenset((ast.Name, ast.Constant, ast.FunctionDef, ast.Lambda))    # (no test in them, or not the loop's)


def _inner(kids: list) -> list:
    """kids, less the functions (a def, a lambda) among them, and the names and constants."""
    return [x for x in kids if x.__class__ not in _PASSED]


def _at(new, old):
    """new, its nodes without a position given old's line."""
    for node in walk_parts(new):
        if 'lineno' in node._attributes and not hasattr(node, 'lineno'):
            node.lineno = node.end_lineno = old.lineno
            node.col_offset = node.end_col_offset = 0
    return new


def _callee_test(test, fixed: set):
    """(p, k, q) when test is `p.__class__ is Lambda and (q :=
    p.code).__class__ is k` (compile/entry.py: compiled, of k's arity) of a
    fixed p, else None."""
    if test.__class__ is not _BoolOp or test.op.__class__ is not _And or len(test.values) != 2:
        return None
    a, b = test.values
    p = _attr_of(_single(a, _Is), '__class__')
    if p is None or p not in fixed or not _is_name(a.comparators[0], 'Lambda'):
        return None
    b = _single(b, _Is)
    if b is None or b.left.__class__ is not _Attribute or b.left.attr != '__class__' \
            or b.left.value.__class__ is not _NamedExpr or _attr_of(b.left.value.value, 'code') != p \
            or b.comparators[0].__class__ is not _Name:
        return None
    return p, b.comparators[0].id, b.left.value.target.id


def _class_test(x, fixed: set):
    """(p, class name) when x is `p.__class__ is C` of a fixed p and one of
    the classes values have, else None."""
    if x.__class__ is not _Compare:
        return None
    p = _attr_of(_single(x, _Is), '__class__')
    if p is None or p not in fixed:
        return None
    c = x.comparators[0]
    if c.__class__ is not _Name or c.id not in _CLASSES:
        return None
    return p, c.id


def _range_of(x, fixed: set):
    """p when x is an index's range test `0 <= i < len(p.items)` (inline.py:
    a vector's) of a fixed p, else None."""
    if len(x.ops) != 2 or x.ops[0].__class__ is not _LtE or x.ops[1].__class__ is not _Lt \
            or x.left.__class__ is not _Constant or x.left.value != 0:
        return None
    size = x.comparators[1]
    if size.__class__ is not _Call or not _is_name(size.func, 'len') or len(size.args) != 1:
        return None
    p = _attr_of(size.args[0], 'items')
    return p if p in fixed else None


def _size(p: str):
    """`len(p.items) if p.__class__ is VECTOR else -1`: a vector's length
    (which never changes), or one no index is below (the test then fails,
    and the builtin is called, as it was when p is no vector)."""
    return ast.IfExp(is_(attr(name(p), '__class__'), name('VECTOR')),
                     ast.Call(name('len'), [attr(name(p), 'items')], []), const(-1))


def _single(x, op):
    """x if it is a comparison of one operator of class op."""
    if x.__class__ is _Compare and len(x.ops) == 1 and x.ops[0].__class__ is op:
        return x
    return None


def _attr_of(x, a: str):
    """The name whose attribute `a` x reads (x: a comparison, or an attribute), else None."""
    if x is None:
        return None
    if x.__class__ is _Compare:
        x = x.left
    if x.__class__ is _Attribute and x.attr == a and x.value.__class__ is _Name and x.ctx.__class__ is _Load:
        return x.value.id
    return None


def _is_name(x, n: str) -> bool:
    return x.__class__ is _Name and x.id == n
