"""The evaluation thread itself: a bare thread whose stack is sized from the
recursion limit (and from what the address space leaves), the roomy frame its
loop runs under, and the mailbox it takes jobs from. rusty.worker feeds it.

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
"""
import sys
from _thread import allocate_lock, stack_size, start_new_thread   # threading's own imports cost start-up time

from .errors import EvalError, is_out_of_memory

BYTES_PER_LEVEL = 8 << 10     # C stack one Lisp depth level may use (sort's predicate: ~5.4 KiB)
BASE_STACK = 64 << 20         # for everything that is not per level (startup, compiles, printing)
MIN_STACK = 16 << 20          # below this, give up with a clear error
HEAP_PER_LEVEL = 2 << 10      # heap one level of plain recursion may use (reference evaluator: ~1.8 KiB)
HEAP_BASE = 128 << 20         # heap besides the levels: the thread's allocator arena, the library, code
FLOOR_LEVELS = 1000           # nested callbacks the stack holds however tight the address space
PY_FRAMES_PER_LEVEL = 24      # Python frames one Lisp level may use, with margin


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


def quiet_about_memory(hook):
    """An unraisable-exception hook that drops running out of memory (a
    generator or finalizer failing while the job that filled memory unwinds:
    the job reports it) and hands everything else to `hook`."""
    def unraisable(info):
        if not is_out_of_memory(info.exc_value or MemoryError()):
            hook(info)
    unraisable.quiet_about_memory = True
    return unraisable


def not_waited_for_at_exit(ident: int) -> None:
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
