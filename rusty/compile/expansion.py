"""A call in compiled code whose head is a macro when it runs (a global that
became a macro while the compiled code was already running: link.Deopt only
sends the later calls back to the reference).

The expansion is evaluated, as the reference evaluates it, in reference
frames: one list per compiled scope around the call (Lowering.frames), made
of the compiled locals' values, which exit_frames.expand_exit reads from the
frame of the function running (as exit_frames.reference_exit does for an
exit: exits.py). That frame chain is the compiled code's state while the
expansion runs: after it returns (or fails), each slot it changed is
written back into its Python local (a local of an enclosing Python
function through the function's closure cell: pinned), so a `set!` or a
`define` of a bound name in the expansion changes the compiled local, and
a closure the compiled code made over it sees the change. What the code
knows of a local written back is kept sound: the exit's statement names
the locals it may write (`written`: kinds.simplify forgets their kinds
there, as after an assignment); a local of an enclosing Python function
is then known in no other function of the unit, and forgotten where the
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
from . import pyast as ast

from .nodes import L, assign, call, const, name


def expansion(low, p: str, x, scope, span, fn, tail: bool, r: str) -> list:
    """The statements expanding macro p at call x (its value into r, or
    returned in tail position) in frames of the compiled locals, then
    writing back the slots it changed (as an exit does: exit_statement)."""
    layout, written = exit_values(low, scope, fn)
    if not layout:      # (no compiled local in sight: the frames are the enclosing reference's)
        key = low.k([x.cdr, scope, span, low.unit, [None, -1, None]])
        run = call(name('EXPAND'), name(p), key, name('d'), name('D'), name('E'), const(tail))
        return [ast.Return(run)] if tail else [assign(r, run)]
    key = low.k([x.cdr, scope, span, low.unit, [None, -1, None], layout, None])
    return [exit_statement(None if tail else r, written, call(name('EXPAND_EXIT'), name(p), key, const(tail)))]


def exit_statement(r, written, run):
    """`r = run`, or `return run` when r is None: the call `run` of the
    reference in frames of the compiled locals (`written`: their Python
    names), which exit_frames.reference_exit and expand_exit read (and E, d,
    D) from the calling function's frame and write back into it (the
    function's own locals, and those of enclosing Python functions through
    its closure cells: pinned); the locals written are marked on the
    statement for the passes after the lowering (`written`: kinds.simplify
    forgets what it knew of them there; `write_back`: hoist.py computes its
    tests again after it)."""
    if r is None:
        return ast.Return(run)
    st = assign(r, run)
    st.write_back = True
    st.written = written
    return st


def exit_values(low, scope, fn) -> tuple:
    """What an exit passes the reference of the compiled locals visible
    from scope, and writes back after it: (the layout ((scope, the Python
    names of its slots)…) outermost first, as Lowering.frames nests them;
    the set of those names), made once per scope of fn (Fn.exit_layouts),
    each local marked written back (Lowering.written_back), those of
    enclosing Python functions also as written by fn (Lowering.cell_written:
    kinds.simplify, unchanged_by_others; pinned)."""
    got = fn.exit_layouts.get(id(scope))
    if got is not None:
        return got
    chain = []
    sc = scope
    while sc is not None and id(sc) in low.compiled_scopes:
        chain.append(sc)
        sc = sc.parent
    layout, reads = [], set()
    for sc in reversed(chain):
        names = []
        for i in range(len(sc.names)):
            py, owner = low.vars[(id(sc), i + 2)]
            low.written_back.add(py)
            if owner is not fn:
                low.cell_written.setdefault(py, set()).add(fn.pyname)
                reads.add(py)
            names.append(py)
        layout.append((sc, tuple(names)))
    if layout:
        fn.exit_reads = (fn.exit_reads or set()) | reads
    got = fn.exit_layouts[id(scope)] = (tuple(layout), frozenset(py for _, names in layout for py in names))
    return got


def pinned(fn) -> list:
    """`if 0: (E, outer…)`, never run, in a function with exits: E and the
    locals of enclosing Python functions its exits read (exit_values),
    named in it so that Python makes them its free variables, seen in its
    frame (exit_frames.reference_exit)."""
    if fn.exit_reads is None:
        return []
    return [ast.If(const(0), [ast.Expr(ast.Tuple([name(py) for py in ['E'] + sorted(fn.exit_reads)], L))], [])]


def unchanged_by_others(low, fn) -> set:
    """The Python names of the Lisp locals that only their binding form
    assigns (Lowering.stable), less those a function other than fn writes
    back into closure cells."""
    return low.stable - {py for py, writers in low.cell_written.items() if writers != {fn.pyname}}
