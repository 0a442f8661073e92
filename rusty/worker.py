"""The evaluation thread: a thread whose stack is sized from the recursion
limit, so every depth up to the limit works, fed jobs by the caller, which
waits interruptibly.

Deep Lisp recursion costs no C stack by itself (Python 3.11 runs nested Python
calls in one C frame), but every builtin that calls back into Lisp (sort's
predicate, map, apply, …) costs C stack per level: BYTES_PER_LEVEL covers the
worst of them with a margin (tests/test_stack_depth.py measures each). When the
address space is limited (`ulimit -v`) and cannot hold that stack besides the
heap that plain recursion to the limit needs (its Python frames and Lisp
frames: HEAP_PER_LEVEL a level), the thread gets only the stack that leaves
the heap that room (or, failing that, the largest it can get): a stack that
took all it could left too little heap, and plain recursion ran out of memory
short of the limit. Plain recursion needs no C stack, so it still reaches the
limit; the session bounds how deeply builtins' callbacks may nest to what the
stack holds (`callback_capacity`), so that too ends in the recursion error.

Ctrl-C arrives as KeyboardInterrupt in the waiting (main) thread; it is passed
on to the worker as an asynchronous exception, so the evaluation stops at its
next bytecode and the caller gets the job's outcome as usual. The first Ctrl-C
of a job is the catchable error `interrupted`; a second one is an Abort, which
no try-catch stops. Native code cannot take an asynchronous exception, so an
interrupt first raises the flag natives poll on every call (rusty.jit.ffi); if
a native answers within NATIVE_ACK it stops itself and its caller raises the
interrupt, else the asynchronous exception is sent. The high recursion limit deep evaluation needs is set only
while a job runs, so other threads keep Python's usual protection.

Running out of memory ends the job with its error, never the thread: the failed
job's tracebacks (which hold what filled memory) are dropped before the outcome
is handed over.
"""
import gc
import sys
import time
from _thread import allocate_lock, get_ident, stack_size, start_new_thread   # threading's own imports cost start-up time

from .errors import Abort, EvalError, hold_reserve, is_out_of_memory, out_of_memory

# Natives exist only once the JIT's ffi module is loaded, so a run that never
# loads it has no interrupt flag to clear and no kernel to wait for: ctypes and
# the JIT stay out of start-up, and the interrupt path imports them when used.
FFI_MODULE = 'rusty.jit.ffi'


def loaded_ffi(name: str):
    """Attribute `name` of rusty.jit.ffi if that module is loaded (and far
    enough along to have it), else None; never imports it."""
    return getattr(sys.modules.get(FFI_MODULE), name, None)

BYTES_PER_LEVEL = 8 << 10     # C stack one Lisp depth level may use (sort's predicate: ~5.4 KiB)
BASE_STACK = 64 << 20         # for everything that is not per level (startup, compiles, printing)
MIN_STACK = 16 << 20          # below this, give up with a clear error
HEAP_PER_LEVEL = 2 << 10      # heap one level of plain recursion may use (reference evaluator: ~1.8 KiB)
HEAP_BASE = 128 << 20         # heap besides the levels: the thread's allocator arena, the library, code
FLOOR_LEVELS = 1000           # nested callbacks the stack holds however tight the address space
PY_FRAMES_PER_LEVEL = 24      # Python frames one Lisp level may use, with margin
_FAILED = (False, None)      # a job's outcome when even its error could not be made: out of memory
ALIVE_POLL = 0.5              # seconds between checks that the thread is still there
NATIVE_ACK = 0.05             # seconds a running native has to answer an interrupt itself


def stack_for(limit: int) -> int:
    """Stack bytes the evaluation thread needs for depth `limit`."""
    return BASE_STACK + limit * BYTES_PER_LEVEL


