"""Tensors (docs/reference.md §6.11 Tensors, §11): the builtins called directly, and the kernels
against naive reference loops (bit for bit)."""
import math
import struct
from array import array

import pytest
from helpers import builtin_caller
from hypothesis import given, settings, strategies as st

from rusty import tensor as T
from rusty.builtins import tensors as TB
from rusty.printer import display_form, print_form
from rusty.reader import read
from rusty.values import EMPTY, NIL, Builtin, Tensor, make_list

B = {spec[0]: spec[1] for spec in TB.TABLE.specs}


def q(text):
    """The datum of quoted text, e.g. q('(1 2)')."""
    return read(text).car


def t(text):
    return B['tensor'](q(text))


call, error = builtin_caller(TB.TABLE)


def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def same_bits(xs, ys):
    """Bitwise equality, any NaN matching any NaN: which NaN two NaN operands
    give depends on operand order, which neither Python nor LLVM promises.
    (A NaN made from non-NaN operands, like 0/0, is checked exactly below.)"""
    xs, ys = list(xs), list(ys)
    return len(xs) == len(ys) and all(
        (x != x and y != y) or bits(x) == bits(y) for x, y in zip(xs, ys))


# ── Table: examples and messages ─────────────────────────────────────────

SPEC = [
    ("(tensor->list (matmul (tensor '((1 2) (3 4))) (tensor '((5 6) (7 8)))))", '((19 22) (43 50))'),
    ("(tensor->list (tensor-div (tensor '((5 6) (7 8))) (tensor '((1 2) (3 4)))))",
     '((5 3) (2.3333333333333335 2))'),
    ("(tensor->list (relu (tensor '(-1 2 -3 4))))", '(0 2 0 4)'),
]


def test_spec_examples_direct():
    a, b = t('((1 2) (3 4))'), t('((5 6) (7 8))')
    assert print_form(call('tensor->list', call('matmul', a, b))) == '((19 22) (43 50))'
    assert print_form(call('tensor->list', call('tensor-div', b, a))) == '((5 3) (2.3333333333333335 2))'
    assert print_form(call('tensor->list', call('relu', t('(-1 2 -3 4)')))) == '(0 2 0 4)'


def test_tensor_construction():
    r0 = call('tensor', 5.0)
    assert r0.shape == () and list(r0.data) == [5.0]
    assert call('tensor', q('(1 2 3)')).shape == (3,)
    m = call('tensor', q('(((1 2) (3 4) (5 6)))'))
    assert m.shape == (1, 3, 2) and list(m.data) == [1, 2, 3, 4, 5, 6]
    assert display_form(t('((1 2) (3 4))')) == '#<tensor 2x2 [1 2 3 4]>'


ELEMENTS = 'tensor: elements must be numbers or non-empty nested lists of numbers'
RAGGED = 'tensor: ragged nested list — all rows must have the same shape'


@pytest.mark.parametrize('arg, msg', [
    ("()", ELEMENTS), ("(())", ELEMENTS), ("((1 2) ())", ELEMENTS), ('(1 "a")', ELEMENTS),
    ("(1 #t)", ELEMENTS), ("(a)", ELEMENTS), ('"s"', ELEMENTS), ("#t", ELEMENTS),
    ("((1 2) (3))", RAGGED), ("((1 2) 3)", RAGGED), ("(1 (2 3))", RAGGED),
    ("(((1) (2)) ((3) 4))", RAGGED), ("((1 2) (3 4 5))", RAGGED),
])
def test_tensor_errors(arg, msg):
    assert error('tensor', q(arg)) == msg


def test_tensor_nil_and_deep_nesting():
    assert error('tensor', NIL) == ELEMENTS
    deep = 1.0
    for _ in range(5000):
        deep = make_list([deep])
    assert call('tensor', deep).shape == (1,) * 5000


