"""Compiled graphs give the reference's bits (docs/reference.md §11 Tensors and graphs): graph-compile ≡
graph-eval and graph-compile-grad ≡ graph-grad on random graphs, shapes and
inputs (signed zeros, infinities and NaNs included), with shapes large enough
that some matmuls cross into the bridge.

rustc runs are the slow part, so each example compiles a batch of random kernels
into one library (the same per-kernel functions, under distinct symbols) and
wraps each with the same call path the builtins use."""
import math
import random
import struct
from array import array

import pytest
from hypothesis import given, settings, strategies as st

from rusty import compile_graph
from rusty import tensor as T
from rusty.errors import EvalError
from rusty.graph import builtins as GB
from rusty.graph.grad import grad_graph
from rusty.graph.interp import evaluate
from rusty.graph.optimize import optimize
from rusty.graph.shapes import infer
from rusty.graph.trace import build
from rusty.jit import build as jit_build
from rusty.jit import graph_codegen as GC
from rusty.jit.grad_call import grad_native
from rusty.printer import display_form
from rusty.reader import read
from rusty.values import Lambda, Tensor

pytestmark = pytest.mark.rustc

CONSTANTS = ['0', '-0.0', '1', '2', '-1.5', '0.25', '3', '1e308', '(/ 0 0)', '(/ 1 0)', '(/ -1 0)']
SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e308, -5e-324, 1.0, -1.0]


@pytest.fixture(autouse=True, scope='module')
def native_kernels():
    """graph-grad on the native kernels (the interpreter's path when rustc exists)."""
    from rusty.jit import kernels
    table = kernels.load()
    assert table is not None
    T.use_kernels(table)
    GB.clear_cache()
    yield
    T.use_kernels(None)
    GB.clear_cache()


def lam(src):
    form = read(src).car
    return Lambda(tuple(form.cdr.car), None, form.cdr.cdr, None, None)


def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def same(x, y):
    """Equal values bit for bit; a NaN equals any NaN (which NaN two NaN operands
    give depends on operand order, which neither Python nor LLVM promises)."""
    if x.__class__ is Tensor:
        return (y.__class__ is Tensor and x.shape == y.shape
                and all(same(a, b) for a, b in zip(x.data, y.data)))
    return y.__class__ is float and ((x != x and y != y) or bits(x) == bits(y))


# ── Random programs ──────────────────────────────────────────────────────