def levels_in(stack: int) -> int:
    """The deepest recursion limit a stack of `stack` bytes holds."""
    return max(1, (stack - BASE_STACK) // BYTES_PER_LEVEL)


class EvalThread:
    """A thread running `target` (a bare _thread thread: nothing waits for it
    at exit, as for a daemon thread); `ident` is its id once started."""
    __slots__ = ('target', 'ident', 'alive')

    def __init__(self, target):
        self.target = target
        self.ident = None
        self.alive = False

    def start(self) -> None:
        """Start the thread (stack_size as set); raises if it cannot."""
        self.alive = True
        try:
            self.ident = start_new_thread(self._main, ())
        except BaseException:
            self.alive = False
            raise

    def _main(self) -> None:
        try:
            self.target()
        finally:
            self.alive = False

    def is_alive(self) -> bool:
        """Whether the target is still running."""
        return self.alive


def address_space_left() -> int | None:
    """Bytes this process may still map under its address-space limit
    (`ulimit -v`), or None when there is no limit or it cannot be read (read
    as UTF-8, the codec start-up has loaded already)."""
    try:
        with open('/proc/self/limits', encoding='utf-8') as fh:
            soft = next(line for line in fh if line.startswith('Max address space')).split()[3]
        if soft == 'unlimited':
            return None
        with open('/proc/self/status', encoding='utf-8') as fh:
            used_kib = next(line for line in fh if line.startswith('VmSize:')).split()[1]
        return int(soft) - (int(used_kib) << 10)
    except (OSError, StopIteration, IndexError, ValueError):
        return None


def stack_within(want: int, levels: int, left: int | None = None) -> int:
    """The stack to ask for: `want`, or with `left` bytes of address space
    (default: what the limit leaves) no more than leaves the heap room for
    `levels` of plain recursion, and never less than FLOOR_LEVELS' worth."""
    if left is None:
        left = address_space_left()
        if left is None:
            return want
    room = left - HEAP_BASE - levels * HEAP_PER_LEVEL
    return min(want, max(room, stack_for(FLOOR_LEVELS)))


def start_thread(target, want: int) -> tuple:
    """A started thread with a stack of `want` bytes, or the largest smaller
    one (halving) the address space allows; (thread, its stack)."""
    size = want
    while True:
        old = stack_size()
        try:
            stack_size(size)
            thread = EvalThread(target)
            thread.start()
            return thread, size
        except (RuntimeError, MemoryError, ValueError) as e:
            if size // 2 < MIN_STACK:
                raise EvalError('cannot start the evaluation thread with a %d MiB stack: %s'
                                % (size >> 20, e)) from None
            size //= 2
        finally:
            stack_size(old)
# ── Room on the frame stack ──────────────────────────────────────────────
# CPython (3.11+) keeps Python frames in 16 KiB chunks and frees a chunk as
# soon as the first frame in it returns, so recursion that oscillates across a
# chunk boundary maps and unmaps memory on every crossing: the same program
# runs 3-5x slower depending only on how deep it was called (issue 13's
# cliff). The worker's loop therefore runs under one frame that declares a
# value stack of ROOMY_SLOTS slots: the chunk made for it is 16 MiB, and the
# 8 MiB left after it holds some ten thousand nested compiled calls without a
# boundary (past it, every 16 KiB chunk going down is mapped and faulted in
# afresh: a merge of two 5000-element lists, recursing 10,000 deep, ran 40%
# slower than at 1 MiB). Pages that are never touched cost no memory.
ROOMY_SLOTS = (1 << 20) - 900


def _call_in_frame(fn):
    """fn(), called from this frame (which roomy() enlarges)."""
    return fn()


def roomy(fn):
    """fn() called under a frame with a large declared stack (see above)."""
    code = _call_in_frame.__code__
    big = type(_call_in_frame)(code.replace(co_stacksize=ROOMY_SLOTS), globals())
    return big(fn)


class Mailbox:
    """A first-in first-out queue of jobs for one consumer thread, on a bare
    lock (the _queue module's load costs start-up time)."""
    __slots__ = ('items', 'wake')

    def __init__(self):
        self.items = []
        self.wake = allocate_lock()      # released by put when the consumer may have to wake up
        self.wake.acquire()

    def put(self, item) -> None:
        """Add `item` and wake the consumer (even if Ctrl-C lands in between)."""
        try:
            self.items.append(item)
        finally:
            try:
                self.wake.release()
            except RuntimeError:         # released already: the consumer will look again
                pass

    def get(self):
        """The oldest item, waiting for one if there is none. (Taken by
        subscript, not by a call: an interrupt, which lands only after a
        call, cannot come between taking it and returning it.)"""
        items = self.items
        while not items:
            self.wake.acquire()
        item = items[0]
        del items[0]
        return item


def _quiet_about_memory(hook):
    """An unraisable-exception hook that drops running out of memory (a
    generator or finalizer failing while the job that filled memory unwinds:
    the job reports it) and hands everything else to `hook`."""
    def unraisable(info):
        if not is_out_of_memory(info.exc_value or MemoryError()):
            hook(info)
    unraisable.quiet_about_memory = True
    return unraisable


class Worker:
    """Runs callables on one long-lived big-stack thread, one at a time."""

    def __init__(self, depth_limit: int):
        if not getattr(sys.unraisablehook, 'quiet_about_memory', False):
            sys.unraisablehook = _quiet_about_memory(sys.unraisablehook)
        self.jobs = Mailbox()
        self.running = False
        self.interrupts = 0
        self.job = 0                 # counts jobs, so a late interrupt cannot reach the next one
        self.threading_seen = False  # whether threading was loaded when a job last ended
        self.upcalls = []            # [fn, outcome, state, job's done lock]: for the waiting caller to run (upcall)
        self.waking = None           # the running job's `done` lock (upcall releases it)
        self.thread, self.stack = start_thread(lambda: roomy(self._loop),
                                               stack_within(stack_for(depth_limit), depth_limit))
        self.max_depth = depth_limit
        self.recursion_limit = depth_limit * PY_FRAMES_PER_LEVEL + 10_000

    def callback_capacity(self, depth_limit: int) -> int | None:
        """How deeply builtins' callbacks may nest on this stack, or None when
        the stack holds `depth_limit` of them (no bound needed)."""
        if self.stack >= stack_for(depth_limit):
            return None
        return levels_in(self.stack)

    def _loop(self):
        while True:
            try:
                job = self.jobs.get()
            except (KeyboardInterrupt, Abort, _Late):    # a late interrupt meant for a finished job
                continue
            if job.__class__ is list:        # an upcall's spare wake-up token
                continue
            fn, args, box, done = job
            job = None
            self.waking = done
            try:
                outcome = self._run_job(fn, args)
            except BaseException:    # even the error handling ran out of memory: never lose the thread
                outcome = _FAILED
            fn = args = None
            handed = False
            while not handed:        # an interrupt landing here must not lose the job
                try:
                    if not box:
                        box.append(outcome)
                    try:
                        done.release()
                    except RuntimeError:     # released already: an interrupt landed just after
                        pass
                    handed = True
                except (KeyboardInterrupt, Abort, _Late):
                    pass
                except MemoryError:
                    outcome = _FAILED
                    gc.collect()
            outcome = box = done = None   # the caller owns it now (an error's backtrace can be large)

    def _run_job(self, fn, args):
        """(True, value) or (False, exception) of fn(*args); never raises."""
        outcome = None
        saved = sys.getrecursionlimit()
        try:
            try:
                sys.setrecursionlimit(max(saved, self.recursion_limit))
                hold_reserve()
                self.interrupts = 0
                clear_stop = loaded_ffi('clear_stop')
                if clear_stop is not None:
                    clear_stop()
                self.job += 1
                self.running = True
                outcome = (True, fn(*args))
            except BaseException as e:  # handed to the caller, who decides
                outcome = (False, e)
            finally:
                self.running = False
                gate = loaded_ffi('kernel_gate')     # an interrupt being sent has loaded it
                if gate is not None:
                    with gate:               # an interrupt being sent has arrived
                        pass
                if self.interrupts:
                    _drop_pending_interrupt()
                sys.setrecursionlimit(saved)
        except (KeyboardInterrupt, Abort):
            if outcome is None:
                outcome = (False, KeyboardInterrupt())
        except MemoryError:
            outcome = None
        if outcome is None:
            outcome = _FAILED
        elif not outcome[0] and _out_of_memory(outcome[1]):
            outcome = (False, _release(outcome[1]))
        else:
            if not outcome[0]:
                _drop_tracebacks(outcome[1])
            hold_reserve()           # again, if the job gave back what an earlier one filled
        return outcome

    def call(self, fn, *args):
        """fn(*args) on the worker thread; Ctrl-C meanwhile interrupts it.
        Meanwhile this thread runs what the job hands it (upcall)."""
        if get_ident() == self.thread.ident:
            return fn(*args)
        box: list = []
        done = allocate_lock()       # held until the worker has put the outcome in box
        done.acquire()
        self.jobs.put((fn, args, box, done))
        while True:
            try:
                woken = done.acquire(True, ALIVE_POLL)
                if woken and box:
                    break
                request = self._pending()
                if request is not None:
                    self._answer(request)
                    continue
                if not woken and not self.thread.is_alive():
                    raise EvalError('internal error: the evaluation thread stopped')
            except KeyboardInterrupt:
                self.interrupt()
        if not self.threading_seen and 'threading' in sys.modules:
            self.threading_seen = True
            _not_waited_for_at_exit(self.thread.ident)
        ok, value = box[0]
        if ok:
            return value
        try:
            raise value if value is not None else out_of_memory()
        finally:        # no cycle error -> traceback -> this frame -> error (its backtrace holds frames)
            value = box = None

    def upcall(self, fn):
        """On the worker thread, inside a job: fn() run by the thread waiting
        for that job (the REPL's, for a breakpoint's prompt; a Python call's,
        interop.py), serving the jobs it sends meanwhile (nested, on this
        stack); fn's value or exception.

        The hand-over survives an interrupt landing anywhere (after any C
        call): the request stays in `upcalls` until its outcome is set and its
        wake-up token is in the mailbox (the caller's loop retries, polling),
        the worker waits for the outcome, not for the token (stray tokens are
        skipped), and an interrupt landing meanwhile is raised once the
        outcome is back. An upcall that served no nested job leaves the job's
        number as it was (an interrupt of the job is still for this job)."""
        waking, running, job = self.waking, self.running, self.job
        request = [fn, None, WAITING, waking]
        served, stopped = False, None
        try:
            self.upcalls.append(request)
        except (KeyboardInterrupt, Abort, _Late) as e:     # (landed after the append)
            stopped = e
        while request[2] is not DONE:
            item = None
            try:
                try:
                    waking.release()         # (again after a nested job: the caller may be waiting)
                except RuntimeError:
                    pass
                item = self.jobs.get()
                if item.__class__ is list:   # an answer's wake-up token
                    continue
                served = True
                self.waking = item[3]
                item[2].append(self._run_job(item[0], item[1]))
                self.waking, self.running = waking, running     # the job goes on (an interrupt is for it)
                try:
                    item[3].release()
                except RuntimeError:
                    pass
            except (KeyboardInterrupt, Abort, _Late) as e:
                stopped = e if stopped is None or isinstance(stopped, _Late) else stopped
                if item.__class__ is tuple:  # a nested job the interrupt landed around: never lose it
                    self.waking, self.running = waking, running
                    if not item[2]:
                        self.jobs.items.insert(0, item)     # not run yet: run it next
                    else:
                        try:
                            item[3].release()
                        except RuntimeError:
                            pass
        self.waking, self.running, self.job = waking, running, job + 1 if served else job
        ok, value = request[1]
        if stopped is not None and not isinstance(stopped, _Late):
            ok, value = False, stopped
        request = None
        if ok:
            return value
        try:
            raise value
        finally:
            value = None

    def _pending(self):
        """The newest upcall not yet handed back and not being run further up
        this stack, or None. (Any job's: the worker never gives up waiting
        for one, and the caller that was to answer it may have been left by
        an interrupt.)"""
        for request in reversed(self.upcalls):
            if request[2] is not RUNNING:
                return request
        return None

    def _answer(self, request) -> None:
        """Run an upcall's fn here (once) and hand its outcome back: its
        wake-up token into the mailbox, then out of `upcalls` (a Ctrl-C
        between the two only means the token is sent again)."""
        if request[2] is WAITING:
            try:
                request[2] = RUNNING
                request[1] = (True, request[0]())
            except BaseException as e:
                request[1] = (False, e)
            request[2] = DONE
        self.jobs.put(request)
        try:
            self.upcalls.remove(request)
        except ValueError:
            pass

    def interrupt(self):
        """Stop the running job: natives through the flag they poll, Python
        code by raising KeyboardInterrupt (then Abort) at its next bytecode.
        The exception is never sent while a grad kernel runs: its matmul
        callback could lose it (that kernel raises the interrupt on return)."""
        if not self.running:
            return
        import ctypes
        from .jit import ffi
        job = self.job
        self.interrupts += 1
        exc = KeyboardInterrupt if self.interrupts == 1 else Abort
        ffi.request_stop()
        if exc is KeyboardInterrupt and self._answered(job, ffi):
            return
        with ffi.kernel_gate:
            if ffi.in_kernel() or not self.running or self.job != job:
                return
            if exc is KeyboardInterrupt:
                ffi.clear_stop()     # withdrawn: Python code gets the exception
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.thread.ident), ctypes.py_object(exc))

    def _answered(self, job: int, ffi) -> bool:
        """Whether a native took up the stop request (or the job ended)
        within NATIVE_ACK."""
        deadline = time.monotonic() + NATIVE_ACK
        while True:
            if ffi.stop_answered() or self.job != job or not self.running:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.001)


