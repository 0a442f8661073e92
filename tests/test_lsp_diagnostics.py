"""One diagnostic per mistake, worded as running the program words it; names
bound by import are bound, and not completed."""
import io

import pytest

from rusty.cli import main
from rusty.lsp import analysis as an
from rusty.lsp import features as feat


@pytest.fixture(scope='module')
def known():
    return an.session_globals()


def diagnostics(known, text):
    return [(d.span.line, d.span.col, d.message) for d in an.analyse(text, 'd.lisp', known).diagnostics]


def test_a_misspelt_head_is_one_mistake(known):
    assert diagnostics(known, '(defin y 5)\n') == [(1, 2, "Undefined: 'defin' — did you mean 'define'?")]
    assert diagnostics(known, '(define (f) (lst a b))\n') == [(1, 14, "Undefined: 'lst' — did you mean 'last'?")]
    # the arguments of a bound head are still judged
    assert diagnostics(known, '(list zork)\n') == [(1, 7, "Undefined: 'zork' — did you mean 'or'?")]


def runtime_report(text):
    err = io.StringIO()
    assert main(['-e', text], io.StringIO(), err) == 1
    lines = err.getvalue().split('\n')
    return [lines[0][len('Error: '):]] + [line.strip() for line in lines if line.startswith('  hint: ')]


@pytest.mark.parametrize('text', [
    '(define (square x) (* x x))\n(square 1 2)\n',
    '(define (f a . more) a)\n(f)\n',
    '(define g (lambda (a b) a))\n(g 1)\n',
    '(defmacro m (a) a)\n(m)\n',
    '(car)\n',
    '(string-join (list "a") "," 3)\n',
])
def test_arity_diagnostics_are_the_runtime_s_message_and_hint(known, text):
    (found,) = diagnostics(known, text)
    assert found[2].split('\n') == runtime_report(text)


def test_names_bound_by_import(known):
    text = ('(import math)\n(import os.path)\n(import numpy :as np)\n(import (math sqrt pi))\n'
            '(define (f x) (list (math.sqrt x) (np.zeros 3) (sqrt pi) (os.path.join "a") math.pi (nope.x) (np)))\n'
            '(f (numpy.zeros 2))\n')
    assert diagnostics(known, text) == [(5, 86, "Undefined: 'nope.x'")]
    a = an.analyse(text + '(np.ze\n', 'd.lisp', known)
    assert feat.completions(known, a, 7, 7) == []
    assert feat.completions(known, a, 1, 9) == []
    assert feat.completions(known, a, 6, 3) != []


def test_import_inside_a_body_binds_there(known):
    text = '(define (f) (import json) (json.dumps 1))\n(json.loads "1")\n'
    assert [m for _, _, m in diagnostics(known, text)] == ["Undefined: 'json.loads'"]


def test_eval_when_phases_are_no_code(known):
    assert diagnostics(known, '(eval-when (compile) (+ 1 2) zork)\n') == [
        (1, 30, "Undefined: 'zork' — did you mean 'or'?")]
