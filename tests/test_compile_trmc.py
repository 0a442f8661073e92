"""A function consing onto a call of itself in tail position, compiled as a
loop (compile/trmc.py), against the reference evaluator, which nests a run
level per cell: values, where the list ends (a non-list, Nil), failures at
any level (message, position, every backtrace entry and the frame it
shows), the depth limit at the same call, self tail calls mixed in, and the
cases that must stay calls (cons or the function redefined, a lambda in the
body, Lisp code run by a level)."""
import pytest

from rusty.values import sym
from test_compile_paths import outcomes_both_ways, session
from test_paths_agree import assert_same, both_ways

DEFS = r"""
(define (double-all l) (if (null? l) '() (cons (* 2 (car l)) (double-all (cdr l)))))
(define (merge a b)
  (cond ((null? a) b)
        ((null? b) a)
        ((< (car b) (car a)) (cons (car b) (merge a (cdr b))))
        (else (cons (car a) (merge (cdr a) b)))))
(define (odds l) (cond ((null? l) '()) ((odd? (car l)) (cons (car l) (odds (cdr l)))) (else (odds (cdr l)))))
(define (upto n) (if (= n 0) '() (cons n (upto (- n 1)))))
(define (ending l end) (if (null? l) end (cons (car l) (ending (cdr l) end))))
(define (firsts l) (when (pair? l) (cons (car (car l)) (firsts (cdr l)))))
(define nada (display ""))
(define vec (vector 1 2))
"""

PROGRAMS = [
    "(list (double-all '(1 2 3)) (double-all '()) (merge '(1 4 9) '(2 3 10 11)) (merge '() '(1)))",
    "(list (odds '(1 2 3 4 5 6 7)) (odds '(2 4)) (upto 5) (upto 0))",
    # where the list ends: a non-list value becomes the last element, Nil the end, as cons makes them
    "(list (ending '(1 2) 5) (ending '(1 2) nada) (ending '(1 2) '(3)) (ending '() 7))",
    "(let ((r (ending '(1 2) vec))) (list (length r) (eq? (caddr r) vec)))",
    "(list (firsts '((1) (2) (3))) (firsts '()))",
    # failures at a level: the innermost's position, then one entry (and frame) per level
    "(double-all '(1 2 x 4))",
    "(merge '(1 3 5) '(2 4 a 6))",
    "(odds '(1 2 3 4 5 x 7))",          # after self tail calls (each level's last one is its own)
    "(odds '(2 4 1 6 8 3 x))",
    "(firsts '((1) (2) 3))",
    "(ending '(1 2 . 3) 0)",
    # caught, and the function used again
    "(list (try-catch (double-all '(1 y)) (e) (error-message e)) (double-all '(1 2)))",
    # the depth limit (RUSTY_RECURSION_LIMIT=2000 here): the same call fails, with the same report
    "(length (upto 1996))", "(length (upto 1997))", "(length (upto 1998))", "(length (upto 1999))",
    "(length (upto 2000))", "(length (upto 5000))",
    "(length (merge (upto 1500) (upto 1500)))",
    # cons redefined before the call: the calls as written, then the original again
    "(define old-cons cons) (set! cons list) (define r (double-all '(1 2))) (set! cons old-cons) (list r (double-all '(1 2)))",
    # the function redefined: a level calls the new one
    "(define keep double-all) (set! double-all (lambda (l) 'new)) (keep '(1 2 3))",
    # a first-order builtin in the body redefined as a lambda that redefines cons: calls, as before
    "(define (ev l) (if (null? l) '() (cons (odd? (car l)) (ev (cdr l))))) (define a (ev '(1 2)))"
    " (set! odd? (lambda (x) (set! cons list) #t)) (list a (ev '(1 2 3)))",
    # a level that runs Lisp code, a lambda in the body: calls, as before
    "(define (g x) (* x 10)) (define (via l) (if (null? l) '() (cons (g (car l)) (via (cdr l))))) (via '(1 2 x))",
    "(define (mk l) (if (null? l) '() (cons (lambda () (car l)) (mk (cdr l))))) (map (lambda (f) (f)) (mk '(1 2)))",
    "(define (lt l) (if (null? l) '() (let ((x (car l))) (cons x (lt (cdr l)))))) (list (lt '(1 2)) (lt '(1 . 2)))",
    # a self call in the element, and in tail position inside begin/and/or/unless
    "(define (lens l) (if (null? l) '() (cons (length l) (lens (cdr l))))) (lens '(a b c))",
    "(define (b l) (begin 1 (unless (null? l) (cons (car l) (b (cdr l)))))) (list (b '(1 2)) (b '()))",
    "(define (o l) (or (null? l) (cons (car l) (o (cdr l))))) (o '(1 2 3))",
]


@pytest.mark.parametrize('src', PROGRAMS, ids=range(len(PROGRAMS)))
def test_a_consing_loop_agrees_with_the_reference(monkeypatch, src):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '2000')
    warm = ("(double-all '(1))", "(merge '(1) '(2))", "(odds '(1 2))", '(upto 2)', "(ending '(1) 0)", "(firsts '((1)))")
    reference, fast = outcomes_both_ways(monkeypatch, DEFS, warm, src)
    assert reference == fast


def test_the_loop_is_the_compiled_code(monkeypatch):
    s = session(monkeypatch, True)
    s.run(DEFS, '<defs>')
    for name in ('double-all', 'merge', 'odds', 'upto', 'ending', 'firsts'):
        source = s.python_source(s.genv.lookup(sym(name)))
        assert 'CONSED(' in source and 'levels_.append' in source, name
    s.run("(define (g x) x) (define (via l) (if (null? l) '() (cons (g (car l)) (via (cdr l)))))", '<t>')
    assert 'CONSED(' not in s.python_source(s.genv.lookup(sym('via')))    # a level runs Lisp code: calls


@pytest.mark.parametrize('program', [
    DEFS + "(display (merge (upto 3) (list 9 1))) (newline) (double-all '(1 2 x))",
    DEFS + "(display (length (upto 199999))) (newline) (upto 200000)",
    DEFS + "(display (odds (upto 100))) (odds (list 1 2 3 'q))",
])
def test_whole_programs_report_alike(program):
    reference, fast = both_ways(['-e', program])
    assert reference[0] != 0
    assert_same(reference, fast, program)