@pytest.mark.parametrize('name, fill', [('zeros', 0.0), ('ones', 1.0)])
def test_zeros_ones(name, fill):
    x = call(name, q('(2 3)'))
    assert x.shape == (2, 3) and list(x.data) == [fill] * 6
    assert call(name, q('(2.9 1)')).shape == (2, 1)
    r0 = call(name, EMPTY)
    assert r0.shape == () and list(r0.data) == [fill]
    assert call(name, NIL).shape == ()
    msg = '%s: dimensions must be positive numbers' % name
    for bad in ('(0)', '(2 0.5)', '(-1)', '(a)', '("2")', '5'):
        assert error(name, q(bad)) == msg
    assert error(name, make_list([math.nan])) == msg
    assert error(name, make_list([math.inf])) == msg


def test_shape_and_list():
    assert print_form(call('tensor-shape', t('((1 2 3) (4 5 6))'))) == '(2 3)'
    assert call('tensor-shape', call('tensor', 5.0)) is EMPTY
    assert call('tensor->list', call('tensor', 5.0)) == 5.0
    assert print_form(call('tensor->list', t('(((1) (2)) ((3) (4)))'))) == '(((1) (2)) ((3) (4)))'
    assert error('tensor-shape', 1.0) == 'tensor-shape: expected a tensor, got 1'
    assert error('tensor->list', 'x') == 'tensor->list: expected a tensor, got "x"'


def test_tensor_ref():
    m = t('((1 2 3) (4 5 6))')
    assert call('tensor-ref', m, 1.0, 2.0) == 6.0
    assert call('tensor-ref', m, 1, 0) == 4.0                # exact integers too
    assert error('tensor-ref', m, 1.9, 0.0) == 'tensor-ref: expected an index, got 1.9'
    assert error('tensor-ref', m, 1.0, -3.0) == 'tensor-ref: index -3 out of range [0, 3)'
    assert error('tensor-ref', m, math.nan, 1.0) == 'tensor-ref: expected an index, got NaN'
    assert call('tensor-ref', call('tensor', 7.0)) == 7.0
    assert error('tensor-ref', m, 1.0) == 'tensor-ref: 1 index(es) for a rank-2 tensor'
    assert error('tensor-ref', m, 0.0, 0.0, 0.0) == 'tensor-ref: 3 index(es) for a rank-2 tensor'
    assert error('tensor-ref', m, 2.0, 0.0) == 'tensor-ref: index 2 out of range [0, 2)'
    assert error('tensor-ref', m, 0.0, 3.0) == 'tensor-ref: index 3 out of range [0, 3)'
    assert error('tensor-ref', m, 0.0, math.inf) == 'tensor-ref: expected an index, got inf'
    assert error('tensor-ref', 1.0, 0.0) == 'tensor-ref: expected a tensor, got 1'
    assert error('tensor-ref', m, 'a', 0.0) == 'tensor-ref: expected an index, got "a"'


@pytest.mark.parametrize('name, op', [('tensor-add', lambda a, b: a + b),
                                      ('tensor-sub', lambda a, b: a - b),
                                      ('tensor-mul', lambda a, b: a * b),
                                      ('tensor-div', lambda a, b: a / b)])
def test_elementwise(name, op):
    a, b = t('((1 2) (3 4))'), t('((5 6) (7 8))')
    assert list(call(name, a, b).data) == [op(x, y) for x, y in zip(a.data, b.data)]
    assert list(call(name, a, 3.0).data) == [op(x, 3.0) for x in a.data]
    assert list(call(name, 3.0, a).data) == [op(3.0, x) for x in a.data]
    assert call(name, a, 3.0).shape == (2, 2) and call(name, 3.0, a).shape == (2, 2)
    assert error(name, a, t('(1 2 3)')) == '%s: shape mismatch [2, 2] vs [3]' % name
    assert error(name, call('tensor', 1.0), t('(1)')) == '%s: shape mismatch [] vs [1]' % name
    for x, y in ((1.0, 2.0), (a, 'x'), ('x', a), (a, NIL), (True, a)):
        assert error(name, x, y) == '%s: arguments must be tensors or numbers' % name


def test_division_is_ieee():
    r = call('tensor-div', t('(1 -1 0 2)'), t('(0 0 0 -0.0)'))
    assert r.data[0] == math.inf and r.data[1] == -math.inf and math.isnan(r.data[2])
    assert r.data[3] == -math.inf
    r = call('tensor-div', t('(1 0)'), 0.0)
    assert r.data[0] == math.inf and math.isnan(r.data[1])
    r = call('tensor-div', 1.0, t('(0 -0.0 2)'))
    assert list(r.data)[:2] == [math.inf, -math.inf] and r.data[2] == 0.5


