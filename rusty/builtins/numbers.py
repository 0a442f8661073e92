"""Numeric builtins and comparisons.

Numbers are of two kinds: exact integers (Python ints, of any size) and
floats (f64). Operations on exact integers stay exact; an operation with a
float operand computes in f64, the integer converted to the nearest float
(±inf beyond the range: values.to_f64, never a host error). Every float
result is the IEEE result: where Python's `math` raises for a domain or range
condition, the C library's value is returned instead. A non-number is
reported as `NAME: expected a number, got X`, NAME the builtin as called.
"""
import _operator       # the C module (operator imports more)
import math
import time

from ..errors import EvalError
from ..printer import format_number
from ..values import BuiltinTable, to_f64
from .args import NOT_GIVEN, given, not_number  # (the variadic operators: see given)

TABLE = BuiltinTable()
INF = math.inf
NAN = math.nan


def _nums(name, args) -> None:
    for a in args:
        if a.__class__ is not float and a.__class__ is not int:
            raise not_number(name, a)


def _alias(name, shown, sig, make):
    """Register an alias of an operator: its own function (errors name it as called), printed as the operator."""
    TABLE.fn(name, 0, None, doc='Alias of %s.' % shown, sig=sig, shown=shown, examples=EXAMPLES[name])(make(name))


# Examples of the builtins registered in loops and helpers below: (expression, write form).
EXAMPLES = {
    'add': (('(add 1 2 3)', '6'),),
    'mul': (('(mul 2 3 4)', '24'),),
    'sub': (('(sub 10 3 2)', '5'),),
    'div': (('(div 12 3 2)', '2'),),
    'abs': (('(abs -3.5)', '3.5'), ('(abs -12345678901234567890)', '12345678901234567890')),
    'floor': (('(floor 2.7)', '2'), ('(floor -2.5)', '-3')),
    'ceiling': (('(ceiling 2.1)', '3'),),
    'round': (('(round 2.5)', '3'), ('(round -2.5)', '-3'), ('(exact? (round 2.5))', '#t')),
    'sqrt': (('(sqrt 16)', '4'),),
    'exp': (('(exp 0)', '1'),), 'log': (('(log 1)', '0'),),
    'sin': (('(sin 0)', '0'),), 'cos': (('(cos 0)', '1'),),
    'tan': (('(tan 0)', '0'),), 'atan': (('(atan 0)', '0'),),
    'zero?': (('(zero? 0)', '#t'), ('(zero? 0.5)', '#f')),
    'positive?': (('(positive? 2)', '#t'),), 'negative?': (('(negative? 2)', '#f'),),
    'odd?': (('(odd? 3)', '#t'),),
    'even?': (('(even? 3)', '#f'),),
    '=': (('(= 1 1.0)', '#t'), ('(= 2 2 2)', '#t'), ('(= 9007199254740993 9007199254740992.0)', '#f')),
    '<': (('(< 1 2)', '#t'), ('(< 0 5 65536)', '#t'), ('(< 1)', '#t'), ('(< 1 "a")', 'error: <: expected a number, got "a"')),
    'lt': (('(lt 1 2)', '#t'),),
    '>': (('(> 1 2)', '#f'),),
    'gt': (('(gt 1 2)', '#f'),),
    '<=': (('(<= 2 2)', '#t'),), 'le': (('(le 2 2)', '#t'),),
    '>=': (('(>= 1 2)', '#f'),), 'ge': (('(ge 1 2)', '#f'),),
    'neq': (('(neq 1 2)', '#t'),),
}

# ── Arithmetic ───────────────────────────────────────────────────────────

def _make_add(name):
    def add(a=NOT_GIVEN, b=NOT_GIVEN, *more):
        if (c := a.__class__) is b.__class__ and (c is int or c is float) and not more:
            return a + b if c is int else 0.0 + a + b   # as the loop adds (0.0 + -0.0 is 0.0)
        if len(more) > 6 and a.__class__ is int is b.__class__ and {int}.issuperset(map(type, more)):
            return a + b + sum(more)        # (many exact integers, (apply + lst): the loop's sum, in C)
        acc = 0
        for a in given(a, b, more):
            if a.__class__ is int:
                if acc.__class__ is int:
                    acc += a
                    continue
                a = to_f64(a)
            elif a.__class__ is float:
                if acc.__class__ is int:    # from here on float + float, as the fast paths do
                    acc = to_f64(acc)
            else:
                raise not_number(name, a)
            acc += a
        return acc
    return add


