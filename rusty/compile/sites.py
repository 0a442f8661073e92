"""A call's failures: what run does with an exception leaving the level a
call entered (call_failed; after a tail call made directly, tailed), and
how compiled code reports a failure of a call it made directly with no
`try` of the call's own.

A compiled function calls a compiled lambda's function directly
(calls.Calls.direct_call: `r = fn(d + 1, a…)`, its arguments names or
constants, inside the gate; a tail call, `r = fn(d, a…)`:
Calls.tail_site). When the callee fails, run would append the backtrace
entry of the level it entered (call_failed: the call's site and the
lambda's name). Rather than a `try` around every such call, each call is
given a line of its own (call_lines.place, after the passes: the code is final)
mapped in the function's `TABLE` to the call's site and in a table of the
module's sites to the Python name of the lambda it called (a local, a
closure's or a global: read from the frame when it fails). The function's
handler (support.failed_here) looks at the line its frame was at: a site's
line, and an exception that came from a frame below it (only the call on
that line runs one), is a failure of that call, made the callee level's
first (from_call), then the function's own.
"""
from ..apply import located
from ..errors import RustyError, give_back_if_out_of_memory
from .frame_views import reference_frame


def from_call(e, sites: dict, table: dict, D):
    """e, leaving a compiled function, as the level a call made directly at
    the line its frame was at entered leaves it (`sites`: line -> the name
    of the lambda a direct call there calls, or (that name, counted in
    D.tails) for a tail call made directly; `table`: line -> site), if it
    came from that call (a frame below); else e."""
    tb = e.__traceback__
    if tb is None or tb.tb_next is None:
        return e
    py = sites.get(tb.tb_lineno)
    if py.__class__ is str:
        e = call_failed(e, callee(tb.tb_frame, py), table.get(tb.tb_lineno), D)
        if e.__traceback__ is None:
            e.__traceback__ = tb        # (the line failed at, for frame_views.frame_of)
    elif py is not None:
        if py[1]:
            D.tails -= 1
        e = tailed(e, table.get(tb.tb_lineno), callee(tb.tb_frame, py[0]))
    return e


def call_failed(e, p, site, D):
    """What run does with an exception leaving lambda p's run level entered at site."""
    give_back_if_out_of_memory(e)
    owner = e.__dict__.pop('rusty_owner', None)     # (the function that failed at the level: rusty_frame's)
    if isinstance(e, RustyError):
        here, name = _tail(e, site, p)
        e.trace.append((here, name, site, _frame(e, p if owner is None else owner)))
        e.__traceback__ = None
        return e
    if isinstance(e, KeyboardInterrupt):
        here, name = _tail(e, site, p)
        frame = _frame(e, p if owner is None else owner)
        err = located(e, here, D)
        err.trace.append((here, name, None, frame))
        return err
    return e


def _frame(e, lam):
    """The level's frame for the backtrace entry: the one the reference's run
    would record (over lam's env), from the failing function's rusty_frame."""
    seen = e.__dict__.pop('rusty_frame', None)
    if seen is None:
        return None
    return reference_frame(e, seen, lam)


def _tail(e, site, p):
    """(site, name) of the call the failing run level last made: a tail call's, else its entry."""
    t = e.__dict__.pop('rusty_tail', None)
    return (site, p.name) if t is None else t


def tailed(e, site, lam):
    """An exception leaving a tail call made directly (a named let's first
    call): the run level's last call was that one."""
    if isinstance(e, RustyError) or isinstance(e, KeyboardInterrupt):
        if 'rusty_tail' not in e.__dict__:
            e.rusty_tail = (site, lam.name)
        if 'rusty_owner' not in e.__dict__:
            e.rusty_owner = lam     # (the function that failed at the level: its frame, for enter)
    return e


def callee(frame, py: str):
    """The value of Python name py in frame: a global (a k…, or SELF where
    the code has its own globals: no local has such a name), else a local
    or a closure's (f_locals copies every local: only when needed)."""
    v = frame.f_globals.get(py, _NONE)
    return frame.f_locals[py] if v is _NONE else v


_NONE = object()
