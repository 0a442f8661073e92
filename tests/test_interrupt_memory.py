"""An interrupted evaluation lets go of what its frames held at once, not at
the next full collection: the run loop's error was held in a local of a
frame its own traceback reached, and that cycle kept the evaluation's
frames (and the tensors in them) alive, 30-250 MB per interrupted matmul
or kernel loop."""
import gc
import sys
import threading

from rusty.runtime import Session
from rusty.values import sym


def test_an_interrupted_evaluation_frees_its_frames_without_a_collection():
    s = Session()
    s.run('(define (spin n) (spin (+ n 1)))')
    s.run('(define (hold t) (+ 1 (spin 0)))')
    s.run('(define big (tensor (list 1 2 3)))')
    cell = s.genv.cell(sym('big'))
    t = cell.get()
    cell.set(False)
    unheld = sys.getrefcount(t)
    cell.set(t)
    was = gc.isenabled()
    gc.disable()
    try:
        timer = threading.Timer(0.3, s.worker.interrupt)
        timer.start()
        try:
            s.run('(hold big)')
        except Exception as e:
            assert e.message == 'interrupted'
        else:
            raise AssertionError('the spin was not interrupted')
        timer.join()
        s.run('(define big 0)')
        assert sys.getrefcount(t) == unheld
    finally:
        if was:
            gc.enable()
