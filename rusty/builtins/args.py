"""Argument checks every builtin module shares: the conventions of
LANGUAGE.md §8.1 (type errors `NAME: expected a KIND, got X`; indices
truncated toward zero, negative and NaN counting as 0)."""
from __future__ import annotations

import math

from ..errors import EvalError
from ..printer import display_form
from ..values import EMPTY, NIL, PROCEDURE_TYPES, List


def expected(name: str, kind: str, x) -> EvalError:
    """The §8.1 type error for builtin `name`."""
    return EvalError('%s: expected a %s, got %s' % (name, kind, display_form(x)))


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


def index_arg(name: str, x) -> float:
    """A numeric index truncated toward zero; negative and NaN count as 0,
    +inf stays inf (so a message can say `index inf`)."""
    if x.__class__ is not float:
        raise expected(name, 'number', x)
    if x != x or x <= 0.0:
        return 0.0
    if x == math.inf:
        return x
    return float(math.trunc(x))
