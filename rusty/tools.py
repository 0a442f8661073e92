"""The session's debugging tools where they meet application: trace and profile.

While a procedure is traced or the profiler runs, the session's depth gate
(`apply.Depth.gate`) is -1, so `apply.run` (and every fast path that applies
a lambda, each with the same test) hands each application to `stand_in`. The
stand-in is not a lambda: its code applies the real procedure, follows its
tail calls itself (so a traced tail call keeps its depth, and the profiler
sees each procedure of the chain) and returns the value. When no tool is on
the gate is the depth limit again and application costs what it did.
Compiled code, while the profiler alone is on, counts its own calls and
runs at full speed (see profiler.py); the stand-in leaves its hops alone.
"""
import sys
from _functools import partial
from time import perf_counter

from .apply import interrupted_in
from .errors import EvalError, RustyError, give_back_if_out_of_memory
from .frames import failing_frame
from .printer import write_form
from .values import Builtin, Lambda, Macro, Native, NativeGrad, type_name

TRACE_WIDTH = 1000      # a longer trace line is cut, with … at the end


class StandIn:
    """What `run` applies in a procedure's place while a tool is on."""
    __slots__ = ('code', 'name')

    def __init__(self, code):
        self.code = code
        self.name = 'tools'


class Tools:
    """One session's trace set, trace depth and running profiler."""

    def __init__(self, depth, err):
        self.depth = depth
        self.err = err              # () -> the standard error stream
        self.traced = {}            # Lambda -> the name it was traced as
        self.level = 0              # traced calls in progress (their indentation)
        self.profiler = None
        self.p = self.site = None
        self._general = StandIn(self._apply)
        self.stand_in = self._general

    # ── Switching ──

    def update_gate(self) -> None:
        """The gate down (-1) while a tool is on, else back at the limit."""
        D = self.depth
        alone = self.profiler if not self.traced else None
        D.set_gate(-1 if (self.traced or self.profiler is not None) else D.limit, alone)   # (first: the watchers
        if alone is not None:                                                             # set counts_itself)
            self.stand_in = StandIn(profiled_apply(self, alone))
        else:
            self.stand_in = self._general

    def trace(self, name: str, value) -> None:
        """Trace the lambda `value` (the global `name`'s value)."""
        if value.__class__ is not Lambda:
            raise EvalError("trace: %s is not a procedure written in rusty (it is %s)"
                            % (name, _kind(value)))
        self.traced[value] = name
        self.update_gate()

    def untrace(self, value=None) -> None:
        """Stop tracing `value`, or everything."""
        if value is None:
            self.traced.clear()
        else:
            self.traced.pop(value, None)
        self.update_gate()

    def traced_names(self) -> list:
        return sorted(set(self.traced.values()))

    # ── Application while a tool is on ──
    # apply.Depth.past sets `p` and `site` (the procedure run was about to
    # apply, and its call site), then hands `run` the `stand_in` to apply.

    def record(self, e, p, fr, site, entry) -> None:
        """The backtrace entry run adds for procedure `p` (running in `fr`,
        called at `site`, entered at `entry`) that error `e` leaves."""
        if p.__class__ is Lambda:
            fr = self.failing_frame(e, fr)
            e.trace.append((site, p.name, entry, fr))

    def failing_frame(self, e, fr):
        """The frame to show for a procedure that error `e` leaves, which ran
        in `fr`: the frame it failed or made its failing call in (a `let`'s:
        frames.failing_frame).
        apply.run asks when the session has tools (the REPL makes them);
        compiled code entered from `run` leaves its lets' frames on the error
        (compile/support.py, `enter`)."""
        lets = e.__dict__.pop('rusty_let', None)
        if lets is not None:
            return lets
        return failing_frame(e.__traceback__, fr)

    def _apply(self, fr):
        """Apply procedure `p` to frame `fr`, tail calls included: trace
        lines, profile accounting, the backtrace entries run would add."""
        p, site = self.p, self.site
        entry = site
        traced, prof = self.traced, self.profiler
        opened = False
        try:
            while True:
                if p in traced:
                    if not opened:
                        self.level += 1
                        opened = True
                    self._line('> ' + call_text(p, fr))
                if prof is not None:
                    row = prof.row_of(p)
                    saved = prof.enter(row)
                    start = perf_counter()
                    try:
                        r = p.code(fr)
                    except BaseException as e:
                        give_back_if_out_of_memory(e)
                        prof.leave(row, saved, start)
                        raise
                    prof.leave(row, saved, start)
                else:
                    r = p.code(fr)
                if r.__class__ is not tuple:
                    break
                p, fr, site = r
        except RustyError as e:
            self._close(opened)
            self.record(e, p, fr, site, entry)
            raise
        except KeyboardInterrupt as e:
            self._close(opened)
            raise interrupted_in(e, p, fr, site, self.depth)
        except BaseException as e:
            give_back_if_out_of_memory(e)
            self._close(opened)
            raise
        if opened:
            self._line('< ' + write_form(r))
            self.level -= 1
        return r

    def _close(self, opened: bool) -> None:
        if opened:
            self.level -= 1

    def _line(self, text: str) -> None:
        """One trace line on standard error, indented by the traced depth."""
        line = '  ' * (self.level - 1) + text
        if len(line) > TRACE_WIDTH:
            line = line[:TRACE_WIDTH - 1] + '…'
        stream = self.err()
        stream.write(line + '\n')
        stream.flush()


def profiled_apply(tools: Tools, prof):
    """The stand-in's code when only profiler `prof` is on: Tools._apply
    without trace, what it reads bound here (the profiled run's hot path; the
    tests compare its counts with _apply's). Compiled code that counts its
    own calls (its code a partial of `prof.counts_itself`: compile/support.adapter)
    is not counted here."""
    row_of, enter, leave, depth = prof.row_of, prof.enter, prof.leave, tools.depth
    counted = prof.counts_itself

    def apply(fr):
        p, site = tools.p, tools.site
        entry = site
        try:
            while True:
                code = p.code
                if isinstance(code, partial) and code.func is counted:     # (compile/support.adapter: an Entry)
                    r = code(fr)
                else:
                    row = row_of(p)
                    saved = enter(row)
                    start = perf_counter()
                    try:
                        r = code(fr)
                    except BaseException as e:
                        give_back_if_out_of_memory(e)
                        leave(row, saved, start)
                        raise
                    leave(row, saved, start)
                if r.__class__ is not tuple:
                    return r
                p, fr, site = r
        except RustyError as e:
            tools.record(e, p, fr, site, entry)
            raise
        except KeyboardInterrupt as e:
            raise interrupted_in(e, p, fr, site, depth)
        except BaseException as e:
            give_back_if_out_of_memory(e)
            raise
    return apply


def call_text(p, fr) -> str:
    """`(name arg…)` of lambda `p` applied to frame `fr`, in write form."""
    n = len(p.params)
    args = list(fr[2:2 + n])
    if p.rest is not None:
        args += list(fr[2 + n])
    return '(%s)' % ' '.join([p.name] + [write_form(a) for a in args])


KINDS = {Builtin: 'a builtin', Native: 'a native function', NativeGrad: 'a native function',
         Macro: 'a macro'}


def _kind(value) -> str:
    """What a value is, for trace's error: a kind of procedure, or its type."""
    return KINDS.get(value.__class__) or 'a %s, not a procedure' % type_name(value)


def stderr_of(session):
    """() -> the session's standard error stream (sys.stderr unless it has one)."""
    return lambda: session.err if session.err is not None else sys.stderr
