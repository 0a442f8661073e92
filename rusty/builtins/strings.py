"""The string builtins: strings, conversions, `format`, JSON.

JSON is written and parsed with explicit stacks, so deeply nested data never
overflows the host stack. `parse_json` is shared with the model files. These
walks are the reference for json_host.py's fast paths (the host's C scanner,
a recursive encoder), which leave to them whatever they might not agree on.
"""

import math

from ..errors import EvalError
from ..printer import display_form, format_number, has_cycle, hash_cells, int_text, plain_item, print_form, render_nested
from ..reader import exact_integer
from ..values import EMPTY, NIL, BuiltinTable, Hash, List, NilType, Symbol, Vector, hash_key, make_list, sym
from .args import count_arg, expected, index_arg, string_arg

TABLE = BuiltinTable()
PLAIN_INT = 10 ** 15      # exact integers below this in magnitude print as str() writes them (format_number)


# ── Argument checks ──────────────────────────────────────────────────────

# ── Strings ──────────────────────────────────────────────────────────────

@TABLE.fn('string-length', 1, 1, doc='The number of code points in a string.',
          sig='(string-length s)', examples=(('(string-length "héllo")', '5'),))
def string_length(s):
    return len(string_arg('string-length', s))


@TABLE.fn('string-append', 0, None, doc='The concatenation of strings.',
          sig='(string-append s ...)', examples=(('(string-append "foo" "bar")', '"foobar"'),))
def string_append(*parts):
    for p in parts:
        string_arg('string-append', p)
    return ''.join(parts)


@TABLE.fn('string-append-list', 1, 1,
          doc='The elements of a list concatenated, non-strings in print form.',
          sig='(string-append-list lst)', examples=(('(string-append-list \'("a" 1 b))', '"a1b"'),))
def string_append_list(lst):
    if lst.__class__ is NilType:
        return ''
    if lst.__class__ is not List:
        raise expected('string-append-list', 'list', lst)
    parts = []
    add = parts.append
    while lst is not EMPTY:     # (the cells walked in place: no generator)
        add(lst.car)
        lst = lst.cdr
    try:
        return ''.join(parts)
    except TypeError:           # a non-string: every element in print form
        return ''.join([x if x.__class__ is str else print_form(x) for x in parts])


@TABLE.fn('substring', 2, 3, doc='The code points from start up to end (both 0 to the length); start >= end gives "".',
          sig='(substring s start [end])',
          examples=(('(substring "hello" 1 3)', '"el"'), ('(substring "hello" 2)', '"llo"'),
                    ('(substring "hello" -3)', 'error: substring: index -3 out of range [0, 5]')))
def substring(s, start, end=None):
    s = string_arg('substring', s)
    n = len(s)
    lo = index_arg('substring', start, n, end=True)
    hi = n if end is None else index_arg('substring', end, n, end=True)
    return s[lo:hi] if lo < hi else ''


@TABLE.fn('string-ref', 2, 2, doc='The character at an index, as a one-character string.',
          sig='(string-ref s i)', examples=(('(string-ref "abc" 1)', '"b"'),
                                            ('(string-ref "abc" 3)', 'error: string-ref: index 3 out of range [0, 3)')))
def string_ref(s, i):
    s = string_arg('string-ref', s)
    return s[index_arg('string-ref', i, len(s))]


@TABLE.fn('string=?', 2, 2, doc='True if two strings have the same contents.',
          sig='(string=? a b)', examples=(('(string=? "a" "a")', '#t'),))
def string_eq(a, b):
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
    chars = list(lst) if lst is not NIL else []
    for c in chars:
        if c.__class__ is not str or len(c) != 1:
            raise expected('list->string', 'one-character string', c)
    return ''.join(chars)


@TABLE.fn('string-prefix?', 2, 2, doc='True if s begins with prefix.', sig='(string-prefix? s prefix)',
          examples=(('(string-prefix? "racket" "rac")', '#t'), ('(string-prefix? "r" "rac")', '#f')))
