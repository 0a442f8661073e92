"""Errors that graph-ir, graph-grad, graph-compile(-grad) and defrust raise
about a construct inside a function point at that construct (its file, line
and column, underlined), not at the call that asked for the graph or the code."""
import subprocess
import sys

import pytest

from helpers import err
from test_startup_imports import without_fallback_note

FN = '(define (f x)\n  (+ (* x x)\n     (foo x)))\n'
FOO_REPORT = ("Error: graph-ir: unsupported operator 'foo'\n"
              '  at {p}:3:6\n'
              '  3 |      (foo x)))\n'
              '    |      ^^^^^^^\n')


def report(tmp_path, text):
    prog = tmp_path / 'prog.lisp'
    prog.write_text(text)
    p = subprocess.run([sys.executable, '-m', 'rusty', str(prog)], capture_output=True, text=True, timeout=60,
                       env=dict(__import__('os').environ, RUSTY_CACHE_DIR=str(tmp_path / 'cache')))
    assert p.returncode == 1 and p.stdout == ''
    return without_fallback_note(p.stderr), str(prog)


@pytest.mark.parametrize('call', ['(graph-ir f)', '(graph-node-count f)', '(graph-eval f 1)', '(graph-grad f 1)',
                                  '(graph-compile f)', '(graph-compile-grad f 1)'])
def test_every_graph_entry_point_points_at_the_construct(tmp_path, call):
    e, p = report(tmp_path, FN + call + '\n')
    assert e == FOO_REPORT.format(p=p)


@pytest.mark.parametrize('body,line,marked', [
    ('(+ x y)', '  2 |   (+ x y))', '    |        ^'),
    ('(if (and x 1) x 2)', '  2 |   (if (and x 1) x 2))', '    |       ^^^^^^^^^'),
    ('(if (< x (bar)) x 2)', '  2 |   (if (< x (bar)) x 2))', '    |            ^^^^^'),
    ('(tensor-sum (relu x x))', '  2 |   (tensor-sum (relu x x)))', '    |               ^^^^^^^^^^'),
    ('(* x "s")', '  2 |   (* x "s"))', '    |        ^^^'),
])
def test_graph_construct_spans(tmp_path, body, line, marked):
    e, p = report(tmp_path, '(define (g x)\n  %s)\n(graph-ir g)\n' % body)
    lines = e.splitlines()
    assert lines[1] == '  at %s:2:%d' % (p, marked.index('^') - 6 + 1)
    assert lines[2:4] == [line, marked]


def test_the_message_is_unchanged():
    assert err(FN + '(graph-ir f)') == "graph-ir: unsupported operator 'foo'"
    assert err('(graph-ir (lambda (x) (if x 1 2)))') == \
        'graph-ir: an `if` condition must be a comparison (< > <= >= =)'


def test_a_lambda_made_from_data_points_at_the_call(tmp_path):
    e, p = report(tmp_path, "(graph-ir (eval (list 'lambda '(x) (list 'foo 'x))))\n")
    assert e.splitlines()[1] == '  at %s:1:1' % p


@pytest.mark.parametrize('src,where,marked', [
    ('(defrust f (x)\n  (let ((a (* x 2)))\n    (+ a (g x))))\n', 3, '    |          ^^^^^'),
    ('(defrust f (x)\n  (cond ((< x 1) 1)\n        (else 2)\n        ((> x 3) 4)))\n', 3, '    |         ^^^^^^^^'),
    ('(defrust f (x)\n  (if (and x 1) 1 2))\n', 2, '    |            ^'),
    ('(defrust f (x)\n  (let ((a 1) (b)) a))\n', 2, '    |               ^^^'),
    ('(defrust* (f (x) (h x))\n          (h (y) (+ y zz)))\n', 2, '    |                       ^^'),
])
def test_defrust_construct_spans(tmp_path, src, where, marked):
    e, p = report(tmp_path, src)
    lines = e.splitlines()
    assert lines[0].startswith('Error: defrust: ')
    assert lines[1] == '  at %s:%d:%d' % (p, where, marked.index('^') - 6 + 1)
    assert lines[3] == marked


# Errors found after the graph is built (differentiation, code generation,
# shape inference) point at the construct that made the failing node too.
AFTER_BUILD = [
    ('(if (< x 1) x 2)', '(graph-grad g 1)', "graph-grad: cannot differentiate through 'if'", 2, 3),
    ('(+ 1\n     (matmul x x))', '(graph-compile g)', "graph-compile: 'matmul' is a tensor op", 3, 6),
    ('(+ 1\n     (matmul x x))', '(graph-compile-grad g 1)',
     'graph-compile-grad: matmul: both arguments must be rank-2 tensors', 3, 6),
    ('(tensor-sum\n    (transpose x))', '(graph-compile-grad g 1)',
     'graph-compile-grad: transpose: argument must be a rank-2 tensor', 3, 5),
    ('(tensor-sum (tensor-add x\n                        (* x 2)))', "(graph-compile-grad g (tensor '(1 2)))",
     'graph-compile-grad: scalar op applied to a tensor', 3, 25),
    # evaluation (graph-grad, graph-eval) too
    ('(tensor-sum\n    (matmul x x))', '(graph-grad g 1)',
     'graph-eval: matmul: both arguments must be rank-2 tensors', 3, 5),
    ('(tensor-sum (tensor-add x\n                (transpose x)))', "(graph-eval g (tensor '((1 2))))",
     'graph-eval: tensor-add: shape mismatch', 2, 15),
    # folded and shared nodes keep the span of the first construct that made them
    ('(+ (if (< 1 2)\n         (matmul x x) 0)\n     (matmul x x))', '(graph-compile g)',
     "graph-compile: 'matmul' is a tensor op", 3, 10),
]


@pytest.mark.parametrize('body,call,message,where,col', AFTER_BUILD)
def test_errors_after_building_point_at_the_construct(tmp_path, body, call, message, where, col):
    e, p = report(tmp_path, '(define (g x)\n  %s)\n%s\n' % (body, call))
    lines = e.splitlines()
    assert lines[0].startswith('Error: ' + message)
    assert lines[1] == '  at %s:%d:%d' % (p, where, col)
    assert lines[3].startswith('    |' + ' ' * col + '^')


def test_after_building_the_messages_are_unchanged():
    assert err('(graph-compile (lambda (x) (matmul x x)))') == (
        "graph-compile: 'matmul' is a tensor op — compiled graph kernels are scalar-only "
        '(tensor fusion is shape-specialized, see graph-grad)')
    assert err('(graph-compile-grad (lambda (x) (transpose x)) 1)') == \
        'graph-compile-grad: transpose: argument must be a rank-2 tensor'


@pytest.mark.parametrize('fn', ['graph-grad', 'graph-compile-grad'])
@pytest.mark.parametrize('body', ['(tensor-mul x x)', '(tensor-add x 1)'])   # found late / by a sum-to node
def test_a_tensor_loss_still_points_at_the_call(tmp_path, fn, body):
    e, p = report(tmp_path, '(define (g x)\n  %s)\n(%s g (tensor (quote (1 2))))\n' % (body, fn))
    assert e.splitlines()[0:2] == ['Error: %s: the loss must evaluate to a scalar '
                                   '(use tensor-sum or a mean)' % fn, '  at %s:3:1' % p]