class Program:
    """Random well-typed lambda bodies over a pool of dimensions.

    Parameters: scalars `a` `b`, then one tensor per shape: every rank-2 shape
    over the pool, one rank-1 and one rank-0 shape."""

    def __init__(self, rng, dims):
        self.rng = rng
        self.dims = dims
        self.shapes = [(r, c) for r in dims for c in dims] + [(dims[-1],), ()]
        self.names = ['a', 'b'] + ['T%d' % i for i in range(len(self.shapes))]

    def params(self):
        return '(%s)' % ' '.join(self.names)

    def shapes_of_params(self):
        return [None, None] + self.shapes

    def args(self, special=0.05):
        rng = self.rng

        def num():
            r = rng.random()
            if r < special:
                return rng.choice(SPECIAL)
            if r < 0.15:
                return rng.choice([0.0, -0.0, 1.0])
            return rng.uniform(-2, 2)
        return [num(), num()] + [Tensor(array('d', [num() for _ in range(T.size_of(s))]), s)
                                 for s in self.shapes]

    def scalar(self, depth, tensors=True, ifs=True):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return rng.choice(['a', 'b', 'a', 'b'] + CONSTANTS)
        sub = lambda: self.scalar(depth - 1, tensors, ifs)
        kinds = ['+', '-', '*', '/', 'neg', 'relu', 'if-const'] + (['if'] if ifs else [])
        if tensors:
            kinds += ['sum', 'sum', 'tensor-ss']
        kind = rng.choice(kinds)
        if kind in ('+', '*'):
            return '(%s %s)' % (kind, ' '.join(sub() for _ in range(rng.choice([1, 2, 2, 3]))))
        if kind in ('-', '/'):
            return '(%s %s)' % (kind, ' '.join(sub() for _ in range(rng.choice([2, 2, 3]))))
        if kind == 'neg':
            return '(- %s)' % sub()
        if kind == 'relu':
            return '(relu %s)' % sub()
        if kind == 'sum':
            return '(tensor-sum %s)' % self.tensor(rng.choice(self.shapes), depth - 1, ifs)
        if kind == 'tensor-ss':
            return '(%s %s %s)' % (rng.choice(['tensor-add', 'tensor-sub', 'tensor-mul', 'tensor-div']),
                                   sub(), sub())
        cmp = rng.choice(['<', '>', '<=', '>=', '='])
        if kind == 'if-const':      # folded away: fine for reverse mode
            return '(if (%s %s %s) %s %s)' % (cmp, rng.choice(CONSTANTS[:7]), rng.choice(CONSTANTS[:7]),
                                              sub(), sub())
        return '(if (%s %s %s) %s %s)' % (cmp, sub(), sub(), sub(), sub())

    def tensor(self, shape, depth, ifs=True):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.names[2 + self.shapes.index(shape)]
        sub = lambda s: self.tensor(s, depth - 1, ifs) if s is not None else self.scalar(depth - 1, True, ifs)
        kinds = ['ew', 'ew', 'relu', 'scale'] + (['if'] if ifs else []) + ['if-const']
        if len(shape) == 2:
            kinds += ['matmul', 'matmul', 'transpose']
        kind = rng.choice(kinds)
        if kind == 'ew':
            op = rng.choice(['tensor-add', 'tensor-sub', 'tensor-mul', 'tensor-div'])
            sides = rng.choice([(shape, shape), (shape, None), (None, shape)])
            return '(%s %s %s)' % (op, sub(sides[0]), sub(sides[1]))
        if kind == 'relu':
            return '(relu %s)' % sub(shape)
        if kind == 'scale':
            return '(tensor-mul %s %s)' % (sub(shape), sub(None))
        if kind == 'matmul':
            k = rng.choice(self.dims)
            return '(matmul %s %s)' % (sub((shape[0], k)), sub((k, shape[1])))
        if kind == 'transpose':
            return '(transpose %s)' % sub((shape[1], shape[0]))
        if kind == 'if-const':
            return '(if (< %s %s) %s %s)' % (rng.choice(CONSTANTS[:7]), rng.choice(CONSTANTS[:7]),
                                            sub(shape), sub(shape))
        return '(if (%s %s %s) %s %s)' % (rng.choice(['<', '>=', '=']), sub(None), sub(None),
                                          sub(shape), sub(shape))

    def big(self, depth, ifs=True):
        """A matmul at the largest dimension (over the crossover for the big pools)."""
        m = max(self.dims)
        return '(matmul %s %s)' % (self.tensor((m, m), depth, ifs), self.tensor((m, m), depth, ifs))

    def lam(self, body):
        return '(lambda %s %s)' % (self.params(), body)


DIMS = [(2, 3), (1, 2, 3), (2, 33, 64), (3, 40, 41)]     # the last two reach the bridge


# ── Batches: many kernels, one rustc run ─────────────────────────────────

def compile_grad_batch(items):
    """NativeGrads for [(graph, outputs, shapes, param_shapes)], one library."""
    functions = [GC.grad_function(g, outputs, shapes, 'rusty_grad_kernel_%d' % i)
                 for i, (g, outputs, shapes, _) in enumerate(items)]
    source = GC.grad_prelude() + '\n'.join(functions)
    lib = jit_build.build_and_load(source, 'rusty_grad_kernel_0')
    return [grad_native(lib, 'rusty_grad_kernel_%d' % i, source, ps, [shapes[o] for o in outputs],
                        compile_graph.bridge(), display_form)
            for i, (g, outputs, shapes, ps) in enumerate(items)]


