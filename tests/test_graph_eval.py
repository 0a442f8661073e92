"""Graph evaluation and shape inference (docs/reference.md §11 Tensors and graphs), and the passes never
changing a result (random graphs)."""
import math
import random
import struct
from array import array

import pytest
from hypothesis import given, settings, strategies as st

from rusty.errors import EvalError
from rusty.graph import builtins as GB
from rusty.graph.grad import grad_graph
from rusty.graph.interp import compile_plan, evaluate
from rusty.graph.optimize import optimize
from rusty.graph.shapes import infer, shape_of
from rusty.graph.trace import build
from rusty.printer import display_form
from rusty.reader import read
from rusty.values import NIL, Lambda, Tensor


class Host:
    display = staticmethod(display_form)


def lam(src):
    form = read(src).car
    return Lambda(tuple(form.cdr.car), None, form.cdr.cdr, None, None)


def ten(rows):
    if rows and isinstance(rows[0], list):
        return Tensor(array('d', [float(x) for r in rows for x in r]), (len(rows), len(rows[0])))
    return Tensor(array('d', [float(x) for x in rows]), (len(rows),))


def geval(src, *args):
    return GB.graph_eval(Host(), lam(src), *args)


def eval_error(src, *args):
    with pytest.raises(EvalError) as e:
        geval(src, *args)
    return e.value.message


def shape_error(src, *args):
    g, out = build(lam(src), display_form)
    g, (out,) = optimize(g, [out])
    with pytest.raises(EvalError) as e:
        infer(g, [shape_of(a) for a in args])
    return e.value.message


def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def same(x, y):
    """Equal values, bit for bit (any NaN equals any NaN)."""
    if x.__class__ is Tensor:
        return (y.__class__ is Tensor and x.shape == y.shape
                and all(same(a, b) for a, b in zip(x.data, y.data)))
    return y.__class__ is float and ((x != x and y != y) or bits(x) == bits(y))


# ── Examples ─────────────────────────────────────────────────────────────

def test_spec_examples():
    assert geval('(lambda (x y) (+ (* x x) y))', 3.0, 4.0) == 13.0
    assert geval('(lambda (x) (/ x 0))', 1.0) == math.inf


def test_scalar_ops_and_comparisons():
    assert geval('(lambda (x y) (- x y))', 3.0, 5.0) == -2.0
    assert math.isnan(geval('(lambda (x) (/ x 0))', 0.0))
    assert geval('(lambda (x) (/ x -0.0))', 2.0) == -math.inf
    for op, want in (('<', 7), ('>', 9), ('<=', 7), ('>=', 9), ('=', 9)):
        assert geval('(lambda (x y) (if (%s x y) 7 9))' % op, 1.0, 2.0) == want
    assert geval('(lambda (x y) (if (= x y) 7 9))', 0.0, -0.0) == 7
    assert geval('(lambda (x y) (if (< x y) 7 9))', math.nan, 2.0) == 9


def test_if_is_eager_and_selects_by_nonzero():
    # both branches are computed; the else branch divides by zero harmlessly
    assert geval('(lambda (x) (if (> x 0) x (/ 1 x)))', 2.0) == 2.0
    t = ten([1, 2])
    r = geval('(lambda (x t) (if (> x 0) t (tensor-mul t 2)))', -1.0, t)
    assert list(r.data) == [2, 4]
    # branches of different shapes are fine for evaluation
    assert geval('(lambda (x t) (if (> x 0) t 5))', -1.0, t) == 5.0


def test_tensor_ops():
    a, b = ten([[1, 2], [3, 4]]), ten([[5, 6], [7, 8]])
    assert list(geval('(lambda (a b) (matmul a b))', a, b).data) == [19, 22, 43, 50]
    assert geval('(lambda (a b) (tensor-add 1 2))', a, b) == 3.0           # number ⊕ number
    assert list(geval('(lambda (a) (tensor-sub 10 a))', a).data) == [9, 8, 7, 6]
    assert list(geval('(lambda (a) (tensor-div a 2))', a).data) == [0.5, 1, 1.5, 2]
    assert geval('(lambda (a) (tensor-sum a))', a) == 10.0
    assert geval('(lambda (a) (tensor-sum a))', 3.5) == 3.5                 # number ⇒ itself
    assert list(geval('(lambda (a) (transpose a))', a).data) == [1, 3, 2, 4]
    assert list(geval('(lambda (a) (relu (tensor-sub a 2.5)))', a).data) == [0, 0, 0.5, 1.5]
    assert geval('(lambda (x) (relu x))', -3.0) == 0.0
    t3 = ten([1e16, 1, -1e16])
    assert geval('(lambda (a) (tensor-sum a))', t3) == 0.0                  # sequential


TENSOR_MSG = 'graph-eval: %s expects a number, got a 2x3 tensor — use the tensor-* ops'


