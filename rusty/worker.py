"""The evaluation thread's jobs: the caller hands a job over and waits, and
Ctrl-C meanwhile stops it (rusty.evalthread is the thread itself).

Interrupts (the protocol, its states and who sets what, on which thread, is
docs/architecture.md's "The interrupt protocol"). A Ctrl-C, or a call of
`Worker.interrupt` from any thread, only *posts a request*: it appends to
`requests` and wakes the waiting caller. While a call waits on the main
thread, SIGINT's handler is one that posts (`_on_sigint`), so no
KeyboardInterrupt is ever raised out of the wait or out of the code that
stops the job, however many signals come and in whatever rhythm. The waiting
caller alone serves the requests, in its loop (`_Waiter`), and only while its
own job runs: the first one raises the flag natives poll (rusty.jit.ffi) and
gives a running native NATIVE_ACK to answer it; if none does, it withdraws
the flag and sends KeyboardInterrupt to the worker thread as an asynchronous
exception (the catchable error `interrupted`). Every later request of the job
sends Abort, which no try-catch stops. Nothing is sent while a grad kernel
runs (its matmul callback could lose it: the kernel polls the flag and its
caller raises); the waiter tries again until it is sent, answered, or the job
has ended. A request made before the job starts is served when it starts; one
made after it ended is dropped with the wait, and after a call that was
interrupted SIGINT stays ours until STORM_TAIL passes without a signal, so
the tail of a storm is dropped too. The decision to send and the sending
happen under `ffi.kernel_gate`, which the worker passes once its job has
ended, so an exception is sent only into a running job, and one sent too
late is drained before the next job (`_drop_pending_interrupt`).

The high recursion limit deep evaluation needs is set only while a job runs,
so other threads keep Python's usual protection. Running out of memory ends
the job with its error, never the thread: the failed job's tracebacks (which
hold what filled memory) are dropped before the outcome is handed over.
"""
import _signal
import gc
import sys
import time
from _thread import allocate_lock, get_ident

from .errors import Abort, EvalError, hold_reserve, out_of_memory
from .evalthread import (BASE_STACK, BYTES_PER_LEVEL, FLOOR_LEVELS, HEAP_BASE, HEAP_PER_LEVEL,
                         MIN_STACK, PY_FRAMES_PER_LEVEL, ROOMY_SLOTS, EvalThread, Mailbox,
                         address_space_left, levels_in, not_waited_for_at_exit, quiet_about_memory,
                         roomy, stack_for, stack_within, start_thread)
from .outcomes import FAILED, settled

# the evaluation thread's sizing, imported from here by tests and tools
REEXPORTED = (BASE_STACK, BYTES_PER_LEVEL, FLOOR_LEVELS, HEAP_BASE, HEAP_PER_LEVEL, MIN_STACK, ROOMY_SLOTS,
              EvalThread, address_space_left)

# Natives exist only once the JIT's ffi module is loaded, so a run that never
# loads it has no interrupt flag to clear and no kernel to wait for: ctypes and
# the JIT stay out of start-up, and the interrupt path imports them when used.
FFI_MODULE = 'rusty.jit.ffi'

ALIVE_POLL = 0.5             # seconds between checks that the thread is still there
NATIVE_ACK = 0.05            # seconds a running native has to answer an interrupt itself
SEND_POLL = 0.001            # seconds between tries while an interrupt waits to be answered or sent
STORM_TAIL = 0.5             # seconds without SIGINT that end the storm which interrupted a call


def loaded_ffi(name: str):
    """Attribute `name` of rusty.jit.ffi if that module is loaded (and far
    enough along to have it), else None; never imports it."""
    return getattr(sys.modules.get(FFI_MODULE), name, None)


