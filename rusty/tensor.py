"""Tensor operations over flat row-major `array('d')` buffers.

Two layers. The *kernels* work on raw buffers and plain floats and assume their
arguments are already checked; they are the dispatch point where the native
kernels of `jit.kernels` plug in (same bits: sequential sums from +0.0, the i-p-j
matmul order, no fusion, no reassociation). The *tensor functions* below them
take and return `Tensor` values and numbers and are what the builtins and the
graph evaluator call. Callers check shapes and produce their own messages.
"""
from __future__ import annotations

import math
import os
import sys
from array import array
from functools import reduce
from operator import add, mul, sub, truediv

from .errors import EvalError
from .printer import dims_text as _dims_text
from .values import EMPTY, List, Tensor, make_list, to_f64

INF = math.inf
NAN = math.nan


# ── Shapes ───────────────────────────────────────────────────────────────

def size_of(shape: tuple) -> int:
    """The number of elements of a shape (1 for rank 0)."""
    n = 1
    for d in shape:
        n *= d
    return n


def shape_text(shape: tuple) -> str:
    """`[2, 3]`, `[]` for rank 0: how messages write shapes."""
    return '[' + ', '.join(str(d) for d in shape) + ']'


# ── Scalar arithmetic ────────────────────────────────────────────────────

def ieee_div(x: float, y: float) -> float:
    """x / y as the hardware divides (Python raises for a zero divisor): ±inf,
    the NaN operand itself, or for 0/0 the hardware's default NaN — computed,
    not math.nan, whose sign bit differs — so native code gives the same bits."""
    if y == 0.0:
        if x != x:
            return x
        if x == 0.0:
            return INF - INF
        return math.copysign(INF, math.copysign(1.0, x) * math.copysign(1.0, y))
    return x / y


dims_text = _dims_text   # re-exported: the graph package may not import the printer

SCALAR_OPS = {'add': add, 'sub': sub, 'mul': mul, 'div': ieee_div}


# ── Pure-Python kernels (the reference) ──────────────────────────────────
# Raw buffers in, new `array('d')` out. Built from C-level loops (map, sum,
# slicing) where those keep the exact operation order of the reference.

# Before 3.12 the builtin sum() adds floats sequentially into one double; from
# 3.12 it compensates (Neumaier), which would change bits, so reduce() is used.
_SEQUENTIAL_SUM = sys.version_info < (3, 12)


def py_sum(a) -> float:
    """acc ← +0.0; acc ← acc + x for each element in order."""
    if _SEQUENTIAL_SUM:
        return sum(a, 0.0)
    return reduce(add, a, 0.0)


def py_add_tt(a, b):
    return array('d', list(map(add, a, b)))


def py_sub_tt(a, b):
    return array('d', list(map(sub, a, b)))


def py_mul_tt(a, b):
    return array('d', list(map(mul, a, b)))


def py_div_tt(a, b):
    try:
        return array('d', list(map(truediv, a, b)))
    except ZeroDivisionError:
        return array('d', list(map(ieee_div, a, b)))


def py_add_ts(a, s):
    return array('d', [x + s for x in a])


def py_sub_ts(a, s):
    return array('d', [x - s for x in a])


def py_mul_ts(a, s):
    return array('d', [x * s for x in a])


def py_div_ts(a, s):
    if s == 0.0:
        return array('d', [ieee_div(x, s) for x in a])
    return array('d', [x / s for x in a])


def py_add_st(s, b):
    return array('d', [s + y for y in b])


def py_sub_st(s, b):
    return array('d', [s - y for y in b])


def py_mul_st(s, b):
    return array('d', [s * y for y in b])


def py_div_st(s, b):
    try:
        return array('d', [s / y for y in b])
    except ZeroDivisionError:
        return array('d', [ieee_div(s, y) for y in b])


def py_relu(a):
    return array('d', [x if x > 0.0 else 0.0 for x in a])


def py_step(a):
    return array('d', [1.0 if x > 0.0 else 0.0 for x in a])


def py_transpose(a, n: int, m: int):
    """The m×n transpose of an n×m buffer."""
    out = array('d')
    for j in range(m):
        out += a[j::m]
    return out


