"""A compiled lambda whose maker ran on the reference (a top-level `let`,
or a maker the tier-up left there) reads the maker's locals from the
reference frames around it inline (`E[0][i]`), not by a call of
support.env_read per read, and does what the reference does: a body's
define read before it ran found by name (or the reference's error), a
local set! by another closure seen at once, a name
`eval` defines in a frame further in found by name (and set! by name), a
set! of a maker's local written in its frame in place, locals up to and past
variables.FRAME_HOPS frames out, a failure's report and backtrace."""
import io
import os
import re
import subprocess
import sys

from rusty.runtime import Session
from rusty.values import sym

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a closure and a local function 15 let frames inside the top-level let: locals
# read from 1 to 15 frames out, inline and (past FRAME_HOPS) by env_read
NAMES = 'abcdefghijklmno'
DEEP = ''.join('(let ((%s %d))\n' % (c, i) for i, c in enumerate(NAMES)) + (
    '(define (add x) (+ x %s))\n(lambda (y) (list (add y) %s (set! a (+ a 1)) a))' % (' '.join(NAMES), ' '.join(NAMES))
    + ')' * len(NAMES) + ')')

PROGRAM = '''
(define g #f)
(define early (let ()
  (define (user y) (helper y))
  (set! g user)
  (define r (try-catch (user 1) (e) e))
  (define (helper x) (+ x 1))
  r))
(display early) (newline)
(display (g 41)) (newline)
(define h ''' + DEEP + '''
(display (h 10)) (newline)
(display (h 10)) (newline)
(define re (let ()
  (define (helper x) (+ x 1))
  (define (user y) (helper y))
  (define (swap!) (set! helper (lambda (x) (* x 10))))
  (list user swap!)))
(display ((car re) 5)) (newline)
((cadr re))
(display ((car re) 5)) (newline)
(define dd (let ()
  (define (helper x) (+ x 1))
  (define (other y) (helper y))
  (define (user y) (let ((z 0)) (eval '(define helper (lambda (x) 'dyn))) (list (helper y) (other y))))
  user))
(display (dd 1)) (newline)
(define ee (let ((w 5))
  (define (rd) w)
  (lambda (v) (eval '(define w 77)) (list (rd) w v))))
(display (ee 1)) (newline)
(display (ee 2)) (newline)
(define cc (let ((n 0)) (let ((m 10)) (lambda () (set! n (+ n 1)) (set! m (+ m n)) (list n m)))))
(cc)
(display (cc)) (newline)
(define ww (let ((n 0))
  (define (bump!) (set! n (+ n 1)) n)
  (lambda (k) (if (= k 2) (eval '(define n 100))) (list (bump!) (set! n (+ n 10)) n))))
(display (ww 1)) (newline)
(display (ww 2)) (newline)
(display (ww 3)) (newline)
(define bad (let ()
  (define (helper x) (car x))
  (define (user y) (+ 1 (helper y)))
  user))
(bad 5)
'''


def run(compiled: bool) -> str:
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_SPECIALIZE='1' if compiled else '0',
               RUSTY_COMPILE_CALLS='0', RUSTY_CODE_CACHE='0')
    p = subprocess.run([sys.executable, '-m', 'rusty', '-e', PROGRAM], capture_output=True, text=True, env=env)
    return p.stdout + p.stderr


def test_frame_reads_do_what_the_reference_does():
    reference = run(False)
    assert "Undefined: 'helper'" in reference and '50' in reference and 'car: not a pair' in reference
    assert 'internal error' not in reference
    assert '(dyn 2)' in reference and '(5 77 2)' in reference and '(2 13)' in reference
    assert run(True) == reference


def test_a_body_define_of_an_enclosing_reference_frame_is_read_inline(monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session(out=io.StringIO())
    s.run('(define user (let () (define (helper x) (+ x 1)) (define (user y) (helper (helper y))) user))')
    assert s.run('(user 1)') == 3               # (compiled at its first call; its maker, the let, was not)
    src = s.python_source(s.genv.lookup(sym('user')))
    assert re.search(r':= E\[\d+\]\) is not UNBOUND', src), src