def _make_mul(name):
    def mul(a=NOT_GIVEN, b=NOT_GIVEN, *more):
        if a.__class__ is int and b.__class__ is int and not more:
            return a * b    # (floats take the loop: which NaN a product of two keeps is its own)
        acc = 1
        for a in given(a, b, more):
            if a.__class__ is int:
                if acc.__class__ is int:
                    acc *= a
                    continue
                a = to_f64(a)
            elif a.__class__ is float:
                if acc.__class__ is int:
                    acc = to_f64(acc)
            else:
                raise not_number(name, a)
            acc *= a
        return acc
    return mul


def _make_sub(name):
    add = _make_add(name)

    def sub(a=NOT_GIVEN, b=NOT_GIVEN, *more):
        if (c := a.__class__) is b.__class__ and (c is int or c is float) and not more:
            return a - b if c is int else a - (0.0 + b)     # a minus the rest's sum
        args = given(a, b, more)
        if not args:
            raise EvalError('- requires at least 1 arg')
        a = args[0]
        if a.__class__ is not int and a.__class__ is not float:
            raise not_number(name, a)
        if len(args) == 1:
            return -a
        s = add(*args[1:])              # (checks the rest in order, naming this builtin)
        if a.__class__ is not s.__class__:
            a, s = to_f64(a), to_f64(s)
        return a - s
    return sub


def _make_div(name):
    def div(*args):
        if len(args) < 2:
            raise EvalError('/ requires at least 2 args')
        _nums(name, args)
        for b in args[1:]:
            if b == 0:
                raise EvalError('Division by zero')
        return divide(args[0], mul(*args[1:]))
    return div


def divide(a, p):
    """a / p, p not an exact 0: the exact quotient of two integers when it divides, else the f64 quotient."""
    if a.__class__ is int and p.__class__ is int:
        q, r = divmod(a, p)
        if not r:
            return q
        try:
            return a / p                # correctly rounded
        except OverflowError:
            return INF if (a < 0) == (p < 0) else -INF
    a, p = to_f64(a), to_f64(p)
    if p == 0.0:        # the product underflowed: divide as the hardware does
        from ..tensor import ieee_div       # (the tensor module is loaded when needed)
        return ieee_div(a, p)
    return a / p


add = _make_add('+')
mul = _make_mul('*')
sub = _make_sub('-')
div = _make_div('/')
TABLE.fn('+', 0, None, doc='Sum of the arguments (0 with none); exact for exact integers.', sig='(+ x ...)',
         examples=(('(+ 1 2 3)', '6'), ('(+)', '0'), ('(+ 1 0.5)', '1.5'),
                   ('(+ 1 #f)', 'error: +: expected a number, got #f')))(add)
_alias('add', '+', '(add x ...)', _make_add)
TABLE.fn('*', 0, None, doc='Product of the arguments (1 with none); exact for exact integers.', sig='(* x ...)',
         examples=(('(* 2 3 4)', '24'), ('(*)', '1'),
                   ('(* 99999999999 99999999999)', '9999999999800000000001')))(mul)
_alias('mul', '*', '(mul x ...)', _make_mul)
TABLE.fn('-', doc='Negation, or the first argument minus the sum of the rest.', sig='(- x y ...)',
         examples=(('(- 10 3 2)', '5'), ('(- 4)', '-4')))(sub)
_alias('sub', '-', '(sub x y ...)', _make_sub)
TABLE.fn('/', doc='The first argument divided by the product of the rest: the exact integer when '
         'exact integers divide exactly, else a float.', sig='(/ x y ...)',
         examples=(('(/ 12 3 2)', '2'), ('(/ 1 4)', '0.25'), ('(/ 1 3)', '0.3333333333333333'),
                   ('(exact? (/ 10 2))', '#t'), ('(/ 1 0)', 'error: Division by zero')))(div)