def py_matmul(a, b, n: int, k: int, m: int):
    """n×k by k×m in the defined summation order.

    Each out[i][j] is ((+0.0 + a[i][0]·b[0][j]) + a[i][1]·b[1][j]) + …, p
    ascending — the same per-element sequence as the i-p-j loop, computed here
    as one sequential dot product per element.
    """
    if k == 0:
        return array('d', bytes(8 * n * m))
    cols = [b[j::m] for j in range(m)]
    out = array('d')
    if _SEQUENTIAL_SUM:
        for i in range(n):
            row = a[i * k:(i + 1) * k]
            out.extend([sum(map(mul, row, c), 0.0) for c in cols])
    else:
        for i in range(n):
            row = a[i * k:(i + 1) * k]
            out.extend([reduce(add, map(mul, row, c), 0.0) for c in cols])
    return out


PY_KERNELS = {
    'add_tt': py_add_tt, 'sub_tt': py_sub_tt, 'mul_tt': py_mul_tt, 'div_tt': py_div_tt,
    'add_ts': py_add_ts, 'sub_ts': py_sub_ts, 'mul_ts': py_mul_ts, 'div_ts': py_div_ts,
    'add_st': py_add_st, 'sub_st': py_sub_st, 'mul_st': py_mul_st, 'div_st': py_div_st,
    'sum': py_sum, 'relu': py_relu, 'step': py_step,
    'transpose': py_transpose, 'matmul': py_matmul,
}


# ── Dispatch point ───────────────────────────────────────────────────────
# `kernels()` returns the active kernel table: the native one when it can be
# loaded (first use, not at import), else the pure-Python one above. The
# native table has the same keys and gives identical bits.

_active: dict | None = None


def kernels() -> dict:
    """The kernel table in use (resolved once, on first use)."""
    global _active
    if _active is None:
        _active = _load_native() or PY_KERNELS
    return _active


def use_kernels(table: dict | None) -> None:
    """Force a kernel table (None: resolve again on next use); for tests and benchmarks."""
    global _active
    _active = table


def _load_native() -> dict | None:
    """The native kernel table, or None (RUSTY_NATIVE_KERNELS=0, no rustc, a failed build)."""
    if os.environ.get('RUSTY_NATIVE_KERNELS', '1') == '0':
        return None
    from .jit import kernels as native
    return native.load()


# ── Tensor functions ─────────────────────────────────────────────────────

def filled(shape: tuple, x: float) -> Tensor:
    """A tensor of this shape with every element x."""
    return Tensor(array('d', [x]) * size_of(shape), shape)


def elementwise(op: str, a, b):
    """a ⊕ b for op in add/sub/mul/div; each side a Tensor or a float.

    Shapes must already agree; two floats give plain IEEE arithmetic.
    """
    return ELEMENTWISE[op](a, b)


def _elementwise_fn(op: str):
    """`elementwise` for one op, its kernel keys bound (the builtins call it)."""
    tt, ts, st, scalar = op + '_tt', op + '_ts', op + '_st', SCALAR_OPS[op]

    def fn(a, b):
        k = _active or kernels()
        if a.__class__ is Tensor:
            if b.__class__ is Tensor:
                return Tensor(k[tt](a.data, b.data), a.shape)
            return Tensor(k[ts](a.data, b), a.shape)
        if b.__class__ is Tensor:
            return Tensor(k[st](a, b.data), b.shape)
        return scalar(a, b)
    fn.__name__ = 'elementwise_' + op
    return fn


ELEMENTWISE = {op: _elementwise_fn(op) for op in SCALAR_OPS}


def tensor_sum(t: Tensor) -> float:
    """The sequential row-major sum from +0.0."""
    return kernels()['sum'](t.data)


def relu(x):
    """Elementwise relu of a float or Tensor."""
    if x.__class__ is Tensor:
        return Tensor(kernels()['relu'](x.data), x.shape)
    return x if x > 0.0 else 0.0


