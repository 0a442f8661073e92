"""The evaluation thread: a thread with a large stack, so deep (non-tail)
recursion works, fed jobs by the caller, which waits interruptibly.

Ctrl-C arrives as KeyboardInterrupt in the waiting (main) thread; it is passed
on to the worker as an asynchronous exception, so the evaluation stops at its
next bytecode and the caller gets the job's outcome as usual.
"""
from __future__ import annotations

import ctypes
import queue
import sys
import threading

STACK_BYTES = 1 << 30      # virtual: touched only as deep recursion needs it


class Worker:
    """Runs callables on one long-lived big-stack thread, one at a time."""

    def __init__(self, recursion_limit: int):
        self.jobs: queue.Queue = queue.Queue()
        self.recursion_limit = recursion_limit
        self.running = False
        old = threading.stack_size()
        threading.stack_size(STACK_BYTES)
        try:
            self.thread = threading.Thread(target=self._loop, name='rusty-eval', daemon=True)
            self.thread.start()
        finally:
            threading.stack_size(old)

    def _loop(self):
        if sys.getrecursionlimit() < self.recursion_limit:
            sys.setrecursionlimit(self.recursion_limit)
        while True:
            try:
                fn, args, box, done = self.jobs.get()
            except KeyboardInterrupt:    # a late interrupt meant for a finished job
                continue
            outcome = None
            try:
                try:
                    self.running = True
                    outcome = (True, fn(*args))
                except BaseException as e:  # handed to the caller, who decides
                    outcome = (False, e)
                finally:
                    self.running = False
            except KeyboardInterrupt:
                if outcome is None:
                    outcome = (False, KeyboardInterrupt())
            while not done.is_set():     # an interrupt landing here must not lose the job
                try:
                    box.append(outcome)
                    done.set()
                except KeyboardInterrupt:
                    pass

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
        """Raise KeyboardInterrupt inside the worker at its next bytecode."""
        if not self.running:
            return
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(self.thread.ident), ctypes.py_object(KeyboardInterrupt))


_worker: Worker | None = None


def worker(recursion_limit: int) -> Worker:
    """The process's evaluation thread (started on first use)."""
    global _worker
    if _worker is None:
        _worker = Worker(recursion_limit)
    elif sys.getrecursionlimit() < recursion_limit:
        _worker.call(sys.setrecursionlimit, recursion_limit)
    return _worker
