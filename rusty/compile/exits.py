"""The one way out of a call site's fast path: when what the code assumed of
the call no longer holds (OK is false: a global it reads changed; the global
called is no longer what it was when lowered; a macro now), the whole call
form runs on the reference, in frames made of the compiled locals' values,
as support.expand_at runs a macro's expansion, and each slot the form
changed is written back after it (expansion.exit_statement; the locals
read from, and written into, the frame of the function taking the exit:
exit_frames.reference_exit). The form's reference code is made the first time
the exit is taken (support.reference_site) and kept.

So the generic code of a site costs a few statements, whatever the size of
the form: its arguments are not compiled a second time without their fast
paths. An exit is taken only before anything of the call has been evaluated
(the head is read, or OK tested, first), so the reference evaluates the
whole form exactly as it would have.

Not followed, as for a macro expanded at run time (expansion.py): a closure
the form makes on the reference keeps the frames it was made in, so its
later writes and the compiled code's later writes to a local they share are
not seen by the other (writes made while the form runs are written back);
nor does the form see what a closure compiled code made writes to such a
local while the form runs (the closure's write stays, unless the form
sets the local too).
An exit happens only once an assumption failed: a global the code assumed
was redefined while the call ran."""
from . import pyast as ast

from .expansion import exit_statement, exit_values
from .nodes import call, name


def to_reference(low, x, scope, span, fn, tail: bool):
    """The statements running call x on the reference (tail: returning its
    value or pending tail call), else (statements, expression of its value):
    `r = EXIT(key)` (expansion.exit_statement; exit_frames.reference_exit reads
    the compiled locals, E and d from the frame of the function calling it)."""
    layout, written = exit_values(low, scope, fn)
    if not layout:      # (no compiled local in sight: the frames are the enclosing reference's)
        run = call(name('REF'), low.k([x, scope, tail, span, low.unit, None]), name('E'), name('d'), name('D'))
        return [ast.Return(run)] if tail else ([], run)
    run = call(name('EXIT'), low.k([x, scope, tail, span, low.unit, None, layout, None]))
    if tail:
        return [exit_statement(None, written, run)]
    r = low.fresh('r')
    return [exit_statement(r, written, run)], name(r)
