"""The tensor builtins: construction, access, arithmetic, matmul."""
import math
import sys

from ..errors import EvalError
from ..printer import display_form
from .args import expected, index_arg
from ..values import PROCEDURE_TYPES, BuiltinTable, List, NilType, Py, Tensor, make_list, to_f64

TABLE = BuiltinTable()


class _TensorModule:
    """Stands for rusty.tensor until a builtin first uses it: the first
    attribute read imports the module and puts it in T's place, so start-up
    does without it and later calls read the module directly."""

    def __getattr__(self, name):
        global T
        from .. import tensor
        T = tensor
        return getattr(tensor, name)


T = _TensorModule()


def _tensor_arg(name: str, x) -> Tensor:
    if x.__class__ is not Tensor:
        raise expected(name, 'tensor', x)
    return x


# ── Construction ─────────────────────────────────────────────────────────

@TABLE.fn('tensor', 1, 1, doc='A tensor from a number (rank 0), a nested list of numbers, or a Python '
          'object exporting a buffer of doubles (copied once, its shape kept).',
          sig='(tensor x)', examples=(("(tensor '((1 2) (3 4)))", '#<tensor 2x2 [1 2 3 4]>'),))
def tensor(x):
    if x.__class__ is Py:
        return T.from_buffer(x.obj)
    return T.from_nested(x)


def _dims(name: str, dims) -> tuple:
    """The truncated dimensions of a zeros/ones argument, each ≥ 1."""
    if dims.__class__ is NilType:
        return ()
    bad = EvalError('%s: dimensions must be positive numbers' % name)
    if dims.__class__ is not List:
        raise bad
    out = []
    for d in dims:
        if (d.__class__ is not float and d.__class__ is not int) or not (1 <= d < math.inf):
            raise bad
        out.append(int(d))
    if math.prod(out) > sys.maxsize // 8:
        raise MemoryError     # more elements than any buffer holds: `out of memory`, not a host error
    return tuple(out)


@TABLE.fn('zeros', 1, 1, doc='A tensor of the given dimensions filled with 0.', sig='(zeros dims)',
          examples=(("(tensor->list (zeros '(2 3)))", '((0 0 0) (0 0 0))'),))
def zeros(dims):
    return T.filled(_dims('zeros', dims), 0.0)


@TABLE.fn('ones', 1, 1, doc='A tensor of the given dimensions filled with 1.', sig='(ones dims)',
          examples=(("(tensor->list (ones '(2)))", '(1 1)'),))
def ones(dims):
    return T.filled(_dims('ones', dims), 1.0)


# ── Access ───────────────────────────────────────────────────────────────

@TABLE.fn('tensor-shape', 1, 1, doc='The list of dimensions (empty for rank 0).',
          sig='(tensor-shape t)', examples=(("(tensor-shape (zeros '(2 3)))", '(2 3)'),))
def tensor_shape(t):
    return make_list(list(_tensor_arg('tensor-shape', t).shape))


@TABLE.fn('tensor->list', 1, 1, doc='Nested lists of the elements (rank 0: the number).',
          sig='(tensor->list t)', examples=(("(tensor->list (tensor '(1 2 3)))", '(1 2 3)'),))
def tensor_to_list(t):
    return T.to_nested(_tensor_arg('tensor->list', t))


@TABLE.fn('tensor-ref', 1, None, doc='The element at one index per axis.',
          sig='(tensor-ref t i ...)', examples=(("(tensor-ref (tensor '((1 2) (3 4))) 1 0)", '3'),
                                                ("(tensor-ref (tensor '(1 2)) 2)", 'error: tensor-ref: index 2 out of range [0, 2)')))
def tensor_ref(t, *indices):
    t = _tensor_arg('tensor-ref', t)
    rank = len(t.shape)
    if len(indices) != rank:
        raise EvalError('tensor-ref: %d index(es) for a rank-%d tensor' % (len(indices), rank))
    flat = 0
    for x, size in zip(indices, t.shape):
        flat = flat * size + index_arg('tensor-ref', x, size)
    return t.data[flat]


# Examples of the builtins registered in loops and helpers below: (expression, write form).
EXAMPLES = {
    'tensor-add': (("(tensor->list (tensor-add (tensor '(1 2)) 10))", '(11 12)'),),
    'tensor-sub': (("(tensor->list (tensor-sub (tensor '(5 5)) (tensor '(1 2))))", '(4 3)'),),
    'tensor-mul': (("(tensor->list (tensor-mul (tensor '(1 2)) (tensor '(3 4))))", '(3 8)'),),
    'tensor-div': (("(tensor->list (tensor-div (tensor '(1 2)) 2))", '(0.5 1)'),),
}

