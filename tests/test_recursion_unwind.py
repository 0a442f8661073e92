"""Failing at the recursion limit unwinds 200,000 levels: the depth counter
comes back to zero whichever way a level is left (a value, a rusty error, an
interrupt, any other exception), and the error, whose backtrace holds an
entry per level, is not kept alive by the evaluation thread once its caller
has it (it used to stay referenced until the next job, so the process paid
for it again at exit)."""
import gc
import weakref

from rusty.errors import RustyError
from rusty.runtime import Session
from rusty.values import Builtin, sym

LIMIT_MSG = ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
             'rewrite with an accumulator / tail call')
DEEP = '(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))'


def failure(s: Session, src: str) -> RustyError:
    try:
        s.run(src, '<test>')
    except RustyError as e:
        return e
    raise AssertionError('no error from %r' % src)


def test_the_error_at_the_limit_is_not_kept_by_the_evaluation_thread():
    s = Session()
    s.run(DEEP, '<test>')
    e = failure(s, '(f %d)' % (s.depth.limit + 10))
    assert e.message == LIMIT_MSG % s.depth.limit
    assert len(e.trace) == s.depth.limit
    ref = weakref.ref(e)
    del e
    gc.collect()
    assert ref() is None


def test_depth_is_restored_after_every_way_out_of_a_level():
    s = Session()
    s.genv.define(sym('host-fails'), Builtin('host-fails', _raise_host_error, 0, 0))
    s.run(DEEP + ' (define (g n) (if (= n 0) (car 1) (+ 1 (g (- n 1)))))'
          ' (define (h n) (if (= n 0) (host-fails) (+ 1 (h (- n 1)))))', '<test>')
    limit = s.depth.limit
    for src in ('(f %d)' % (limit + 10), '(g 1000)', '(h 1000)'):
        failure(s, src)
        assert s.depth.n == 0
    # the whole depth is still available: the deepest run that fits succeeds,
    # also right after a failure caught inside the same evaluation
    assert s.run('(f %d)' % (limit - 10), '<test>') == float(limit - 10)
    assert s.run('(begin (try-catch (f %d) (e) 0) (f %d))' % (limit + 10, limit - 10),
                 '<test>') == float(limit - 10)


def _raise_host_error():
    raise ValueError('host')
