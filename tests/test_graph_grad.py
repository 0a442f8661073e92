"""Reverse mode (docs/reference.md §11 Tensors and graphs): examples, messages, node order, finite
differences on random graphs, the cached plans, and the MLP SMALL workload."""
import math
import random
from array import array

import pytest
from hypothesis import assume, given, settings, strategies as st

from rusty import tensor as T
from rusty.errors import EvalError
from rusty.graph import builtins as GB
from rusty.graph.grad import RULES, backward, grad_graph
from rusty.graph.interp import evaluate
from rusty.graph.optimize import optimize
from rusty.graph.trace import build
from rusty.printer import display_form, print_form
from rusty.reader import read
from rusty.values import Lambda, Tensor

from test_graph_eval import gen, random_args, same, ten


class Host:
    display = staticmethod(display_form)


def lam(src):
    form = read(src).car
    return Lambda(tuple(form.cdr.car), None, form.cdr.cdr, None, None)


def grad(f, *args):
    if isinstance(f, str):
        f = lam(f)
    return GB.graph_grad(Host(), f, *args)


def grad_error(src, *args):
    with pytest.raises(EvalError) as e:
        grad(src, *args)
    return e.value.message


@pytest.fixture(autouse=True)
def fresh_cache():
    GB.clear_cache()
    yield
    GB.clear_cache()


# ── Examples and messages ────────────────────────────────────────────────

def test_spec_examples():
    assert print_form(grad('(lambda (x) (* x x))', 5.0)) == '(25 10)'
    assert print_form(grad('(lambda (x) (relu x))', -3.0)) == '(0 0)'
    assert print_form(grad('(lambda (x y) (* x 3))', 2.0, 7.0)) == '(6 3 0)'


@pytest.mark.parametrize('src, args, want', [
    ('(lambda (x y) (/ x y))', (3.0, 2.0), '(1.5 0.5 -0.75)'),
    ('(lambda (x y) (- x y))', (3.0, 2.0), '(1 1 -1)'),
    ('(lambda (x) (- x))', (3.0,), '(-3 -1)'),
    ('(lambda (x) (if (< 1 2) (* x x) (/ x 0)))', (3.0,), '(9 6)'),   # pruned: fine
    ('(lambda (x) 4)', (3.0,), '(4 0)'),
    ('(lambda (x) x)', (3.0,), '(3 1)'),
    ('(lambda (x) (relu x))', (2.0,), '(2 1)'),
    ('(lambda (x) (tensor-sum x))', (5.0,), '(5 1)'),
    ('(lambda (x y) (tensor-mul x y))', (3.0, 4.0), '(12 4 3)'),
])
def test_scalar_gradients(src, args, want):
    assert print_form(grad(src, *args)) == want


def test_tensor_gradients():
    t = ten([[1, -2], [3, 4]])
    loss, gt, gs = grad('(lambda (t s) (tensor-sum (tensor-mul t s)))', t, 2.0)
    assert loss == 12.0 and gs == 6.0 and list(gt.data) == [2, 2, 2, 2] and gt.shape == (2, 2)
    loss, gt = grad('(lambda (t) (tensor-sum (relu t)))', t)
    assert loss == 8.0 and list(gt.data) == [1, 0, 1, 1]
    a, b = ten([[1, 2], [3, 4]]), ten([[5, 6], [7, 8]])
    loss, ga, gb = grad('(lambda (a b) (tensor-sum (matmul a b)))', a, b)
    assert loss == 134.0 and list(ga.data) == [11, 15, 11, 15] and list(gb.data) == [4, 4, 6, 6]
    loss, ga = grad('(lambda (a) (tensor-sum (transpose (tensor-mul a a))))', a)
    assert list(ga.data) == [2, 4, 6, 8]


def test_unused_parameter_gets_a_zero_of_its_shape():
    t = ten([[1, 2, 3], [4, 5, 6]])
    loss, gx, gt = grad('(lambda (x t) (* x x))', 3.0, t)
    assert loss == 9.0 and gx == 6.0
    assert gt.shape == (2, 3) and list(gt.data) == [0.0] * 6


LOSS = 'graph-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)'


def not_diff(op):
    return ("graph-grad: cannot differentiate through '%s' — comparisons and data-dependent `if` "
            "are not differentiable (a constant-condition if is pruned before this pass and is fine)"
            % op)