# ── Arithmetic ───────────────────────────────────────────────────────────

def _elementwise(name: str, op: str):
    def builtin(a, b):
        ta = a.__class__ is Tensor
        tb = b.__class__ is Tensor
        if ta and tb:
            if a.shape != b.shape:
                raise EvalError('%s: shape mismatch %s vs %s'
                                % (name, T.shape_text(a.shape), T.shape_text(b.shape)))
        elif ta and (b.__class__ is float or b.__class__ is int):
            b = to_f64(b)
        elif tb and (a.__class__ is float or a.__class__ is int):
            a = to_f64(a)
        else:
            raise EvalError('%s: arguments must be tensors or numbers' % name)
        return T.ELEMENTWISE[op](a, b)
    builtin.__name__ = name.replace('-', '_')
    return builtin


for _name, _op, _sym in (('tensor-add', 'add', '+'), ('tensor-sub', 'sub', '-'),
                         ('tensor-mul', 'mul', '*'), ('tensor-div', 'div', '/')):
    TABLE.fn(_name, 2, 2, doc='Elementwise %s of two same-shaped tensors, or a tensor and a number.'
             % _sym, sig='(%s a b)' % _name, examples=EXAMPLES[_name])(_elementwise(_name, _op))


@TABLE.fn('tensor-sum', 1, 1, doc='The sum of all elements, sequentially in row-major order.',
          sig='(tensor-sum t)', examples=(("(tensor-sum (tensor '((1 2) (3 4))))", '10'),))
def tensor_sum(t):
    return T.tensor_sum(_tensor_arg('tensor-sum', t))


@TABLE.fn('relu', 1, 1, doc='x if x > 0 else 0, for a number or elementwise for a tensor.',
          sig='(relu x)', examples=(('(relu -2)', '0'), ("(tensor->list (relu (tensor '(-1 2))))", '(0 2)')))
def relu(x):
    if x.__class__ is int:
        x = to_f64(x)
    elif x.__class__ is not float and x.__class__ is not Tensor:
        raise expected('relu', 'number or tensor', x)
    return T.relu(x)


@TABLE.fn('tensor-map', 2, 2, doc='Apply f to each element in row-major order; same shape.',
          sig='(tensor-map f t)', host=True,
          examples=(("(tensor->list (tensor-map (lambda (x) (* x 10)) (tensor '(1 2))))", '(10 20)'),))
def tensor_map(host, f, t):
    if not isinstance(f, PROCEDURE_TYPES):
        raise expected('tensor-map', 'procedure', f)
    t = _tensor_arg('tensor-map', t)
    call = host.call
    out = []
    for x in t.data:
        y = call(f, [x])
        if y.__class__ is int:
            y = to_f64(y)
        elif y.__class__ is not float:
            raise EvalError('tensor-map: function must return a number, got %s' % display_form(y))
        out.append(y)
    from array import array     # (collections.abc with it): loaded when a tensor is first made
    return Tensor(array('d', out), t.shape)


@TABLE.fn('matmul', 2, 2, doc='The matrix product of two rank-2 tensors.', sig='(matmul a b)',
          examples=(("(tensor->list (matmul (tensor '((1 2) (3 4))) (tensor '((1) (1)))))", '((3) (7))'),))
def matmul(a, b):
    if a.__class__ is not Tensor or b.__class__ is not Tensor:
        raise EvalError('matmul: both arguments must be tensors')
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise EvalError('matmul: both tensors must be rank 2')
    if a.shape[1] != b.shape[0]:
        raise EvalError('matmul: inner dimensions differ (%s \u00b7 %s)'
                        % (T.dims_text(a.shape), T.dims_text(b.shape)))
    return T.matmul(a, b)


@TABLE.fn('transpose', 1, 1, doc='The transpose of a rank-2 tensor.', sig='(transpose t)',
          examples=(("(tensor->list (transpose (tensor '((1 2 3)))))", '((1) (2) (3))'),))
def transpose(t):
    t = _tensor_arg('transpose', t)
    if len(t.shape) != 2:
        raise EvalError('transpose: tensor must be rank 2')
    return T.transpose(t)

