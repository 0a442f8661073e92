"""The collector is tuned for list-heavy runs once a Session exists
(runtime.tune_gc): raised thresholds, start-up objects frozen; cyclic
garbage (a named let's closure and its frame) is still reclaimed."""
import gc
import io

from rusty.runtime import GC_THRESHOLDS, Session


def test_thresholds_raised_and_startup_frozen():
    Session(out=io.StringIO())
    assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_freeze_count() > 1000


def test_cycles_made_by_named_lets_are_still_collected():
    s = Session(out=io.StringIO())
    s.run('(define (f) (let loop ((i 0)) (if (< i 3) (loop (+ i 1)) i)))')
    s.run('(dotimes (k 1000) (f))')
    gc.collect()
    before = len(gc.get_objects())
    s.run('(dotimes (k 200000) (f))')
    gc.collect()
    assert len(gc.get_objects()) - before < 1000


def test_the_young_threshold_drops_while_collections_find_mostly_garbage():
    """gc_tuning.adapt: a young collection freeing most of what it looked at
    drops the young threshold; a calm spell (CALM_RUNS collections freeing
    little) raises it back; older generations' collections change nothing."""
    from rusty import gc_tuning
    saved = gc.get_threshold()
    try:
        gc.set_threshold(*GC_THRESHOLDS)
        gc_tuning.adapt('stop', {'generation': 0, 'collected': GC_THRESHOLDS[0] // 10})
        assert gc.get_threshold() == GC_THRESHOLDS
        gc_tuning.adapt('stop', {'generation': 2, 'collected': GC_THRESHOLDS[0]})
        assert gc.get_threshold() == GC_THRESHOLDS
        gc_tuning.adapt('stop', {'generation': 0, 'collected': GC_THRESHOLDS[0] * 3 // 4})
        small = gc_tuning.GARBAGE_THRESHOLDS
        assert gc.get_threshold() == small
        for _ in range(gc_tuning.CALM_RUNS - 1):
            gc_tuning.adapt('stop', {'generation': 0, 'collected': 0})
        gc_tuning.adapt('stop', {'generation': 0, 'collected': small[0]})       # (not calm: starts again)
        for _ in range(gc_tuning.CALM_RUNS - 1):
            gc_tuning.adapt('stop', {'generation': 0, 'collected': 0})
        assert gc.get_threshold() == small
        gc_tuning.adapt('stop', {'generation': 0, 'collected': 0})
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.set_threshold(*saved)


def test_a_run_making_cycles_collects_them_young():
    """A closure held by the frame it closes over (each call's a cycle) brings the young threshold down.
    (Not a local function only called: compiled code frees those without the collector.)"""
    from rusty import gc_tuning
    s = Session(out=io.StringIO())
    assert gc.get_threshold() == GC_THRESHOLDS
    s.run('(define (f) (let ((g #f)) (set! g (lambda () g)) 0)) (dotimes (k 150000) (f))')
    assert gc.get_threshold() == gc_tuning.GARBAGE_THRESHOLDS
    Session(out=io.StringIO())
    assert gc.get_threshold() == GC_THRESHOLDS
