"""Builtins at the boundary with Python: deep conversions, items and
attributes of Python values, buffers (the conversions themselves live in
rusty/interop.py)."""
from ..errors import EvalError
from ..interop import Unconvertible, convert_error, deep_from_py, from_py, run_python, to_py, to_py_plain
from ..printer import display_form
from ..values import NIL, BuiltinTable, Py, Symbol, Tensor

TABLE = BuiltinTable()


def _to_py(who: str, x, D):
    try:
        return to_py(x, D)
    except Unconvertible as u:
        raise convert_error(who, u) from None


@TABLE.fn('py->lisp', 1, 1, host=True,
          doc='A Python value converted deeply: sequences and iterators to lists, mappings to hashes, '
              'numbers, strings, booleans and None as usual; anything else stays a Python value.',
          sig='(py->lisp x)',
          examples=(('(py->lisp (lisp->py (list 1 (list 2 3))))', '(1 (2 3))'),))
def py_to_lisp(host, x):
    return deep_from_py(x, host.depth)


@TABLE.fn('lisp->py', 1, 1, host=True,
          doc='A rusty value as Python sees it: a list or vector as a new Python list, a hash as a dict, '
              'a procedure as a callable; numbers, strings and booleans stay themselves.',
          sig='(lisp->py x)',
          examples=(("(lisp->py '(1 2))", '#<py list [1, 2]>'), ('(lisp->py 5)', '5')))
def lisp_to_py(host, x):
    return from_py(_to_py('lisp->py', x, host.depth))


@TABLE.fn('py-get', 2, 2, host=True, doc='obj[key] of a Python value (key converted to Python).',
          sig='(py-get obj key)',
          examples=(("(py-get (lisp->py '(10 20 30)) 1)", '20'),))
def py_get(host, obj, key):
    o, k = to_py_plain(obj), _to_py('py-get', key, host.depth)
    return from_py(run_python(host.depth, lambda: o[k], None, 'py-get'))


@TABLE.fn('py-item-set!', 3, 3, host=True, doc='obj[key] = v on a Python value; Nil.',
          sig='(py-item-set! obj key v)',
          examples=(("(let ((xs (lisp->py '(1 2)))) (py-item-set! xs 0 9) xs)", '#<py list [9, 2]>'),))
def py_item_set(host, obj, key, v):
    o, k, x = to_py_plain(obj), _to_py('py-item-set!', key, host.depth), _to_py('py-item-set!', v, host.depth)

    def put():
        o[k] = x
    run_python(host.depth, put, None, 'py-item-set!')
    return NIL


@TABLE.fn('py-set!', 3, 3, host=True, doc="Sets attribute name (a symbol or string) of a Python value; Nil.",
          sig="(py-set! obj 'name v)",
          examples=(("(begin (import types) (define o (types.SimpleNamespace)) (py-set! o 'x 5) (. o x))", '5'),))
def py_set(host, obj, name, v):
    if name.__class__ is Symbol:
        name = name.name
    if name.__class__ is not str:
        raise EvalError('py-set!: expected an attribute name, got %s' % display_form(name))
    o, x = to_py_plain(obj), _to_py('py-set!', v, host.depth)
    run_python(host.depth, lambda: setattr(o, name, x), None, 'py-set!')
    return NIL


@TABLE.fn('memoryview', 1, 1,
          doc="A read-only Python memoryview of a tensor's elements, without a copy (format d, its shape), "
              'or the memoryview of a Python value exporting a buffer.',
          sig='(memoryview t)',
          examples=(("(. (memoryview (tensor '((1 2) (3 4)))) shape)", '#<py tuple (2, 2)>'),))
def memoryview_(x):
    if x.__class__ is Tensor:
        return Py(x.view())
    if x.__class__ is Py:
        try:
            return Py(memoryview(x.obj))
        except TypeError:
            pass
    raise EvalError('memoryview: expected a tensor or a Python buffer, got %s' % display_form(x))