@pytest.mark.parametrize('src, args, msg', [
    ('(lambda (x y) (+ x y))', (1.0,), 'graph-eval: expected 2 arg(s), got 1'),
    ('(lambda (x) x)', (1.0, 2.0), 'graph-eval: expected 1 arg(s), got 2'),
    ('(lambda (x) x)', ('s',), 'graph-eval: arguments must be numbers or tensors, got "s"'),
    ('(lambda (x y) x)', (1.0, NIL), 'graph-eval: arguments must be numbers or tensors, got ()'),
    ('(lambda (x) x)', (True,), 'graph-eval: arguments must be numbers or tensors, got #t'),
    ('(lambda (x y) (+ x y))', (1.0, 'TENSOR'), TENSOR_MSG % '+'),
    ('(lambda (x y) (- x y))', ('TENSOR', 1.0), TENSOR_MSG % '-'),
    ('(lambda (x y) (* x y))', ('TENSOR', 1.0), TENSOR_MSG % '*'),
    ('(lambda (x y) (/ x y))', ('TENSOR', 1.0), TENSOR_MSG % '/'),
    ('(lambda (x y) (if (< x y) 1 2))', ('TENSOR', 1.0), TENSOR_MSG % '<'),
    ('(lambda (x y) (if (>= x y) 1 2))', (1.0, 'TENSOR'), TENSOR_MSG % '>='),
    ('(lambda (x y) (if (= x y) 1 2))', (1.0, 'TENSOR'), TENSOR_MSG % '='),
    ('(lambda (x y) (tensor-add x y))', ('TENSOR', 'ROW'),
     'graph-eval: tensor-add: shape mismatch [2, 3] vs [3]'),
    ('(lambda (x y) (tensor-div x y))', ('ROW', 'TENSOR'),
     'graph-eval: tensor-div: shape mismatch [3] vs [2, 3]'),
    ('(lambda (x y) (matmul x y))', ('TENSOR', 1.0),
     'graph-eval: matmul: both arguments must be rank-2 tensors'),
    ('(lambda (x y) (matmul x y))', ('ROW', 'TENSOR'),
     'graph-eval: matmul: both arguments must be rank-2 tensors'),
    ('(lambda (x y) (matmul x y))', ('TENSOR', 'TENSOR'),
     'graph-eval: matmul: inner dimensions differ (3 vs 2)'),
    ('(lambda (x) (transpose x))', ('ROW',), 'graph-eval: transpose: argument must be a rank-2 tensor'),
    ('(lambda (x) (transpose x))', (2.0,), 'graph-eval: transpose: argument must be a rank-2 tensor'),
])
def test_evaluation_errors(src, args, msg):
    subst = {'TENSOR': ten([[1, 2, 3], [4, 5, 6]]), 'ROW': ten([1, 2, 3])}
    args = [subst.get(a, a) if isinstance(a, str) else a for a in args]
    assert eval_error(src, *args) == msg


def test_build_errors_come_before_argument_checks():
    assert eval_error('(lambda (x) (sin x))') == "graph-ir: unsupported operator 'sin'"
    with pytest.raises(EvalError) as e:
        GB.graph_eval(Host(), 1.0, 2.0)
    assert e.value.message.startswith('graph-ir: (graph-ir (lambda')


def test_graph_eval_table_specs():
    names = [s[0] for s in GB.TABLE.specs]
    assert names == ['graph-ir', 'graph-node-count', 'graph-eval', 'graph-grad']
    arity = {s[0]: (s[2], s[3]) for s in GB.TABLE.specs}
    assert arity == {'graph-ir': (1, 1), 'graph-node-count': (1, 1),
                     'graph-eval': (1, None), 'graph-grad': (1, None)}
    assert all(s[6] for s in GB.TABLE.specs)      # host=True (for display forms)


# ── Shape inference ──────────────────────────────────────────────────────

M23, M32, ROW = ten([[1, 2, 3], [4, 5, 6]]), ten([[1, 2], [3, 4], [5, 6]]), ten([1, 2, 3])
P = 'graph-compile-grad: '


@pytest.mark.parametrize('src, args, msg', [
    ('(lambda (x y) (+ x y))', (1.0, M23), 'scalar op applied to a tensor (use tensor-add etc.)'),
    ('(lambda (x y) (if (< x y) 1 2))', (M23, 1.0), 'scalar op applied to a tensor (use tensor-add etc.)'),
    ('(lambda (x y t) (if (< x y) t y))', (1.0, 2.0, M23), 'if branches have different shapes'),
    ('(lambda (x y) (tensor-mul x y))', (M23, ROW), 'tensor-mul: shape mismatch [2, 3] vs [3]'),
    ('(lambda (x y) (matmul x y))', (M23, 1.0), 'matmul: both arguments must be rank-2 tensors'),
    ('(lambda (x y) (matmul x y))', (M23, M23), 'matmul: inner dimensions differ (3 vs 2)'),
    ('(lambda (x) (transpose x))', (ROW,), 'transpose: argument must be a rank-2 tensor'),
])
def test_shape_errors(src, args, msg):
    assert shape_error(src, *args) == P + msg