_alias('div', '/', '(div x y ...)', _make_div)


def _two(name, x, y) -> None:
    if x.__class__ is not float and x.__class__ is not int:
        raise not_number(name, x)
    if y.__class__ is not float and y.__class__ is not int:
        raise not_number(name, y)


@TABLE.fn('mod', 2, 2, doc='Remainder with the sign of the dividend (C fmod); exact for exact integers.',
          sig='(mod x y)', examples=(('(mod 7 3)', '1'), ('(mod -7 3)', '-1'), ('(mod 5.5 2)', '1.5')))
def mod(x, y):
    _two('mod', x, y)
    if y == 0:
        raise EvalError('mod: division by zero')
    return truncated_remainder(x, y)


def truncated_remainder(x, y):
    """x - y*trunc(x/y), y non-zero: exact for two exact integers, else C fmod."""
    if x.__class__ is int and y.__class__ is int:
        r = abs(x) % abs(y)
        return -r if x < 0 else r
    return fmod(to_f64(x), to_f64(y))


def fmod(x: float, y: float) -> float:
    try:
        return math.fmod(x, y)
    except ValueError:
        return NAN


def _odd_integer(y: float) -> bool:
    return math.isfinite(y) and y == math.floor(y) and math.fmod(y, 2.0) != 0.0


def cpow(x: float, y: float) -> float:
    """C `pow`, including the cases where Python's math.pow raises."""
    try:
        return math.pow(x, y)
    except ValueError:
        if x == 0.0 and y < 0:
            return math.copysign(INF, x) if _odd_integer(y) else INF
        return NAN
    except OverflowError:
        return -INF if x < 0 and _odd_integer(y) else INF


# An exact power of more bits than this is refused before it is computed: a
# host power holds the interpreter for seconds (Ctrl-C cannot stop it).
EXPT_BITS = 1 << 24


@TABLE.fn('expt', 2, 2, doc='x raised to the power y (C pow); exact for an exact x and an exact y >= 0 '
          '(refused, `expt: result too large`, past 2^24 bits).',
          sig='(expt x y)', examples=(('(expt 2 10)', '1024'), ('(expt 9 0.5)', '3'),
                                      ('(expt 2 100)', '1267650600228229401496703205376'),
                                      ('(expt 2 -1)', '0.5')))
def expt(x, y):
    _two('expt', x, y)
    if x.__class__ is int and y.__class__ is int and y >= 0:
        if y > 1 and (x > 1 or x < -1) and (x.bit_length() - 1) * y > EXPT_BITS:
            raise EvalError('expt: result too large')      # the host's power cannot be interrupted
        return x ** y
    return cpow(to_f64(x), to_f64(y))


# ── One-argument functions ───────────────────────────────────────────────

def _integral(fn):
    """An exact integer from a rounding function; an exact argument stays,
    ±inf and NaN stay floats."""
    def apply(x):
        if x.__class__ is int or not math.isfinite(x):
            return x
        return fn(x)
    return apply


def round_half_away(x: float) -> int:
    """Round to nearest, ties away from zero (exact: no `+ 0.5`)."""
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return t


def _real(fn):
    """fn on the argument as an f64."""
    def apply(x):
        return fn(to_f64(x))
    return apply


def _sqrt(x):
    return math.sqrt(x) if x >= 0.0 or x != x else NAN


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def _log(x):
    if x == 0.0:
        return -INF
    if x < 0.0:
        return NAN
    return math.log(x)


def _trig(fn):
    def apply(x):
        if math.isinf(x):
            return NAN
        return fn(x)
    return apply


UNARY = {
    'abs': (abs, 'Absolute value (exact for an exact integer).'),
    'floor': (_integral(math.floor), 'Largest integer not above x, as an exact integer.'),
    'ceiling': (_integral(math.ceil), 'Smallest integer not below x, as an exact integer.'),
    'round': (_integral(round_half_away), 'Nearest integer, halves away from zero, as an exact integer.'),
    'sqrt': (_real(_sqrt), 'Square root (NaN for negatives).'),
    'exp': (_real(_exp), 'e to the power x.'),
    'log': (_real(_log), 'Natural logarithm.'),
    'sin': (_real(_trig(math.sin)), 'Sine (radians).'),
    'cos': (_real(_trig(math.cos)), 'Cosine (radians).'),
    'tan': (_real(_trig(math.tan)), 'Tangent (radians).'),
    'atan': (_real(math.atan), 'Arc tangent.'),
}


