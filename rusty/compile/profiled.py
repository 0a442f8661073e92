"""Compiled code under the profiler: the counting variant, on demand.

The code a lambda is lowered to by default counts nothing (pay for what
runs). Each session keeps, weakly, a Switch per lambda whose values are
linked to such code. When the profiler alone comes on (the session's
watcher, link.py), every Switch turns on: each of its values' code becomes `first_profiled` (not an
entry that counts itself, so the profiler's stand-in counts the call), and
its `direct` and `leaf` are dropped (callers go through `run`). That first
call lowers the lambda's counting variant (counting.py), once per lambda and
kept with its Compiled (the time spent kept out of the calls' own time),
links the value to it, and runs on the default code itself, whose calls
leave through `run` while the gate is down (the default code's namespace
keeps the session's gate). When the profiler goes, every Switch turns off:
its values get their default code back.

Code that counts its own calls is entered through `support.enter_counted`;
the profiler's stand-in counts every other entry (`Profiler.counts_itself`).
"""
from _functools import partial

from . import support


class Switch:
    """The way of the values linked to one lambda's default code (its
    Linker, link.py, whose values `live()` gives) between that code and
    the counting variant, which `to_counting(switch, lam)` links (link.py)
    and gives back (None: none)."""
    __slots__ = ('linker', 'to_counting', '__weakref__')

    def __init__(self, linker, to_counting):
        self.linker = linker            # (its globals hold this)
        self.to_counting = to_counting

    def on(self) -> None:
        for lam in self.linker.live():
            self.on_value(lam)

    def on_value(self, lam) -> None:
        code = lam.code
        if self.linker.mine(code) and code.func is not first_profiled:
            lam.code = partial(first_profiled, code.args[0], self, lam)     # (args[0]: the function, as link.Deopt tells its value's code; no Entry: not called directly)

    def off(self) -> None:
        k = self.linker
        counted = k.compiled.counted
        counting = counted.linker if counted else None
        for lam in k.live():
            code = lam.code
            if k.mine(code):
                support.install(code.args[0], lam, k.compiled, k.D)
            elif counting is not None and counting.mine(code):
                support.install(k.function(lam, lam.env), lam, k.compiled, k.D)


def first_profiled(fn, switch, lam, fr):
    """A switched value's first call under the profiler: link it to the
    counting variant, and run this call on the default code (fn)."""
    D = switch.linker.D
    code = lam.code
    if code.__class__ is partial and code.func is first_profiled and code.args[0] is fn:
        if switch.to_counting(switch, lam) is None:
            support.install(fn, lam, switch.linker.compiled, D)
    return support.enter(fn, D, -lam.extra or None, fr)


def switch_all(switches, on: bool) -> None:
    """Turn every Switch of a session on (the profiler came) or off (it went)."""
    for r in list(switches.values()):
        s = r()
        if s is not None:
            s.on() if on else s.off()
