"""Tensors and the Graph IR through the language (docs/reference.md §6.11–6.12, §11):
examples and messages evaluated by a real session."""
import pytest

from helpers import err, ev, out, session

A = "(define a (tensor '((1 2) (3 4)))) (define b (tensor '((5 6) (7 8)))) "

EXAMPLES = [
    # tensors (docs/reference.md §6.11)
    ("(tensor->list (matmul (tensor '((1 2) (3 4))) (tensor '((5 6) (7 8)))))", '((19 22) (43 50))'),
    ("(tensor->list (tensor-div (tensor '((5 6) (7 8))) (tensor '((1 2) (3 4)))))",
     '((5 3) (2.3333333333333335 2))'),
    ("(tensor->list (relu (tensor '(-1 2 -3 4))))", '(0 2 0 4)'),
    ("(tensor 5)", '#<tensor  [5]>'),
    ("(zeros '(64 256))", '#<tensor 64x256>'),
    ("(ones '(2 2))", '#<tensor 2x2 [1 1 1 1]>'),
    ("(tensor-shape (zeros '()))", '()'),
    ("(list? (tensor-shape (tensor 1)))", '#t'),
    ("(tensor->list (tensor 3))", '3'),
    (A + "(tensor-ref a 1 1)", '4'),
    (A + "(tensor-sub 10 a)", '#<tensor 2x2 [9 8 7 6]>'),
    (A + "(tensor-sum (tensor-map (lambda (x) (* x x)) a))", '30'),
    (A + "(transpose a)", '#<tensor 2x2 [1 3 2 4]>'),
    (A + "(equal? (matmul a b) (tensor '((19 22) (43 50))))", '#t'),
    ("(tensor-sum (tensor '(1e16 1 -1e16)))", '0'),
    # building and printing graphs (docs/reference.md §6.12)
    ('(graph-node-count (lambda (x) (+ (* x x) (* x x))))', '3'),
    ('(graph-node-count (lambda (x w) (tensor-add (matmul x w) (matmul x w))))', '4'),
    ('(graph-ir (lambda (x) (+ (* 2 3) x)))', '(((0 const 6) (1 param 0) (2 add 0 1)) 2)'),
    ('(graph-node-count (lambda (x) (if (< 1 2) x (/ x 0))))', '1'),
    ('(graph-ir (lambda (x) (* x x)))', '(((0 param 0) (1 mul 0 0)) 1)'),
    ('(graph-ir (lambda (x) (- x)))', '(((0 param 0) (1 const 0) (2 sub 1 0)) 2)'),
    ('(graph-ir (lambda (x y) (if (< x y) x y)))', '(((0 param 0) (1 param 1) (2 lt 0 1) (3 if 2 0 1)) 3)'),
    # graph-eval
    ('(graph-eval (lambda (x y) (+ (* x x) y)) 3 4)', '13'),
    ('(graph-eval (lambda (x) (/ x 0)) 1)', 'inf'),
    # graph-grad
    ('(graph-grad (lambda (x) (* x x)) 5)', '(25 10)'),
    ('(graph-grad (lambda (x) (relu x)) -3)', '(0 0)'),
    ('(graph-grad (lambda (x y) (* x 3)) 2 7)', '(6 3 0)'),
    (A + '(graph-grad (lambda (a b) (tensor-sum (matmul a b))) a b)',
     '(134 #<tensor 2x2 [11 15 11 15]> #<tensor 2x2 [4 4 6 6]>)'),
    # a lambda defined with define, closures ignored (only params are seen)
    ('(define (sq x) (* x x)) (graph-grad sq 4)', '(16 8)'),
    ('(define k 3) (graph-eval (lambda (x) (* x 2)) k)', '6'),
]


@pytest.mark.parametrize('src, want', EXAMPLES)
def test_examples(src, want):
    assert ev(src) == want