def _unary(name, fn):
    def builtin(x):
        if x.__class__ is not float and x.__class__ is not int:
            raise not_number(name, x)
        return fn(x)
    builtin.__name__ = name
    return builtin


for _name, (_fn, _doc) in UNARY.items():
    TABLE.fn(_name, 1, 1, doc=_doc, sig='(%s x)' % _name, examples=EXAMPLES[_name])(_unary(_name, _fn))


@TABLE.fn('atan2', 2, 2, doc='Angle of the point (x, y).', sig='(atan2 y x)', examples=(('(atan2 0 1)', '0'),))
def atan2(y, x):
    _two('atan2', y, x)
    return math.atan2(to_f64(y), to_f64(x))


# ── Folds and integers ───────────────────────────────────────────────────

@TABLE.fn('max', 0, None, doc='Largest argument, ignoring NaN (-inf with none); a float if any argument is.',
          sig='(max x ...)', examples=(('(max 3 9 4)', '9'), ('(exact? (max 3 9.0))', '#f')))
def max_(*args):
    if len(args) > 6 and {int}.issuperset(map(type, args)):     # ((apply max lst) of exact integers: in C)
        return max(args)
    acc, inexact = -INF, False
    for a in args:
        if a.__class__ is float:
            inexact = True
        elif a.__class__ is not int:
            raise not_number('max', a)
        if a > acc:
            acc = a
    return to_f64(acc) if inexact else acc


@TABLE.fn('min', 0, None, doc='Smallest argument, ignoring NaN (inf with none); a float if any argument is.',
          sig='(min x ...)', examples=(('(min 3 9 4)', '3'),))
def min_(*args):
    if len(args) > 6 and {int}.issuperset(map(type, args)):
        return min(args)
    acc, inexact = INF, False
    for a in args:
        if a.__class__ is float:
            inexact = True
        elif a.__class__ is not int:
            raise not_number('min', a)
        if a < acc:
            acc = a
    return to_f64(acc) if inexact else acc


@TABLE.fn('gcd', 2, None, doc='Greatest common divisor of the truncated magnitudes.', sig='(gcd a b ...)',
          examples=(('(gcd 12 18)', '6'), ('(gcd 0 0)', '0')))
def gcd(*args):
    g, inexact = 0, False
    for a in args:
        if a.__class__ is float:
            inexact = True
            a = int(a) if math.isfinite(a) else 0
        elif a.__class__ is not int:
            raise not_number('gcd', a)
        g = math.gcd(g, a)
    return float(g) if inexact else g


def _pred(name, test, doc):
    def builtin(x):
        if x.__class__ is not float and x.__class__ is not int:
            raise not_number(name, x)
        return test(x)
    TABLE.fn(name, 1, 1, doc=doc, sig='(%s x)' % name, examples=EXAMPLES[name])(builtin)


def _truncated(x) -> int | None:
    """x truncated toward zero, None for NaN and ±inf."""
    if x.__class__ is int:
        return x
    return int(x) if math.isfinite(x) else None


_pred('zero?', lambda x: x == 0, 'True for 0 (and -0).')
_pred('positive?', lambda x: x > 0, 'True for numbers above 0.')
_pred('negative?', lambda x: x < 0, 'True for numbers below 0.')
_pred('odd?', lambda x: _truncated(x) is not None and _truncated(x) % 2 == 1,
      'True for odd numbers (truncated first).')
_pred('even?', lambda x: _truncated(x) is not None and _truncated(x) % 2 == 0,
      'True for even numbers (truncated first).')


@TABLE.fn('number?', 1, 1, doc='True for numbers (exact integers and floats).', sig='(number? x)',
          examples=(('(number? 1.5)', '#t'), ('(number? 7)', '#t'), ('(number? "1.5")', '#f')))
