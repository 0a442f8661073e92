"""Argument checks every builtin module shares: the conventions of
the language (type errors `NAME: expected a KIND, got X`; indices are
exact: an integer, or a float with no fraction, within range)."""
from itertools import islice

from ..errors import EvalError
from ..printer import display_form, format_number, write_form
from ..values import EMPTY, NIL, PROCEDURE_TYPES, List, Py, Vector, make_list


def expected(name: str, kind: str, x) -> EvalError:
    """The type error for builtin `name`."""
    return EvalError('%s: expected a %s, got %s' % (name, kind, display_form(x)))


def not_number(name: str, x) -> EvalError:
    """A non-number given to numeric builtin `name` (as it was called), the
    value in write form."""
    return EvalError('%s: expected a number, got %s' % (name, write_form(x)))


# A variadic builtin whose calls mostly have two arguments takes them by name,
# (a=NOT_GIVEN, b=NOT_GIVEN, *more): such a call builds no tuple.
NOT_GIVEN = object()    # (no rusty value is it)


def given(a, b, more) -> tuple:
    """All the arguments of a builtin called as (a=NOT_GIVEN, b=NOT_GIVEN, *more)."""
    if b is NOT_GIVEN:
        return () if a is NOT_GIVEN else (a,)
    return (a, b) + more


# ── Hints: the offending value, for reports ────────────────────

HINT_WIDTH = 60
_ESCAPES = {'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r'}


def short_write(x, width: int = HINT_WIDTH) -> str:
    """The write form of x (strings quoted and escaped), cut to `width`
    characters with `…`; walks only as much of x as it shows."""
    out, size, stack = [], 0, [x]
    while stack and size <= width:
        v = stack.pop()
        if v.__class__ is _Tok:
            piece = str(v)
        elif v.__class__ is str:
            piece = '"' + ''.join(_ESCAPES.get(c, c) for c in v) + '"'
        elif v.__class__ is List or v.__class__ is Vector:
            items = list(islice(v if v.__class__ is List else v.items, width + 1))   # more could not be shown
            stack.append(_Tok(')'))
            for i in range(len(items) - 1, -1, -1):
                stack.append(items[i])
                if i:
                    stack.append(_Tok(' '))
            piece = '(' if v.__class__ is List else '#('
        else:
            piece = display_form(v)
        out.append(piece)
        size += len(piece)
    text = ''.join(out)
    return text if len(text) <= width and not stack else text[:width - 1] + '…'


class _Tok(str):
    """Punctuation pushed by short_write (not a rusty string)."""


def with_value(err: EvalError, name: str, x) -> EvalError:
    """err with a hint showing the value builtin `name` was given."""
    err.hints.append('%s got %s' % (name, short_write(x)))
    return err


def string_arg(name: str, x) -> str:
    if x.__class__ is not str:
        raise expected(name, 'string', x)
    return x


def list_arg(name: str, x) -> List:
    """A list argument; Nil counts as the empty list."""
    if x.__class__ is List:
        return x
    if x is NIL:
        return EMPTY
    raise expected(name, 'list', x)


def seq_arg(name: str, x) -> List:
    """A list argument that may also be a vector (its elements as a fresh list)."""
    if x.__class__ is List:
        return x
    if x is NIL:
        return EMPTY
    if x.__class__ is Vector:
        return make_list(x.items)
    raise expected(name, 'list', x)


def proc_arg(name: str, x):
    if not isinstance(x, PROCEDURE_TYPES) and not (x.__class__ is Py and callable(x.obj)):
        raise expected(name, 'procedure', x)
    return x


# ── Indices and counts ───────────────────────────────────────────────────
# One rule for every builtin that takes an index or a count: an exact integer
# (or a float with no fraction; never a boolean) within range, else
# `NAME: expected an index, got X` / `NAME: index I out of range [0, N)`.

def not_an_index(name: str, x) -> EvalError:
    return EvalError('%s: expected an index, got %s' % (name, display_form(x)))


def index_value(name: str, x) -> int:
    """x as a Python int: an exact integer, or a float with no fraction."""
    cls = x.__class__
    if cls is int:
        return x
    if cls is float and x.is_integer():      # false for NaN and the infinities
        return int(x)
    raise not_an_index(name, x)


def index_text(x) -> str:
    """An index as the message shows it (a float as the printer writes it)."""
    return format_number(x) if x.__class__ is float else str(x)


def out_of_range(name: str, x, n: int, end: bool = False) -> EvalError:
    """`NAME: index I out of range [0, N)`, or `[0, N]` for an end position."""
    return EvalError('%s: index %s out of range [0, %d%s' % (name, index_text(x), n, ']' if end else ')'))


def index_arg(name: str, x, n: int, end: bool = False) -> int:
    """An index into a sequence of length n: 0 <= i < n, or 0 <= i <= n for an
    end position (a slice bound, a count of elements to take)."""
    i = index_value(name, x)
    if i < 0 or i > n or (i == n and not end):
        raise out_of_range(name, x, n, end)
    return i


def count_arg(name: str, x) -> int:
    """A count with no upper bound (a width, a size): an index >= 0."""
    i = index_value(name, x)
    if i < 0:
        raise not_an_index(name, x)
    return i
