"""Numeric builtins and comparisons.

Every result is the IEEE result: where Python's `math` raises for a domain or
range condition, the C library's value is returned instead.
"""
import math
import time

from ..errors import EvalError
from ..printer import display_form
from ..values import BuiltinTable

TABLE = BuiltinTable()
INF = math.inf
NAN = math.nan


def _num(x) -> float:
    if x.__class__ is not float:
        raise EvalError('Expected number, got ' + display_form(x))
    return x


def _nums(args) -> None:
    for a in args:
        if a.__class__ is not float:
            raise EvalError('Expected number, got ' + display_form(a))


def _alias(name, shown, lo, hi, doc, sig):
    """Register an alias of an operator: same function, printed as the operator."""
    def register(fn):
        TABLE.fn(name, lo, hi, doc=doc, sig=sig, shown=shown, examples=EXAMPLES[name])(fn)
        return fn
    return register


# Examples of the builtins registered in loops and helpers below: (expression, write form).
EXAMPLES = {
    'add': (('(add 1 2 3)', '6'),),
    'mul': (('(mul 2 3 4)', '24'),),
    'sub': (('(sub 10 3 2)', '5'),),
    'div': (('(div 12 3 2)', '2'),),
    'abs': (('(abs -3.5)', '3.5'),),
    'floor': (('(floor 2.7)', '2'), ('(floor -2.5)', '-3')),
    'ceiling': (('(ceiling 2.1)', '3'),),
    'round': (('(round 2.5)', '3'), ('(round -2.5)', '-3')),
    'sqrt': (('(sqrt 16)', '4'),),
    'exp': (('(exp 0)', '1'),),
    'log': (('(log 1)', '0'),),
    'sin': (('(sin 0)', '0'),),
    'cos': (('(cos 0)', '1'),),
    'tan': (('(tan 0)', '0'),),
    'atan': (('(atan 0)', '0'),),
    'zero?': (('(zero? 0)', '#t'), ('(zero? 0.5)', '#f')),
    'positive?': (('(positive? 2)', '#t'),),
    'negative?': (('(negative? 2)', '#f'),),
    'odd?': (('(odd? 3)', '#t'),),
    'even?': (('(even? 3)', '#f'),),
    '=': (('(= 1 1.0)', '#t'),),
    '<': (('(< 1 2)', '#t'),),
    'lt': (('(lt 1 2)', '#t'),),
    '>': (('(> 1 2)', '#f'),),
    'gt': (('(gt 1 2)', '#f'),),
    '<=': (('(<= 2 2)', '#t'),),
    'le': (('(le 2 2)', '#t'),),
    '>=': (('(>= 1 2)', '#f'),),
    'ge': (('(ge 1 2)', '#f'),),
    'neq': (('(neq 1 2)', '#t'),),
}

# ── Arithmetic ───────────────────────────────────────────────────────────

@TABLE.fn('+', 0, None, doc='Sum of the arguments (0 with none).', sig='(+ x ...)',
          examples=(('(+ 1 2 3)', '6'), ('(+)', '0')))
@_alias('add', '+', 0, None, 'Alias of +.', '(add x ...)')
def add(*args):
    acc = 0.0
    for a in args:
        if a.__class__ is not float:
            raise EvalError('Expected number, got ' + display_form(a))
        acc += a
    return acc


@TABLE.fn('*', 0, None, doc='Product of the arguments (1 with none).', sig='(* x ...)',
          examples=(('(* 2 3 4)', '24'), ('(*)', '1')))
@_alias('mul', '*', 0, None, 'Alias of *.', '(mul x ...)')
def mul(*args):
    acc = 1.0
    for a in args:
        if a.__class__ is not float:
            raise EvalError('Expected number, got ' + display_form(a))
        acc *= a
    return acc


@TABLE.fn('-', doc='Negation, or the first argument minus the sum of the rest.', sig='(- x y ...)',
          examples=(('(- 10 3 2)', '5'), ('(- 4)', '-4')))
@_alias('sub', '-', 0, None, 'Alias of -.', '(sub x y ...)')
def sub(*args):
    if not args:
        raise EvalError('- requires at least 1 arg')
    _nums(args)
    if len(args) == 1:
        return -args[0]
    s = 0.0
    for b in args[1:]:
        s += b
    return args[0] - s


@TABLE.fn('/', doc='The first argument divided by the product of the rest.', sig='(/ x y ...)',
          examples=(('(/ 12 3 2)', '2'), ('(/ 1 4)', '0.25'), ('(/ 1 0)', 'error: Division by zero')))
@_alias('div', '/', 0, None, 'Alias of /.', '(div x y ...)')
def div(*args):
    if len(args) < 2:
        raise EvalError('/ requires at least 2 args')
    _nums(args)
    p = 1.0
    for b in args[1:]:
        if b == 0.0:
            raise EvalError('Division by zero')
        p *= b
    if p == 0.0:        # the product underflowed: divide as the hardware does
        from ..tensor import ieee_div       # (the tensor module is loaded when needed)
        return ieee_div(args[0], p)
    return args[0] / p



@TABLE.fn('mod', 2, 2, doc='Remainder with the sign of the dividend (C fmod).', sig='(mod x y)',
          examples=(('(mod 7 3)', '1'), ('(mod -7 3)', '-1')))
def mod(x, y):
    _nums((x, y))
    if y == 0.0:
        raise EvalError('mod: division by zero')
    return fmod(x, y)


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


@TABLE.fn('expt', 2, 2, doc='x raised to the power y (C pow).', sig='(expt x y)',
          examples=(('(expt 2 10)', '1024'), ('(expt 9 0.5)', '3')))
def expt(x, y):
    _nums((x, y))
    return cpow(x, y)


