"""The evaluation thread: a thread with a large stack, so deep (non-tail)
recursion works, fed jobs by the caller, which waits interruptibly.

Ctrl-C arrives as KeyboardInterrupt in the waiting (main) thread; it is passed
on to the worker as an asynchronous exception, so the evaluation stops at its
next bytecode and the caller gets the job's outcome as usual. The first Ctrl-C
of a job is the catchable error `interrupted`; a second one is an Abort, which
no try-catch stops. The high recursion limit deep evaluation needs is set only
while a job runs, so other threads keep Python's usual protection.
"""
from __future__ import annotations

import sys
import threading
import types
from _queue import SimpleQueue   # queue.SimpleQueue, without queue's imports

from .errors import Abort

STACK_BYTES = 1 << 30      # virtual: touched only as deep recursion needs it


MIN_STACK_BYTES = 16 << 20


def start_thread(target) -> tuple:
    """(started thread, its stack size): STACK_BYTES, or under a virtual
    memory limit too tight for it (ulimit -v), the largest half, quarter, …
    that starts (a process limited to 800 MB could not start at all)."""
    size = STACK_BYTES
    while True:
        old = threading.stack_size()
        threading.stack_size(size)
        try:
            thread = threading.Thread(target=target, name='rusty-eval', daemon=True)
            thread.start()
            return thread, size
        except RuntimeError:
            if size <= MIN_STACK_BYTES:
                raise
            size //= 2
        finally:
            threading.stack_size(old)
# ── Room on the frame stack ──────────────────────────────────────────────
# CPython (3.11+) keeps Python frames in 16 KiB chunks and frees a chunk as
# soon as the first frame in it returns, so recursion that oscillates across a
# chunk boundary maps and unmaps memory on every crossing: the same program
# runs 3-5x slower depending only on how deep it was called (issue 13's
# cliff). The worker's loop therefore runs under one frame that declares a
# value stack of ROOMY_SLOTS slots: the chunk made for it is 2 MiB, and the
# 1 MiB left after it holds the first few thousand nested Lisp calls without
# a boundary. Pages that are never touched cost no memory.
ROOMY_SLOTS = (1 << 17) - 900


def _call_in_frame(fn):
    """fn(), called from this frame (which roomy() enlarges)."""
    return fn()


def roomy(fn):
    """fn() called under a frame with a large declared stack (see above)."""
    code = _call_in_frame.__code__
    big = types.FunctionType(code.replace(co_stacksize=ROOMY_SLOTS), globals())
    return big(fn)


class Worker:
    """Runs callables on one long-lived big-stack thread, one at a time."""

    def __init__(self, recursion_limit: int):
        self.jobs = SimpleQueue()
        self.recursion_limit = recursion_limit
        self.running = False
        self.interrupts = 0
        self.thread, self.stack_bytes = start_thread(lambda: roomy(self._loop))

    def _loop(self):
        while True:
            try:
                fn, args, box, done = self.jobs.get()
            except KeyboardInterrupt:    # a late interrupt meant for a finished job
                continue
            outcome = None
            saved = sys.getrecursionlimit()
            try:
                try:
                    sys.setrecursionlimit(max(saved, self.python_limit()))
                    self.interrupts = 0
                    self.running = True
                    outcome = (True, fn(*args))
                except BaseException as e:  # handed to the caller, who decides
                    outcome = (False, e)
                finally:
                    self.running = False
                    sys.setrecursionlimit(saved)
            except (KeyboardInterrupt, Abort):
                if outcome is None:
                    outcome = (False, KeyboardInterrupt())
            while not done.is_set():     # an interrupt landing here must not lose the job
                try:
                    box.append(outcome)
                    done.set()
                except KeyboardInterrupt:
                    pass

    def python_limit(self) -> int:
        """The Python recursion limit for a job: the one asked for, scaled
        down when the thread got a smaller stack than STACK_BYTES, so deep
        recursion ends in the recursion error, never a crash."""
        if self.stack_bytes >= STACK_BYTES:
            return self.recursion_limit
        return self.recursion_limit * self.stack_bytes // STACK_BYTES

    def call(self, fn, *args):
        """fn(*args) on the worker thread; Ctrl-C meanwhile interrupts it."""
        if threading.current_thread() is self.thread:
            return fn(*args)
        box: list = []
        done = threading.Event()
        self.jobs.put((fn, args, box, done))
        while True:
            try:
                done.wait()
                break
            except KeyboardInterrupt:
                self.interrupt()
        ok, value = box[0]
        if ok:
            return value
        raise value

    def interrupt(self):
        """Raise KeyboardInterrupt (then Abort) inside the worker at its next bytecode."""
        if not self.running:
            return
        self.interrupts += 1
        exc = KeyboardInterrupt if self.interrupts == 1 else Abort
        import ctypes                   # only when interrupting: slow to import
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.thread.ident), ctypes.py_object(exc))


_worker: Worker | None = None


def worker(recursion_limit: int) -> Worker:
    """The process's evaluation thread (started on first use)."""
    global _worker
    if _worker is None:
        _worker = Worker(recursion_limit)
    _worker.recursion_limit = max(_worker.recursion_limit, recursion_limit)
    return _worker