def _not_waited_for_at_exit(ident: int) -> None:
    """If the threading module was first imported on thread `ident` (a job
    needed it), it took that thread for the main one, and before Python 3.13
    exit would wait for it forever: let exit go on without it, as for a daemon
    thread."""
    threading = sys.modules['threading']
    main = getattr(threading, '_main_thread', None)
    locks = getattr(threading, '_shutdown_locks', None)
    if main is None or main.ident != ident or locks is None:
        return
    lock = getattr(main, '_tstate_lock', None)
    with threading._shutdown_locks_lock:
        locks.discard(lock)


WAITING, RUNNING, DONE = 'waiting', 'running', 'done'     # an upcall request's states


class _Late(BaseException):
    """Stands in for an interrupt that arrived after its job ended."""


def _noop() -> None:
    """A call: entering it is where a pending asynchronous exception lands."""


def _drop_pending_interrupt() -> None:
    """Cancel an asynchronous exception sent too late for the job that just
    ended, so it cannot land in the next one (or in the queue's get).

    Clearing it with PyThreadState_SetAsyncExc(id, NULL) would leave
    CPython 3.11's interpreter-wide "async exception pending" flag set for
    good, and under a profiler (sys.setprofile) the main thread then spins
    forever at its next call. So the pending exception is replaced by _Late
    and delivered here (at the next check CPython makes), where it is
    absorbed."""
    import ctypes       # loaded already by the interrupt that was sent
    tid = ctypes.c_ulong(get_ident())
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(tid, ctypes.py_object(_Late))
        for _ in range(3):
            _noop()
    except (_Late, KeyboardInterrupt, Abort):
        pass


