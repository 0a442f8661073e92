"""Argument checks every builtin module shares: the conventions of
the language (type errors `NAME: expected a KIND, got X`; indices
truncated toward zero, negative and NaN counting as 0)."""
import math
from itertools import islice

from ..errors import EvalError
from ..printer import display_form, write_form
from ..values import EMPTY, NIL, PROCEDURE_TYPES, List


def expected(name: str, kind: str, x) -> EvalError:
    """The type error for builtin `name`."""
    return EvalError('%s: expected a %s, got %s' % (name, kind, display_form(x)))


def not_number(name: str, x) -> EvalError:
    """A non-number given to numeric builtin `name` (as it was called), the
    value in write form."""
    return EvalError('%s: expected a number, got %s' % (name, write_form(x)))


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
        elif v.__class__ is List:
            items = list(islice(v, width + 1))   # more could not be shown
            stack.append(_Tok(')'))
            for i in range(len(items) - 1, -1, -1):
                stack.append(items[i])
                if i:
                    stack.append(_Tok(' '))
            piece = '('
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


def proc_arg(name: str, x):
    if not isinstance(x, PROCEDURE_TYPES):
        raise expected(name, 'procedure', x)
    return x


def index_arg(name: str, x):
    """A numeric index truncated toward zero; negative and NaN count as 0,
    +inf stays inf (so a message can say `index inf`)."""
    if x.__class__ is int:
        return x if x > 0 else 0
    if x.__class__ is not float:
        raise expected(name, 'number', x)
    if x != x or x <= 0.0:
        return 0.0
    if x == math.inf:
        return x
    return float(math.trunc(x))
