"""The integer copy of a walk in place (walks._loop) over a local that a
closure of the same function captures (its value a macro expanded at run time
could write back into the closure cell: expansion.py): the walk's body runs
no Lisp code, so no other function can change the local in it, and the copy
tests it and knows its kind (kinds.simplify, While.runs_no_lisp). Seen in
the Python a lambda compiles to, and run against the reference
(RUSTY_SPECIALIZE=0), with a named let whose bound a macro expanded at run
time changes (no copy: its exits read the enclosing local)."""
import io
import re

import pytest

from rusty.runtime import Session
from rusty.values import sym
from test_paths_agree import assert_same, both_ways

BUILD = ("(define (build n) (let loop ((i 0) (acc '())) (if (< i n) (loop (+ i 1) (cons (number->string i) acc)) "
         "(string-append-list (reverse acc)))))")
SIEVE = "(define (sieve l p) (filter (lambda (x) (not (= 0 (mod x p)))) l))"


def source(monkeypatch, program, fname, call):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session(out=io.StringIO())
    s.run(program)
    s.run(call)         # (compiled at the first call)
    return s.python_source(s.genv.lookup(sym(fname)))


def test_a_walk_in_place_knows_a_captured_local_of_its_function(monkeypatch):
    # the element's copy tests p (hoisted out of the loop) and then knows (mod x p) is an exact
    # integer: (= 0 …) compares without testing the remainder's class again
    src = source(monkeypatch, SIEVE, 'sieve', "(sieve '(1 2 3) 2)")
    assert re.search(r'if v_x_\d+\.__class__ is int and hoisted\d+_:\n\s+if not 0 == \(v_x_\d+ % v_p_\d+', src), src


PROGRAMS = [
    BUILD + " (list (build 0) (build 12) (try-catch (build 'a) (e) e) (build 2.5))",
    # the loop's bound changed by a macro expanded at run time in the loop (written back into the
    # enclosing function's local): to another kind, to a string the comparison refuses
    "(defmacro to-float () '(set! n 2.5)) (defmacro to-string () '(set! n \"x\")) (define k 0) (define lim -1) "
    "(define which to-float) (define (helper) (set! k (+ k 1)) (if (= k lim) (set! helper which)) 0) "
    "(define (f n) (let loop ((i 0) (acc 0)) (if (< i n) (begin (helper) (loop (+ i 1) (+ acc n))) acc))) "
    "(define (g n) (let loop ((i 0) (acc 0)) (if (< i n) (begin (helper) (loop (+ i 1) (+ acc i))) acc))) "
    "(define warm (list (f 3) (f 4) (g 3) (g 4))) (set! lim (+ k 3)) (define r1 (f 6)) "
    "(define (helper) (set! k (+ k 1)) (if (= k lim) (set! helper which)) 0) (g 2) (g 2) "
    "(set! which to-string) (set! lim (+ k 3)) (list warm r1 (try-catch (g 6) (e) e))",
    SIEVE + " (list (sieve (range 2 40) 3) (sieve '(1 2.0 3 -4 5) 2) (sieve '(1 2 3) 2.5) "
    "(try-catch (sieve '(1 2) 0) (e) e) (try-catch (sieve '(1 x 3) 2) (e) e) (sieve '(3 6 -9 4) -3))",
    # a closure over the walk's local, called before and after the walk, changes it (set!)
    "(define (f l p) (let ((bump (lambda () (set! p (* p 2.0))))) (list (filter (lambda (x) (= 0 (mod x p))) l) "
    "(bump) (map (lambda (x) (* x p)) l)))) (f '(1 2 3 4) 2)",
]


@pytest.mark.parametrize('program', PROGRAMS, ids=range(len(PROGRAMS)))
def test_the_copies_agree_with_the_reference(program):
    reference, fast = both_ways(['-e', program])
    assert_same(reference, fast, program)
