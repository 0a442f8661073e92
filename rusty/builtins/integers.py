"""Integer division and integral tests: quotient,
remainder, modulo, truncate, integer?. Numbers stay f64; `quotient` is the
exact truncated quotient rounded once to f64, never a truncated rounded a/b."""
import math

from ..errors import EvalError
from ..values import BuiltinTable
from .args import expected

TABLE = BuiltinTable()


def _two_numbers(name: str, a, b) -> None:
    """Both numbers, and a non-zero divisor, else the type or division-by-zero message."""
    if a.__class__ is not float:
        raise expected(name, 'number', a)
    if b.__class__ is not float:
        raise expected(name, 'number', b)
    if b == 0.0:
        raise EvalError('%s: division by zero' % name)


def _fmod(a: float, b: float) -> float:
    """C fmod: NaN where Python raises (an infinite dividend)."""
    try:
        return math.fmod(a, b)
    except ValueError:
        return math.nan


@TABLE.fn('quotient', 2, 2, doc='a/b truncated toward zero.', sig='(quotient a b)',
          examples=(('(quotient 7 2)', '3'), ('(quotient -7 2)', '-3'), ('(quotient 7.5 -2)', '-3')))
def quotient(a, b):
    _two_numbers('quotient', a, b)
    if math.isfinite(a) and math.isfinite(b):
        if a.is_integer() and b.is_integer():       # the common case, in exact integers
            q = abs(int(a)) // abs(int(b))
        else:
            from fractions import Fraction     # rare: kept out of start-up
            q = abs(math.trunc(Fraction(a) / Fraction(b)))
        return float(q) if (a < 0.0) == (b < 0.0) else -float(q)
    q = a / b
    return float(math.trunc(q)) if math.isfinite(q) else q


@TABLE.fn('remainder', 2, 2, doc='The remainder of a/b with the sign of a (C fmod, like mod).',
          sig='(remainder a b)',
          examples=(('(remainder 7 2)', '1'), ('(remainder -7 2)', '-1'), ('(remainder 7 -2)', '1')))
def remainder(a, b):
    _two_numbers('remainder', a, b)
    return _fmod(a, b)


@TABLE.fn('modulo', 2, 2, doc='The floor modulo of a by b, with the sign of b.', sig='(modulo a b)',
          examples=(('(modulo -7 2)', '1'), ('(modulo 7 -2)', '-1'), ('(modulo 7 3)', '1')))
def modulo(a, b):
    _two_numbers('modulo', a, b)
    r = _fmod(a, b)
    if r != 0.0 and (r < 0.0) != (b < 0.0):
        r += b
    return r


@TABLE.fn('truncate', 1, 1, doc='The number rounded toward zero.', sig='(truncate x)',
          examples=(('(truncate 2.7)', '2'), ('(truncate -2.7)', '-2')))
def truncate(x):
    if x.__class__ is not float:
        raise expected('truncate', 'number', x)
    return float(math.trunc(x)) if math.isfinite(x) else x


@TABLE.fn('integer?', 1, 1, doc='True for a finite number with no fractional part.', sig='(integer? x)',
          examples=(('(integer? 2.0)', '#t'), ('(integer? 2.5)', '#f'), ('(integer? (exp 1000))', '#f'),
                    ('(integer? "2")', '#f')))
def is_integer(x):
    return x.__class__ is float and math.isfinite(x) and x.is_integer()