ERRORS = [
    ("(tensor '())", 'tensor: elements must be numbers or non-empty nested lists of numbers'),
    ("(tensor '((1 2) (3)))", 'tensor: ragged nested list — all rows must have the same shape'),
    ("(zeros '(0))", 'zeros: dimensions must be positive numbers'),
    ("(ones '(a))", 'ones: dimensions must be positive numbers'),
    (A + '(tensor-ref a 0)', 'tensor-ref: 1 index(es) for a rank-2 tensor'),
    (A + '(tensor-ref a 0 5)', 'tensor-ref: index 5 out of range [0, 2)'),
    (A + "(tensor-add a (tensor '(1 2 3)))", 'tensor-add: shape mismatch [2, 2] vs [3]'),
    ('(tensor-mul 2 3)', 'tensor-mul: arguments must be tensors or numbers'),
    ('(tensor-sum 4)', 'tensor-sum: expected a tensor, got 4'),
    ('(relu "x")', 'relu: expected a number or tensor, got "x"'),
    (A + '(tensor-map (lambda (x) #t) a)', 'tensor-map: function must return a number, got #t'),
    ("(matmul (tensor '((1 2 3) (4 5 6))) (tensor '((1 2) (3 4) (5 6) (7 8))))",
     'matmul: inner dimensions differ (2x3 \u00b7 4x2)'),
    ("(matmul 1 2)", 'matmul: both arguments must be tensors'),
    ("(matmul (tensor 1) (tensor 1))", 'matmul: both tensors must be rank 2'),
    ("(transpose (tensor '(1)))", 'transpose: tensor must be rank 2'),
    ('(transpose 1)', 'transpose: expected a tensor, got 1'),
    ('(tensor-add 1)', 'tensor-add: expected 2 arg(s), got 1'),
    ('(graph-ir car)', 'graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda'),
    ('(graph-ir (lambda args 1))', 'graph-ir: rest parameters are not supported'),
    ('(graph-ir (lambda (x) (+ x y)))',
     "graph-ir: unsupported reference to 'y' — only params, numbers, + - * /, if, and the tensor ops are supported"),
    ('(graph-ir (lambda (x) (< x 1)))', "graph-ir: unsupported operator '<'"),
    ('(graph-eval (lambda (x) x))', 'graph-eval: expected 1 arg(s), got 0'),
    ('(graph-eval (lambda (x) x) car)', 'graph-eval: arguments must be numbers or tensors, got #<builtin:car>'),
    ("(graph-eval (lambda (x) (* x 2)) (tensor '((1 2 3) (4 5 6))))",
     'graph-eval: * expects a number, got a 2x3 tensor — use the tensor-* ops'),
    ('(graph-grad (lambda (x) x) "s")', 'graph-grad: arguments must be numbers or tensors, got "s"'),
    ('(graph-grad (lambda (x y) (if (> x y) x y)) 1 2)',
     "graph-grad: cannot differentiate through 'if' — comparisons and data-dependent `if` are not "
     "differentiable (a constant-condition if is pruned before this pass and is fine)"),
    ("(graph-grad (lambda (t) (tensor-mul t 2)) (tensor '(1 2)))",
     'graph-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)'),
    ('(graph-grad)', 'graph-grad: expected at least 1 arg(s), got 0'),
]


@pytest.mark.parametrize('src, msg', ERRORS)
def test_errors(src, msg):
    assert err(src) == msg


def test_try_catch_binds_the_message():
    assert out('(print (try-catch (tensor-sum 1) (e) e))') == 'tensor-sum: expected a tensor, got 1\n'


def test_builtins_are_documented_procedures():
    for name in ('tensor', 'zeros', 'ones', 'tensor-shape', 'tensor->list', 'tensor-ref', 'tensor-add',
                 'tensor-sub', 'tensor-mul', 'tensor-div', 'tensor-sum', 'relu', 'tensor-map', 'matmul',
                 'transpose', 'graph-ir', 'graph-node-count', 'graph-eval', 'graph-grad'):
        assert ev('(type-of %s)' % name) == 'builtin'
        assert ev('%s' % name) == '#<builtin:%s>' % name


def test_graph_grad_training_loop_reuses_the_cached_graph():
    from rusty.graph import builtins as GB
    s = session()
    s.run("(define f (lambda (w x) (tensor-sum (tensor-mul (tensor-sub (matmul x w) 1) "
          "(tensor-sub (matmul x w) 1)))))"
          "(define x (tensor '((1 2) (3 4))))"
          "(define (step w) (tensor-sub w (tensor-mul (cadr (graph-grad f w x)) 0.01)))"
          "(define (loop w n) (if (= n 0) w (loop (step w) (- n 1))))"
          "(define w0 (tensor '((0.5) (0.5))))", '<test>')
    before = s.run('(car (graph-grad f w0 x))', '<test>')
    after = s.run('(car (graph-grad f (loop w0 200) x))', '<test>')
    assert after < before / 10
    assert len(GB._CACHE.plans(s.run('f', '<test>'))) == 1     # one graph, built once


def test_closures_of_one_lambda_expression_share_the_cached_graph():
    from rusty.graph import builtins as GB
    s = session()
    s.run("(define (make k) (lambda (x) (* x x)))"
          "(define f1 (make 1)) (define f2 (make 2))", '<test>')
    assert s.run('(graph-grad f1 3)', '<test>').car == 9.0
    assert s.run('(graph-grad f2 4)', '<test>').car == 16.0
    f1, f2 = s.run('f1', '<test>'), s.run('f2', '<test>')
    assert f1 is not f2 and GB._CACHE.plans(f1) is GB._CACHE.plans(f2)
    assert len(GB._CACHE.plans(f1)) == 1
