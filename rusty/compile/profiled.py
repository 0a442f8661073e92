"""Compiled code under the profiler: the counting variant, on demand.

The code a lambda is lowered to by default counts nothing (pay for what
runs). Each session keeps, weakly, a Switch per lambda value linked to such
code. When the profiler alone comes on (the session's watcher, link.py),
every Switch turns on: its value's code becomes `first_profiled` (not an
entry that counts itself, so the profiler's stand-in counts the call), and
its `direct` and `leaf` are dropped (callers go through `run`). That first
call lowers the lambda's counting variant (counting.py), once per lambda and
kept with its Compiled (the time spent kept out of the calls' own time),
links the value to it, and runs on the default code itself, whose calls
leave through `run` while the gate is down (the default code's namespace
keeps the session's gate). When the profiler goes, every Switch turns off:
the value gets its default code back.

Code that counts its own calls is entered through `support.enter_counted`;
the profiler's stand-in counts every other entry (`Profiler.counts_itself`).
"""
from _functools import partial
from _weakref import ref

from . import support


class Switch:
    """One linked lambda value's way between its default code (function
    `fn`, of Compiled `compiled`) and the counting variant, which
    `to_counting(switch, lam)` links (link.py) and gives back (None: none)."""
    __slots__ = ('fn', 'compiled', 'unit', 'to_counting', 'counted', '__weakref__')

    def __init__(self, fn, compiled, unit, to_counting):
        self.fn, self.compiled, self.unit = ref(fn), compiled, unit     # (fn's globals hold this)
        self.to_counting = to_counting
        self.counted = None         # a weak reference to the counting variant's function, once linked

    def _mine(self, fn):
        """fn's lambda value if its code is still one this Switch gave it, else None."""
        lam = fn.__globals__['SELF']
        code = lam.code
        if isinstance(code, partial) and code.args and (code.args[0] is fn or (
                self.counted is not None and code.args[0] is self.counted())):
            return lam
        return None

    def on(self) -> None:
        fn = self.fn()
        lam = None if fn is None else self._mine(fn)
        if lam is not None:
            lam.code = partial(first_profiled, fn, self)     # (args[0]: fn, as link.Deopt tells its value's code; no Entry: not called directly)

    def off(self) -> None:
        fn = self.fn()
        lam = None if fn is None else self._mine(fn)
        if lam is not None:
            support.install(fn, lam, self.compiled, self.unit.depth)


def first_profiled(fn, switch, fr):
    """A switched value's first call under the profiler: link it to the
    counting variant, and run this call on the default code (fn)."""
    D = switch.unit.depth
    lam = fn.__globals__['SELF']
    if lam.code.__class__ is partial and lam.code.func is first_profiled and lam.code.args[0] is fn:
        counted = switch.to_counting(switch, lam)
        if counted is not None:
            switch.counted = ref(counted)
        else:
            support.install(fn, lam, switch.compiled, D)
    return support.enter(fn, D, -lam.extra or None, fr)


def switch_all(switches, on: bool) -> None:
    """Turn every Switch of a session on (the profiler came) or off (it went)."""
    for r in list(switches.values()):
        s = r()
        if s is not None:
            s.on() if on else s.off()