class Worker:
    """Runs callables on one long-lived big-stack thread, one at a time."""

    def __init__(self, depth_limit: int):
        if not getattr(sys.unraisablehook, 'quiet_about_memory', False):
            sys.unraisablehook = quiet_about_memory(sys.unraisablehook)
        self.jobs = Mailbox()
        self.running = False         # worker thread: True while a job's fn runs
        self.interrupts = 0          # interrupts served in the running job (its waiter counts them)
        self.job = 0                 # counts jobs, so a late interrupt cannot reach the next one
        self.requests = []           # one entry per interrupt request ever posted (append is atomic)
        self.waits = []              # the wake locks of the calls waiting now (innermost last)
        self.sigint_was = _signal.default_int_handler    # the SIGINT handler ours replaced
        self.quiet_until = 0.0       # monotonic time until which a SIGINT outside a call is dropped
        self.threading_seen = False  # whether threading was loaded when a job last ended
        self.upcalls = []            # [fn, outcome, state, job's done lock]: for the waiting caller (upcall)
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

    # ── The worker thread ──

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
                outcome = FAILED
            fn = args = None
            handed = False
            while not handed:        # an interrupt landing here must not lose the job
                try:
                    if not box:
                        box.append(outcome)
                    _release(done)
                    handed = True
                except (KeyboardInterrupt, Abort, _Late):
                    pass
                except MemoryError:
                    outcome = FAILED
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
        return settled(outcome)

    # ── The waiting caller ──

    def call(self, fn, *args):
        """fn(*args) on the worker thread; Ctrl-C meanwhile interrupts it.
        Meanwhile this thread runs what the job hands it (upcall)."""
        if get_ident() == self.thread.ident:
            return fn(*args)
        box: list = []
        done = allocate_lock()       # released to wake this caller: outcome, upcall or interrupt
        done.acquire()
        waiter = _Waiter(self, box, done)
        try:
            self.waits.append(done)
            waiter.taken = self._take_sigint()
            self.jobs.put((fn, args, box, done))
            waiter.wait()
        finally:
            if done in self.waits:
                self.waits.remove(done)
            if len(self.requests) > waiter.first:
                self.quiet_until = time.monotonic() + STORM_TAIL     # SIGINT stays ours for the tail
            else:
                _give_back_sigint(waiter.taken)
        if not self.threading_seen and 'threading' in sys.modules:
            self.threading_seen = True
            not_waited_for_at_exit(self.thread.ident)
        ok, value = box[0]
        waiter.box = None
        if ok:
            return value
        try:
            raise value if value is not None else out_of_memory()
        finally:        # no cycle error -> traceback -> this frame -> error (its backtrace holds frames)
            value = box = waiter = None

    def interrupt(self):
        """Ask the running job to stop (any thread may call this; the waiting
        caller serves the request: see the module's docstring)."""
        self.requests.append(None)
        for wake in tuple(self.waits):
            _release(wake)

    def _on_sigint(self, signum, frame):
        """SIGINT's handler once a call on the main thread has taken it: while
        a call waits, a request, never an exception; in the tail of a storm
        that interrupted a call (until STORM_TAIL passes without a signal),
        nothing; else the handler it replaced takes over again and handles
        this signal."""
        if self.waits:
            self.interrupt()
            return
        now = time.monotonic()
        if now < self.quiet_until:
            self.quiet_until = now + STORM_TAIL
            return
        was = self.sigint_was
        _signal.signal(_signal.SIGINT, was)
        was(signum, frame)           # raises KeyboardInterrupt

    def _take_sigint(self):
        """On the main thread, with Python's default SIGINT handler,
        `interrupt_once` or ours: make ours SIGINT's handler; (ours, the one
        to give back), or None when it is left alone."""
        try:
            was = _signal.getsignal(_signal.SIGINT)
            if was == self._on_sigint:
                return self._on_sigint, self.sigint_was
            if was is not _signal.default_int_handler and was is not interrupt_once:
                return None
            self.sigint_was = was
            _signal.signal(_signal.SIGINT, self._on_sigint)
        except ValueError:           # not the main thread: its caller's interrupts come by interrupt()
            return None
        return self._on_sigint, was

    # ── Upcalls: the job asks the waiting caller to run something ──

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
                _release(waking)             # (again after a nested job: the caller may be waiting)
                item = self.jobs.get()
                if item.__class__ is list:   # an answer's wake-up token
                    continue
                served = True
                self.waking = item[3]
                item[2].append(self._run_job(item[0], item[1]))
                self.waking, self.running = waking, running     # the job goes on (an interrupt is for it)
                _release(item[3])
            except (KeyboardInterrupt, Abort, _Late) as e:
                stopped = e if stopped is None or isinstance(stopped, _Late) else stopped
                if item.__class__ is tuple:  # a nested job the interrupt landed around: never lose it
                    self.waking, self.running = waking, running
                    if not item[2]:
                        self.jobs.items.insert(0, item)     # not run yet: run it next
                    else:
                        _release(item[3])
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

    def pending_upcall(self, done):
        """The newest upcall of the job whose caller waits on `done`, not yet
        handed back and not being run further up this stack, or None. (Only
        that job's caller answers it: a callback from a thread pool, waiting
        for a job of its own, must not run another job's Python call.)"""
        for request in reversed(self.upcalls):
            if request[3] is done and request[2] is not RUNNING:
                return request
        return None

    def _answer(self, request, taken):
        """Run an upcall's fn here (once), with SIGINT as it was outside the
        call (`taken` by it: the fn may prompt), and hand its outcome back:
        its wake-up token into the mailbox, then out of `upcalls` (a Ctrl-C
        between the two only means the token is sent again). What the call
        now holds of SIGINT."""
        if request[2] is WAITING:
            undone = None
            try:
                request[2] = RUNNING
                undone = _give_back_sigint(taken)
                request[1] = (True, request[0]())
            except BaseException as e:
                request[1] = (False, e)
            finally:
                if undone is not None:
                    taken = self._take_sigint()
            request[2] = DONE
        self.jobs.put(request)
        try:
            self.upcalls.remove(request)
        except ValueError:
            pass
        return taken


