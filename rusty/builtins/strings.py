"""The string builtins: strings and their conversions to and from numbers and symbols.

`format` is in format_directives.py, json-encode and json-decode in json_text.py.
"""

from ..cells import cars
from ..errors import EvalError
from ..printer import display_form, format_number, int_text, print_form
from ..reader import exact_integer
from ..values import NIL, BuiltinTable, List, NilType, Symbol, make_list, sym
from .args import expected, index_arg, string_arg

TABLE = BuiltinTable()
_STR = frozenset((str,))
PLAIN_INT = 10 ** 15      # exact integers below this in magnitude print as str() writes them (format_number)


# ── Strings ──────────────────────────────────────────────────────────────

@TABLE.fn('string-length', 1, 1, doc='The number of code points in a string.',
          sig='(string-length s)', examples=(('(string-length "héllo")', '5'),))
def string_length(s):
    if s.__class__ is str:
        return len(s)
    raise expected('string-length', 'string', s)


@TABLE.fn('string-append', 0, None, doc='The concatenation of strings.',
          sig='(string-append s ...)', examples=(('(string-append "foo" "bar")', '"foobar"'),))
def string_append(*parts):
    try:
        return ''.join(parts)
    except TypeError:           # a non-string: the first one is reported
        for p in parts:
            string_arg('string-append', p)
        raise


@TABLE.fn('string-append-list', 1, 1,
          doc='The elements of a list concatenated, non-strings in print form.',
          sig='(string-append-list lst)', examples=(('(string-append-list \'("a" 1 b))', '"a1b"'),))
def string_append_list(lst):
    if lst.__class__ is NilType:
        return ''
    if lst.__class__ is not List:
        raise expected('string-append-list', 'list', lst)
    return _append_items(cars(lst))


def _append_items(parts: list) -> str:
    """string-append-list's value of a list of these elements."""
    try:
        return ''.join(parts)
    except TypeError:           # a non-string: every element in print form
        return ''.join([x if x.__class__ is str else print_form(x) for x in parts])


string_append_list.of_items = _append_items     # (compiled code's (string-append-list (reverse x)): lists.reversed_items)


@TABLE.fn('substring', 2, 3, doc='The code points from start up to end (both 0 to the length); start >= end gives "".',
          sig='(substring s start [end])',
          examples=(('(substring "hello" 1 3)', '"el"'), ('(substring "hello" 2)', '"llo"'),
                    ('(substring "hello" -3)', 'error: substring: index -3 out of range [0, 5]')))
def substring(s, start, end=None):
    if s.__class__ is str and start.__class__ is int and start >= 0:     # the common cases, checked in one go
        if end is None:
            if start <= len(s):
                return s[start:]
        elif end.__class__ is int and start <= end <= len(s):
            return s[start:end]
    s = string_arg('substring', s)
    n = len(s)
    lo = index_arg('substring', start, n, end=True)
    hi = n if end is None else index_arg('substring', end, n, end=True)
    return s[lo:hi] if lo < hi else ''


@TABLE.fn('string-ref', 2, 2, doc='The character at an index, as a one-character string.',
          sig='(string-ref s i)', examples=(('(string-ref "abc" 1)', '"b"'),
                                            ('(string-ref "abc" 3)', 'error: string-ref: index 3 out of range [0, 3)')))
def string_ref(s, i):
    if s.__class__ is str and i.__class__ is int and 0 <= i < len(s):
        return s[i]
    s = string_arg('string-ref', s)
    return s[index_arg('string-ref', i, len(s))]


@TABLE.fn('string=?', 2, 2, doc='True if two strings have the same contents.',
          sig='(string=? a b)', examples=(('(string=? "a" "a")', '#t'),))
def string_eq(a, b):
    if a.__class__ is str and b.__class__ is str:
        return a == b
    return string_arg('string=?', a) == string_arg('string=?', b)


@TABLE.fn('string->list', 1, 1, doc='The characters of a string as one-character strings.',
          sig='(string->list s)', examples=(('(string->list "abc")', '("a" "b" "c")'),))
def string_to_list(s):
    return make_list(list(string_arg('string->list', s)))


@TABLE.fn('list->string', 1, 1, doc='The string of a list of one-character strings.',
          sig='(list->string lst)', examples=(("(list->string '(\"a\" \"b\" \"c\"))", '"abc"'),
                                               ("(list->string '())", '""')))
def list_to_string(lst):
    if lst.__class__ is not List and lst is not NIL:
        raise expected('list->string', 'list', lst)
    return _string_of_chars(cars(lst) if lst is not NIL else [])


def _string_of_chars(chars: list) -> str:
    """list->string's value of a list of these elements (strings none empty
    whose lengths add up to their number are each one character long)."""
    if set(map(type, chars)) <= _STR and '' not in chars:
        s = ''.join(chars)
        if len(s) == len(chars):
            return s
    for c in chars:
        if c.__class__ is not str or len(c) != 1:
            raise expected('list->string', 'one-character string', c)
    return ''.join(chars)


list_to_string.of_items = _string_of_chars      # (compiled code's (list->string (reverse x)): lists.reversed_items)


@TABLE.fn('string-prefix?', 2, 2, doc='True if s begins with prefix.', sig='(string-prefix? s prefix)',
          examples=(('(string-prefix? "racket" "rac")', '#t'), ('(string-prefix? "r" "rac")', '#f')))
def string_prefix(s, prefix):
    if s.__class__ is str and prefix.__class__ is str:
        return s.startswith(prefix)
    return string_arg('string-prefix?', s).startswith(string_arg('string-prefix?', prefix))