def test_tensor_sum_is_sequential():
    assert call('tensor-sum', t('(1e16 1 -1e16)')) == 0.0       # fsum would give 1
    s = call('tensor-sum', t('(-0.0 -0.0)'))
    assert s == 0.0 and math.copysign(1, s) == 1                 # starts from +0.0
    assert call('tensor-sum', call('tensor', 4.0)) == 4.0
    assert call('tensor-sum', t('((0.1 0.2) (0.3 0.4))')) == ((0.1 + 0.2) + 0.3) + 0.4
    assert error('tensor-sum', 1.0) == 'tensor-sum: expected a tensor, got 1'


def test_relu():
    r = call('relu', t('(-1 2 -0.0 0)'))
    assert [math.copysign(1, x) for x in r.data] == [1, 1, 1, 1]
    assert list(r.data) == [0, 2, 0, 0]
    assert list(call('relu', Tensor(array('d', [math.nan]), (1,))).data) == [0.0]
    assert call('relu', -2.0) == 0.0 and call('relu', 2.5) == 2.5
    assert math.copysign(1, call('relu', -0.0)) == 1
    assert call('relu', math.nan) == 0.0
    assert error('relu', q('(1 2)')) == 'relu: expected a number or tensor, got (1 2)'
    assert error('relu', 'a') == 'relu: expected a number or tensor, got "a"'


def test_tensor_map():
    double = Builtin('double', lambda x: x * 2)
    r = call('tensor-map', double, t('((1 2) (3 4))'))
    assert r.shape == (2, 2) and list(r.data) == [2, 4, 6, 8]
    seen = []
    call('tensor-map', Builtin('spy', lambda x: seen.append(x) or x), t('((1 2) (3 4))'))
    assert seen == [1, 2, 3, 4]
    bad = Builtin('bad', lambda x: 'no')
    assert error('tensor-map', bad, t('(1)')) == 'tensor-map: function must return a number, got "no"'
    assert error('tensor-map', Builtin('b', lambda x: True), t('(1)')) == \
        'tensor-map: function must return a number, got #t'
    assert error('tensor-map', 1.0, t('(1)')) == 'tensor-map: expected a procedure, got 1'
    assert error('tensor-map', double, 1.0) == 'tensor-map: expected a tensor, got 1'


def test_matmul_and_transpose_messages():
    a, b = t('((1 2 3) (4 5 6))'), t('((1 2) (3 4) (5 6) (7 8))')
    assert error('matmul', a, 1.0) == 'matmul: both arguments must be tensors'
    assert error('matmul', 'a', a) == 'matmul: both arguments must be tensors'
    assert error('matmul', a, t('(1 2 3)')) == 'matmul: both tensors must be rank 2'
    assert error('matmul', a, b) == 'matmul: inner dimensions differ (2x3 \u00b7 4x2)'
    tr = call('transpose', a)
    assert tr.shape == (3, 2) and list(tr.data) == [1, 4, 2, 5, 3, 6]
    assert error('transpose', t('(1 2)')) == 'transpose: tensor must be rank 2'
    assert error('transpose', 2.0) == 'transpose: expected a tensor, got 2'


def test_builtin_table_shape():
    names = [s[0] for s in TB.TABLE.specs]
    assert names == ['tensor', 'zeros', 'ones', 'tensor-shape', 'tensor->list', 'tensor-ref',
                     'tensor-add', 'tensor-sub', 'tensor-mul', 'tensor-div', 'tensor-sum',
                     'relu', 'tensor-map', 'matmul', 'transpose']
    for name, fn, lo, hi, doc, sig, host, shown, _examples in TB.TABLE.specs:
        assert doc and sig.startswith('(' + name)
        assert host == (name == 'tensor-map')


# ── Kernels against naive reference loops ────────────────────────────────

def ref_matmul(a, b, n, k, m):
    out = [0.0] * (n * m)
    for i in range(n):
        for p in range(k):
            for j in range(m):
                out[i * m + j] = out[i * m + j] + a[i * k + p] * b[p * m + j]
    return out


