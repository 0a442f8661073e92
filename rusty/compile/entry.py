"""What a compiled lambda value runs when called the reference's way (its
`code`, a frame in): an Entry, a partial application of support.enter to the
value's positional function. The Entry also carries, for compiled code that
calls the value, the positional function itself (`direct`) and the one a tail
call may enter at its caller's depth (`leaf`, or None): the reference's
Lambda knows nothing of them. An Entry's class says the function's arity:
compiled code asks `(q := p.code).__class__ is <the class of n>` (compiled,
and of n parameters) in one test, then calls `q.direct` (unwrap)."""
from _functools import partial     # (the C module; and no ast here: this module is loaded at start-up)


class Entry(partial):
    """The entry of a compiled lambda value of no fixed arity (a rest parameter)."""
    __slots__ = ('direct', 'leaf')


CLASSES: list = []      # arity -> its Entry class


def entry_class(n: int):
    """The Entry class of compiled lambdas of n parameters (made once)."""
    while len(CLASSES) <= n:
        CLASSES.append(type('Entry%d' % len(CLASSES), (Entry,), {'__slots__': ()}))
    return CLASSES[n]


def make(enter, fn, D, end, fast: int, leaf=None) -> Entry:
    """The Entry of positional function fn (enter's arguments D and end), of arity fast (-1: none)."""
    e = (entry_class(fast) if fast >= 0 else Entry)(enter, fn, D, end)
    e.direct, e.leaf = fn, leaf
    return e


def direct_of(p):
    """The positional function of lambda value p when compiled with a fixed arity, else None."""
    code = p.code
    return code.direct if isinstance(code, Entry) and code.__class__ is not Entry else None


def leaf_of(p):
    """p's leaf function (see the module's docstring), else None."""
    code = p.code
    return code.leaf if isinstance(code, Entry) and code.__class__ is not Entry else None


# ── for the lowering ──

def test(low, p, q: str, n: int):
    """The test that the value of expression p (a Lambda) is compiled with n
    parameters, its Entry into q (then unwrap(q) gives its function)."""
    from . import pyast as ast
    from .nodes import attr, store
    return ast.Compare(attr(ast.NamedExpr(store(q), attr(p, 'code')), '__class__'), [ast.Is()],
                       [low.k(entry_class(n))])


def unwrap(q: str):
    """The statement putting in q the positional function of the Entry in q
    (a call of a local runs faster than one of an attribute: no method lookup)."""
    from . import pyast as ast
    from .nodes import L, name, store
    return ast.Assign([store(q)], ast.Attribute(name(q), 'direct', L))


def leaf_test(q: str):
    """`(q := q.leaf) is not None`: the leaf function of the Entry in q, if any."""
    from . import pyast as ast
    from .nodes import L, name, store
    return ast.Compare(ast.NamedExpr(store(q), ast.Attribute(name(q), 'leaf', L)), [ast.IsNot()],
                       [ast.Constant(None)])


# ── the linked function's maker ──

MAKER = 'linker_'       # the function a lowered lambda's module defines: MAKER(E, SELF) -> the value's function


def maker(mod, pyname: str):
    """Module mod defining the root's function `pyname` made the Module
    defining MAKER(E, SELF), which gives that function for one lambda value
    (SELF) and the frame around it (E), both closure cells of it: linking a
    value is a call of the maker (link.Linker), and every value's function
    shares the lambda's globals. (A function that names neither has no
    cell: the value, its Entry and function are no cycle, freed without
    the collector.)"""
    from . import pyast as ast
    fdef = mod.body[0]
    at = fdef.lineno
    outer = _at(ast.FunctionDef(name=MAKER, args=ast.arguments(posonlyargs=[], args=[_at(ast.arg('E'), at), _at(
        ast.arg('SELF'), at)], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[
        fdef, _at(ast.Return(_at(ast.Name(pyname, ast.Load()), at)), at)], decorator_list=[]), at)
    return ast.Module([outer], [])


def _at(node, line: int):
    node.lineno = node.end_lineno = line
    node.col_offset = node.end_col_offset = 0
    return node