def number_p(x):
    return x.__class__ is float or x.__class__ is int


# ── Exactness ────────────────────────────────────────────────────────────

@TABLE.fn('exact?', 1, 1, doc='True for an exact integer, false for a float.', sig='(exact? x)',
          examples=(('(exact? 42)', '#t'), ('(exact? 42.0)', '#f'), ('(exact? (/ 10 2))', '#t'),
                    ('(exact? "a")', 'error: exact?: expected a number, got "a"')))
def exact_p(x):
    if x.__class__ is int:
        return True
    if x.__class__ is float:
        return False
    raise not_number('exact?', x)


@TABLE.fn('inexact?', 1, 1, doc='True for a float, false for an exact integer.', sig='(inexact? x)',
          examples=(('(inexact? 1e3)', '#t'), ('(inexact? 1000)', '#f')))
def inexact_p(x):
    if x.__class__ is float:
        return True
    if x.__class__ is int:
        return False
    raise not_number('inexact?', x)


@TABLE.fn('exact', 1, 1, doc='The exact integer equal to x, a float with no fraction (or an exact integer).',
          sig='(exact x)', examples=(('(exact 2.0)', '2'), ('(exact? (exact 1e20))', '#t'),
                                     ('(exact 1e20)', '100000000000000000000'),
                                     ('(exact 2.5)', 'error: exact: no exact integer for 2.5')))
def exact(x):
    if x.__class__ is int:
        return x
    if x.__class__ is not float:
        raise not_number('exact', x)
    if not math.isfinite(x) or not x.is_integer():
        raise EvalError('exact: no exact integer for ' + format_number(x))
    return int(x)


@TABLE.fn('inexact', 1, 1, doc='x as a float (an integer beyond the f64 range becomes inf or -inf).',
          sig='(inexact x)', examples=(('(inexact 7)', '7'), ('(exact? (inexact 7))', '#f'),
                                       ('(inexact (expt 10 400))', 'inf')))
def inexact(x):
    if x.__class__ is not float and x.__class__ is not int:
        raise not_number('inexact', x)
    return to_f64(x)


@TABLE.fn('now-micros', 0, 0, doc='Wall-clock microseconds since the Unix epoch, an exact integer.',
          sig='(now-micros)', examples=(('(exact? (now-micros))', '#t'),))
def now_micros():
    return time.time_ns() // 1000


# ── Comparisons: one or more numbers, every adjacent pair ──────────────

def _compare(name, op):
    def builtin(a=NOT_GIVEN, b=NOT_GIVEN, *more):      # (two numbers, the common case, checked in one go)
        if (a.__class__ is float or a.__class__ is int) and (b.__class__ is float or b.__class__ is int) and not more:
            return op(a, b)
        args = given(a, b, more)
        if not args:
            raise EvalError('%s: expected at least 1 arg, got 0' % name)
        _nums(name, args)
        return all(op(a, b) for a, b in zip(args, args[1:]))
    return builtin


def _register_compare(name, op, doc, aliases=()):
    """Register comparison `name` (and its aliases); its function."""
    fn = TABLE.fn(name, 0, None, doc=doc, sig='(%s a b ...)' % name, examples=EXAMPLES[name])(_compare(name, op))
    for alias in aliases:
        TABLE.fn(alias, 0, None, doc='Alias of %s.' % name, sig='(%s a b ...)' % alias, shown=name,
                 examples=EXAMPLES[alias])(_compare(alias, op))
    return fn


_register_compare('=', _operator.eq, 'True if the numbers are all equal (exactly; NaN equals nothing).')
less = _register_compare('<', _operator.lt, 'True if each number is below the next.', ('lt',))
_register_compare('>', _operator.gt, 'True if each number is above the next.', ('gt',))
_register_compare('<=', _operator.le, 'True if no number is above the next.', ('le',))
_register_compare('>=', _operator.ge, 'True if no number is below the next.', ('ge',))


@TABLE.fn('neq', 2, 2, doc='True if the two numbers differ (NaN differs from everything).', sig='(neq a b)',
          examples=EXAMPLES['neq'])
def neq(a, b):
    _two('neq', a, b)
    return a != b
