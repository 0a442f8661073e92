"""The lines of the calls compiled code makes directly (sites.py: their
failures are reported by the function's handler, through these lines),
given once the lowering's passes are done. Apart from sites.py, which runs
with the code: this half needs the `ast` module, which a run on code from
the disk cache never imports."""
from . import pyast as ast

from .nodes import statements


def place(fdef, table: dict, consts: list, sites: dict) -> None:
    """Give every call made directly in fdef (and the functions it defines)
    a line of its own: in `table` its site (k… in `consts`), in the lets'
    table of its function (`lets`, set by lower.Lowering.function) the lets
    around it, and in `sites` the Python name of the lambda it calls (with,
    for a tail call, whether D.tails counts it). A copy of a body
    (kinds.twin) holds its own calls: each gets its own line."""
    todo = [fdef]
    FunctionDef, Assign, Return, Call = ast.FunctionDef, ast.Assign, ast.Return, ast.Call
    while todo:
        f = todo.pop()
        lets = getattr(f, 'lets', None)
        for st in statements(f.body):
            cls = st.__class__
            if cls is FunctionDef:
                todo.append(st)
            elif cls is Assign or cls is Return:        # (`return r` fused with `r = call`: finish.py)
                c = st.value
                if c.__class__ is not Call:         # (a call's marks: Calls.direct_call's, tail_site's)
                    continue
                lam = c.__dict__.get('site_lam')
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
