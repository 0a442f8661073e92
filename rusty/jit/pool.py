"""The row-band thread pool of LANGUAGE.md §13.

A matmul whose left operand has n ≥ 2 rows and n·k·m ≥ 65,536 multiply-adds is
split into row bands: `chunks = min(lanes, n)`, `rows = ceil(n / chunks)`, then
`chunks = ceil(n / rows)`; band c covers rows [c·rows, min(n, (c+1)·rows)) and
the calling thread computes band 0. Each band runs the same serial kernel on its
rows, so banding never changes a bit. Bands are native calls through ctypes,
which releases the GIL, so they really run in parallel.

Lanes: `RUSTY_MM_THREADS` if set to an integer (≤ 1 forces serial), else the
number of available CPUs; read when used. Worker threads start on first need.
"""
from __future__ import annotations

import os
import threading
from queue import SimpleQueue

MIN_MULADDS = 65536


def lanes() -> int:
    """The number of lanes a banded matmul may use (the caller included)."""
    text = os.environ.get('RUSTY_MM_THREADS')
    if text is not None:
        try:
            return max(1, int(text.strip()))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def crossover(n: int, k: int, m: int) -> bool:
    """True when an n×k by k×m product is large enough to band."""
    return n >= 2 and n * k * m >= MIN_MULADDS


def split(n: int, lanes: int) -> list[tuple[int, int]]:
    """The row bands [(row0, row1), …] of the §13 split rule."""
    chunks = min(lanes, n)
    rows = -(-n // chunks)
    chunks = -(-n // rows)
    return [(c * rows, min(n, (c + 1) * rows)) for c in range(chunks)]


# Handing a band to another thread costs ~60 µs of wake-up on the machines we
# measured (benchmarks/RESULTS.md), more than half of a 1M multiply-add product
# takes. With lanes chosen automatically, bands are used only for products
# large enough to win; RUSTY_MM_THREADS set explicitly applies §13 as written.
# Serial execution is always conformant, and banding never changes a bit.
AUTO_MIN_MULADDS = 1 << 22


def bands_for(n: int, k: int, m: int) -> list[tuple[int, int]]:
    """The bands this product runs as: one band (serial) under the crossover."""
    if not crossover(n, k, m):
        return [(0, n)]
    if os.environ.get('RUSTY_MM_THREADS') is None and n * k * m < AUTO_MIN_MULADDS:
        return [(0, n)]
    return split(n, lanes())


def run(band, bands: list[tuple[int, int]]) -> None:
    """Call `band(row0, row1)` for every band: band 0 here, the others on workers."""
    if len(bands) == 1:
        band(*bands[0])
        return
    _POOL.run(band, bands)


class _Pool:
    """Daemon worker threads fed from one queue; restarted after a fork."""

    def __init__(self):
        self.tasks: SimpleQueue = SimpleQueue()
        self.count = 0
        self.pid = None
        self.lock = threading.Lock()

    def _ensure(self, workers: int) -> None:
        with self.lock:
            if self.pid != os.getpid():
                self.tasks, self.count, self.pid = SimpleQueue(), 0, os.getpid()
            while self.count < workers:
                t = threading.Thread(target=self._work, args=(self.tasks,),
                                     name='rusty-mm-%d' % self.count, daemon=True)
                t.start()
                self.count += 1

    @staticmethod
    def _work(tasks: SimpleQueue) -> None:
        while True:
            band, rows, done = tasks.get()
            try:
                band(*rows)
            except BaseException as e:     # handed to the caller, which re-raises
                done.put(e)
            else:
                done.put(None)

    def run(self, band, bands) -> None:
        self._ensure(len(bands) - 1)
        done: SimpleQueue = SimpleQueue()
        for rows in bands[1:]:
            self.tasks.put((band, rows, done))
        error = None
        try:
            band(*bands[0])
        except BaseException as e:
            error = e
        for _ in bands[1:]:
            e = done.get()
            if error is None and e is not None:
                error = e
        if error is not None:
            raise error


_POOL = _Pool()
