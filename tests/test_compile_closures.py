"""Closures and local functions in compiled code: a lambda whose body has
defines is called directly like any other of its arity (support.arity); a
body's `define` of a lambda, run first and alone, is a known local function
(SpecialForms.known_define: called directly, its self tail calls a loop);
the closures compiled code makes are no cycles of their own
(a nested function's exits reach enclosing locals through its own cells: expansion.pinned). Each program runs both ways (RUSTY_SPECIALIZE=0 and
compiled from the first call) with identical output, status and report."""
import gc
import io
import os
import sys

import pytest

from rusty.compile.entry import direct_of
from rusty.runtime import Session
from rusty.values import sym

sys.path.insert(0, os.path.dirname(__file__))

from fuzz_redefine import run    # noqa: E402

SHOW = '(define (show v) (display v) (newline)) '
FLIP = '(defmacro setm (a) `(set! ,a 40)) (define (m a) 0) (define (flip) (set! m setm))'


def agree(text, want=None):
    """The program's (status, out, err) both ways: identical, no host error, and out == want if given."""
    fast, ref = run(SHOW + text, True), run(SHOW + text, False)
    assert 'internal error' not in fast[1] + fast[2] + ref[1] + ref[2], (text, fast, ref)
    assert fast == ref, (text, fast, ref)
    if want is not None:
        assert fast[1] == want, fast
    return fast


