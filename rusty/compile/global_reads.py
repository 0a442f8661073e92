"""A loop's reads of globals, and the tests of the vectors they give, made
once before it (hoist.py's part for globals).

A global read (variables.global_read) is `x = t if (t := k.value) is not
MISSING else GLOBAL_MISSING(…)`. While the loop runs no Lisp code, nothing
can change k's value: every call in it is one that runs none (guards.QUIET),
or an exit to the reference (a form run there may `set!` or `define` any
global), after whose write-back hoist.py computes its hoisted values again.
A loop with any other call (a Lisp function called, a global written: the
cell's `set`) keeps its reads as they are. In a loop that qualifies:

- k.value is read once before it, into a local g, which the read tests for
  MISSING as before (so an unbound global is reported where it is read:
  `x = g if g is not MISSING else GLOBAL_MISSING(…)`);
- a test that the read's value is a vector, `x.__class__ is VECTOR`, and the
  vector's length in an index's range test, `len(x.items)`, in the
  statements after the read that use its value (up to the first that may
  change x, or a write-back), become locals computed from g before the
  loop: `g.__class__ is VECTOR` and `len(g.items)` (-1 for no vector). When
  g is a vector, the read gave g itself; when it is not (MISSING: a dyn
  binding or a value made on first read), the test is false and the
  builtin is called, as for any other value: a vector never changes length.
"""
from . import pyast as ast

from .guards import quiet_or_exit
from .kinds import clone as kinds_clone
from .nodes import attr, const, is_, name, walk_parts


def global_reads(loop: ast.While, local, fixed=frozenset()) -> None:
    """Rewrite loop's global reads to use values computed before it
    (`local(key, value)`: the name of a local holding value, computed before
    the loop and again after each write-back, made once per key; `fixed`:
    the locals the loop never assigns)."""
    reads = [(block, i, got) for block in _blocks(loop) for i, st in enumerate(block)
             if (got := _read(st)) is not None]
    if not reads:
        return
    quiet, stores = _looks(loop)
    if not quiet:
        return
    for block, i, (target, held, cell) in reads:
        st = block[i]
        g = local(('global', cell), attr(name(cell), 'value'))
        st.value.test.left = ast.copy_location(name(g), held)     # (`x = g if g is not MISSING else …`)
        st.value.body = ast.copy_location(name(g), st.value.body)
        _uses(block, i + 1, target, g, local, None if stores else fixed)


def _looks(loop) -> tuple:
    """(whether every call in loop runs no Lisp code but an exit's, whether
    it stores into an item: a vector-set! made in place, its builtin beside
    it). An exit (EXIT, EXPAND_EXIT) is always a statement of its own that
    writes back (expansion.exit_statement) or returns; a nested function is
    made only to be called (a call of it is no QUIET call)."""
    stores = False
    Call, Subscript, Store = ast.Call, ast.Subscript, ast.Store
    for node in walk_parts(loop):
        cls = node.__class__
        if cls is Call:
            if not quiet_or_exit(node.func):
                return False, stores
        elif cls is Subscript:
            stores = stores or node.ctx.__class__ is Store
        elif cls is ast.Lambda or cls is ast.FunctionDef:
            return False, stores
    return True, stores


def _uses(block, start, x, g, local, fixed) -> None:
    """In the statements of block from start that use x's value (up to
    the first that may change x, or a write-back), x's vector tests made
    from g; with `fixed` (the loop stores into no vector), an item of it
    read at a fixed index is read before the loop too, and so on."""
    for j in range(start, len(block)):
        later = block[j]
        if later.__class__ is ast.If:           # (a store made in place: vector-set!) its test, then no further
            if not any(n.__class__ is ast.NamedExpr for n in walk_parts(later.test)):
                holder = ast.Expr(later.test)
                _vector_tests(holder, x, g, local)
                later.test = holder.value
            return
        if later.__class__ is not ast.Assign and later.__class__ is not ast.Expr \
                or getattr(later, 'write_back', False):
            return
        _vector_tests(later, x, g, local)
        if fixed is not None:
            item = _item(later, x, g, fixed)
            if item is not None:
                y, value, orig = item
                h = local(('item', g, ast.dump(value)), value)
                later.value = _placed(ast.IfExp(ast.Compare(name(h), [ast.IsNot()], [name('MISSING')]), name(h), orig),
                                      orig)
                _uses(block, j + 1, y, h, local, fixed)
                return
        if _assigns(later, x):
            return


