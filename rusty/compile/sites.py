"""A direct call's failures, reported by the calling function's one handler.

A compiled function calls a compiled lambda's function directly
(calls.Calls.direct_call: `r = fn(d + 1, a…)`, its arguments names or
constants, inside the gate). When the callee fails, run would append the
backtrace entry of the level it entered (support.call_failed: the call's
site and the lambda's name). Rather than a `try` around every such call,
each call is given a line of its own (`place`, after the passes: the code
is final) mapped in the function's `TABLE` to the call's site and in a
table of the module's sites to the Python name of the lambda it called (a
local, a closure's or a global: read from the frame when it fails). The
function's handler (support.failed_here) looks at the line its frame was
at: a site's line, and an exception that came from a frame below it (only
the call on that line runs one), is a failure of that call, made the
callee level's first (call_failed), then the function's own.
"""
import ast

from .nodes import statements


def place(fdef, table: dict, consts: list, sites: dict) -> None:
    """Give every direct call in fdef (and the functions it defines) a line
    of its own: in `table` its site (k… in `consts`), in the lets' table
    of its function (`lets`, set by lower.Lowering.function) the lets around
    it, and in `sites` the Python name of the lambda it calls. A copy of a
    body (kinds.twin) holds its own calls: each gets its own line."""
    todo = [fdef]
    while todo:
        f = todo.pop()
        lets = getattr(f, 'lets', None)
        for st in statements(f.body):
            cls = st.__class__
            if cls is ast.FunctionDef:
                todo.append(st)
            elif cls is ast.Assign or cls is ast.Return:        # (`return r` fused with `r = call`: finish.py)
                c = st.value
                lam = getattr(c, 'site_lam', None)
                if lam is not None:
                    n = len(table) + 1
                    table[n] = consts[int(c.site_key.id[1:])]
                    if lets:
                        around = lets.get(c.lineno)
                        if around:
                            lets[n] = around
                    c.lineno = n
                    tail = getattr(c, 'site_tail', None)
                    sites[n] = lam.id if tail is None else (lam.id, tail)


def callee(frame, py: str):
    """The value of Python name py in frame: a local, a closure's, a global."""
    v = frame.f_locals.get(py, _NONE)
    return frame.f_globals.get(py) if v is _NONE else v


_NONE = object()
