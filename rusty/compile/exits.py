"""The one way out of a call site's fast path: when what the code assumed of
the call no longer holds (OK is false: a global it reads changed; the global
called is no longer what it was when lowered; a macro now), the whole call
form runs on the reference, in frames made of the compiled locals' values,
as support.expand_at runs a macro's expansion, and every local is written
back after it (expansion.write_back). The form's reference code is made the
first time the exit is taken (support.reference_site) and kept.

So the generic code of a site costs a few statements, whatever the size of
the form: its arguments are not compiled a second time without their fast
paths. An exit is taken only before anything of the call has been evaluated
(the head is read, or OK tested, first), so the reference evaluates the
whole form exactly as it would have.

Not followed, as for a macro expanded at run time (expansion.py): a closure
the form makes on the reference keeps the frames it was made in, so its
later writes and the compiled code's later writes to a local they share are
not seen by the other (writes made while the form runs are written back).
An exit happens only once an assumption failed: a global the code assumed
was redefined while the call ran."""
import ast

from .expansion import write_back
from .nodes import assign, call, name


def to_reference(low, x, scope, span, fn, tail: bool):
    """The statements running call x on the reference (tail: returning its
    value or pending tail call), else (statements, expression of its value)."""
    key = low.k([x, scope, tail, span, low.unit, None])
    f = low.fresh('t')
    run = call(name('REF'), key, name(f), name('d'), name('D'))
    back = write_back(low, scope, fn, f)
    if not back:        # (no compiled local in sight: the frames are the enclosing reference's)
        run.args[1] = low.frames(scope, fn)
        return [ast.Return(run)] if tail else ([], run)
    r = low.fresh('r')
    out = [assign(f, low.frames(scope, fn)), assign(r, run)] + back
    return out + [ast.Return(name(r))] if tail else (out, name(r))
