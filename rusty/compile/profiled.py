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
from .entry import value_of


class Switch:
    """The way of the values linked to one lambda's default code (its
    Linker, link.py, whose functions `live()` gives) between that code and
    the counting variant, which `to_counting(switch, lam)` links (link.py)
    and gives back (None: none)."""
    __slots__ = ('linker', 'to_counting', '__weakref__')

    def __init__(self, linker, to_counting):
        self.linker = linker            # (its globals hold this)
        self.to_counting = to_counting

    def _mine(self, fn, code) -> bool:
        """True if code (fn's value's) is one this Switch gave it: fn's, or the counting variant's."""
        if not (isinstance(code, partial) and code.args):
            return False
        f = code.args[0]
        if f is fn:
            return True
        counted = self.linker.compiled.counted
        return bool(counted) and counted.linker is not None and getattr(f, '__code__', None) is counted.linker.inner

    def on(self) -> None:
        for fn in self.linker.live():
            self.on_value(fn)

    def on_value(self, fn) -> None:
        lam = value_of(fn)
        if self._mine(fn, lam.code):
            lam.code = partial(first_profiled, fn, self)     # (args[0]: fn, as link.Deopt tells its value's code; no Entry: not called directly)

    def off(self) -> None:
        k = self.linker
        for fn in k.live():
            lam = value_of(fn)
            if self._mine(fn, lam.code):
                support.install(fn, lam, k.compiled, k.D)


def first_profiled(fn, switch, fr):
    """A switched value's first call under the profiler: link it to the
    counting variant, and run this call on the default code (fn)."""
    D = switch.linker.D
    lam = value_of(fn)
    if lam.code.__class__ is partial and lam.code.func is first_profiled and lam.code.args[0] is fn:
        if switch.to_counting(switch, lam) is None:
            support.install(fn, lam, switch.linker.compiled, D)
    return support.enter(fn, D, -lam.extra or None, fr)


def switch_all(switches, on: bool) -> None:
    """Turn every Switch of a session on (the profiler came) or off (it went)."""
    for r in list(switches.values()):
        s = r()
        if s is not None:
            s.on() if on else s.off()
