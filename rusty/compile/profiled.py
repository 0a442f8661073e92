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
from time import perf_counter

from . import support


class Switch:
    """One linked lambda value's way between its default code (function
    `fn`, of Compiled `compiled`) and the counting variant."""
    __slots__ = ('fn', 'compiled', 'unit', 'disarm', 'counted', '__weakref__')

    def __init__(self, fn, compiled, unit, disarm):
        self.fn, self.compiled, self.unit, self.disarm = ref(fn), compiled, unit, disarm   # (fn's globals hold this)
        self.counted = None         # a weak reference to the counting variant's function, once linked

    def _mine(self, fn):
        """fn's lambda value if its code is still one this Switch gave it, else None."""
        lam = fn.__globals__['SELF']
        code = lam.code
        if code.__class__ is partial and code.args and (code.args[0] is fn or (
                self.counted is not None and code.args[0] is self.counted())):
            return lam
        return None

    def on(self) -> None:
        fn = self.fn()
        lam = None if fn is None else self._mine(fn)
        if lam is not None:
            lam.code = partial(first_profiled, fn, self)     # (args[0]: fn, as link.Deopt tells its value's code)
            lam.direct = lam.leaf = None

    def off(self) -> None:
        fn = self.fn()
        lam = None if fn is None else self._mine(fn)
        if lam is not None:
            from .link import install
            install(fn, lam, self.compiled, self.unit.depth)


def first_profiled(fn, switch, fr):
    """A switched value's first call under the profiler: link it to the
    counting variant, and run this call on the default code (fn)."""
    from .link import install, link, session_namespace
    unit = switch.unit
    D = unit.depth
    lam = fn.__globals__['SELF']
    if lam.code.__class__ is partial and lam.code.func is first_profiled and lam.code.args[0] is fn:
        counted = variant(switch.compiled, unit) if session_namespace(D)['PROF'] is not None else None
        if counted is not None:
            switch.counted = ref(link(counted, lam, lam.env, unit, switch.disarm, switch.compiled))
        else:
            install(fn, lam, switch.compiled, D)
    return support.enter(fn, D, -lam.extra or None, fr)


def variant(c, unit):
    """The counting variant of Compiled c, lowered on first need and kept
    with c (False: it could not be); None if it cannot be had."""
    if c.counted is None:
        from .link import _not_own_time, lowered
        t = perf_counter()
        c.counted = lowered(*c.source, counting=True) or False
        _not_own_time(unit, perf_counter() - t)
    return c.counted or None


def switch_all(switches, on: bool) -> None:
    """Turn every Switch of a session on (the profiler came) or off (it went)."""
    for s in list(switches):
        s.on() if on else s.off()
