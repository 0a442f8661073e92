"""A program's small functions computed in place (compile/small.py): a global
whose lambda's body is one call of an inlined builtin, or a few nested, on
its parameters and literals is computed where it is called while the global
(and each builtin's) holds what it held; a failed guard calls the lambda, a
redefinition is seen at once, the disk cache names the lambda by its text.
Everything agrees with the reference (docs/reference.md, "Compiled code")."""
import ast
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fuzz_redefine import run    # noqa: E402
from test_compile_exits import lowered_module    # noqa: E402

SHOW = '(define (show v) (display v) (newline)) '
SMALL = ('(define (kar p) (car p)) (define (kadr p) (car (cdr p))) (define (inc n) (+ n 1))'
         ' (define (same? a b) (eq? a b)) ')


def _lowered_source(monkeypatch, text: str, name: str) -> str:
    return ast.unparse(lowered_module(monkeypatch, text, name))


def test_a_small_function_is_computed_where_it_is_called(monkeypatch):
    src = _lowered_source(monkeypatch, SMALL + "(define (f l) (inc (kadr l))) (f '(1 2))", 'f')
    assert '.cdr.car' in src and ' + 1' in src


def test_a_small_function_is_computed_in_place_on_floats_too(monkeypatch):
    src = _lowered_source(monkeypatch, "(define (sq x) (* x x)) (define (f a) (sq a)) (f 1.5)", 'f')
    assert 'is float' in src and 'is int' in src and ' * ' in src, src


def test_a_function_that_is_not_small_is_called(monkeypatch):
    src = _lowered_source(monkeypatch, "(define (g p) (if (pair? p) (car p) 0)) (define (f l) (g l)) (f '(1))", 'f')
    assert '.car' not in src


@pytest.mark.parametrize('body, out', [
    # values of every kind: a failed guard calls the lambda, its errors are its own
    ("(define (f l) (list (kar l) (kadr l) (inc (kar l)) (same? (kar l) 'a)))"
     " (show (f '(1 2))) (show (f '(a 2.5))) (show (f '(1.5 x)))", None),
    ("(define (f l) (inc (kar l))) (show (f '(1))) (show (f '(a)))", None),
    ("(define (f l) (kadr l)) (show (f '(1 2))) (show (f '(1)))", None),
    # floats (the second case of each builtin's guards), mixed kinds and the rest: as the reference
    ("(define (sq x) (* x x)) (define (lin a x) (+ (* a x) 1)) (define (half x) (/ x 2.0))"
     " (define (f a b) (list (sq a) (sq b) (lin a b) (lin b a) (half a) (half b)))"
     " (show (f 3 4)) (show (f 1.5 -0.0)) (show (f 2 2.5)) (show (f 1e308 1e-300)) (show (f (quote x) 1))", None),
    # the small function redefined: seen at once, in a running call too
    ("(define (f l) (list (kar l) (begin (set! kar cdr) 0) (kar l))) (show (f '(1 2))) (show (f '(3 4)))",
     '(1 0 (2))\n((4) 0 (4))\n'),
    # a builtin it calls redefined
    ("(define (f l) (inc (kar l))) (show (f '(1))) (define (car p) 10) (show (f '(1)))", '2\n11\n'),
    # in tail position, and past the depth limit
    ("(define (f l) (kadr l)) (show (f '(1 2))) (define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))"
     " (define (g n) (if (= n 0) (kar '(5)) (+ 1 (g (- n 1))))) (show (g 10))", '2\n15\n'),
])
def test_small_functions_agree_with_the_reference(body, out):
    text = SHOW + SMALL + body
    compiled, reference = run(text, True), run(text, False)
    assert compiled == reference
    assert 'internal error:' not in compiled[2]
    if out is not None:
        assert compiled == (0, out, '')


def _script(tmp_path, kadr_body: str):
    path = tmp_path / 'p.lisp'
    path.write_text('(define (kadr p) %s) (define (f l) (kadr l))\n'
                    "(define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc (f '(1 2))))))\n"
                    '(display (loop 2000 0))\n' % kadr_body)
    return str(path)


def _rusty(path, cache):
    env = dict(os.environ, RUSTY_SPECIALIZE='1', RUSTY_COMPILE_CALLS='0', RUSTY_CACHE_DIR=str(cache))
    env.pop('RUSTY_CODE_CACHE', None)
    p = subprocess.run([sys.executable, '-m', 'rusty', '--stats', path], capture_output=True, text=True, env=env)
    return p.stdout, p.stderr


def test_the_disk_cache_names_a_small_function_by_its_text(tmp_path):
    cache = tmp_path / 'cache'
    path = _script(tmp_path, '(car (cdr p))')
    out1, err1 = _rusty(path, cache)
    out2, err2 = _rusty(path, cache)
    assert out1 == out2 == '4000'
    assert 'lambdas compiled' in err2 and ' 0 lambdas compiled' in ' ' + err2.split('stats: ')[1]
    path = _script(tmp_path, '(car p)')         # the small function's body changed: f's entry is no longer good
    out3, _ = _rusty(path, cache)
    assert out3 == '2000'
