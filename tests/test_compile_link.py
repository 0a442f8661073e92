"""Linking the values the reference makes of a compiled lambda
(compile/link.py's Linker): each is linked as it is made, by a call of the
lambda's maker (compile/entry.py's `maker`), its function sharing the
lambda's globals and watchers. Held against the reference: late binding of
globals (a redefined global, an inlined builtin replaced), a deoptimisation
sending every value back, profiler counts, and whole programs both ways
(values, reports and backtraces, the depth limit)."""
import gc
import os
import sys

import pytest

from rusty.compile import link
from rusty.compile.entry import Entry
from rusty.values import sym

sys.path.insert(0, os.path.dirname(__file__))

from fuzz_redefine import run    # noqa: E402
from test_compile_profiled import lisp_calls, session    # noqa: E402
from test_compile_tierup import compiled, timed_session    # noqa: E402

ADDER = ('(define huge 0) (define k 10) (define (g x) (* x 2)) '
         '(define (adder n) huge (lambda (x) (spend 0.001) (+ (g x) n k)))')
WARM = '(let loop ((i 0)) (if (< i 100) (begin ((adder i) i) (loop (+ i 1))) i))'


def adders(monkeypatch):
    """A session where adder's lambda is compiled, adder stays on the reference, and a and b are two of its values.
    (adder costs too much to compile, its closures' time counted: compiled, it would make them compiled.)"""
    s = timed_session(monkeypatch, budget=0.02)
    monkeypatch.setattr(link, 'size', lambda body: 1e6 if sym('huge') in list(body) else 1.0)
    s.run(ADDER)
    s.run(WARM)
    assert link.STATS.compiled == 1 and not compiled(s, 'adder')
    s.run('(define a (adder 1)) (define b (adder 2))')
    assert compiled(s, 'a') and compiled(s, 'b')
    return s


def test_values_the_reference_makes_see_globals_redefined(monkeypatch):
    s = adders(monkeypatch)
    assert s.run('(a 1)') == 13 and s.run('(b 1)') == 14
    s.run('(define k 100)')
    assert s.run('(a 1)') == 103
    s.run('(define (g x) (* x 3))')
    assert s.run('(a 1)') == 104 and s.run('(b 1)') == 105
    s.run('(set! + -)')         # (the builtin the code computes in place: OK cleared for every value)
    assert s.run('(a 1)') == 3 - 1 - 100 and s.run('(b 1)') == 3 - 2 - 100
    s.run('(define c (adder 3))')       # (linked after: it reads the cells too)
    assert compiled(s, 'c') and s.run('(c 1)') == 3 - 3 - 100
    assert 'def f_c(d, v_x_1)' in s.python_source(s.genv.lookup(sym('c')))     # (,py)


def test_a_deoptimisation_sends_every_value_back_to_the_reference(monkeypatch):
    s = adders(monkeypatch)
    assert s.run('(a 1)') == 13
    s.run('(defmacro g (x) (list (quote *) x 5))')
    assert not compiled(s, 'a') and not compiled(s, 'b') and link.STATS.deopts == 1
    assert s.run('(a 1)') == 16 and s.run('(b 1)') == 17
    s.run('(define c (adder 3))')       # (made while the lambda warms up again: on the reference)
    assert not compiled(s, 'c') and s.run('(c 1)') == 18


def test_values_linked_from_the_reference_are_freed_without_the_collector(monkeypatch):
    # A value, its Entry and its function are no cycle (the function names neither its value
    # nor itself: no closure cell of them), so a closure called once and dropped dies at once.
    s = adders(monkeypatch)
    s.run('(define (use n) (if (= n 0) 0 (begin ((adder n) n) (use (- n 1)))))')
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        assert s.run('(use 3000)') == 0
        found = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert found < 1000, found


LOOP = '(do ((i 0 (+ i 1))) ((= i 6)) (set! fs (cons (let ((n i)) (lambda (x) (+ x n k))) fs)) ((car fs) 0))'
MAKE = '(define fs (list)) (define k 1) ' + LOOP      # (the first values called compile the lambda: the rest are linked as made)


def test_values_linked_as_made_count_under_the_profiler_as_the_references(monkeypatch):
    # The closures are made by a top-level loop (the reference): the first ones warm it, the rest
    # are linked as made; more are made, and linked, while the profiler is on.
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast, 2)
        s.run(MAKE, 'prog.lisp')
        s.run('(map (lambda (f) (f 1)) fs)')
        s.run(LOOP)
        if fast:
            assert isinstance(s.run('(car fs)').code, Entry)
        first = s.profile('(map (lambda (f) (f 1)) fs)')
        second = s.profile('(begin ' + LOOP + ' (map (lambda (f) (f 2)) fs))')
        third = s.run('(map (lambda (f) (f 3)) fs)')
        got.append((repr(first), repr(second), repr(third), lisp_calls(s)))
        assert all(r.active == 0 for r in s.last_profile.rows.values())
    assert got[0] == got[1]


SHOW = '(define (show v) (display v) (newline)) '
PROGRAMS = [
    # late binding: a global the closures read, one they call, an inlined builtin
    MAKE + ' (show (map (lambda (f) (f 10)) fs)) (define k 100) (show (map (lambda (f) (f 10)) fs))'
    ' (set! + -) (show (map (lambda (f) (f 10)) fs))',
    '(define (g x) (* 2 x)) (define fs (list)) (do ((i 0 (+ i 1))) ((= i 5)) (set! fs (cons (lambda (x) (g x)) fs))'
    ' ((car fs) 1))'
    ' (show (map (lambda (f) (f 3)) fs)) (defmacro g (x) (list (quote list) x x)) (show (map (lambda (f) (f 3)) fs))'
    ' (define (g x) (- x)) (show (map (lambda (f) (f 3)) fs))',
    # a failure inside one: report and backtrace
    '(define fs (list)) (do ((i 0 (+ i 1))) ((= i 5)) (set! fs (cons (let ((n i)) (lambda (x) (car (list x n)) (car x))) fs))'
    ' ((car fs) (list 1)))'
    ' (show ((car (cdr fs)) (list 4))) (define (use f) (+ 1 (f 7))) (use (car fs))',
    # the depth limit reached through them
    '(define fs (list)) (do ((i 0 (+ i 1))) ((= i 3)) (set! fs (cons (lambda (x) (if (= x 0) 0 (+ 1 ((car fs) (- x 1))))) fs))'
    ' ((car fs) 2))'
    ' (show ((car fs) 50)) ((car fs) 100000)',
    # a named let made at each call of a function that stays on the reference (a breakpoint form)
    '(define (count-to n) (if #f (breakpoint)) (let loop ((i 0) (acc 0)) (if (< i n) (loop (+ i 1) (+ acc i)) acc)))'
    ' (show (map count-to (list 1 5 10 20 30))) (define (count-to n) n) (show (count-to 7))',
]


@pytest.mark.parametrize('text', PROGRAMS)
def test_programs_making_closures_on_the_reference_agree(text):
    fast, ref = run(SHOW + text, True), run(SHOW + text, False)
    assert 'internal error' not in fast[1] + fast[2] + ref[1] + ref[2], (text, fast, ref)
    assert fast == ref, (text, fast, ref)
