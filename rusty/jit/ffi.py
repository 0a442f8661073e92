"""Calling compiled code through ctypes: the scalar ABI
`extern "C" fn(args: *const f64, len: usize) -> f64`.

`scalar_caller` turns a library symbol into a plain Python function
`call(args) -> float`. The hot path does no allocation and no argtypes
conversion: the argument buffer (`c_double * n`) and the length (`c_size_t`) are
built once per native, restype is set once, and each call only stores the
floats and makes the foreign call.

Recursion guard: generated defrust code returns NaN when its stack budget runs
out and records that in a thread-local flag, which the library exports as
`rustyjit_take_tripped() -> i32` (read-and-clear). Only a NaN result costs the
extra call to read it.

Interrupts (docs/architecture.md, "The interrupt protocol"): every defrust
library is bound at load to one process-wide flag (`stop_flag`,
`rustyjit_bind_stop`) that generated code reads on every call. Its states:
STOP_NONE (0: a job starts with it, `clear_stop`), STOP_ASKED (1: the waiting
caller's `request_stop`), STOP_SEEN (2: written by native code that stopped)
and STOP_RAISED (3: the native's Python caller raised KeyboardInterrupt,
`take_stop`; natives run again). A native that sees 1 returns at once and
writes 2, and its caller raises KeyboardInterrupt, which the evaluator reports
as `interrupted`. `kernel_gate` and `kernel_calls` keep asynchronous
exceptions out of grad kernels and trainers while they run.

`lib` is any object with `symbol(name)` returning a ctypes function object
(rusty.jit.build.Library).
"""
from __future__ import annotations

import ctypes
import threading
from _thread import get_ident

from rusty.errors import RecursionLimit

TRIPPED_SYMBOL = 'rustyjit_take_tripped'
BIND_STOP_SYMBOL = 'rustyjit_bind_stop'
TRIPPED_RECURSION, TRIPPED_STOP = 1, 2
# The interrupt flag's states: none, asked, seen by running code, raised by its caller.
STOP_NONE, STOP_ASKED, STOP_SEEN, STOP_RAISED = 0, 1, 2, 3

_stop: list = []
kernel_calls = [0]       # grad kernels running now: their bridges must not take async exceptions
kernel_gate = threading.Lock()   # held to enter a kernel, and to decide on an async exception


def stop_flag() -> ctypes.c_int32:
    """The process-wide interrupt flag natives read (made on first use)."""
    if not _stop:
        _stop.append(ctypes.c_int32(0))
    return _stop[0]


def request_stop() -> None:
    """Ask every running native to stop at its next call."""
    stop_flag().value = STOP_ASKED


def clear_stop() -> None:
    """Forget an earlier request (a new evaluation starts)."""
    if _stop:
        _stop[0].value = STOP_NONE


def stop_answered() -> bool:
    """Whether running code has taken up the current request."""
    return bool(_stop) and _stop[0].value in (STOP_SEEN, STOP_RAISED)


def take_stop() -> bool:
    """True once per request, for the caller that will raise the interrupt."""
    if _stop and _stop[0].value in (STOP_ASKED, STOP_SEEN):
        _stop[0].value = STOP_RAISED
        return True
    return False


def in_kernel() -> bool:
    """Whether a grad kernel (which may call back into Python) is running."""
    return kernel_calls[0] > 0


def bind_stop(lib, symbol: str = BIND_STOP_SYMBOL) -> None:
    """Point a library's interrupt poll (its `symbol`, a defrust library's
    by default) at the process-wide flag."""
    fn = lib.symbol(symbol)
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p]
    fn(ctypes.addressof(stop_flag()))


def recursion_message(name: str) -> str:
    """The error raised when native recursion exceeds its limit."""
    return ("recursion limit exceeded in native code '%s': non-tail recursion too deep"
            " — rewrite with an accumulator / tail call" % name)


def scalar_function(lib, symbol: str):
    """The ctypes function for a scalar-ABI symbol, restype set once."""
    fn = lib.symbol(symbol)
    fn.restype = ctypes.c_double
    fn.argtypes = None
    return fn


def trip_reader(lib):
    """The library's read-and-clear recursion flag, as a Python callable."""
    fn = lib.symbol(TRIPPED_SYMBOL)
    fn.restype = ctypes.c_int
    fn.argtypes = None
    return fn


def scalar_caller(lib, symbol: str, arity: int, name: str, guarded: bool = True):
    """`call(args) -> float` for a scalar-ABI function of `arity` f64 args.

    `args` is a list or tuple of exactly `arity` floats (the caller checks).
    With `guarded`, a tripped native recursion guard raises RecursionLimit and
    a native stopped by the interrupt flag raises KeyboardInterrupt.

    Thread safety: ctypes releases the GIL for the foreign call, so one
    argument buffer shared by every thread could be overwritten between a
    thread's stores and the native's reads. The buffer belongs to the thread
    that made the caller; any other thread uses one of its own (a
    thread-local), at the price of one identity check on the owner's path.
    """
    fn = scalar_function(lib, symbol)
    take = trip_reader(lib) if guarded else None
    buf = (ctypes.c_double * max(arity, 1))()
    owner = get_ident()
    local = _buffers(arity)
    n = ctypes.c_size_t(arity)
    message = recursion_message(name)

    def tripped(r):
        why = take() if take is not None else 0
        if why == TRIPPED_RECURSION:
            raise RecursionLimit(message)
        if why == TRIPPED_STOP:
            take_stop()
            raise KeyboardInterrupt()
        return r

    if arity == 0:
        def call(args):
            r = fn(buf, n)
            return r if r == r else tripped(r)
    elif arity == 1:
        def call(args):
            b = buf if get_ident() == owner else local.buf
            b[0] = args[0]
            r = fn(b, n)
            return r if r == r else tripped(r)
    elif arity == 2:
        def call(args):
            b = buf if get_ident() == owner else local.buf
            b[0] = args[0]
            b[1] = args[1]
            r = fn(b, n)
            return r if r == r else tripped(r)
    else:
        def call(args):
            b = buf if get_ident() == owner else local.buf
            b[:] = args
            r = fn(b, n)
            return r if r == r else tripped(r)
    return call


def _buffers(arity: int):
    """A thread-local whose `buf` is that thread's own argument buffer."""
    class Buffers(threading.local):
        def __init__(self):
            self.buf = (ctypes.c_double * max(arity, 1))()
    return Buffers()