def compile_scalar_batch(items):
    """Natives for [(graph, output, nparams)], one library."""
    functions = [GC.scalar_function(g, out, n, 'rusty_graph_kernel_%d' % i)
                 for i, (g, out, n) in enumerate(items)]
    source = GC.PRELUDE + '\n' + '\n'.join(functions)
    lib = jit_build.build_and_load(source, 'rusty_graph_kernel_0')
    return [GC.scalar_native(lib, 'rusty_graph_kernel_%d' % i, n, source)
            for i, (_, _, n) in enumerate(items)]


def assert_bridged(dims, natives):
    """With the big dimension pools, some kernel of the batch uses the bridge."""
    if max(dims) >= 33:
        bodies = natives[0].source.split('pub unsafe extern "C" fn ')[1:]
        assert any('mm(' in body for body in bodies)


def optimised(src):
    g, out = build(lam(src), display_form)
    g, (out,) = optimize(g, [out])
    return g, out


# ── graph-compile ≡ graph-eval ───────────────────────────────────────────

@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32))
def test_graph_compile_equals_graph_eval(seed):
    rng = random.Random(seed)
    p = Program(rng, (2,))
    srcs, items = [], []
    while len(items) < 40:
        body = p.scalar(rng.randint(1, 6), tensors=False)
        src = '(lambda (a b c) %s)' % body          # c unused: arity 3 all the same
        g, out = optimised(src)
        srcs.append(src)
        items.append((g, out, 3))
    natives = compile_scalar_batch(items)
    for src, (g, out, _), k in zip(srcs, items, natives):
        for _ in range(8):
            args = [rng.choice(SPECIAL) if rng.random() < 0.3 else rng.uniform(-3, 3) for _ in range(3)]
            want = evaluate(g, args, [out])[0]
            got = k.call(args)
            assert same(got, want), (src, args, got, want)


def test_scalar_nan_and_signed_zero_bits():
    """Strictly the interpreter's NaN and zero bits where only one NaN is involved."""
    items = [optimised(src) + (2,) for src in (
        '(lambda (x y) (/ x y))', '(lambda (x y) (- x y))', '(lambda (x y) (relu x))',
        '(lambda (x y) (+ x y))', '(lambda (x y) (* (/ x y) -1))', '(lambda (x y) (if (= x y) x y))')]
    natives = compile_scalar_batch(items)
    cases = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (1.0, -0.0), (-1.0, 0.0), (math.nan, 0.0),
             (math.inf, math.inf), (math.inf, 0.0), (-0.0, -0.0), (3.0, 7.0)]
    for (g, out, _), k in zip(items, natives):
        for args in cases:
            want = evaluate(g, list(args), [out])[0]
            assert bits(k.call(list(args))) == bits(want), (g, args)


# ── The grad kernel ABI on any graph ≡ the reference evaluator ───────────

@pytest.mark.parametrize('dims', DIMS)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_grad_kernels_of_any_graph_equal_evaluate(dims, seed):
    """Forward graphs with data-dependent ifs and tensor outputs, compiled with
    the grad-kernel ABI (one output): every op, including tensor `if`."""
    rng = random.Random(seed)
    p = Program(rng, dims)
    srcs, items = [], []
    while len(items) < 20:
        shape = rng.choice([None, None] + p.shapes)
        depth = rng.randint(1, 5)
        body = p.scalar(depth) if shape is None else p.tensor(shape, depth)
        if len(items) % 4 == 0:
            body = '(relu %s)' % p.big(depth - 1)
        g, out = optimised(p.lam(body))
        try:
            shapes = infer(g, p.shapes_of_params())
        except EvalError:
            continue
        srcs.append(p.lam(body))
        items.append((g, [out], shapes, p.shapes_of_params()))
    natives = compile_grad_batch(items)
    assert_bridged(dims, natives)
    for src, (g, outputs, _, _), k in zip(srcs, items, natives):
        for special in (0.0, 0.1):
            args = p.args(special)
            want = evaluate(g, args, outputs)
            got = list(k.call(args))
            assert len(got) == 1 and same(got[0], want[0]), src