@pytest.mark.parametrize('src, args, msg', [
    ('(lambda (x y) (if (< x y) x y))', (1.0, 2.0), not_diff('if')),
    ('(lambda (x y) (+ x (if (>= x y) 1 2)))', (1.0, 2.0), not_diff('if')),
    ('(lambda (t) (tensor-mul t 2))', ('T',), LOSS),
    ('(lambda (t) t)', ('T',), LOSS),
    ('(lambda (t) (relu t))', ('T',), LOSS),
    # evaluation errors come first: the seed `const 1` reaches matmul's rule as a scalar
    ('(lambda (t) (matmul t t))', ('T',), 'graph-eval: matmul: both arguments must be rank-2 tensors'),
    ('(lambda (x y) (+ x y))', (1.0,), 'graph-grad: expected 2 arg(s), got 1'),
    ('(lambda (x) x)', ('s',), 'graph-grad: arguments must be numbers or tensors, got "s"'),
    ('(lambda (x y) (+ x y))', (1.0, 'T'),
     'graph-eval: + expects a number, got a 2x2 tensor — use the tensor-* ops'),
    ('(lambda (x y) (tensor-sum (matmul x y)))', ('T', 'R'),
     'graph-eval: matmul: both arguments must be rank-2 tensors'),
    ('(lambda (x) (sin x))', (1.0,), "graph-ir: unsupported operator 'sin'"),
])
def test_grad_errors(src, args, msg):
    subst = {'T': ten([[1, 2], [3, 4]]), 'R': ten([1, 2])}
    args = [subst.get(a, a) if isinstance(a, str) and a in subst else a for a in args]
    assert grad_error(src, *args) == msg
    assert grad_error(src, *args) == msg            # and again (nothing cached on failure)


def test_comparisons_are_named_as_in_the_ir():
    # Build a graph whose highest non-differentiable node is a comparison.
    g, out = build(lam('(lambda (x y) (if (< x y) x y))'), display_form)
    g, (out,) = optimize(g, [out])
    with pytest.raises(EvalError) as e:
        backward(g, 2, 2)                       # pretend the comparison is the loss
    assert e.value.message == not_diff('lt')


def test_node_creation_order():
    """x*x: contributions mul(g, x) twice (shared), summed with tensor-add."""
    g, out = build(lam('(lambda (x) (* x x))'), display_form)
    g, (out,) = optimize(g, [out])
    outputs = backward(g, out, 1)
    assert g.ops == ['param', 'mul', 'const', 'mul', 'tensor-add']
    assert g.args[3] == (2, 0) and g.args[4] == (3, 3) and outputs == [1, 4]
    # div: contribution to a, then const 0, mul(g, a), mul(b, b), div, sub for b
    g, out = build(lam('(lambda (a b) (/ a b))'), display_form)
    outputs = backward(g, out, 2)
    assert g.ops[3:] == ['const', 'div', 'const', 'mul', 'mul', 'div', 'sub']
    assert outputs == [2, 4, 9]


def test_rule_table_covers_every_differentiable_op():
    assert sorted(RULES) == sorted(['add', 'sub', 'mul', 'div', 'tensor-add', 'tensor-sub',
                                    'tensor-mul', 'tensor-div', 'matmul', 'transpose',
                                    'tensor-sum', 'relu'])
    assert all(rule.__doc__ for rule in RULES.values())


# ── Finite differences on random graphs ──────────────────────────────────

def perturbed(args, i, j, h):
    out = list(args)
    if out[i].__class__ is float:
        out[i] = out[i] + h
    else:
        data = array('d', out[i].data)
        data[j] += h
        out[i] = Tensor(data, out[i].shape)
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_gradients_match_central_differences(seed):
    rng = random.Random(seed)
    body = gen(rng, None, 4, ifs=False, divs='safe')
    f = lam('(lambda (a b X Y Z W) %s)' % body)
    args = [x if x.__class__ is float else Tensor(array('d', [rng.uniform(-2, 2) for _ in x.data]), x.shape)
            for x in random_args(rng)]
    g, out = build(f, display_form)
    loss_of = lambda xs: evaluate(g, xs, [out])[0]
    result = list(grad(f, *args))
    assert same(result[0], loss_of(args))
    for i, (x, gx) in enumerate(zip(args, result[1:])):
        if x.__class__ is float:
            assert gx.__class__ is float
            slots = [(0, gx)]
        else:
            assert gx.__class__ is Tensor and gx.shape == x.shape
            slots = list(enumerate(gx.data))
        for j, analytic in slots:
            # a divisor that folds to exactly 0 puts the point on a pole (the
            # gradient is then inf or NaN, correctly): not a point to compare
            assume(math.isfinite(analytic))
            est = []
            for h in (1e-5, 5e-6):
                est.append((loss_of(perturbed(args, i, j, h)) - loss_of(perturbed(args, i, j, -h))) / (2 * h))
            scale = max(1.0, abs(analytic), abs(est[0]))
            # near a relu kink or a division pole the two estimates disagree: skip those points
            assume(abs(est[0] - est[1]) <= 1e-5 * scale)
            assert abs(analytic - est[0]) <= 1e-4 * scale, (body, i, j, analytic, est)


