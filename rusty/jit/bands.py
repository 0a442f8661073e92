"""The arithmetic of the row-band split of native matmuls: when a matmul is
banded and into how many bands. The bands run natively, on the lanes of
kernels.rs (`rusty_k_matmul_lanes`); this module only sizes them.

A matmul whose left operand has n ≥ 2 rows and n·k·m ≥ 65,536 multiply-adds is
split into row bands: `chunks = min(lanes, n)`, `rows = ceil(n / chunks)`, then
`chunks = ceil(n / rows)`; band c covers rows [c·rows, min(n, (c+1)·rows)) and
the calling thread computes band 0. Each band runs the same serial kernel on its
rows, so banding never changes a bit.

Lanes: `RUSTY_MM_THREADS` if set to an integer (≤ 1 forces serial), else the
number of available CPUs; read when used.
"""
from __future__ import annotations

import os

MIN_MULADDS = 65536


def lanes() -> int:
    """The number of lanes a banded matmul may use (the caller included)."""
    text = os.environ.get('RUSTY_MM_THREADS')
    if text is not None:
        try:
            return max(1, int(text.strip()))
        except ValueError:
            pass
    return available_cpus()


_cpus: list = []


def available_cpus() -> int:
    """The CPUs this process may run on, asked once (a system call and a set,
    ~1 µs, on every product would be a sixth of a 64×32×32 one)."""
    if not _cpus:
        try:
            _cpus.append(max(1, len(os.sched_getaffinity(0))))
        except (AttributeError, OSError):
            _cpus.append(max(1, os.cpu_count() or 1))
    return _cpus[0]


def crossover(n: int, k: int, m: int) -> bool:
    """True when an n×k by k×m product is large enough to band."""
    return n >= 2 and n * k * m >= MIN_MULADDS


def _rows(n: int, lanes: int) -> tuple[int, int]:
    """(rows per band, number of bands) of the split rule."""
    rows = -(-n // min(lanes, n))
    return rows, -(-n // rows)


def band_plan(n: int, k: int, m: int) -> tuple[int, int]:
    """(rows per band, number of bands) for an n×k by k×m product: one band
    of n rows (serial) under the crossover, the split over `lanes()`
    above it. The per-product path of every native matmul."""
    if not crossover(n, k, m):
        return n, 1
    return _rows(n, lanes())

