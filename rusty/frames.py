"""Lisp frames for the debugger: an error's frames (`,frames`, `,locals`) and
the environment a `(breakpoint)` was called in.

A backtrace entry of an error is `(site, name, entry, frame)` (apply.run
adds the frame it was running; a native's entry has no frame). A frame is the
evaluator's list `[parent, scope, slot…]`, or, from a fast path that keeps
its locals elsewhere, any object with `names` and `values()`.
"""
import os
import sys

from .errors import Span
from .resolve import FIRST_SLOT, UNBOUND, Scope

HERE = os.path.dirname(os.path.abspath(__file__))


class Frame:
    """One Lisp frame of an error: the procedure, where in it the evaluation
    was (a Span or None), its frame (None when none was recorded)."""
    __slots__ = ('name', 'span', 'frame')

    def __init__(self, name: str, span, frame):
        self.name, self.span, self.frame = name, span, frame


def error_frames(err) -> list:
    """The Lisp frames of error `err`, innermost first: each procedure with
    the position it had reached (the failing form, then each call site)."""
    out = []
    where = err.span
    for entry in err.trace:
        out.append(Frame(entry[1], where, entry[3] if len(entry) > 3 else None))
        where = entry[0]
    return out


def failing_frame(tb, frame):
    """The frame a procedure running in `frame` failed in, from the host
    traceback `tb` under its run (read at once: a kept traceback's frames
    reach every caller's): the Lisp frame of the innermost evaluating host
    frame (every evaluating closure calls it `f`) that lies within `frame` (a
    `let`'s around the failing form, or, for a caller, around its call), else
    `frame`."""
    evaluating = []
    while tb is not None:
        if 'f' in tb.tb_frame.f_code.co_varnames:
            evaluating.append(tb.tb_frame)
        tb = tb.tb_next
    for py in reversed(evaluating):        # innermost first; a builtin's `f` (a procedure) is passed over
        f = py.f_locals.get('f')
        if _lisp_frame(f) and _within(f, frame):
            return f
    return frame


def _within(f, frame) -> bool:
    while f.__class__ is list and f is not frame:
        f = f[0]
    return f is frame


def _lisp_frame(f) -> bool:
    return f.__class__ is list and len(f) >= FIRST_SLOT and f[1].__class__ is Scope


def bindings(frame) -> list:
    """[(name, value)…] of a frame's own variables (unset ones left out)."""
    if frame is None:
        return []
    if frame.__class__ is list:
        scope = frame[1]
        names = scope.names if scope is not None else []
        values = frame[FIRST_SLOT:FIRST_SLOT + len(names)]
    else:
        names, values = frame.names, frame.values()
    return [(getattr(n, 'name', n), v) for n, v in zip(names, values) if v is not UNBOUND]


def outer_bindings(frame) -> list:
    """[(name, value)…] of the frames around `frame` (closures' and lets'
    enclosing variables), nearest first, a name shown once."""
    seen = set(n for n, _ in bindings(frame))
    out = []
    while frame.__class__ is list and frame[0] is not None:
        frame = frame[0]
        for n, v in bindings(frame):
            if n not in seen:
                seen.add(n)
                out.append((n, v))
    return out


def where(span) -> str:
    if span is None:
        return '<unknown>'
    return '%s:%d:%d' % (span.file, span.line, span.col)


# ── Where a breakpoint was called ────────────────────────────────────────

class Env:
    """Where a breakpoint was called: the Lisp frame list (None at top
    level) and the call's span (None if not found)."""
    __slots__ = ('frame', 'span')

    def __init__(self, frame, span):
        self.frame, self.span = frame, span


def caller_env(depth_limit: int = 200) -> Env:
    """The Lisp frame the nearest evaluating code on the host stack runs in:
    the first host frame (from the caller outward) of rusty's own code whose
    local `f` is a frame list, or None for top-level code; and the call's
    span (the nearest `span`/`SPAN` local)."""
    py = sys._getframe(1)
    span = None
    for _ in range(depth_limit):
        if py is None:
            break
        local = py.f_locals
        if span is None:
            s = local.get('span', local.get('SPAN'))
            if s.__class__ is Span:
                span = s
        if 'f' in local and _rusty_code(py.f_code.co_filename):
            f = local['f']
            if f is None or _lisp_frame(f):
                return Env(f, span)
        py = py.f_back
    return Env(None, span)


def _rusty_code(filename: str) -> bool:
    return filename.startswith('<rusty') or filename.startswith(HERE)
