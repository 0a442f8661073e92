"""The native tensor kernels (kernels.rs), built once through the JIT cache.

`load()` returns a kernel table with the same keys and signatures as
`rusty.tensor.PY_KERNELS` (raw `array('d')` buffers in, a new buffer or a float
out) and identical bits, or None when the kernels cannot be built (no rustc, a
failed build): the caller then stays on the pure-Python path. Nothing is built
at import time; `load()` builds (or finds in the cache) on its first call.

`matmul_into(a, b, out, n, k, m)` runs the banded product on raw addresses, for
the compiled gradient kernels' matmul bridge; it returns True when an interrupt
stopped it (its output is then incomplete). Bands run on the lane workers of
kernels.rs (`bands` sizes the row-band split), not on Python threads: a worker
spins between jobs, so a hand-off costs about a microsecond instead of the
~60 µs wake-up of a sleeping thread.

Every kernel polls the interrupt flag of rusty.jit.ffi (bound at load): the
matmuls once per packed panel, the element-wise kernels, sums and transposes
once per 64k elements. So Ctrl-C stops a long call within milliseconds: the
table's function then raises KeyboardInterrupt (reported as `interrupted`) and
returns nothing.
"""
from __future__ import annotations

import ctypes
import os
import sys
import threading
from array import array

from rusty.errors import CompileError
from rusty.jit import bands, build, ffi

BASE = 'rusty_kernels'
BIND_STOP_SYMBOL = 'rusty_k_bind_stop'
_P = ctypes.c_void_p
_N = ctypes.c_size_t
_D = ctypes.c_double
_I = ctypes.c_int

_lock = threading.Lock()
_state: dict = {}          # 'table': the loaded table or None (after a failed attempt)


def source() -> str:
    """The Rust source of the kernels."""
    with open(os.path.join(os.path.dirname(__file__), 'kernels.rs'), encoding='utf-8') as f:
        return f.read()


def load():
    """The native kernel table, or None if it cannot be built or loaded (then
    it says why, once, on stderr: the fallback is slower, never silent)."""
    with _lock:
        if 'table' not in _state:
            try:
                _state['table'] = _make_table(build.build_and_load(source(), BASE))
            except (CompileError, OSError) as e:
                _state['table'] = None
                say_fallback(e)
            else:
                keep_freed_memory()
        return _state['table']


FALLBACK_NOTE = ('rusty: native tensor kernels unavailable, using the pure-Python kernels '
                 '(same results, slower): %s\n')


def say_fallback(e: BaseException) -> None:
    """Tell the user, on stderr, why tensors run on the Python kernels."""
    text = e.message if isinstance(e, CompileError) else str(e)
    try:
        sys.stderr.write(FALLBACK_NOTE % text.replace('\n', ' | '))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass          # no usable stderr: nothing more we can do


