"""A call in compiled code whose head is a macro when it runs (a global that
became a macro while the compiled code was already running: link.Deopt only
sends the later calls back to the reference).

The expansion is evaluated, as the reference evaluates it, in reference
frames: one list per compiled scope around the call (Lowering.frames), made
of the compiled locals' values. That frame chain is the compiled code's
state while the expansion runs: after it returns, every slot is written back
into its Python local (a local of an enclosing Python function through
`nonlocal`), so a `set!` or a `define` of a bound name in the expansion
changes the compiled local, and a closure the compiled code made over it
sees the change. What the code knows of a local written back is kept sound:
the write-back of the function's own local is an ordinary assignment (its
kind is forgotten there, as after any assignment); a local of an enclosing
Python function is written into its closure cell (support.cells_back): its kind is
then known in no other function of the unit, and forgotten where the
function writing it does (Lowering.cell_written: kinds.simplify,
unchanged_by_others for kinds.specialize); a test hoisted out of a loop
(hoist.py) is computed again after each write-back in the loop; and a
local read before a call is not read after it instead
(Lowering.written_back: Lowering.in_order). Not seen by those facts: a
write-back by another activation of the same nested function (one that
calls itself, not in tail position) or by a nested function lowered later,
called while the one knowing the fact runs.

Not followed (the compiled code keeps its own locals): a frame the
expansion's own closures keep (their later writes, and the compiled code's
later writes, are not seen by the other), and a name the expansion adds to a
compiled frame (`define` of a name the frame does not bind).
"""
import ast

from .nodes import L, S, assign, call, const, name, store


def expansion(low, p: str, x, scope, span, fn, tail: bool, r: str) -> list:
    """The statements expanding macro p at call x (its value into r, or
    returned in tail position) in frames of the compiled locals, then
    writing the frames back into them."""
    f = low.fresh('t')
    key = low.k([x.cdr, scope, span, low.unit, [None, -1, None]])
    run = call(name('EXPAND'), name(p), key, name('d'), name('D'), name(f), const(tail))
    back = write_back(low, scope, fn, f)
    if not back:        # (no compiled local in sight: the frames are the enclosing reference's)
        run.args[4] = low.frames(scope, fn)
        return [ast.Return(run)] if tail else [assign(r, run)]
    out = [assign(f, low.frames(scope, fn)), assign(r, run)] + back
    return out + [ast.Return(name(r))] if tail else out


def write_back(low, scope, fn, f: str) -> list:
    """Statements giving each compiled local visible from scope its slot in
    the frame chain in f (innermost scope first), as Lowering.frames built
    it: fn's own locals by one assignment per scope, those of enclosing
    Python functions written into their closure cells by one call
    (support.cells_back) given `lambda: (a, b, …)`, whose closure holds
    those cells (naming fn itself would put fn in its own closure: every
    closure compiled code makes would be a cycle left to the collector);
    the names written are no longer deferred as unchanging (Lowering.in_order)."""
    out, outer = [], []
    hops = 0
    sc = scope
    while sc is not None and id(sc) in low.compiled_scopes:
        own = []
        for i in range(len(sc.names)):
            py, owner = low.vars[(id(sc), i + 2)]
            low.written_back.add(py)
            if owner is fn:
                own.append((i + 2, py))
            else:       # (a `nonlocal` would cost the function its integer copy: kinds.specialize)
                low.cell_written.setdefault(py, set()).add(fn.pyname)
                outer.append((hops, i + 2, py))
        out += _own_back(f, hops, own)
        hops += 1
        sc = sc.parent
    if outer:
        holder = ast.Lambda(ast.arguments([], [], None, [], [], None, []), ast.Tuple([name(py) for _, _, py in outer], L))
        st = ast.Expr(call(name('CELLS_BACK'), holder, name(f), low.k(tuple(outer))))
        st.written = {py for _, _, py in outer}         # (kinds.simplify forgets them there)
        out.append(st)
    for st in out:
        st.write_back = True        # (hoist.py computes its tests again after it)
    return out


def exit_values(low, scope, fn):
    """What an exit (exits.to_reference) passes the reference of the compiled
    locals visible from scope, and writes back after it: (layout: (scope,
    slots)… outermost first, as Lowering.frames nests them; fn's own locals
    in that order; those of enclosing Python functions in that order), each
    local marked written back (write_back's bookkeeping)."""
    chain = []
    sc = scope
    while sc is not None and id(sc) in low.compiled_scopes:
        chain.append(sc)
        sc = sc.parent
    layout, own, outer = [], [], []
    for sc in reversed(chain):
        layout.append((sc, len(sc.names)))
        for i in range(len(sc.names)):
            py, owner = low.vars[(id(sc), i + 2)]
            low.written_back.add(py)
            if owner is fn:
                own.append(py)
            else:
                low.cell_written.setdefault(py, set()).add(fn.pyname)
                outer.append(py)
    return tuple(layout), own, outer


def _own_back(f: str, hops: int, own: list) -> list:
    """The assignments of the function's own locals `own` ((slot, name)…) from the frame `hops` out."""
    if not own:
        return []
    fr = _frame(f, hops)
    if len(own) == 1:
        return [assign(own[0][1], ast.Subscript(fr, const(own[0][0]), L))]
    first = own[0][0]
    if [i for i, _ in own] == list(range(first, first + len(own))):
        target = ast.Tuple([store(py) for _, py in own], S)
        return [ast.Assign([target], ast.Subscript(fr, ast.Slice(const(first), const(first + len(own)), None), L))]
    return [assign(py, ast.Subscript(fr, const(i), L)) for i, py in own]


def _frame(f: str, hops: int):
    """The frame `hops` parents out from the one in f."""
    e = name(f)
    for _ in range(hops):
        e = ast.Subscript(e, const(0), L)
    return e



def unchanged_by_others(low, fn) -> set:
    """The Python names of the Lisp locals that only their binding form
    assigns (Lowering.stable), less those a function other than fn writes
    back into closure cells."""
    return low.stable - {py for py, writers in low.cell_written.items() if writers != {fn.pyname}}