def string_prefix(s, prefix):
    return string_arg('string-prefix?', s).startswith(string_arg('string-prefix?', prefix))


@TABLE.fn('string-suffix?', 2, 2, doc='True if s ends with suffix.', sig='(string-suffix? s suffix)',
          examples=(('(string-suffix? "notes.txt" ".txt")', '#t'),))
def string_suffix(s, suffix):
    return string_arg('string-suffix?', s).endswith(string_arg('string-suffix?', suffix))


@TABLE.fn('str', 0, None, doc='The print forms of the arguments concatenated.',
          sig='(str x ...)', examples=(('(str "x=" 1 \'y)', '"x=1y"'),))
def str_(*xs):
    return ''.join([x if (c := x.__class__) is str else str(x) if c is int and -PLAIN_INT < x < PLAIN_INT
                    else print_form(x) for x in xs])


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
def number_tostring_arg(x, radix=10):
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
def string_to_number(s, radix=10):
    s = string_arg('string->number', s)
    radix = _radix('string->number', radix)
    body = s[1:] if s[:1] in ('+', '-') else s
    if body and body.isascii() and all(DIGITS.find(c.lower()) in range(radix) for c in body):
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


# ── format ───────────────────────────────────────────────────────────────

_FORMAT_TEXT = {'%': '\n', 't': '\t', '~': '~'}
MAX_WIDTH = 1 << 24         # widest field (and JSON indent) made: past it, `out of memory`
_DIGITS = '0123456789'
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
    out = []
    pending = iter(args)
    i, n = 0, len(template)
    while i < n:
        j = template.find('~', i)
        if j < 0:
            out.append(template[i:])
            break
        out.append(template[i:j])
        i = _directive(template, j, pending, out)
    return ''.join(out)


def _directive(template: str, j: int, pending, out: list) -> int:
    """Write the directive starting at the `~` at j; the position after it."""
    n = len(template)
    k = j + 1
    while k < n and template[k] in _DIGITS:
        k += 1
    width = _field(template[j + 1:k], 0)
    precision = None
    if k < n and template[k] == ',':
        m = k + 1
        while m < n and template[m] in _DIGITS:
            m += 1
        precision = _field(template[k + 1:m], None)
        k = m
    right = k < n and template[k] == '@'
    if right:
        k += 1
    d = template[k].lower() if k < n else ''
    text = template[j:k + 1]
    if d in _FORMAT_TEXT and k == j + 1:
        out.append(_FORMAT_TEXT[d])
    elif d == 'a' or d == 's':
        x = _next_arg(pending)
        piece = (x if x.__class__ is str else print_form(x)) if d == 'a' else display_form(x)
        out.append(piece.rjust(width) if right else piece.ljust(width))
    elif d == 'f':
        out.append(_fixed(_next_arg(pending), precision).rjust(width))
    elif d == 'd':
        out.append(str(_integer('d', _next_arg(pending))).rjust(width))
    elif d in _BASES:
        out.append(format(_integer(d, _next_arg(pending)), _BASES[d]).rjust(width))
    else:
        raise EvalError('format: unknown directive %s' % text)
    return k + 1


def _field(digits: str, default):
    """A directive's width or precision (`default` when not written)."""
    if not digits:
        return default
    if len(digits.lstrip('0')) > 9 or int(digits) > MAX_WIDTH:
        raise MemoryError       # reported as `out of memory`, never a host error
    return int(digits)


def _next_arg(pending):
    try:
        return next(pending)
    except StopIteration:
        raise EvalError('format: not enough args') from None


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


# ── json-encode ──────────────────────────────────────────────────────────

_JSON_ESCAPES = str.maketrans({'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t'})


def _json_string(s: str) -> str:
    return '"' + s.translate(_JSON_ESCAPES) + '"'