# glibc returns memory to the system eagerly: a tensor buffer of 128 KiB or
# more is a fresh mmap, and a freed one at the top of a thread's heap (the
# evaluator runs on a worker thread) is given back with madvise, so the next
# buffer of a training step faults its pages in again. Depending only on
# where buffers happen to land, that cost MEDIUM steps 280 µs or 480 µs.
# Tensor work keeps freed memory instead (up to these sizes), as allocators
# tuned for numeric work do.
MMAP_THRESHOLD = 32 << 20       # glibc's own ceiling for its adaptive threshold
TRIM_THRESHOLD = 128 << 20


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (mallopt); False where that
    is not glibc."""
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    return (mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
            and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1)


def _fn(lib, name, argtypes, restype=None):
    f = lib.symbol(name)
    f.argtypes = argtypes
    f.restype = restype
    return f


def _stopped():
    """A kernel stopped for an interrupt: take the request and raise it."""
    ffi.take_stop()
    raise KeyboardInterrupt()


def _sum_stopped() -> bool:
    """Whether a NaN from the sum kernel means it stopped: a stop was asked
    or seen (a stopped sum leaves it seen), not yet raised."""
    return ffi.stop_flag().value in (ffi.STOP_ASKED, ffi.STOP_SEEN)


def _make_table(lib) -> dict:
    ffi.bind_stop(lib, BIND_STOP_SYMBOL)
    zero = array('d', [0.0])
    table = {}

    def tt(f):
        def kernel(a, b):
            n = len(a)
            out = zero * n
            if f(a.buffer_info()[0], b.buffer_info()[0], out.buffer_info()[0], n):
                _stopped()
            return out
        return kernel

    def ts(f):
        def kernel(a, s):
            n = len(a)
            out = zero * n
            if f(a.buffer_info()[0], s, out.buffer_info()[0], n):
                _stopped()
            return out
        return kernel

    def st(f):
        def kernel(s, b):
            n = len(b)
            out = zero * n
            if f(s, b.buffer_info()[0], out.buffer_info()[0], n):
                _stopped()
            return out
        return kernel

    def unary(f):
        def kernel(a):
            n = len(a)
            out = zero * n
            if f(a.buffer_info()[0], out.buffer_info()[0], n):
                _stopped()
            return out
        return kernel

    for op in ('add', 'sub', 'mul', 'div'):
        table[op + '_tt'] = tt(_fn(lib, 'rusty_k_%s_tt' % op, [_P, _P, _P, _N], _I))
        table[op + '_ts'] = ts(_fn(lib, 'rusty_k_%s_ts' % op, [_P, _D, _P, _N], _I))
        table[op + '_st'] = st(_fn(lib, 'rusty_k_%s_st' % op, [_D, _P, _P, _N], _I))
    table['relu'] = unary(_fn(lib, 'rusty_k_relu', [_P, _P, _N], _I))
    table['step'] = unary(_fn(lib, 'rusty_k_step', [_P, _P, _N], _I))

    k_sum = _fn(lib, 'rusty_k_sum', [_P, _N], _D)

    def total(a):
        r = k_sum(a.buffer_info()[0], len(a))
        if r != r and _sum_stopped():
            _stopped()
        return r
    table['sum'] = total

    k_transpose = _fn(lib, 'rusty_k_transpose', [_P, _P, _N, _N], _I)

    def transpose(a, n, m):
        out = zero * (n * m)
        if k_transpose(a.buffer_info()[0], out.buffer_info()[0], n, m):
            _stopped()
        return out
    table['transpose'] = transpose

    plan = bands.band_plan
    band = _fn(lib, 'rusty_k_matmul_band', [_P, _P, _P, _N, _N, _N, _N, _N], ctypes.c_int)
    in_lanes = _fn(lib, 'rusty_k_matmul_lanes', [_P, _P, _P, _N, _N, _N, _N, _N], ctypes.c_int)

    def matmul_into(a, b, out, n, k, m):
        """out (n×m, at address `out`) ← a · b, in row bands on the lanes above
        the crossover; True when an interrupt stopped it (out incomplete)."""
        rows, count = plan(n, k, m)
        if count == 1:
            return band(a, b, out, n, k, m, 0, n) != 0
        return in_lanes(a, b, out, n, k, m, rows, count) != 0

    def matmul(a, b, n, k, m):
        out = zero * (n * m)
        if matmul_into(a.buffer_info()[0], b.buffer_info()[0], out.buffer_info()[0], n, k, m):
            _stopped()
        return out
    table['matmul'] = matmul
    table['matmul_into'] = matmul_into
    table['matmul_lanes_address'] = ctypes.cast(in_lanes, ctypes.c_void_p).value
    table['lane_worker_bands'] = _fn(lib, 'rusty_k_lanes_worker_bands', [], _N)
    return table


def matmul_into(a: int, b: int, out: int, n: int, k: int, m: int) -> bool:
    """The banded matmul product on raw addresses (the kernels must be loaded);
    True when an interrupt stopped it before the end (out incomplete)."""
    table = load()
    if table is None:
        raise CompileError('native kernels are not available')
    return table['matmul_into'](a, b, out, n, k, m)


def matmul_lanes_address() -> int:
    """The address of `rusty_k_matmul_lanes` (the banded product, called
    with the rows per band and the lanes), for generated code that calls it
    directly rather than through the Python bridge (compiled trainers)."""
    table = load()
    if table is None:
        raise CompileError('native kernels are not available')
    return table['matmul_lanes_address']


def lane_worker_bands() -> int:
    """How many bands lane workers have run in this process (for tests)."""
    table = load()
    return table['lane_worker_bands']() if table else 0