def step(x):
    """Elementwise 1.0-if-positive of a float or Tensor."""
    if x.__class__ is Tensor:
        return Tensor(kernels()['step'](x.data), x.shape)
    return 1.0 if x > 0.0 else 0.0


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """The matmul product of rank-2 tensors with matching inner dimensions."""
    n, k = a.shape
    m = b.shape[1]
    return Tensor(kernels()['matmul'](a.data, b.data, n, k, m), (n, m))


def transpose(t: Tensor) -> Tensor:
    """The transpose of a rank-2 tensor."""
    n, m = t.shape
    return Tensor(kernels()['transpose'](t.data, n, m), (m, n))


# ── Conversion to and from nested lists ──────────────────────────────────

ELEMENTS_MSG = 'tensor: elements must be numbers or non-empty nested lists of numbers'
RAGGED_MSG = 'tensor: ragged nested list — all rows must have the same shape'


def from_nested(x) -> Tensor:
    """`(tensor x)`: a number is rank 0; a nested list gives the shape by nesting.

    Depth first, left to right, as the recursive definition would (each
    sibling's shape is compared with the first sibling's once it is complete),
    but with an explicit stack so deep nesting cannot overflow the host.
    """
    if x.__class__ is float or x.__class__ is int:
        return Tensor(array('d', [to_f64(x)]), ())
    data = array('d')
    if x.__class__ is not List or x is EMPTY:
        raise EvalError(ELEMENTS_MSG)
    # Frame: [remaining cells, shape of the first child or None, length].
    stack = [[x, None, len(x)]]
    while True:
        frame = stack[-1]
        cell = frame[0]
        if cell is EMPTY:
            stack.pop()
            shape = (frame[2],) + frame[1]
            if not stack:
                return Tensor(data, shape)
            _child_done(stack[-1], shape)
            continue
        if frame[1] is None or frame[1] == ():
            # A run of plain numbers at the leaves: take them in one go.
            leaf = _leading_floats(cell)
            if leaf:
                data.extend(leaf[0])
                if frame[1] is None:
                    frame[1] = ()
                frame[0] = leaf[1]
                continue
        item = cell.car
        frame[0] = cell.cdr
        if item.__class__ is float or item.__class__ is int:
            data.append(to_f64(item))
            _child_done(frame, ())
        elif item.__class__ is List and item is not EMPTY:
            stack.append([item, None, len(item)])
        else:
            raise EvalError(ELEMENTS_MSG)


def _leading_floats(cell):
    """The numbers at the front of a list as f64s and the cell after them, or None."""
    run = []
    while cell is not EMPTY:
        x = cell.car
        if x.__class__ is float:
            run.append(x)
        elif x.__class__ is int:
            run.append(to_f64(x))
        else:
            break
        cell = cell.cdr
    return (run, cell) if run else None


def _child_done(frame, shape) -> None:
    if frame[1] is None:
        frame[1] = shape
    elif frame[1] != shape:
        raise EvalError(RAGGED_MSG)


def to_nested(t: Tensor):
    """`(tensor->list t)`: nested lists of numbers; rank 0 gives the number."""
    if not t.shape:
        return t.data[0]
    level = list(t.data)
    for d in reversed(t.shape):
        level = [make_list(level[i:i + d]) for i in range(0, len(level), d)]
    return level[0] if level else EMPTY


def from_buffer(obj) -> Tensor:
    """`(tensor obj)` of a Python object exporting a buffer of doubles (an
    array.array('d'), a NumPy float64 array): its elements copied once, in C
    order, its shape kept."""
    try:
        m = memoryview(obj)
    except TypeError:
        raise EvalError('tensor: expected a number, a nested list or a buffer of doubles, got a Python %s'
                        % type(obj).__name__) from None
    if m.format not in ('d', '<d', '=d', '@d'):
        raise EvalError("tensor: expected a buffer of doubles (format 'd'), got format '%s'" % m.format)
    if not m.c_contiguous:
        m = memoryview(m.tobytes()).cast('d', m.shape)
    data = array('d')
    data.frombytes(m.cast('B') if m.ndim else m.cast('B', (m.nbytes,)))
    return Tensor(data, tuple(m.shape))