def _is_object(lst: List) -> bool:
    """A non-empty list whose every element is a (string-or-symbol value) list."""
    for x in lst:
        if x.__class__ is not List or len(x) != 2:
            return False
        k = x.car.__class__
        if k is not str and k is not Symbol:
            return False
    return True


def _key(pair: List) -> str:
    k = pair.car
    return _json_string(k if k.__class__ is str else k.name)


def _json_atom(x) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return format_number(x)
    if cls is str:
        return _json_string(x)
    if cls is Symbol:
        return _json_string(x.name)
    if cls is bool:
        return 'true' if x else 'false'
    if cls is NilType:
        return 'null'
    if cls is List or cls is Vector:    # only the empty ones reach here
        return '[]'
    if cls is Hash:                     # likewise (the indented layout's walk)
        return '{}'
    raise EvalError('json-encode: cannot encode %s' % display_form(x))


def _json_key(k) -> str:
    """A hash key as a JSON object key."""
    if k.__class__ is Symbol:
        k = k.name
    elif k.__class__ is not str:
        raise EvalError('json-encode: cannot encode key %s' % display_form(k))
    return _json_string(k)


def _json_hash(h: Hash):
    """A hash as a JSON object, in insertion order (render_nested's hash_shape)."""
    cells = hash_cells(h)
    for entry in cells:
        _json_key(entry.car)
    return '{', ', ', '}', _json_pair, cells


def _json_cycle(h: Hash):
    raise EvalError('json-encode: cannot encode a hash that contains itself')


@TABLE.fn('json-encode', 1, 2,
          doc='JSON text for a value; key/value lists and hashes become objects, vectors arrays. With indent, '
              'one member per line, indented by indent spaces per level.',
          sig='(json-encode v [indent])',
          examples=(('(json-encode \'(("a" 1) ("b" (1 2))))', '"{\\"a\\": 1, \\"b\\": [1, 2]}"'),
                    ('(json-encode #(1 "x"))', '"[1, \\"x\\"]"'),
                    ('(json-encode \'((a (1 2))) 2)', '"{\\n  \\"a\\": [\\n    1,\\n    2\\n  ]\\n}"')))
def json_encode(v, indent=None):
    if indent is not None:
        n = count_arg('json-encode', indent)
        if n > MAX_WIDTH:
            raise MemoryError       # reported as `out of memory`, never a host error
        if has_cycle(v):
            _json_cycle(v)
        return _json_indented(v, ' ' * n)
    from .json_host import encode
    text = encode(v)
    return text if text is not None else encode_json(v)


def encode_json(v) -> str:
    """json-encode's text of v without indent: the reference walk."""
    return render_nested(v, _json_atom, _json_shape, hash_shape=_json_hash, cycle=_json_cycle)


def _json_members(x):
    """(open, close, [(text before the value, value)…]) of a non-empty array or
    object; None for everything else (atoms and the empty ones)."""
    cls = x.__class__
    if cls is List and x is not EMPTY:
        if _is_object(x):
            return '{', '}', [_json_pair(pair) for pair in x]
        return '[', ']', [('', e) for e in x]
    if cls is Vector and x.items:
        return '[', ']', [('', e) for e in x.items]
    if cls is Hash and x.table:
        return '{', '}', [(_json_key(k) + ': ', e) for k, e in x.table.values()]
    return None


def _json_indented(v, pad: str) -> str:
    """Python's json.dumps(v, indent=n) layout, walked with an explicit stack."""
    out: list[str] = []
    stack: list = []          # [members left, close, depth, first?] per open array or object
    x = v
    while True:
        found = _json_members(x)
        if found is None:
            out.append(_json_atom(x))
        else:
            opening, close, members = found
            out.append(opening)
            stack.append([iter(members), close, len(stack) + 1, True])
        while stack:
            top = stack[-1]
            member = next(top[0], None)
            if member is not None:
                out.append(('\n' if top[3] else ',\n') + pad * top[2] + member[0])
                top[3] = False
                x = member[1]
                break
            stack.pop()
            out.append('\n' + pad * (top[2] - 1) + top[1])
        else:
            return ''.join(out)