# ── The cache: plans give the same bits as the reference path ────────────

@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_cached_plans_equal_uncached_results(seed):
    rng = random.Random(seed)
    f = lam('(lambda (a b X Y Z W) %s)' % gen(rng, None, 4, ifs=False))
    for _ in range(3):
        args = random_args(rng)
        cached = list(grad(f, *args))
        g, outputs = grad_graph(*build(f, display_form), 6)
        reference = evaluate(g, args, outputs)
        assert len(cached) == len(reference)
        assert all(same(x, y) for x, y in zip(cached, reference))


def test_cache_is_per_lambda_and_shapes():
    f = lam('(lambda (x y) (tensor-sum (tensor-mul x y)))')
    a, b = ten([1, 2]), ten([3, 4, 5])
    assert print_form(grad(f, a, a)) == '(5 #<tensor 2 [1 2]> #<tensor 2 [1 2]>)'
    plans = GB._CACHE.plans(f)
    assert len(plans) == 1
    assert print_form(grad(f, b, b)) == '(50 #<tensor 3 [3 4 5]> #<tensor 3 [3 4 5]>)'
    assert len(plans) == 2
    assert print_form(grad(f, a, 2.0)) == '(6 #<tensor 2 [2 2]> 3)'
    assert len(plans) == 3
    grad(f, a, a)
    assert len(plans) == 3
    g2 = lam('(lambda (x y) (tensor-sum (tensor-mul x y)))')     # another lambda: its own entry
    grad(g2, a, a)
    assert len(GB._CACHE.plans(g2)) == 1
    # a shape error after a success is still reported exactly
    with pytest.raises(EvalError) as e:
        grad(f, a, b)
    assert e.value.message == 'graph-eval: tensor-mul: shape mismatch [2] vs [3]'


# ── The MLP SMALL workload (benchmarks/README.md) ─────────────────────────

MLP = ('(lambda (x W b t nn) (tensor-sum (tensor-div (tensor-mul {d} {d}) nn)))'
       .format(d='(tensor-sub (relu (tensor-add (matmul x W) b)) t)'))


def val(i, off):
    return (((7 * i + off) % 17) - 8) / 8


def mat(r, c, off):
    return Tensor(array('d', [val(i, off) for i in range(r * c)]), (r, c))


def train(m, k, n, steps):
    """SGD: W ← W − gW·0.01, b ← b − gb·0.01; the loss after the last step."""
    f = lam(MLP)
    x, t, W, b = mat(m, k, 0), mat(m, n, 5), mat(k, n, 3), val(1, 0)
    nn = float(m * n)
    for _ in range(steps):
        _, _, gW, gb, _, _ = grad(f, x, W, b, t, nn)
        W = T.elementwise('sub', W, T.elementwise('mul', gW, 0.01))
        b = T.elementwise('sub', b, T.elementwise('mul', gb, 0.01))
    return grad(f, x, W, b, t, nn).car


def test_mlp_small_final_loss_is_exact():
    assert train(8, 16, 8, 1000) == 0.35312804084655014


@pytest.mark.rustc
def test_mlp_medium_final_loss():
    from rusty.jit import kernels
    native = kernels.load()
    assert native is not None
    T.use_kernels(native)
    try:
        loss = train(64, 256, 64, 100)
    finally:
        T.use_kernels(None)
    assert abs(loss - 30.441642167811) < 1e-11    # DESIGN.md: to 13 digits
    assert loss == 30.44164216781179          # what the exact tensor arithmetic gives (docs/reference.md §11)


def test_mlp_small_on_the_pure_python_path():
    T.use_kernels(T.PY_KERNELS)
    try:
        assert train(8, 16, 8, 1000) == 0.35312804084655014
    finally:
        T.use_kernels(None)