# ── One-argument functions ───────────────────────────────────────────────

def _floor(x: float) -> float:
    if not math.isfinite(x):
        return x
    r = float(math.floor(x))
    return math.copysign(0.0, x) if r == 0.0 else r


def _ceil(x: float) -> float:
    if not math.isfinite(x):
        return x
    r = float(math.ceil(x))
    return math.copysign(0.0, x) if r == 0.0 else r


def round_half_away(x: float) -> float:
    """Round to nearest, ties away from zero (exact: no `+ 0.5`)."""
    if not math.isfinite(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    r = float(t)
    return math.copysign(0.0, x) if r == 0.0 else r


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
    'abs': (abs, 'Absolute value.'),
    'floor': (_floor, 'Largest integer not above x.'),
    'ceiling': (_ceil, 'Smallest integer not below x.'),
    'round': (round_half_away, 'Nearest integer, halves away from zero.'),
    'sqrt': (_sqrt, 'Square root (NaN for negatives).'),
    'exp': (_exp, 'e to the power x.'),
    'log': (_log, 'Natural logarithm.'),
    'sin': (_trig(math.sin), 'Sine (radians).'),
    'cos': (_trig(math.cos), 'Cosine (radians).'),
    'tan': (_trig(math.tan), 'Tangent (radians).'),
    'atan': (math.atan, 'Arc tangent.'),
}


def _unary(name, fn):
    def builtin(x):
        if x.__class__ is not float:
            raise EvalError('Expected number, got ' + display_form(x))
        return fn(x)
    builtin.__name__ = name
    return builtin


for _name, (_fn, _doc) in UNARY.items():
    TABLE.fn(_name, 1, 1, doc=_doc, sig='(%s x)' % _name, examples=EXAMPLES[_name])(_unary(_name, _fn))


@TABLE.fn('atan2', 2, 2, doc='Angle of the point (x, y).', sig='(atan2 y x)', examples=(('(atan2 0 1)', '0'),))
def atan2(y, x):
    _nums((y, x))
    return math.atan2(y, x)


# ── Folds and integers ───────────────────────────────────────────────────

@TABLE.fn('max', 0, None, doc='Largest argument, ignoring NaN (-inf with none).', sig='(max x ...)',
          examples=(('(max 3 9 4)', '9'),))
def max_(*args):
    acc = -INF
    for a in args:
        _num(a)
        if a > acc:
            acc = a
    return acc


@TABLE.fn('min', 0, None, doc='Smallest argument, ignoring NaN (inf with none).', sig='(min x ...)',
          examples=(('(min 3 9 4)', '3'),))
def min_(*args):
    acc = INF
    for a in args:
        _num(a)
        if a < acc:
            acc = a
    return acc


def _trunc_int(x: float) -> int:
    return int(x) if math.isfinite(x) else 0


@TABLE.fn('gcd', 2, None, doc='Greatest common divisor of the truncated magnitudes.', sig='(gcd a b ...)',
          examples=(('(gcd 12 18)', '6'),))
def gcd(*args):
    _nums(args)
    g = 0
    for a in args:
        g = math.gcd(g, abs(_trunc_int(a)))
    return float(g)


def _pred(name, test, doc):
    def builtin(x):
        if x.__class__ is not float:
            raise EvalError('Expected number, got ' + display_form(x))
        return test(x)
    TABLE.fn(name, 1, 1, doc=doc, sig='(%s x)' % name, examples=EXAMPLES[name])(builtin)


_pred('zero?', lambda x: x == 0.0, 'True for 0 (and -0).')
_pred('positive?', lambda x: x > 0.0, 'True for numbers above 0.')
_pred('negative?', lambda x: x < 0.0, 'True for numbers below 0.')
_pred('odd?', lambda x: math.isfinite(x) and int(x) % 2 == 1, 'True for odd numbers (truncated first).')
_pred('even?', lambda x: math.isfinite(x) and int(x) % 2 == 0, 'True for even numbers (truncated first).')


@TABLE.fn('number?', 1, 1, doc='True for numbers.', sig='(number? x)',
          examples=(('(number? 1.5)', '#t'), ('(number? "1.5")', '#f')))
def number_p(x):
    return x.__class__ is float


@TABLE.fn('now-micros', 0, 0, doc='Wall-clock microseconds since the Unix epoch.', sig='(now-micros)',
          examples=(('(number? (now-micros))', '#t'),))
def now_micros():
    return float(time.time_ns() // 1000)


# ── Comparisons: exactly two numbers ────────────────────────────────

def _compare(name, op, doc, aliases=()):
    def builtin(*args):
        if len(args) != 2:
            raise EvalError('Expected 2 args, got %d' % len(args))
        a, b = args
        if a.__class__ is not float or b.__class__ is not float:
            raise EvalError('Expected numbers, got %s and %s' % (display_form(a), display_form(b)))
        return op(a, b)
    TABLE.fn(name, 0, None, doc=doc, sig='(%s a b)' % name, examples=EXAMPLES[name])(builtin)
    for alias in aliases:
        TABLE.fn(alias, 0, None, doc='Alias of %s.' % name, sig='(%s a b)' % alias, shown=name,
                 examples=EXAMPLES[alias])(builtin)


_compare('=', lambda a, b: a == b, 'True if the numbers are equal (IEEE).')
_compare('<', lambda a, b: a < b, 'True if a is below b.', ('lt',))
_compare('>', lambda a, b: a > b, 'True if a is above b.', ('gt',))
_compare('<=', lambda a, b: a <= b, 'True if a is not above b.', ('le',))
_compare('>=', lambda a, b: a >= b, 'True if a is not below b.', ('ge',))
_compare('neq', lambda a, b: a != b, 'True if the numbers differ (NaN differs from everything).')