def _json_pair(pair):
    return _key(pair) + ': ', pair.cdr.car


def _json_shape(lst):
    if lst.__class__ is List and _is_object(lst):
        return '{', ', ', '}', _json_pair
    return '[', ', ', ']', plain_item


# ── JSON parsing (RFC 8259) ──────────────────────────────────────────────

class JsonError(Exception):
    """Invalid JSON; the message says what and where."""


# The JSON token patterns, compiled by the first parse_json (_compile_json).
_WS = _JSON_NUMBER = _PLAIN = _HEX4 = _SIMPLE_STRING = _SIMPLE_KEY = None
_SIMPLE_ESCAPES = {'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f',
                   'n': '\n', 'r': '\r', 't': '\t'}
_WORDS = (('true', True), ('false', False), ('null', NIL))


def _where(text: str, pos: int) -> str:
    line = text.count('\n', 0, pos) + 1
    col = pos - (text.rfind('\n', 0, pos) + 1) + 1
    return 'line %d column %d' % (line, col)


def _fail(text: str, pos: int, what: str):
    raise JsonError('%s at %s' % (what, _where(text, pos)))


def _hex_escape(text: str, pos: int) -> int:
    """The code unit of the four hex digits at pos (just after `\\u`)."""
    if _HEX4.match(text, pos) is None:
        _fail(text, pos, 'invalid \\u escape')
    return int(text[pos:pos + 4], 16)


def _parse_string(text: str, pos: int):
    """The string whose opening quote is at pos, and the position after it."""
    m = _SIMPLE_STRING.match(text, pos)
    if m is not None:
        return m.group(1), m.end()
    parts = []
    pos += 1
    while True:
        m = _PLAIN.match(text, pos)
        parts.append(m.group())
        pos = m.end()
        if pos >= len(text):
            _fail(text, pos, 'unterminated string')
        c = text[pos]
        if c == '"':
            return ''.join(parts), pos + 1
        if c != '\\':
            _fail(text, pos, 'control character in string')
        e = text[pos + 1:pos + 2]
        if e in _SIMPLE_ESCAPES:
            parts.append(_SIMPLE_ESCAPES[e])
            pos += 2
            continue
        if e != 'u':
            _fail(text, pos, 'invalid escape')
        unit = _hex_escape(text, pos + 2)
        pos += 6
        if 0xDC00 <= unit <= 0xDFFF:
            _fail(text, pos - 6, 'lone surrogate in \\u escape')
        if 0xD800 <= unit <= 0xDBFF:
            if text[pos:pos + 2] != '\\u':
                _fail(text, pos - 6, 'lone surrogate in \\u escape')
            low = _hex_escape(text, pos + 2)
            if not 0xDC00 <= low <= 0xDFFF:
                _fail(text, pos - 6, 'lone surrogate in \\u escape')
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            pos += 6
        parts.append(chr(unit))


def _compile_json() -> None:
    """Compile the JSON token patterns (once)."""
    global _WS, _JSON_NUMBER, _PLAIN, _HEX4, _SIMPLE_STRING, _SIMPLE_KEY
    if _WS is None:
        import re
        _SIMPLE_STRING = re.compile(r'"([^"\\\x00-\x1f]*)"')                 # no escapes
        _SIMPLE_KEY = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*')  # and its ':'
        _JSON_NUMBER = re.compile(r'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')
        _PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
        _HEX4 = re.compile(r'[0-9a-fA-F]{4}')
        _WS = re.compile(r'[ \t\n\r]*')


