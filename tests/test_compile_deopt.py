"""Compiled code when a global it calls changes kind: a function becoming a
macro (or a macro a function, or a value) deoptimises the lambdas compiled
against it (compile.link.Deopt); they run the reference again, which expands
the macro in its own frames, and agree with RUSTY_SPECIALIZE=0. A compiled
call already running when the global changes expands the macro in frames
made of its locals and takes back what the expansion wrote there
(compile/expansion.py): in every position the call can be in."""
import os
import subprocess
import sys

import pytest
from rusty.compile.entry import direct_of

sys.path.insert(0, os.path.dirname(__file__))

from fuzz_redefine import differences, run    # noqa: E402

SHOW = '(define (show v) (display v) (newline)) '


def test_a_function_turned_macro_sets_the_compiled_lambdas_local():
    text = SHOW + ("(define (f x) (m x) x) (define (m a) 0) (show (f 1)) (show (f 1))"
                   " (defmacro m (a) `(set! ,a 40)) (show (f 4)) (show (f 5))")
    assert run(text, True) == run(text, False) == (0, '1\n1\n40\n40\n', '')


def test_a_builtin_turned_macro_and_back():
    text = SHOW + ("(define (f x) (car x) x) (show (f '(1))) (show (f '(2)))"
                   " (defmacro car (a) `(set! ,a 'set)) (show (f '(3)))"
                   " (define (car a) 0) (show (f '(4))) (show (f '(5)))")
    assert run(text, True) == run(text, False) == (0, '(1)\n(2)\nset\n(4)\n(5)\n', '')


def test_a_deoptimised_lambda_compiles_again(monkeypatch):
    from rusty.runtime import Session
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session()
    s.run('(define (g a) (+ a 1)) (define (f x) (g x)) (f 1) (f 2)')
    f = s.run('f')
    assert direct_of(f) is not None                 # compiled
    s.run('(defmacro g (a) `(* ,a 10))')
    assert direct_of(f) is None                     # back on the reference
    assert s.run('(f 3)') == 30
    s.run('(define (g a) (- a 1))')
    assert s.run('(f 3)') == 2 and s.run('(f 4)') == 3
    assert direct_of(f) is not None                 # compiled anew


def test_generated_redefinitions_agree():
    assert differences(int(os.environ.get('RUSTY_REDEFINE_PROGRAMS', '') or 40), seed=7) == 0


# A compiled body running when `m` becomes a macro: `(flip)` set!s it to one.
MID = SHOW + ("(defmacro setm (a) `(set! ,a 40)) (defmacro defm (a) `(define ,a 41))"
              " (defmacro listm (a) `(begin (set! ,a (list ,a)) ,a)) (defmacro procm (a) `(set! ,a (lambda () 2)))"
              " (define (m a) 0) (define (flip) (set! m setm)) (define (flipd) (set! m defm))"
              " (define (flipl) (set! m listm)) ")
RUNNING = [
    # a statement of the body; an argument (read before and after); tail position, a closure made before
    ("(define (f x) (flip) (m x) x) (show (f 4)) (show (f 5))", '40\n40\n'),
    ("(define (f x) (list x (begin (flip) (m x)) x)) (show (f 4))", '(4 () 40)\n'),
    ("(define (f x) (+ x (begin (flip) (m x) 1) x)) (show (f 4))", '45\n'),
    ("(define h #f) (define (f x) (set! h (lambda () x)) (flip) (m x)) (show (f 4)) (show (h))", '()\n40\n'),
    # define of a name the frame binds
    ("(define (f x) (flipd) (m x) x) (show (f 4))", '41\n'),
    # closures over the local, made before and after the expansion
    ("(define (f x) (let ((h (lambda () x))) (flip) (m x) (h))) (show (f 4))", '40\n'),
    ("(define (f x) (flip) (m x) (let ((h (lambda () x))) (h))) (show (f 4))", '40\n'),
    # let variables and the lambda's own around a let; a let's init
    ("(define (f x) (let ((y 1)) (flip) (m y) (+ x y))) (show (f 4))", '44\n'),
    ("(define (f x) (let ((y 1)) (flip) (m x) (+ x y))) (show (f 4))", '41\n'),
    ("(define (f x) (let ((y (begin (flip) (m x)))) (+ x 1))) (show (f 4))", '41\n'),
    # a local an integer copy knew as an exact integer becomes a list
    ("(define (f x) (+ x 1) (flipl) (m x) (+ x 1)) (show (try-catch (f 4) (e) e))",
     '+: expected a number, got (4)\n'),
    # loops: a self tail call, a named let (its own variable and the function's), do
    ("(define (f x n) (if (= n 0) x (begin (if (= n 2) (flipl) 0) (m x) (f x (- n 1))))) (show (f 4 3))",
     '((4))\n'),
    ("(define (f x) (let loop ((i 0)) (if (< i 3) (begin (if (= i 1) (flip) 0) (m x) (loop (+ i 1))) x)))"
     " (show (f 4))", '40\n'),
    ("(define (f x) (let loop ((i 0) (a x)) (if (< i 3) (begin (if (= i 1) (flip) 0) (m a) (loop (+ i 1) (+ a 1)))"
     " a))) (show (f 4))", '41\n'),
    ("(define (f x) (do ((i 0 (+ i 1)) (a x (+ a 1))) ((= i 3) a) (if (= i 1) (flip) 0) (m a))) (show (f 4))",
     '41\n'),
    ("(define (f n) (let loop ((i 0) (acc 0)) (if (< i 3) (begin (when (= i 1) (flipl)) (m n)"
     " (loop (+ i 1) (+ acc n))) (list acc n)))) (show (try-catch (f 4) (e) e))", '+: expected a number, got (4)\n'),
    # a procedure a loop tested once before it (hoisted), replaced by the expansion
    ("(define (f) (let ((c (lambda () 1)) (out '())) (let loop ((i 0)) (when (< i 4) (set! out (cons (c) out))"
     " (when (= i 1) (set! m procm)) (m c) (loop (+ i 1)))) out)) (show (f))", '(2 2 1 1)\n'),
    # a nested lambda; a walk's lambda
    ("(define (f x) ((lambda (y) (flip) (m x) (+ x y)) 1)) (show (f 4))", '41\n'),
    ("(define (f x) (map (lambda (y) (begin (flip) (m x) y)) '(1 2)) x) (show (f 4))", '40\n'),
]


@pytest.mark.parametrize('program,out', RUNNING, ids=range(len(RUNNING)))
def test_a_global_turned_macro_while_a_compiled_call_runs(program, out):
    ref, fast = run(MID + program, False), run(MID + program, True)
    assert ref[1] == out and fast == ref


def _rusty_e(text, fast):
    env = dict(os.environ, RUSTY_SPECIALIZE='1' if fast else '0', RUSTY_COMPILE_CALLS='0',
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = subprocess.run([sys.executable, '-m', 'rusty', '-e', text], capture_output=True, text=True, env=env,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_the_running_call_agrees_as_rusty_e():
    text = MID + ("(define (f x) (let loop ((i 0) (a x)) (if (< i 3) (begin (if (= i 1) (flip) 0) (m a)"
                  " (loop (+ i 1) (+ a 1))) (list a x)))) (show (f 4)) (show (f 4))")
    assert _rusty_e(text, True) == _rusty_e(text, False) == (0, '(41 4)\n(41 4)\n', '')
