"""Known local functions (a body's define, a letrec's lambda) freed after a
tail call of them without the cycle collector (calls._release), and, where
the value may have escaped, kept: every program as the reference runs it."""

import pytest

from test_compile_paths import lambdas_left, outcomes_both_ways, session

SHAPES = {
    'define': "(define (f n) (define (loop i acc) (if (< i n) (loop (+ i 1) (cons i acc)) acc)) (loop 0 '()))",
    'define-lambda': "(define (f n) (define loop (lambda (i acc) (if (< i n) (loop (+ i 1) (cons i acc)) acc)))"
                     " (loop 0 '()))",
    'letrec': "(define (f n) (letrec ((loop (lambda (i acc) (if (< i n) (loop (+ i 1) (cons i acc)) acc))))"
              " (loop 0 '())))",
    'not-tail-inside': "(define (f n) (define (loop i acc) (if (< i n) (cons i (loop (+ i 1) acc)) acc))"
                       " (loop 0 '()))",
    'nested-named-lets': "(define (f n) (let loop1 ((l (list n n)) (acc '())) (if (null? l) acc"
                         " (let loop2 ((i (car l)) (acc acc)) (if (= i 0) (loop1 (cdr l) acc)"
                         " (loop2 (- i 1) (cons i acc)))))))",
    'in-begin': "(define (f n) (begin (define (loop i acc) (if (< i n) (loop (+ i 1) (cons i acc)) acc)))"
                " (loop 0 '()))",
}


DRIVE = ' (define (drive k) (when (> k 0) (f 3) (drive (- k 1))))'


@pytest.mark.parametrize('shape', sorted(SHAPES))
def test_a_known_local_function_is_freed_after_a_tail_call_of_it(monkeypatch, shape):
    s = session(monkeypatch, True)
    s.run(SHAPES[shape] + DRIVE)
    s.run('(drive 2)')
    assert lambdas_left(s, '(drive 40)') == 0


def test_the_count_tells_a_function_kept_from_one_freed(monkeypatch):
    """Used as a value, or called other than in tail position, the function
    is left as it was (to the collector): the test above can tell."""
    s = session(monkeypatch, True)
    s.run("(define (g n) (define (loop i) (if (< i n) (loop (+ i 1)) i)) (list (loop 0)))"
          " (define (h n) (define (loop i) (if (< i n) (loop (+ i 1)) i)) (loop 0) loop)"
          " (define (f n) (g n) (h n))" + DRIVE)
    s.run('(drive 2)')
    assert lambdas_left(s, '(drive 40)') >= 80


# A value that escapes at run time only: a macro passed as an argument,
# expanded on the reference in frames of the compiled locals, closing over
# them. The count of references keeps it, and it runs later as the
# reference's does (calling itself other than in tail position: through its
# function's own name, which a release clears).
KEEP = "(define saved #f) (defmacro keep (i) `(begin (set! saved (lambda () (loop 1))) ,i))"
ESCAPES = [
    "(define (f n m) (define (loop i) (if (< i n) (+ 1 (loop (+ i 1))) (m i))) (loop 0))",
    "(define (f n m) (letrec ((loop (lambda (i) (if (< i n) (+ 1 (loop (+ i 1))) (m i))))) (loop 0)))",
    "(define (f n m) (let loop ((i 0)) (if (< i n) (let loop2 ((j 0)) (if (< j 1) (loop2 (+ j 1))"
    " (+ (m j) (loop (+ i 1))))) i)))",
]


@pytest.mark.parametrize('defs', ESCAPES)
def test_a_function_escaping_at_run_time_is_kept(monkeypatch, defs):
    want, got = outcomes_both_ways(monkeypatch, KEEP + defs, ['(f 3 -)'],
                                   '(list (f 3 keep) (saved) (f 2 keep) (saved) (saved))')
    assert want[0] == 'value' and want == got


@pytest.mark.parametrize('shape', sorted(SHAPES))
def test_freed_functions_compute_as_the_reference(monkeypatch, shape):
    want, got = outcomes_both_ways(monkeypatch, SHAPES[shape], ['(f 3)'], '(list (f 0) (f 4) (f 2) (f (quote x)))')
    assert want == got


NAMED = ("(define (f n) (define g (lambda (x) (car x))) (g n))"
         " (define (h n) (define g (lambda (x) (+ x n))) (list g (g 1)))")


def test_a_known_local_function_made_by_define_of_a_lambda_fails_under_its_name(monkeypatch):
    want, got = outcomes_both_ways(monkeypatch, NAMED, ["(f '(1))", '(h 1)'], '(f 1)')
    assert want[0] == 'error' and want == got


def test_a_known_local_function_made_by_define_of_a_lambda_has_its_name(monkeypatch):
    names = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(NAMED + " (f '(1)) (h 1) (h 1)")
        names.append(s.run('(h 2)').car.name)
    assert names == ['g', 'g']
