"""The cliff of issue 13: the same recursion ran 3-5x slower depending only on
how deep it was called, because CPython's frame-stack chunk at that depth was
mapped and unmapped on every crossing. Evaluation on the worker thread runs
under one roomy frame (rusty/worker.py), so the shape is flat there.

Counted, not timed: minor page faults of the evaluating thread while the same
recursion runs under 0..59 extra levels of Lisp nesting. A fresh chunk is
faulted in every time it is mapped, so thrashing shows up as hundreds of
faults at a few depths; the reference is the same scan on a plain thread.
"""
import io
import resource
import threading

import pytest

from rusty.runtime import Session
from rusty.worker import ROOMY_SLOTS, roomy

pytestmark = pytest.mark.skipif(not hasattr(resource, 'RUSAGE_THREAD'),
                                reason='per-thread rusage is Linux only')

PROGRAM = """
(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))
(define (nest d) (if (= d 0) (tak 14 10 6) (+ 0 (nest (- d 1)))))
"""


def _faults(s, d):
    r0 = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    assert s._run('(nest %d)' % d, '<scan>') == 7.0
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - r0


def _scan(s):
    """Faults per nesting depth, after one warm-up pass: the fewest of three
    passes, since a cliff faults on every crossing while a one-off (an arena
    the allocator maps, a collection that returns memory) faults once."""
    for d in range(60):
        _faults(s, d)
    passes = [[_faults(s, d) for d in range(60)] for _ in range(3)]
    return [min(col) for col in zip(*passes)]


def _on_plain_thread(fn):
    box = []
    old = threading.stack_size()
    threading.stack_size(1 << 28)
    try:
        t = threading.Thread(target=lambda: box.append(fn()))
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    return box[0]


@pytest.fixture(scope='module')
def session():
    s = Session(out=io.StringIO())
    s.run(PROGRAM)
    return s


def test_no_depth_has_a_cliff_on_the_worker(session):
    reference = _on_plain_thread(lambda: _scan(session))
    if max(reference) < 100:
        pytest.skip('this Python does not thrash its frame-stack chunks (max %d faults)'
                    % max(reference))
    flat = session.worker.call(_scan, session)
    assert max(flat) <= 20, (flat, reference)


def test_roomy_frame_also_flattens_a_plain_thread(session):
    reference = _on_plain_thread(lambda: _scan(session))
    if max(reference) < 100:
        pytest.skip('this Python does not thrash its frame-stack chunks')
    flat = _on_plain_thread(lambda: roomy(lambda: _scan(session)))
    assert max(flat) <= 20, (flat, reference)


def test_the_worker_loop_runs_under_the_roomy_frame(session):
    def sizes():
        import sys
        f, out = sys._getframe(), []
        while f is not None:
            out.append(f.f_code.co_stacksize)
            f = f.f_back
        return out
    assert ROOMY_SLOTS in session.worker.call(sizes)
