"""Compiled code when a global it calls changes kind: a function becoming a
macro (or a macro a function, or a value) deoptimises the lambdas compiled
against it (compile.link.Deopt); they run the reference again, which expands
the macro in its own frames, and agree with RUSTY_SPECIALIZE=0."""
import os
import sys

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
    assert f.direct is not None                 # compiled
    s.run('(defmacro g (a) `(* ,a 10))')
    assert f.direct is None                     # back on the reference
    assert s.run('(f 3)') == 30
    s.run('(define (g a) (- a 1))')
    assert s.run('(f 3)') == 2 and s.run('(f 4)') == 3
    assert f.direct is not None                 # compiled anew


def test_generated_redefinitions_agree():
    assert differences(int(os.environ.get('RUSTY_REDEFINE_PROGRAMS', '') or 40), seed=7) == 0