def compiling_session(monkeypatch) -> Session:
    for var in ('RUSTY_SPECIALIZE', 'RUSTY_COMPILE'):
        monkeypatch.setenv(var, '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    return Session(out=io.StringIO(), err=io.StringIO())


# ── lambdas with body defines ─────────────────────────────────────────────

def test_a_lambda_with_body_defines_is_called_directly(monkeypatch):
    s = compiling_session(monkeypatch)
    s.run('(define (g x) (define y (* x 2)) (+ y 1)) (define (f n) (+ (g n) (g 1)))')
    assert s.run('(f 1)') == 6 and s.run('(f 5)') == 14
    assert direct_of(s.genv.lookup(sym('g'))) is not None


@pytest.mark.parametrize('text, want', [
    ('(define (g x) (define y (* x 2)) (+ y 1)) (define (f n) (list (g n) (g 1))) (show (f 3)) (show (f 4))',
     '(7 3)\n(9 3)\n'),
    # an error in it: report and backtrace as the reference's
    ('(define (g x) (define y (car x)) y) (define (f n) (list (g n) 1)) (show (f (list 1))) (f 2)', None),
    ('(define (g x) (define y x) (if (< x 1) (car y) (g (- x 1)))) (define (f n) (list (g n) 1)) (f 3)', None),
    # the depth limit reached through it
    ('(define (g x) (define y x) (+ 1 (g (+ y 1)))) (g 0)', None),
])
def test_lambdas_with_body_defines_agree(text, want):
    agree(text, want)


def test_a_tail_call_with_short_frames_under_a_tool_agrees():
    """A named let (or local function) with body defines tail-calling itself
    while a tool watches calls: run gets a frame without the define slots."""
    agree("(define (f n) (let loop ((i 0) (acc 0)) (define k (* i 2)) (if (< i n) (loop (+ i 1) (+ acc k)) acc)))"
          " (show (f 5)) (trace 'f) (show (f 5))")
    agree("(define (f n) (define (h i acc) (define k (* i 2)) (if (< i n) (h (+ i 1) (+ acc k)) acc)) (h 0 0))"
          " (show (f 5)) (trace 'f) (show (f 5))")


# ── local functions ───────────────────────────────────────────────────────

def test_a_local_function_defined_once_is_known(monkeypatch):
    s = compiling_session(monkeypatch)
    s.run('(define (f n) (define (count i acc) (if (= i 0) acc (count (- i 1) (+ acc 1)))) (count n 0))')
    assert s.run('(f 3)') == 3
    shown = s.python_source(s.genv.lookup(sym('f')))
    assert 'def f_count_' in shown and 'while True' in shown
    assert s.run('(f 1000000)') == 1000000          # a loop: constant stack


@pytest.mark.parametrize('text, want', [
    # self tail calls, non-tail self calls, calls from the body after the define, a lambda form
    ('(define (f n) (define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc i)))) (loop n 0)) (show (f 10))',
     '55\n'),
    ('(define (f n) (define (fib k) (if (< k 2) k (+ (fib (- k 1)) (fib (- k 2))))) (list (fib n) (fib 5)))'
     ' (show (f 10))', '(55 5)\n'),
    ('(define (f n) (define sq (lambda (k) (* k k))) (+ (sq n) (sq 2))) (show (f 3))', '13\n'),
    ('(define (f n) (def sq (k) (* k k)) (+ (sq n) (sq 2))) (show (f 3))', '13\n'),
    # inside a let's body; mutual recursion of two local functions
    ('(define (f n) (let ((a 1)) (define (h k) (+ k a)) (h n))) (show (f 3))', '4\n'),
    ('(define (f n) (define (ev? k) (if (= k 0) #t (od? (- k 1)))) (define (od? k) (if (= k 0) #f (ev? (- k 1))))'
     ' (list (ev? n) (od? n))) (show (f 7))', '(#f #t)\n'),
    # the name read (passed as a value), its printed name
    ('(define (f n) (define (h k) (* k 3)) (map h (list n 1))) (show (f 2))', '(6 3)\n'),
    ('(define (f) (define (h k) k) h) (show (f))', None),
    # called before its define: the global of that name, else undefined (as the reference)
    ('(define (h k) 100) (define (f n) (define a (h n)) (define (h k) k) (list a (h n))) (show (f 1))',
     '(100 1)\n'),
    ('(define (f n) (define a (hh n)) (define (hh k) k) a) (f 1)', None),
    # not known: defined twice, set!, defined in a branch
    ('(define (f n) (define (h k) 1) (define (h k) 2) (h n)) (show (f 1))', '2\n'),
    ('(define (f n) (define (h k) 1) (set! h (lambda (k) 3)) (h n)) (show (f 1))', '3\n'),
    ('(define (f n) (cond ((> n 0) (define (h k) 1))) (h n)) (show (f 1)) (f 0)', None),
    # errors inside: report, backtrace; the depth limit
    ('(define (f n) (define (h k) (if (= k 0) (car k) (h (- k 1)))) (h n)) (f 3)', None),
    ('(define (f n) (define (h k) (if (= k 0) (car k) (+ 1 (h (- k 1))))) (h n)) (f 3)', None),
    ('(define (f n) (define (h k) (+ 1 (h (+ k 1)))) (h n)) (f 0)', None),
    # a helper turned macro while a local function runs
    (FLIP + ' (define (f n) (define (h k) (flip) (m k) k) (h n)) (show (f 1)) (show (f 2))', '40\n40\n'),
    (FLIP + ' (define (f n) (define (h k) (flip) (m n) n) (h 0)) (show (f 1)) (show (f 2))', '40\n40\n'),
    (FLIP + ' (define (f n) (define (h k) (lambda () (flip) (m n) n)) ((h 0))) (show (f 1)) (show (f 2))',
     '40\n40\n'),
])
def test_local_functions_agree(text, want):
    agree(text, want)


def test_a_local_function_under_the_tools_agrees():
    agree("(define (f n) (define (h i acc) (if (= i 0) acc (h (- i 1) (+ acc 1)))) (h n 0))"
          " (show (f 3)) (trace 'f) (show (f 3))")


# ── no cycles of their own ────────────────────────────────────────────────

def test_closures_compiled_code_makes_are_freed_without_the_collector(monkeypatch):
    """A nested function's exits (a call that may turn out a macro) reach
    the enclosing locals through its own closure cells, not through its own
    name: the function is not in its own closure, so a closure that escapes
    nowhere dies with its last reference."""
    s = compiling_session(monkeypatch)
    s.run('(define (g x) x) (define (f n) (let ((h (lambda (k) (g (+ k n))))) (h 1)))')
    assert s.run('(f 1)') == 2
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        s.run('(define (many k) (if (= k 0) 0 (begin (f k) (many (- k 1))))) (many 3000)')
        found = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert found < 1000, found


# ── floats with integer literals, vectors (compile/inline.py) ─────────────

FLOATS = ['1.5', '-0.0', '0.0', '1e308', '(- 0.0 1e308 1e308)', '(/ 0.0 0.0)', '3', '"s"', "'(1)"]
LITERALS = ['0', '1', '-3', str(2 ** 53), str(2 ** 53 + 1), str(10 ** 20), '2.5']


def test_arithmetic_of_a_float_and_an_integer_literal_agrees():
    """`(- x 1)`, `(* 2 x)`…: a float and a literal computed in place, as the builtin computes them."""
    lines = []
    for op in ('+', '-', '*'):
        for lit in LITERALS:
            lines.append("(define (l%d x) (%s x %s)) (define (r%d x) (%s %s x))"
                         % (len(lines), op, lit, len(lines), op, lit))
    calls = ' '.join('(show (try-catch (list (l%d %s) (r%d %s)) (e) e))' % (i, x, i, x)
                     for i in range(len(lines)) for x in FLOATS)
    agree(' '.join(lines) + ' ' + calls)


def test_vector_ref_and_length_agree():
    indices = ['0', '2', '3', '-1', '1.0', '1.5', '-0.0', '3.0', '(/ 0.0 0.0)', '1e308', str(2 ** 70), '"1"']
    text = ("(define v (vector 'a 'b 'c)) (define (ref w i) (vector-ref w i)) (define (len w) (vector-length w))"
            + ' '.join("(show (try-catch (ref v %s) (e) e))" % i for i in indices)
            + " (show (try-catch (ref '(1 2) 0) (e) e)) (show (len v)) (show (try-catch (len '(1)) (e) e))"
            + " (show (len (vector))) (ref v 7)")
    agree(text)


@pytest.mark.parametrize('text, want', [
    ('(define g 1) (define (f n) (if (= n 0) g (begin (set! g (+ g n)) (f (- n 1))))) (show (f 4)) (show g)',
     '11\n11\n'),
    ('(define (f) (set! never-bound 1)) (f)', None),
    # set! of a global the code assumes (its own name; a builtin it inlines)
    ('(define (f n) (set! f 5) n) (show (f 1)) (show f)', '1\n5\n'),
    ('(define (f n) (let ((r (car n))) (set! car cdr) r)) (show (f (list 1 2))) (show (f (list 1 2)))',
     '1\n(2)\n'),
    # a name pending (the library's), then set
    ('(define (f) (set! reverse 3) reverse) (show (f))', '3\n'),
])
def test_set_of_a_global_agrees(text, want):
    """set! of a bound global writes its cell in place; anything else goes by name (support.global_write)."""
    agree(text, want)


@pytest.mark.parametrize('text, want', [
    ('(define (f n) (letrec ((loop (lambda (i acc) (if (= i 0) acc (loop (- i 1) (+ acc i)))))) (loop n 0)))'
     ' (show (f 10)) (show (f 100000))', '55\n5000050000\n'),
    ('(define (f n) (letrec ((ev? (lambda (k) (if (= k 0) #t (od? (- k 1))))) (od? (lambda (k) (if (= k 0) #f'
     ' (ev? (- k 1)))))) (list (ev? n) (od? n)))) (show (f 9))', '(#f #t)\n'),
    ('(define (f n) (letrec ((g (lambda (k) (if (= k 0) (car k) (+ 1 (g (- k 1))))))) (g n))) (f 3)', None),
    # not known: set!, bound again by a body define, a rest parameter
    ('(define (f n) (letrec ((g (lambda (k) 1))) (set! g (lambda (k) 2)) (g n))) (show (f 1))', '2\n'),
    ('(define (f n) (letrec ((g (lambda (k) 1))) (define (g k) 3) (g n))) (show (f 1))', '3\n'),
    ('(define (f n) (letrec ((g (lambda k k))) (g n 1))) (show (f 1))', '(1 1)\n'),
    # an init calling a later binding's lambda before it is made
    ('(define (f n) (letrec ((a (b n)) (b (lambda (k) k))) a)) (f 1)', None),
])
def test_letrec_lambdas_agree(text, want):
    agree(text, want)


def test_sums_and_products_of_three_or_four_agree():
    """(+ a b c), (* a b c d): all exact integers or all floats in place, anything else the builtin."""
    values = ['1', '-2', str(2 ** 70), '1.5', '-0.0', '0.0', '1e308', '(/ 0.0 0.0)', '"s"']
    lines = ['(define (s3 a b c) (+ a b c)) (define (p3 a b c) (* a b c)) (define (s4 a b c d) (+ a b c d))'
             ' (define (p4 a b c d) (* a b c d))']
    import itertools
    for a, b, c in itertools.product(values, repeat=3):
        lines.append('(show (try-catch (list (s3 %s %s %s) (p3 %s %s %s) (s4 %s %s %s 2) (p4 2.0 %s %s %s)) (e) e))'
                     % (a, b, c, a, b, c, a, b, c, a, b, c))
    agree(' '.join(lines))


def test_eq_of_symbols_and_booleans_agrees():
    values = ["'a", "'b", '#t', '#f', '1', '1.0', '0', '"a"', "'()", "'(a)", 'nil', "(vector 'a)"]
    lines = ['(define (e a b) (list (eq? a b) (equal? a b) (eq? a #t) (eq? #f b) (eq? a \'a)))']
    lines += ['(show (e %s %s))' % (a, b) for a in values for b in values]
    agree(' '.join(lines))


@pytest.mark.parametrize('text, want', [
    # a wrapper tail-calling a known function; two known functions calling each other in tail position
    ('(define (f n) (define (mk a b) (vector a b)) (let ((one (lambda (a) (mk a 0)))) (list (one n) (one 2))))'
     ' (show (f 1))', '(#(1 0) #(2 0))\n'),
    ('(define (f n) (define (ev? k) (if (= k 0) #t (od? (- k 1)))) (define (od? k) (if (= k 0) #f (ev? (- k 1))))'
     ' (od? n)) (show (f 100001)) (show (f 7))', '#t\n#t\n'),
    ('(define (f n) (define (g k) (h k)) (define (h k) (if (= k 0) (car k) (g (- k 1)))) (g n)) (f 5)', None),
    ('(define (f n) (define (g k) (if (= k 0) 0 (+ 1 (h k)))) (define (h k) (g (- k 1))) (g n)) (f 100)', None),
    ('(define (f n) (define (g k) (if (= k 0) 0 (+ 1 (h k)))) (define (h k) (g (- k 1))) (g n))'
     ' (show (f 100)) (trace (quote f)) (show (f 3))', None),
])
def test_tail_calls_between_local_functions_agree(text, want):
    agree(text, want)


def test_a_million_tail_calls_between_local_functions_run_in_constant_stack(monkeypatch):
    s = compiling_session(monkeypatch)
    s.run('(define (f n) (define (ev? k) (if (= k 0) #t (od? (- k 1)))) (define (od? k) (if (= k 0) #f'
          ' (ev? (- k 1)))) (define (go k) (ev? k)) (go n))')
    assert s.run('(f 10)') is True and s.run('(f 1000001)') is False


def test_a_local_function_a_macro_defines_again_agrees():
    """A macro whose expansion (made while lowering) defines the local function's name again."""
    agree("(defmacro again (n v) `(define ,n ,v)) (define (f k) (define (h j) 1) (show (h k)) (again h 5) h)"
          " (show (f 1)) (show (f 2))", '1\n5\n1\n5\n')
    agree("(defmacro again (n) `(define (,n j) 7)) (define (f k) (define (h j) 1) (show (h k)) (again h) (h k))"
          " (show (f 1)) (show (f 2))", '1\n7\n1\n7\n')