@TABLE.fn('string-suffix?', 2, 2, doc='True if s ends with suffix.', sig='(string-suffix? s suffix)',
          examples=(('(string-suffix? "notes.txt" ".txt")', '#t'),))
def string_suffix(s, suffix):
    if s.__class__ is str and suffix.__class__ is str:
        return s.endswith(suffix)
    return string_arg('string-suffix?', s).endswith(string_arg('string-suffix?', suffix))


@TABLE.fn('str', 0, None, doc='The print forms of the arguments concatenated.',
          sig='(str x ...)', examples=(('(str "x=" 1 \'y)', '"x=1y"'),))
def str_(*xs):
    parts = xs                  # copied only when a part is not a string
    i = 0
    for x in xs:
        if x.__class__ is not str:
            if parts is xs:
                parts = list(xs)
            parts[i] = str(x) if x.__class__ is int and -PLAIN_INT < x < PLAIN_INT else print_form(x)
        i += 1
    return ''.join(parts)


@TABLE.fn('string-split', 1, 3,
          doc="The pieces between occurrences of sep (default: runs of whitespace), empty pieces dropped; "
              "with 'all every piece is kept, empty ones included.",
          sig="(string-split s [sep ['all]])",
          examples=(('(string-split "a,,b," ",")', '("a" "b")'), ('(string-split "  a b\\n c ")', '("a" "b" "c")'),
                    ('(string-split "a,,b," "," \'all)', '("a" "" "b" "")')))
def string_split(s, sep=None, mode=None):
    s = string_arg('string-split', s)
    if sep is None:
        return make_list(s.split())
    sep = string_arg('string-split', sep)
    if mode is not None and mode is not sym('all'):
        raise EvalError('string-split: expected the symbol all, got %s' % display_form(mode))
    if sep == '':
        return make_list(list(s))
    if mode is not None:
        return make_list(s.split(sep))
    return make_list([piece for piece in s.split(sep) if piece])


# ── Conversions ──────────────────────────────────────────────────────────

# A number's text: sign, then a decimal with at least one digit or one of the words.
# Compiled on first use (as are the JSON patterns below): start-up does without.
NUMBER_TEXT = r'[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))'
_number_text: list = []


DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'


def _radix(name: str, radix) -> int:
    """A radix argument: an integer 2-36 (a float with no fraction counts)."""
    if (radix.__class__ is int or radix.__class__ is float) and radix in range(2, 37):
        return int(radix)
    raise EvalError('%s: expected a radix 2-36, got %s' % (name, display_form(radix)))


def int_digits(n: int, radix: int) -> str:
    """An exact integer in base `radix`, lower-case digits, `-` before a negative."""
    if radix == 10:
        return int_text(n)
    if radix in (2, 8, 16):
        return format(n, 'b' if radix == 2 else 'o' if radix == 8 else 'x')
    out, m = [], abs(n)
    while m:
        m, d = divmod(m, radix)
        out.append(DIGITS[d])
    return ('-' if n < 0 else '') + (''.join(reversed(out)) or '0')


@TABLE.fn('number->string', 1, 2, doc='The text of a number, as the printer writes it; an exact integer '
          'in any radix 2-36 (lower-case digits).',
          sig='(number->string x [radix])', examples=(('(number->string 2.5)', '"2.5"'),
                                                       ('(number->string 255 16)', '"ff"'),
                                                       ('(number->string -5 2)', '"-101"')))
def number_tostring_arg(x, radix=None):
    if radix is None:                   # no radix: the printer's text
        if x.__class__ is int:
            return int_text(x)
        if x.__class__ is float:
            return format_number(x)
        radix = 10
    if x.__class__ is not float and x.__class__ is not int:
        raise expected('number->string', 'number', x)
    radix = _radix('number->string', radix)
    if x.__class__ is int:
        return int_digits(x, radix)
    if radix != 10:
        raise EvalError('number->string: radix %d needs an exact integer, got %s' % (radix, format_number(x)))
    return format_number(x)


@TABLE.fn('string->number', 1, 2, doc='The number a string spells, or #f: sign and digits only give an '
          'exact integer (in any radix 2-36), anything else in radix 10 a float.',
          sig='(string->number s [radix])',
          examples=(('(string->number "42")', '42'), ('(string->number "x")', '#f'),
                    ('(string->number "ff" 16)', '255'), ('(exact? (string->number "1e3"))', '#f')))
def string_to_number(s, radix=None):
    s = string_arg('string->number', s)
    radix = 10 if radix is None else _radix('string->number', radix)
    body = s[1:] if s[:1] in ('+', '-') else s
    if radix == 10:
        if body.isascii() and body.isdigit():       # (false for "")
            return exact_integer(s, 10)
    elif body and body.isascii() and all(DIGITS.find(c.lower()) in range(radix) for c in body):
        return exact_integer(s, radix)
    if radix != 10:
        return False
    if not _number_text:
        import re       # not at start-up: re's import (enum, functools) is slow
        _number_text.append(re.compile(NUMBER_TEXT))
    if _number_text[0].fullmatch(s) is None:
        return False
    return float(s)


@TABLE.fn('symbol->string', 1, 1, doc='The name of a symbol.', sig='(symbol->string s)',
          examples=(("(symbol->string 'abc)", '"abc"'),))
def symbol_tostring_arg(s):
    if s.__class__ is not Symbol:
        raise expected('symbol->string', 'symbol', s)
    return s.name


@TABLE.fn('string->symbol', 1, 1, doc='The symbol with this name.', sig='(string->symbol s)',
          examples=(('(string->symbol "abc")', 'abc'),))
def string_to_symbol(s):
    return sym(string_arg('string->symbol', s))