def ref_sum(a):
    acc = 0.0
    for x in a:
        acc = acc + x
    return acc


floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e6, max_value=1e6),
    st.sampled_from([0.0, -0.0, 1e300, -1e300, 1e-310, math.inf, -math.inf, math.nan, 1e16, 0.1]))


@st.composite
def matmul_case(draw):
    n, k, m = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    a = draw(st.lists(floats, min_size=n * k, max_size=n * k))
    b = draw(st.lists(floats, min_size=k * m, max_size=k * m))
    return array('d', a), array('d', b), n, k, m


@settings(max_examples=300, deadline=None)
@given(matmul_case())
def test_py_matmul_matches_reference(case):
    a, b, n, k, m = case
    assert same_bits(T.py_matmul(a, b, n, k, m), ref_matmul(a, b, n, k, m))


@settings(max_examples=300, deadline=None)
@given(st.lists(floats, min_size=1, max_size=40))
def test_py_sum_matches_reference(xs):
    assert same_bits([T.py_sum(array('d', xs))], [ref_sum(xs)])


@settings(max_examples=200, deadline=None)
@given(st.lists(floats, min_size=1, max_size=20), st.data())
def test_py_elementwise_match_scalar_ops(xs, data):
    ys = data.draw(st.lists(floats, min_size=len(xs), max_size=len(xs)))
    s = data.draw(floats)
    a, b = array('d', xs), array('d', ys)
    for op in ('add', 'sub', 'mul', 'div'):
        f = T.SCALAR_OPS[op]
        assert same_bits(T.PY_KERNELS[op + '_tt'](a, b), [f(x, y) for x, y in zip(xs, ys)])
        assert same_bits(T.PY_KERNELS[op + '_ts'](a, s), [f(x, s) for x in xs])
        assert same_bits(T.PY_KERNELS[op + '_st'](s, b), [f(s, y) for y in ys])
    assert same_bits(T.PY_KERNELS['relu'](a), [x if x > 0 else 0.0 for x in xs])
    assert same_bits(T.PY_KERNELS['step'](a), [1.0 if x > 0 else 0.0 for x in xs])


def test_ieee_div():
    assert T.ieee_div(1.0, 0.0) == math.inf and T.ieee_div(1.0, -0.0) == -math.inf
    assert T.ieee_div(-1.0, 0.0) == -math.inf and T.ieee_div(-1.0, -0.0) == math.inf
    assert math.isnan(T.ieee_div(0.0, 0.0)) and math.isnan(T.ieee_div(math.nan, 0.0))
    inf = math.inf
    assert bits(T.ieee_div(0.0, 0.0)) == bits(inf - inf)      # the hardware's 0/0, not math.nan
    assert bits(T.ieee_div(-0.0, 0.0)) == bits(inf - inf)
    assert T.ieee_div(math.inf, -0.0) == -math.inf
    assert T.ieee_div(6.0, 3.0) == 2.0


def test_transpose_kernel():
    a = array('d', range(12))
    out = T.py_transpose(a, 3, 4)
    assert list(out) == [a[i * 4 + j] for j in range(4) for i in range(3)]



# ── Native kernels and the row-band split (docs/reference.md §11) ─────────

@pytest.fixture(scope='module')
def native():
    from rusty.jit import kernels
    table = kernels.load()
    assert table is not None, 'rustc is on PATH, so the native kernels must build'
    return table


@pytest.mark.rustc
def test_kernel_tables_have_the_same_entries(native):
    assert set(T.PY_KERNELS) <= set(native)


@pytest.mark.rustc
@settings(max_examples=200, deadline=None)
@given(st.lists(floats, min_size=1, max_size=70), st.data())
def test_native_elementwise_and_sums_match_python(native, xs, data):
    ys = data.draw(st.lists(floats, min_size=len(xs), max_size=len(xs)))
    s = data.draw(floats)
    a, b = array('d', xs), array('d', ys)
    for op in ('add', 'sub', 'mul', 'div'):
        assert same_bits(native[op + '_tt'](a, b), T.PY_KERNELS[op + '_tt'](a, b))
        assert same_bits(native[op + '_ts'](a, s), T.PY_KERNELS[op + '_ts'](a, s))
        assert same_bits(native[op + '_st'](s, b), T.PY_KERNELS[op + '_st'](s, b))
    for name in ('relu', 'step'):
        assert same_bits(native[name](a), T.PY_KERNELS[name](a))
    assert same_bits([native['sum'](a)], [T.PY_KERNELS['sum'](a)])