# ── graph-compile-grad ≡ graph-grad ──────────────────────────────────────

@pytest.mark.parametrize('dims', DIMS)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_graph_compile_grad_equals_graph_grad(dims, seed):
    rng = random.Random(seed)
    p = Program(rng, dims)
    srcs, items = [], []
    while len(items) < 20:
        depth = rng.randint(1, 5)
        body = p.scalar(depth, ifs=False)
        if len(items) % 4 == 0:
            body = '(+ %s (tensor-sum %s))' % (body, p.big(depth - 1, ifs=False))
        src = p.lam(body)
        f = lam(src)
        forward, loss = build(f, display_form)
        g, outputs = grad_graph(forward, loss, len(f.params))
        try:
            shapes = infer(g, p.shapes_of_params())
        except EvalError:
            continue
        if shapes[outputs[0]] is not None:
            continue
        srcs.append(src)
        items.append((g, outputs, shapes, p.shapes_of_params()))
    natives = compile_grad_batch(items)
    assert_bridged(dims, natives)
    for src, k in zip(srcs, natives):
        f = lam(src)
        for special in (0.0, 0.1):
            args = p.args(special)
            want = GB.gradient(f, args, display_form)
            got = list(k.call(args))
            assert len(got) == len(want) and all(same(x, y) for x, y in zip(got, want)), src


def test_every_op_and_kind_is_covered_by_the_generator():
    """The generator reaches every op of the IR that compiled kernels run."""
    seen = set()
    rng = random.Random(7)
    p = Program(rng, (2, 3))
    for _ in range(300):
        src = p.lam(p.scalar(4))
        g, out = optimised(src)
        seen.update(g.ops)
        f = lam(p.lam(p.scalar(4, ifs=False)))
        g2, _ = grad_graph(*build(f, display_form), len(f.params))
        seen.update(g2.ops)
    assert seen == {'const', 'param', 'add', 'sub', 'mul', 'div', 'lt', 'gt', 'le', 'ge', 'eq', 'if',
                    'tensor-add', 'tensor-sub', 'tensor-mul', 'tensor-div', 'matmul', 'transpose',
                    'tensor-sum', 'relu', 'step', 'sum-to', 'expand'}


# ── The MEDIUM workload, step by step ────────────────────────────────────

def test_medium_steps_are_bit_identical():
    src = ('(lambda (x W b t nn) (tensor-sum (tensor-div (tensor-mul {d} {d}) nn)))'
           .format(d='(tensor-sub (relu (tensor-add (matmul x W) b)) t)'))
    f = lam(src)

    def mat(r, c, off):
        return Tensor(array('d', [(((7 * i + off) % 17) - 8) / 8 for i in range(r * c)]), (r, c))
    x, W, b, t = mat(64, 256, 0), mat(256, 64, 3), -0.125, mat(64, 64, 5)
    forward, loss = build(f, display_form)
    g, outputs = grad_graph(forward, loss, 5)
    ps = [(64, 256), (256, 64), None, (64, 64), None]
    k = GC.compile_grad(g, outputs, infer(g, ps), ps, compile_graph.bridge(), display_form)
    for _ in range(10):
        want = GB.gradient(f, [x, W, b, t, 4096.0], display_form)
        got = list(k.call([x, W, b, t, 4096.0]))
        assert [bytes(array('d', [v])) if v.__class__ is float else bytes(v.data) for v in got] == \
               [bytes(array('d', [v])) if v.__class__ is float else bytes(v.data) for v in want]
        W = T.elementwise('sub', W, T.elementwise('mul', got[2], 0.01))
        b = b - got[3] * 0.01