def test_shapes_of_every_op():
    src = ('(lambda (x w b) (tensor-sum (tensor-mul (relu (tensor-add (matmul x w) b)) '
           '(transpose (transpose (matmul x w))))))')
    g, out = build(lam(src), display_form)
    shapes = infer(g, [(2, 3), (3, 2), None])
    assert [s for s in shapes] == [(2, 3), (3, 2), (2, 2), None, (2, 2), (2, 2), (2, 2),
                                   (2, 2), (2, 2), None]
    g2, outs = grad_graph(g, out, 3)
    s2 = infer(g2, [(2, 3), (3, 2), None])
    assert [s2[o] for o in outs] == [None, (2, 3), (3, 2), None]


# ── Random graphs: optimisation and plans never change a result ──────────

SHAPES = [(2, 3), (3, 2), (2, 2), (3, 3)]


def gen(rng, shape, depth, *, ifs=True, divs=True):
    """Source of a random well-typed expression of the given shape."""
    leaf = depth <= 0 or rng.random() < 0.25
    if shape is None:
        if leaf:
            choice = rng.random()
            if choice < 0.4:
                return rng.choice(['a', 'b'])
            return repr(rng.choice([0.0, -0.0, 1.0, 2.0, -1.5, 0.25, 3.0]))
        kind = rng.randrange(9 if ifs else 7)
        sub = lambda s=None: gen(rng, s, depth - 1, ifs=ifs, divs=divs)
        if kind == 0:
            return '(+ %s %s)' % (sub(), sub())
        if kind == 1:
            return '(- %s %s %s)' % (sub(), sub(), sub())
        if kind == 2:
            return '(* %s %s)' % (sub(), sub())
        if kind == 3:
            if divs == 'safe':
                return '(/ %s (+ 3 (* %s %s)))' % (sub(), sub(), sub())
            return '(/ %s %s)' % (sub(), sub()) if divs else '(- %s)' % sub()
        if kind == 4:
            return '(tensor-sum %s)' % sub(rng.choice(SHAPES))
        if kind == 5:
            return '(relu %s)' % sub()
        if kind == 6:
            return '(%s %s %s)' % (rng.choice(['tensor-add', 'tensor-mul', 'tensor-sub']), sub(), sub())
        cmp = rng.choice(['<', '>', '<=', '>=', '='])
        return '(if (%s %s %s) %s %s)' % (cmp, sub(), sub(), sub(), sub())
    if leaf:
        return {(2, 3): 'X', (3, 2): 'Y', (2, 2): 'Z', (3, 3): 'W'}[shape]
    sub = lambda s: gen(rng, s, depth - 1, ifs=ifs, divs=divs)
    kind = rng.randrange(7)
    if kind <= 1:
        op = rng.choice(['tensor-add', 'tensor-sub', 'tensor-mul'] + (['tensor-div'] if divs else []))
        sides = rng.choice([(shape, shape), (shape, None), (None, shape)])
        if op == 'tensor-div':
            return '(tensor-div %s (tensor-add 3 (tensor-mul %s %s)))' % (
                sub(sides[0]), sub(sides[1]), sub(sides[1]))
        return '(%s %s %s)' % (op, sub(sides[0]), sub(sides[1]))
    if kind == 2:
        k = rng.choice([2, 3])
        return '(matmul %s %s)' % (sub((shape[0], k)), sub((k, shape[1])))
    if kind == 3:
        return '(transpose %s)' % sub((shape[1], shape[0]))
    if kind == 4:
        return '(relu %s)' % sub(shape)
    if kind == 5 and ifs:
        return '(if (< %s %s) %s %s)' % (sub(None), sub(None), sub(shape), sub(shape))
    return '(tensor-mul %s %s)' % (sub(shape), sub(None))


def random_args(rng):
    def t(shape):
        n = shape[0] * shape[1]
        return Tensor(array('d', [rng.choice([rng.uniform(-2, 2), 0.0, -0.0, 1.0])
                                  for _ in range(n)]), shape)
    return [rng.uniform(-2, 2), rng.uniform(-2, 2), t((2, 3)), t((3, 2)), t((2, 2)), t((3, 3))]


def random_lambda(rng, **kw):
    body = gen(rng, rng.choice([None, None] + SHAPES), 4, **kw)
    return lam('(lambda (a b X Y Z W) %s)' % body)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_optimize_never_changes_a_result(seed):
    rng = random.Random(seed)
    f = random_lambda(rng)
    args = random_args(rng)
    g, out = build(f, display_form)
    o, (oo,) = optimize(g, [out])
    assert same(evaluate(g, args, [out])[0], evaluate(o, args, [oo])[0])
    assert len(o) <= len(g)
    assert all(a < i for i, args_ in enumerate(o.args) for a in args_)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_plans_equal_the_reference_evaluator(seed):
    rng = random.Random(seed)
    f = random_lambda(rng)
    g, out = build(f, display_form)
    g, (out,) = optimize(g, [out])
    args = random_args(rng)
    try:
        shapes = infer(g, [shape_of(a) for a in args])
    except EvalError:
        return                                   # if-branches of different shapes
    plan = compile_plan(g, [out], shapes)
    for _ in range(3):
        assert same(plan(args)[0], evaluate(g, args, [out])[0])
        args = random_args(rng)