def _out_of_memory(e: BaseException) -> bool:
    """Whether `e` is (or wraps) running out of memory."""
    while e is not None:
        if is_out_of_memory(e) or getattr(e, 'message', None) == 'out of memory':
            return True
        e = e.__cause__ or e.__context__
    return False


def _drop_tracebacks(e: BaseException) -> None:
    """Cut `e` and the errors chained to it loose from the frames of the job
    that failed. An interrupted run loop holds its error in a local of a frame
    the error's own traceback reaches: a cycle that would keep every frame of
    the evaluation (and the tensors in them) alive until a full collection.
    Reports never show host tracebacks, so nothing is lost."""
    seen = 0
    while e is not None and seen < 100:
        e.__traceback__ = None
        e = e.__cause__ or e.__context__
        seen += 1


def _release(e: BaseException) -> BaseException:
    """`e` without the tracebacks and chained errors that keep the memory it
    ran out of alive; a bare MemoryError becomes the rusty error."""
    inner = e
    while inner is not None:
        inner.__traceback__ = None
        trace = getattr(inner, 'trace', None)
        if trace:                   # the frames its backtrace kept for ,locals
            trace[:] = [entry[:3] for entry in trace]
        nxt = inner.__cause__ or inner.__context__
        inner.__cause__ = inner.__context__ = None
        inner = nxt
    gc.collect()
    return out_of_memory() if is_out_of_memory(e) else e


_worker: Worker | None = None


def worker(depth_limit: int) -> Worker:
    """The process's evaluation thread, able to hold `depth_limit` levels if the
    address space allows (started on first use; a later, bigger request made
    outside it gets a new thread, sessions keeping the one they have)."""
    global _worker
    if _worker is None:
        _worker = Worker(depth_limit)
    elif (depth_limit > _worker.max_depth and not _worker.running
          and get_ident() != _worker.thread.ident):
        _worker = Worker(depth_limit)
    return _worker