def parse_json(text: str, make_array, make_object):
    """Parse one JSON document; arrays and objects are built bottom-up by
    `make_array(values)` and `make_object([(key, value), ...])`. Raises JsonError."""
    _compile_json()
    ws = _WS.match
    n = len(text)
    # Each stack entry: [is object, items so far, pending key].
    stack: list[list] = []
    pos = ws(text, 0).end()
    while True:
        # A value starts at pos.
        c = text[pos:pos + 1]
        if c == '{' or c == '[':
            pos = ws(text, pos + 1).end()
            closer = '}' if c == '{' else ']'
            if text.startswith(closer, pos):
                pos += 1
                value = make_object([]) if c == '{' else make_array([])
            elif c == '{':
                key, pos = _object_key(text, pos)
                stack.append([True, [], key])
                continue
            else:
                stack.append([False, [], None])
                continue
        elif c == '"':
            value, pos = _parse_string(text, pos)
        else:
            m = _JSON_NUMBER.match(text, pos)
            if m is not None:
                value = m.group()
                value = float(value) if '.' in value or 'e' in value or 'E' in value else exact_integer(value)
                pos = m.end()
            else:
                for word, value in _WORDS:
                    if text.startswith(word, pos):
                        pos += len(word)
                        break
                else:
                    _fail(text, pos, 'expected a value' if pos < n else 'unexpected end of input')
        # A value is complete: add it to its container, closing finished ones.
        while True:
            pos = ws(text, pos).end()
            if not stack:
                if pos < n:
                    _fail(text, pos, 'trailing characters')
                return value
            frame = stack[-1]
            frame[1].append((frame[2], value) if frame[0] else value)
            c = text[pos:pos + 1]
            if c == ',':
                pos = ws(text, pos + 1).end()
                if frame[0]:
                    frame[2], pos = _object_key(text, pos)
                break
            if c == ('}' if frame[0] else ']'):
                pos += 1
                stack.pop()
                value = make_object(frame[1]) if frame[0] else make_array(frame[1])
                continue
            _fail(text, pos, "expected ',' or '%s'" % ('}' if frame[0] else ']')
                  if pos < n else 'unexpected end of input')


def _object_key(text: str, pos: int):
    """The key at pos, its ':' and the whitespace after; returns (key, value position)."""
    m = _SIMPLE_KEY.match(text, pos)
    if m is not None:
        return m.group(1), m.end()
    if not text.startswith('"', pos):
        _fail(text, pos, 'expected a string key' if pos < len(text) else 'unexpected end of input')
    key, pos = _parse_string(text, pos)
    pos = _WS.match(text, pos).end()
    if not text.startswith(':', pos):
        _fail(text, pos, "expected ':'" if pos < len(text) else 'unexpected end of input')
    return key, _WS.match(text, pos + 1).end()


def _pairs_list(pairs) -> List:
    return make_list([make_list([k, v]) for k, v in pairs]) if pairs else EMPTY


def _hash_object(pairs) -> Hash:
    h = Hash()
    for k, v in pairs:
        h.table[hash_key(k)] = (k, v)       # a later duplicate wins, in the first one's place
    return h


@TABLE.fn('json-decode', 1, 2,
          doc="The value of JSON text; objects become lists of (key value) lists, or hashes with 'hash.",
          sig="(json-decode s ['hash])",
          examples=(('(json-decode "[1, {\\"a\\": null}]")', '(1 (("a" ())))'),
                    ('(json-decode "{\\"a\\": [1, 2]}" \'hash)', '#hash(("a" (1 2)))')))
def json_decode(s, mode=None):
    s = string_arg('json-decode', s)
    make_object = _pairs_list
    if mode is not None:
        if mode is not sym('hash'):
            raise EvalError("json-decode: expected the symbol hash, got %s" % display_form(mode))
        make_object = _hash_object
    from .json_host import decode
    value = decode(s, None if mode is None else _hash_object)
    if value is not None:
        return value
    try:
        return parse_json(s, make_list, make_object)
    except JsonError as e:
        raise EvalError('json-decode: invalid JSON: %s' % e) from None
