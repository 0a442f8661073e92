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
