"""The `format` builtin: a string from a template, its ~ directives filled in from the arguments."""

import math

from ..errors import EvalError
from ..printer import display_form, format_number, print_form
from ..values import BuiltinTable
from .args import expected

TABLE = BuiltinTable()

_FORMAT_TEXT = {'%': '\n', 't': '\t', '~': '~'}
MAX_WIDTH = 1 << 24         # widest field (and JSON indent) made: past it, `out of memory`
_DIGITS = '0123456789'
PLAIN_INT = 10 ** 15      # exact integers below this in magnitude print as str() writes them
_BASES = {'x': 'x', 'o': 'o', 'b': 'b'}


@TABLE.fn('format', 1, None,
          doc='A string from a template. Directives: ~a (print form) and ~s (display form), left-aligned '
              'in W columns as ~Wa / ~Ws, right-aligned as ~W@a / ~W@s; ~W,Pf a number with exactly P '
              'decimals right-aligned in W; ~Wd an integer right-aligned in W; ~x ~o ~b an integer in '
              'base 16, 8, 2; ~% a newline, ~t a tab, ~~ a tilde.',
          sig='(format template arg ...)',
          examples=(('(format "~a is ~s" "x" "y")', '"x is \\"y\\""'),
                    ('(format "~8,2f|~5d|~6a|~6@a|" 3.14159 42 "ab" "cd")', '"    3.14|   42|ab    |    cd|"'),
                    ('(format "~x ~o ~b" 255 8 5)', '"ff 10 101"'),
                    ('(format "~q" 1)', 'error: format: unknown directive ~q'),
                    ('(format "~,2f" "pi")', 'error: format: ~f expects a number, got "pi"')))
def format_(template, *args):
    if template.__class__ is not str:
        raise expected('format', 'string', template)
    parts = _PARSED.get(template)
    if parts is None:
        parts = _parsed(template)
    out = []
    add = out.append
    i = 0
    for part in parts:
        if part.__class__ is str:
            add(part)
            continue
        d, width, precision, right = part
        if d == 'a':            # (the common directive first)
            if i == len(args):
                raise EvalError('format: not enough args')
            x = args[i]
            i += 1
            if x.__class__ is str:
                piece = x
            elif x.__class__ is int and -PLAIN_INT < x < PLAIN_INT:     # (print_form's text of it)
                piece = str(x)
            else:
                piece = print_form(x)
            add(piece if not width else piece.rjust(width) if right else piece.ljust(width))
            continue
        if d in _PLACED:
            if i == len(args):
                raise EvalError('format: not enough args')
            x = args[i]
            i += 1
            add(_placed(d, x, width, precision, right))
        elif d is MemoryError:
            raise MemoryError       # reported as `out of memory`, never a host error
        else:
            raise EvalError('format: unknown directive %s' % d)
    return ''.join(out)


# Templates already parsed: template -> its parts, each a literal string or
# (directive, width, precision, right); an unknown directive is (its text, ...)
# and one with too wide a field (MemoryError, ...), raised when reached, in order.
_PARSED: dict = {}
_PARSED_MAX = 512
_PLACED = frozenset('sfdxob')


def _parsed(template: str) -> tuple:
    """The parts of a template (remembered: a program formats with few templates)."""
    parts = []
    i, n = 0, len(template)
    while i < n:
        j = template.find('~', i)
        if j < 0:
            parts.append(template[i:])
            break
        parts.append(template[i:j])
        i = _directive(template, j, parts)
    merged = []
    for part in parts:          # adjacent literals as one
        if part.__class__ is str and merged and merged[-1].__class__ is str:
            merged[-1] += part
        elif part != '':
            merged.append(part)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    parts = _PARSED[template] = tuple(merged)
    return parts


def _placed(d: str, x, width: int, precision, right: bool) -> str:
    """The text of directive d (not ~a) for argument x, placed in its field."""
    if d == 's':
        piece = display_form(x)
        return piece.rjust(width) if right else piece.ljust(width)
    if d == 'f':
        return _fixed(x, precision).rjust(width)
    if d == 'd':
        return str(_integer('d', x)).rjust(width)
    return format(_integer(d, x), _BASES[d]).rjust(width)


def _directive(template: str, j: int, parts: list) -> int:
    """Add the part of the directive starting at the `~` at j; the position after it."""
    n = len(template)
    k = j + 1
    while k < n and template[k] in _DIGITS:
        k += 1
    try:
        width = _field(template[j + 1:k], 0)
        precision = None
        if k < n and template[k] == ',':
            m = k + 1
            while m < n and template[m] in _DIGITS:
                m += 1
            precision = _field(template[k + 1:m], None)
            k = m
    except MemoryError:
        parts.append((MemoryError, 0, None, False))
        return n                # (nothing after it is reached)
    right = k < n and template[k] == '@'
    if right:
        k += 1
    d = template[k].lower() if k < n else ''
    if d in _FORMAT_TEXT and k == j + 1:
        parts.append(_FORMAT_TEXT[d])
    elif d == 'a' or d == 's' or d == 'f' or d == 'd' or d in _BASES:
        parts.append((d, width, precision, right))
    else:
        parts.append((template[j:k + 1], 0, None, False))
        return n
    return k + 1


def _field(digits: str, default):
    """A directive's width or precision (`default` when not written)."""
    if not digits:
        return default
    if len(digits.lstrip('0')) > 9 or int(digits) > MAX_WIDTH:
        raise MemoryError       # reported as `out of memory`, never a host error
    return int(digits)


def _fixed(x, precision) -> str:
    """~f: x with exactly `precision` decimals (half to even), or as printed without one."""
    if x.__class__ is not float and x.__class__ is not int:
        raise EvalError('format: ~f expects a number, got %s' % display_form(x))
    if x.__class__ is int:      # exact: no rounding, and no float range to overflow
        return str(x) + ('.' + '0' * precision if precision else '')
    if precision is None or not math.isfinite(x):
        return format_number(x)
    return format(x, '.%df' % precision)


def _integer(d: str, x) -> int:
    """The exact integer an ~d, ~x, ~o or ~b argument stands for."""
    if x.__class__ is int:
        return x
    if x.__class__ is float and x.is_integer():
        return int(x)
    raise EvalError('format: ~%s expects an integer, got %s' % (d, display_form(x)))
