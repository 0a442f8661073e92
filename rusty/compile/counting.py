"""A compiled function's own profile accounting, written only into the
profiler's variant of a lambda's code (lower.lower(counting=True)).

The code made by default counts nothing: a lambda's values run it while no
profiler is on. When the profiler comes on, the session's switch
(profiled.py) gives each linked value the variant of its code lowered with
this accounting, once per lambda, on the value's first call under the
profiler; it runs in a namespace of its own whose PROF is the profiler
(while it alone is on) and counts its calls with the steps of
`Profiler.enter` and `leave` (profiler.py): a row per lambda, keyed by its
body; each hop of a self tail call compiled as the loop is one more call, as
each hop of the reference's run loop is.

A function's call of itself (not a tail call: those are the loop) says so
with one more argument, SELF_CALL. That call is counted but not timed: its
row is its caller's, so its time is part of the caller's own time as it
stands, and the time of what it calls adds to the inner time of the timed
call it is inside (`prof_.inner`, which it leaves as it is). The figures are
the reference's, for two clock readings less per call (fib: most of the cost
of counting).
"""
from . import pyast as ast

from .nodes import assign, attr, attr_store, call, const, is_not, name, parts, store, walk_parts
from .support import SELF_CALL

PROF, ROW, SAVED, START, VALUE = 'prof_', 'prow_', 'psaved_', 'pstart_', 'pret_'
TIMED = 'ptime_'        # the profiler while this call is timed, else None


def function_body(stmts, handler, body, label, self_called: bool) -> list:
    """A function's statements `stmts` (in handler's try), counted: the
    entry's accounting, the call left before each return and in the handler."""
    failing(handler)
    return entry(body, label, self_called) + [ast.Try(counted(stmts), [handler], [], [])]


def generic(stmts: list, quick: list) -> list:
    """The statements of the default variant's general code after the copy
    entered first (lower.Lowering.uncounted): when that copy is the integer
    copy (kinds.specialize), only its other branch, which the copy's test
    failing chose (one test, one way out)."""
    if quick and len(stmts) == 1 and getattr(stmts[0], 'integer_copy', False):
        return stmts[0].orelse
    return stmts


def unmarked(stmts: list) -> bool:
    """Drop the SELF_CALL argument of the function's calls of itself in
    stmts (nested functions left alone), for default code that passes no
    INTS (lower.Lowering.uncounted): False, the parameter no longer needed."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if node.__class__ is ast.FunctionDef:
            continue
        if node.__class__ is ast.Call and getattr(node, 'self_call', False):
            node.args.pop()
            node.self_call = False
        todo += parts(node)
    return False


def _method(obj: str, m: str, *args):
    return call(attr(name(obj), m), *args)


def _when_on(stmts, who: str = PROF) -> ast.If:
    return ast.If(is_not(name(who), const(None)), stmts, [])


def entry(body, label, self_called: bool) -> list:
    """The statements opening a counted call of the lambda whose body (list)
    is the expression `body` and whose name is the expression `label`;
    `self_called`: the function has the SELF_CALL parameter."""
    row = ast.BoolOp(ast.Or(), [call(attr(attr(name(PROF), 'rows'), 'get'), body),
                                _method(PROF, 'named_row', body, label)])
    timed = [_add(ROW, 'active', 1),               # Profiler.enter, written out
             assign(SAVED, attr(name(PROF), 'inner')),
             ast.Assign([attr_store(name(PROF), 'inner')], const(0.0)),
             assign(START, call(name('CLOCK')))]
    if self_called:
        timed = [ast.If(name(SELF_CALL), [assign(TIMED, const(None))], timed)]
    return [ast.Assign([store(PROF), store(TIMED)], name('PROF')),
            _when_on([assign(ROW, row), _add(ROW, 'calls', 1)] + timed)]


def _add(obj: str, field: str, n: int):
    return ast.AugAssign(attr_store(name(obj), field), ast.Add(), const(n))


SPENT = 'pspent_'


def leave() -> ast.If:
    """Profiler.leave, written out (the code entered while profiling), for a timed call."""
    return _when_on(who=TIMED, stmts=[
        assign(SPENT, ast.BinOp(call(name('CLOCK')), ast.Sub(), name(START))),
        ast.AugAssign(attr_store(name(ROW), 'own'), ast.Add(),
                      ast.BinOp(name(SPENT), ast.Sub(), attr(name(TIMED), 'inner'))),
        _add(ROW, 'active', -1),
        ast.If(ast.UnaryOp(ast.Not(), attr(name(ROW), 'active')),
               [ast.AugAssign(attr_store(name(ROW), 'total'), ast.Add(), name(SPENT))], []),
        ast.Assign([attr_store(name(TIMED), 'inner')], ast.BinOp(name(SAVED), ast.Add(), name(SPENT)))])


def hop() -> ast.If:
    """One more call counted: a self tail call about to loop."""
    return _when_on([_add(ROW, 'calls', 1)])


def failing(handler: ast.ExceptHandler) -> None:
    """The handler's `raise X` becomes: the exception X, the call left, raise."""
    (r,) = handler.body
    handler.body = [assign(handler.name, r.exc), leave(), ast.Raise(name(handler.name), None)]


def counted(stmts: list) -> list:
    """stmts (a function's body, nested functions left alone) with the call
    left before each return and a hop counted before each `continue`."""
    out = []
    for st in stmts:
        cls = st.__class__
        if cls is ast.Return:
            v = st.value
            if v is None or v.__class__ in (ast.Name, ast.Constant):
                out += _at([leave()], st) + [st]
            else:
                out += _at([assign(VALUE, v), leave(), ast.Return(name(VALUE))], st)
            continue
        if cls is ast.Continue:
            out += _at([hop()], st) + [st]
            continue
        if cls is not ast.FunctionDef:
            for field in ('body', 'orelse', 'finalbody'):
                inner = getattr(st, field, None)
                if inner:
                    setattr(st, field, counted(inner))
            for h in getattr(st, 'handlers', ()):
                h.body = counted(h.body)
        out.append(st)
    return out


def _at(nodes: list, where) -> list:
    """nodes, each new node placed at statement `where`'s line (the code's
    lines map to spans: link.py's TABLE)."""
    for top in nodes:
        for node in walk_parts(top):
            if 'lineno' in node._attributes and not hasattr(node, 'lineno'):
                ast.copy_location(node, where)
    return nodes
