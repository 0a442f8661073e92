"""Tests a loop makes of a variable it never changes, made once before the
loop (compile/hoist.py): whether a local procedure is a compiled lambda
to call directly, whether a captured number is an exact integer. Each
program runs both ways (the reference evaluator, RUSTY_SPECIALIZE=0, and
the compiler) with identical output, error report and exit status: the
procedure compiled only while the loop runs, a procedure read before its
`letrec` binding, one that `set!` replaces (from the loop or from a
closure it calls), captured numbers of every class."""
import io

import pytest

from rusty.runtime import Session
from rusty.values import sym
from test_paths_agree import agree

COUNTER = """
(define (make-counter)
  (let ((n 0)) (lambda () (set! n (+ n 1)) n)))
(define (count-up k)
  (let ((c (make-counter)))
    (let loop ((i 0))
      (if (< i k) (begin (c) (loop (+ i 1))) (c)))))
"""

VSUM = ("(define (vsum v n) (let loop ((i 0) (s 0)) (if (< i n) (loop (+ i 1) (+ s (vector-ref v i))) s)))"
        " (define (fill v n) (let loop ((i 0)) (when (< i n) (vector-set! v i (* i i)) (loop (+ i 1)))) v) ")

PROGRAMS = [
    COUNTER + "(list (count-up 10) (count-up 0) (count-up 1000))",
    # the procedure a parameter: a new one for each run of the loop; one the reference made, compiled
    # after its first call (inside the loop); a builtin; a lambda of another arity (the loop's own error)
    "(define (run c k) (let loop ((i 0) (acc '())) (if (< i k) (loop (+ i 1) (cons (c) acc)) acc)))"
    " (define (k x) (lambda () x))"
    " (display (list (run (k 1) 3) (run (k 'b) 2) (run (lambda () 'ref) 3) (run newline 1))) (run car 2)",
    "(define (run c k) (let loop ((i 0)) (when (< i k) (c i) (loop (+ i 1)))))"
    " (run (lambda (x) (display x)) 3) (run (lambda (x y) x) 2)",
    # set! replaces the procedure: from the loop itself, from a closure the loop calls
    "(define (f) (let ((c (lambda () 1)) (out '()))"
    " (let loop ((i 0)) (when (< i 4) (set! out (cons (c) out)) (set! c (lambda () i)) (loop (+ i 1))))"
    " out)) (f)",
    "(define (f) (let* ((log '()) (c (lambda () (set! log (cons 1 log))))"
    " (swap (lambda () (set! c (lambda () (set! log (cons 2 log)))))))"
    " (let loop ((i 0)) (when (< i 4) (c) (when (= i 1) (swap)) (loop (+ i 1)))) log)) (f)",
    # read before its letrec binding (never hoisted: letrec's names are no let's): the reference's error
    "(define (f n) (letrec ((loop (lambda (i) (if (< i n) (begin (g) (loop (+ i 1))) 'done)))"
    " (r (loop 0)) (g (lambda () 1))) r)) (display (f 0)) (f 3)",
    # a walk testing a captured number: exact integer, float, not a number
    "(define (f l p) (filter (lambda (x) (= 0 (mod x p))) l))"
    " (display (list (f '(1 2 3 4) 2) (f '(1 2 3 4) 2.0) (f '() 'a))) (f '(1 2) 'a)",
    "(define (f l p) (map (lambda (x) (+ x p)) l)) (list (f '(1 2) 1) (f '(1 2) 0.5) (f '(1 2) 100000000000000000000))",
    # a vector's class and length, read and written in a loop: in range, past it, a float index, no vector
    VSUM + "(display (list (vsum (vector 1 2 3) 3) (vsum (vector 1.5 2) 2) (vsum (vector) 0)"
    " (vsum (vector 1 2 3) 2.0) (fill (make-vector 3 0) 3))) (vsum (vector 1 2) 3)",
    VSUM + "(display (vsum (vector 1 2) 2)) (vsum '(1 2) 2)",
    VSUM + "(display (fill (make-vector 2 0) 2)) (fill (make-vector 2 0) 3)",
    VSUM + "(display (vsum (vector 1 2) 2)) (fill 'v 1)",
    # the vector replaced by a macro expanded at run time in the loop (its write-back): the length again
    "(defmacro shorter () '(set! v (vector 7 8))) (defmacro same () '(set! v (vector 7 8 9)))"
    " (define (g v n m) (let loop ((i 0) (s 0)) (if (< i n) (begin (when (= i 1) (m))"
    " (loop (+ i 1) (+ s (vector-ref v i)))) s))) (display (g (vector 1 2 3) 3 same)) (g (vector 1 2 3) 3 shorter)",
]


@pytest.mark.parametrize('program', PROGRAMS, ids=range(len(PROGRAMS)))
def test_hoisted_tests_agree_with_the_reference(program):
    agree(program)


def before_and_loop(monkeypatch, program, call, value, fn):
    """fn's generated Python before its loop and from it, once `call`, run three
    times, has given `value` each time."""
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    s = Session(out=io.StringIO())
    s.run(program)
    assert [s.run(call) for _ in range(3)] == [value] * 3
    return s.python_source(s.genv.lookup(sym(fn))).split('while True:', 1)


def test_the_loop_tests_the_procedure_once_before_it(monkeypatch):
    """count-up's loop reads its counter's function before the loop; its
    value is the reference's, counter and all."""
    before, loop = before_and_loop(monkeypatch, COUNTER, '(count-up 50)', 51, 'count-up')
    assert '.code if ' in before and 'hoisted' in loop      # (the procedure's Entry: compile/entry.py)


def test_the_loop_reads_a_vectors_length_once_before_it(monkeypatch):
    """vsum's loop indexes a vector parameter: its class and its length
    (a vector never changes length) are read before the loop."""
    before, loop = before_and_loop(monkeypatch, VSUM, '(vsum (vector 1 2 3) 3)', 6, 'vsum')
    assert 'len(v_v' in before and '< hoisted' in loop, before + loop