class _Waiter:
    """One call's wait: until the outcome is in `box`, answer upcalls and
    serve interrupt requests (posted by SIGINT or `Worker.interrupt`)."""
    __slots__ = ('w', 'box', 'done', 'first', 'served', 'pending', 'deadline', 'taken')

    def __init__(self, w: Worker, box: list, done):
        self.w = w
        self.box = box
        self.done = done
        self.first = self.served = len(w.requests)   # requests posted before this call are not about it
        self.pending = None              # the exception to send once it may be
        self.deadline = None             # until then a running native may answer the first request
        self.taken = None                # what the call took of SIGINT (Worker._take_sigint)

    def wait(self) -> None:
        w, box = self.w, self.box
        while not box:
            request = None
            try:
                request = w.pending_upcall(self.done)
                if request is not None:
                    self.taken = w._answer(request, self.taken)
                    continue
                busy = self._serve()
                if box:
                    break
                if not self.done.acquire(True, SEND_POLL if busy else ALIVE_POLL) and not busy \
                        and not w.thread.is_alive():
                    raise EvalError('internal error: the evaluation thread stopped')
            except KeyboardInterrupt:    # a SIGINT handler other than ours raised: a request all the same
                if request is not None and request[2] is RUNNING:
                    self._abandoned(request)
                w.interrupt()

    def _abandoned(self, request) -> None:
        """An upcall a KeyboardInterrupt left `_answer` in (after its fn, SIGINT
        given back): marked done (interrupted, if no outcome), for the next turn
        to hand back (left RUNNING, the job waits for ever); SIGINT ours again."""
        if request[1] is None:
            request[1] = (False, KeyboardInterrupt())
        request[2] = DONE
        if self.taken is not None:
            self.taken = self.w._take_sigint()

    def _mine(self) -> bool:
        """Whether this call's job is the one running now."""
        return self.w.running and self.w.waking is self.done

    def _serve(self) -> bool:
        """Serve new requests and try to send what is pending; whether
        something is still to do (the caller then polls)."""
        w = self.w
        if len(w.requests) > self.served:
            if not self._mine():
                return True          # not started yet: served when it starts (ended: dropped with the wait)
            new = len(w.requests) - self.served
            self.served += new
            from .jit import ffi
            for _ in range(new):
                w.interrupts += 1
                ffi.request_stop()
                if w.interrupts == 1:
                    self.pending, self.deadline = KeyboardInterrupt, time.monotonic() + NATIVE_ACK
                else:
                    self.pending, self.deadline = Abort, None
        if self.pending is None:
            return False
        if not self._mine():
            self.pending = None      # the job ended: its outcome stands
            return False
        from .jit import ffi
        if self.pending is KeyboardInterrupt and ffi.stop_answered():
            self.pending = None      # a native took it up: its caller raises the interrupt
            return False
        if self.deadline is not None and time.monotonic() < self.deadline:
            return True
        if self._send(ffi):
            self.pending = None
        return self.pending is not None

    def _send(self, ffi) -> bool:
        """Send the pending exception to the running job, unless a grad
        kernel runs (then False: tried again). True when settled."""
        import ctypes
        w = self.w
        with ffi.kernel_gate:
            if not self._mine():
                return True
            if ffi.in_kernel():
                return False
            if self.pending is KeyboardInterrupt:
                if ffi.stop_answered():
                    return True      # a native took it up after all
                ffi.clear_stop()     # withdrawn: Python code gets the exception
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(w.thread.ident),
                                                       ctypes.py_object(self.pending))
        return True


def _release(lock) -> None:
    """Release `lock` if it is held (a wake-up: once is enough)."""
    try:
        lock.release()
    except RuntimeError:
        pass


def _give_back_sigint(taken):
    """Undo `Worker._take_sigint` (`taken`: what it returned) if its handler
    is still SIGINT's; what was undone, or None."""
    if taken is None:
        return None
    ours, was = taken
    try:
        if _signal.getsignal(_signal.SIGINT) != ours:
            return None
        _signal.signal(_signal.SIGINT, was)
    except ValueError:
        return None
    return taken


def interrupt_once(signum, frame):
    """A SIGINT handler for a run that ends at its first interrupt (batch
    mode): KeyboardInterrupt once, and later signals ignored, so a storm of
    Ctrl-C's cannot break into the report or the exit. A waiting call takes
    SIGINT over from it as from Python's default handler."""
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    raise KeyboardInterrupt


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