def _item(st, x: str, g: str, fixed):
    """(y, the value read before the loop, st's value) if st is `y = x.items[i] if T else …`
    whose test T reads only fixed locals, hoisted ones and constants (x's own tests made from g):
    the value `g.items[i] if T else MISSING`."""
    if st.__class__ is not ast.Assign or len(st.targets) != 1 or st.targets[0].__class__ is not ast.Name:
        return None
    e = st.value
    if e.__class__ is not ast.IfExp or e.body.__class__ is not ast.Subscript or _attr_of(e.body.value, 'items') != x:
        return None
    index = e.body.slice
    if not (index.__class__ is ast.Name and index.id in fixed or index.__class__ is ast.Constant):
        return None
    for n in walk_parts(e.test):
        if n.__class__ is ast.Name and not (n.id in fixed or n.id.startswith('hoisted')) \
                or n.__class__ is ast.Call and not (n.func.__class__ is ast.Name and n.func.id == 'len') \
                or n.__class__ is ast.NamedExpr:
            return None
    body = ast.Subscript(attr(name(g), 'items'), kinds_clone(index), ast.Load())
    return st.targets[0].id, ast.IfExp(kinds_clone(e.test), body, name('MISSING')), e


def _blocks(loop) -> list:
    """Every statement list in loop (its body, and those of the statements in it)."""
    out, todo = [], [loop]
    while todo:
        st = todo.pop()
        for field in ('body', 'orelse', 'finalbody'):
            block = getattr(st, field, None)
            if block and block.__class__ is list:
                out.append(block)
                todo += block
        for h in getattr(st, 'handlers', ()):
            out.append(h.body)
            todo += h.body
    return out


def _read(st):
    """(x, the NamedExpr, k) if st is `x = t if (t := k.value) is not MISSING else GLOBAL_MISSING(k, …)`."""
    if st.__class__ is not ast.Assign or len(st.targets) != 1 or st.targets[0].__class__ is not ast.Name:
        return None
    e = st.value
    if e.__class__ is not ast.IfExp or e.test.__class__ is not ast.Compare or len(e.test.ops) != 1 \
            or e.test.ops[0].__class__ is not ast.IsNot:
        return None
    held, other = e.test.left, e.orelse
    if held.__class__ is not ast.NamedExpr or held.value.__class__ is not ast.Attribute \
            or held.value.attr != 'value' or held.value.value.__class__ is not ast.Name:
        return None
    if other.__class__ is not ast.Call or other.func.__class__ is not ast.Name or other.func.id != 'GLOBAL_MISSING' \
            or not other.args or other.args[0].__class__ is not ast.Name \
            or other.args[0].id != held.value.value.id:
        return None
    return st.targets[0].id, held, held.value.value.id


def _assigns(st, target: str) -> bool:
    """True if st may give `target` another value (an assignment, a `:=`)."""
    if any(t.__class__ is not ast.Name or t.id == target for t in getattr(st, 'targets', ())):
        return True
    return any(n.__class__ is ast.NamedExpr and n.target.id == target for n in walk_parts(st))


def _vector_tests(st, x: str, g: str, local) -> None:
    """In st, `x.__class__ is VECTOR` and `len(x.items)`, the locals computed from g."""
    todo = [st]
    while todo:
        node = todo.pop()
        for field, value in ast.iter_fields(node):
            if value.__class__ is list:
                for i, v in enumerate(value):
                    new = _vector_test(v, x, g, local)
                    if new is not None:
                        value[i] = ast.copy_location(new, v)
                    elif isinstance(v, ast.AST):
                        todo.append(v)
            elif isinstance(value, ast.AST):
                new = _vector_test(value, x, g, local)
                if new is not None:
                    setattr(node, field, ast.copy_location(new, value))
                else:
                    todo.append(value)


def _vector_test(v, x: str, g: str, local):
    """The local standing for v, if v is x's class test against VECTOR or its items' length; else None."""
    if v.__class__ is ast.Compare and len(v.ops) == 1 and v.ops[0].__class__ is ast.Is \
            and _attr_of(v.left, '__class__') == x and v.comparators[0].__class__ is ast.Name \
            and v.comparators[0].id == 'VECTOR':
        return name(local(('vector', g), is_(attr(name(g), '__class__'), name('VECTOR'))))
    if v.__class__ is ast.Call and v.func.__class__ is ast.Name and v.func.id == 'len' and len(v.args) == 1 \
            and _attr_of(v.args[0], 'items') == x:
        size = ast.IfExp(is_(attr(name(g), '__class__'), name('VECTOR')),
                         ast.Call(name('len'), [attr(name(g), 'items')], []), const(-1))
        return name(local(('size', g), size))
    return None


def _placed(new, old):
    """new, its nodes without a position given old's."""
    for n in walk_parts(new):
        if 'lineno' in n._attributes and not hasattr(n, 'lineno'):
            ast.copy_location(n, old)
    return new


def _attr_of(x, a: str):
    if x.__class__ is ast.Attribute and x.attr == a and x.value.__class__ is ast.Name:
        return x.value.id
    return None
