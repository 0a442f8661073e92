"""Integer division and integral tests: quotient, remainder, modulo,
truncate, integer?. Two exact integers give an exact integer; a float
operand makes the result a float, and `quotient` of floats is the exact
truncated quotient rounded once to f64, never a truncated rounded a/b."""
import math

from ..errors import EvalError
from ..values import BuiltinTable, to_f64
from .args import not_number
from .numbers import truncated_remainder

TABLE = BuiltinTable()


def _two_numbers(name: str, a, b) -> None:
    """Both numbers, and a non-zero divisor, else the type or division-by-zero message."""
    if a.__class__ is not float and a.__class__ is not int:
        raise not_number(name, a)
    if b.__class__ is not float and b.__class__ is not int:
        raise not_number(name, b)
    if b == 0:
        raise EvalError('%s: division by zero' % name)


@TABLE.fn('quotient', 2, 2, doc='a/b truncated toward zero.', sig='(quotient a b)',
          examples=(('(quotient 7 2)', '3'), ('(quotient -7 2)', '-3'), ('(quotient 7.5 -2)', '-3'),
                    ('(quotient 100000000000000000001 10)', '10000000000000000000')))
def quotient(a, b):
    if a.__class__ is int and b.__class__ is int and b:     # the common case, checked in one go
        if a >= 0 and b > 0:
            return a // b
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    _two_numbers('quotient', a, b)
    a, b = to_f64(a), to_f64(b)
    if math.isfinite(a) and math.isfinite(b):
        if a.is_integer() and b.is_integer():       # the common case, in exact integers
            q = abs(int(a)) // abs(int(b))
        else:
            from fractions import Fraction     # rare: kept out of start-up
            q = abs(math.trunc(Fraction(a) / Fraction(b)))
        q = _rounded(q)
        return q if (a < 0.0) == (b < 0.0) else -q
    q = a / b
    return float(math.trunc(q)) if math.isfinite(q) else q


def _rounded(q: int) -> float:
    """The exact integer q rounded once to f64: inf past the largest finite float."""
    try:
        return float(q)
    except OverflowError:       # (quotient 9007199254740993 1e-300): beyond f64's range
        return math.inf


@TABLE.fn('remainder', 2, 2, doc='The remainder of a/b with the sign of a (C fmod, like mod).',
          sig='(remainder a b)',
          examples=(('(remainder 7 2)', '1'), ('(remainder -7 2)', '-1'), ('(remainder 7 -2)', '1')))
def remainder(a, b):
    if a.__class__ is int and b.__class__ is int and b:
        r = abs(a) % abs(b)
        return -r if a < 0 else r
    _two_numbers('remainder', a, b)
    return truncated_remainder(a, b)


@TABLE.fn('modulo', 2, 2, doc='The floor modulo of a by b, with the sign of b.', sig='(modulo a b)',
          examples=(('(modulo -7 2)', '1'), ('(modulo 7 -2)', '-1'), ('(modulo 7 3)', '1')))
def modulo(a, b):
    if a.__class__ is int and b.__class__ is int and b:
        return a % b
    _two_numbers('modulo', a, b)
    b = to_f64(b)
    r = truncated_remainder(to_f64(a), b)
    if r != 0.0 and (r < 0.0) != (b < 0.0):
        r += b
    return r


@TABLE.fn('truncate', 1, 1, doc='The number rounded toward zero, as an exact integer.', sig='(truncate x)',
          examples=(('(truncate 2.7)', '2'), ('(truncate -2.7)', '-2'), ('(exact? (truncate 2.7))', '#t')))
def truncate(x):
    if x.__class__ is int:
        return x
    if x.__class__ is not float:
        raise not_number('truncate', x)
    return math.trunc(x) if math.isfinite(x) else x


@TABLE.fn('integer?', 1, 1, doc='True for an exact integer, or a finite float with no fractional part.',
          sig='(integer? x)',
          examples=(('(integer? 2.0)', '#t'), ('(integer? 2.5)', '#f'), ('(integer? (exp 1000))', '#f'),
                    ('(integer? "2")', '#f')))
def is_integer(x):
    return x.__class__ is int or (x.__class__ is float and math.isfinite(x) and x.is_integer())