@pytest.mark.rustc
@settings(max_examples=200, deadline=None)
@given(matmul_case())
def test_native_matmul_and_transpose_match_python(native, case):
    a, b, n, k, m = case
    assert same_bits(native['matmul'](a, b, n, k, m), T.py_matmul(a, b, n, k, m))
    assert same_bits(native['transpose'](a, n, k), T.py_transpose(a, n, k))


def split_reference(n, lanes):
    """The split rule as rusty/jit/bands.py's docstring states it, band by band: the
    reference `bands.band_plan` is checked against."""
    chunks = min(lanes, n)
    rows = -(-n // chunks)
    chunks = -(-n // rows)
    return [(c * rows, min(n, (c + 1) * rows)) for c in range(chunks)]


def bands_of(n, k, m):
    """The bands production runs an n×k·k×m product as, from `band_plan`'s
    two numbers (rows per band, bands)."""
    from rusty.jit import bands
    rows, count = bands.band_plan(n, k, m)
    return [(c * rows, min(n, (c + 1) * rows)) for c in range(count)]


@pytest.mark.parametrize('n, lanes, expected', [
    (67, 4, [(0, 17), (17, 34), (34, 51), (51, 67)]),
    (5, 4, [(0, 2), (2, 4), (4, 5)]),
    (2, 8, [(0, 1), (1, 2)]),
    (10, 1, [(0, 10)]),
    (9, 2, [(0, 5), (5, 9)]),
])
def test_split_rule(monkeypatch, n, lanes, expected):
    assert split_reference(n, lanes) == expected
    monkeypatch.setenv('RUSTY_MM_THREADS', str(lanes))
    assert bands_of(n, 65536, 1) == expected          # over the crossover for every n ≥ 2


def test_crossover_and_lanes(monkeypatch):
    from rusty.jit import bands
    assert bands.crossover(2, 1, 32768) and not bands.crossover(2, 1, 32767)
    assert not bands.crossover(1, 256, 256)
    monkeypatch.setenv('RUSTY_MM_THREADS', '3')
    assert bands.lanes() == 3 and bands_of(64, 32, 32) == [(0, 22), (22, 44), (44, 64)]
    assert bands_of(63, 32, 32) == [(0, 63)]          # 64,512 multiply-adds: serial
    monkeypatch.setenv('RUSTY_MM_THREADS', '0')
    assert bands.lanes() == 1 and bands_of(64, 32, 32) == [(0, 64)]
    monkeypatch.setenv('RUSTY_MM_THREADS', 'lots')
    assert bands.lanes() >= 1


AWKWARD = [(1, 256, 256), (67, 31, 32), (67, 7, 5), (2, 1, 32768), (3, 1, 40000),
           (63, 32, 32), (64, 32, 32), (64, 16, 64), (128, 8, 64), (5, 128, 128)]


@pytest.mark.rustc
@pytest.mark.parametrize('n, k, m', AWKWARD)
def test_banded_matmul_is_bit_identical_to_serial(native, monkeypatch, n, k, m):
    import random
    rng = random.Random(n * 1000003 + k * 1009 + m)
    a = array('d', [rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(n * k)])
    b = array('d', [rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(k * m)])
    monkeypatch.setenv('RUSTY_MM_THREADS', '1')
    serial = native['matmul'](a, b, n, k, m)
    for lanes in ('2', '3', '4', '7'):
        monkeypatch.setenv('RUSTY_MM_THREADS', lanes)
        assert same_bits(native['matmul'](a, b, n, k, m), serial)
    if n * k * m <= 70000:
        assert same_bits(serial, T.py_matmul(a, b, n, k, m))


def banded_case(native, monkeypatch, n, k, m, lanes):
    """(product, its serial result) for an n×k·k×m product, with RUSTY_MM_THREADS=lanes set."""
    a = array('d', [(i % 13) / 7 - 0.9 for i in range(n * k)])
    b = array('d', [(i % 11) / 5 - 1.1 for i in range(k * m)])
    monkeypatch.setenv('RUSTY_MM_THREADS', '1')
    serial = native['matmul'](a, b, n, k, m)
    monkeypatch.setenv('RUSTY_MM_THREADS', lanes)
    return (lambda: native['matmul'](a, b, n, k, m)), serial


@pytest.mark.rustc
def test_lanes_run_bands_on_worker_threads(native, monkeypatch):
    from rusty.jit import kernels
    product, serial = banded_case(native, monkeypatch, 64, 64, 64, '2')
    before = kernels.lane_worker_bands()
    for _ in range(2000):           # the caller may take band 1 itself while the worker starts
        assert same_bits(product(), serial)
        if kernels.lane_worker_bands() > before:
            break
    assert kernels.lane_worker_bands() > before


def test_python_fallback_when_native_disabled(monkeypatch):
    monkeypatch.setenv('RUSTY_NATIVE_KERNELS', '0')
    T.use_kernels(None)
    try:
        assert T.kernels() is T.PY_KERNELS
        assert list(call('matmul', t('((1 2) (3 4))'), t('((5 6) (7 8))')).data) == [19, 22, 43, 50]
    finally:
        T.use_kernels(None)


def _python(code, **env):
    import os
    import subprocess
    import sys
    from pathlib import Path
    e = dict(os.environ)
    e['PYTHONPATH'] = str(Path(__file__).resolve().parents[1])
    e.update(env)
    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=e,
                          timeout=120)


def test_no_native_work_at_import():
    r = _python('import sys, rusty.tensor, rusty.builtins.tensors, rusty.graph.builtins, '
                'rusty.graph.grad, rusty.graph.shapes\n'
                'print(sorted(m for m in sys.modules if m.startswith("rusty.jit")))')
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '[]'


def test_without_rustc_everything_stays_pure_python(tmp_path):
    code = ('from rusty import tensor as T\n'
            'from rusty.values import Tensor\n'
            'from array import array\n'
            'a = Tensor(array("d", [1, 2, 3, 4]), (2, 2))\n'
            'print(list(T.matmul(a, a).data), T.kernels() is T.PY_KERNELS)\n')
    r = _python(code, PATH=str(tmp_path), RUSTY_CACHE_DIR=str(tmp_path / 'cache'))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '[7.0, 10.0, 15.0, 22.0] True'


def test_automatic_lanes_apply_the_crossover_as_written(monkeypatch):
    from rusty.jit import bands
    monkeypatch.delenv('RUSTY_MM_THREADS', raising=False)
    monkeypatch.setattr(bands, 'lanes', lambda: 2)
    assert bands_of(64, 256, 64) == [(0, 32), (32, 64)]
    assert bands_of(64, 32, 32) == [(0, 32), (32, 64)]         # 65,536: the crossover
    assert bands_of(63, 32, 32) == [(0, 63)]


@pytest.mark.rustc
def test_lanes_under_concurrent_callers_and_after_fork(native, monkeypatch):
    import os
    import threading
    product, serial = banded_case(native, monkeypatch, 64, 96, 64, '3')
    bad = []

    def many():
        for _ in range(200):
            if not same_bits(product(), serial):
                bad.append(1)
    threads = [threading.Thread(target=many) for _ in range(3)]
    for t in threads:
        t.start()
    many()
    for t in threads:
        t.join()
    assert not bad
    pid = os.fork()                 # the child has no lane workers: it makes its own
    if pid == 0:
        ok = all(same_bits(product(), serial) for _ in range(50))
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_band_plan_follows_the_split_rule(monkeypatch):
    for lanes in ('1', '2', '3', '7'):
        monkeypatch.setenv('RUSTY_MM_THREADS', lanes)
        for n, k, m in AWKWARD + [(64, 256, 64), (2, 2, 2)]:
            big = n >= 2 and n * k * m >= 65536
            expected = split_reference(n, int(lanes)) if big else [(0, n)]
            assert bands_of(n, k, m) == expected
