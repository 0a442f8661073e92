"""The string builtins: strings, conversions, `format`, JSON.

JSON is written and parsed with explicit stacks, so deeply nested data never
overflows the host stack. `parse_json` is shared with the model files.
"""

from ..errors import EvalError
from ..printer import display_form, format_number, hash_cells, plain_item, print_form, render_nested
from ..values import EMPTY, NIL, BuiltinTable, Hash, List, NilType, Symbol, hash_key, make_list, sym
from .args import expected, index_arg, string_arg

TABLE = BuiltinTable()


# ── Argument checks ──────────────────────────────────────────────────────

# ── Strings ──────────────────────────────────────────────────────────────

@TABLE.fn('string-length', 1, 1, doc='The number of code points in a string.',
          sig='(string-length s)', examples=(('(string-length "héllo")', '5'),))
def string_length(s):
    return float(len(string_arg('string-length', s)))


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
    return ''.join([x if x.__class__ is str else print_form(x) for x in lst])


@TABLE.fn('substring', 2, 3, doc='The code points from start up to end, indices clamped.',
          sig='(substring s start [end])',
          examples=(('(substring "hello" 1 3)', '"el"'), ('(substring "hello" 2)', '"llo"')))
def substring(s, start, end=None):
    s = string_arg('substring', s)
    n = len(s)
    lo = min(index_arg('substring', start), n)
    hi = n if end is None else min(index_arg('substring', end), n)
    if lo >= hi:
        return ''
    return s[int(lo):int(hi)]


@TABLE.fn('string-ref', 2, 2, doc='The character at an index, as a one-character string.',
          sig='(string-ref s i)', examples=(('(string-ref "abc" 1)', '"b"'),))
def string_ref(s, i):
    s = string_arg('string-ref', s)
    k = index_arg('string-ref', i)
    if k >= len(s):
        raise EvalError('string-ref: index %s out of range' % format_number(k))
    return s[int(k)]


@TABLE.fn('string=?', 2, 2, doc='True if two strings have the same contents.',
          sig='(string=? a b)', examples=(('(string=? "a" "a")', '#t'),))
def string_eq(a, b):
    return string_arg('string=?', a) == string_arg('string=?', b)


@TABLE.fn('string->list', 1, 1, doc='The characters of a string as one-character strings.',
          sig='(string->list s)', examples=(('(string->list "abc")', '("a" "b" "c")'),))
def string_to_list(s):
    return make_list(list(string_arg('string->list', s)))


@TABLE.fn('str', 0, None, doc='The print forms of the arguments concatenated.',
          sig='(str x ...)', examples=(('(str "x=" 1 \'y)', '"x=1y"'),))
def str_(*xs):
    return ''.join([x if x.__class__ is str else print_form(x) for x in xs])


@TABLE.fn('string-split', 1, 2,
          doc='The pieces between occurrences of sep (default: runs of whitespace), empty pieces dropped.',
          sig='(string-split s [sep])',
          examples=(('(string-split "a,,b," ",")', '("a" "b")'), ('(string-split "  a b\\n c ")', '("a" "b" "c")')))
def string_split(s, sep=None):
    s = string_arg('string-split', s)
    if sep is None:
        return make_list(s.split())
    sep = string_arg('string-split', sep)
    if sep == '':
        return make_list(list(s))
    return make_list([piece for piece in s.split(sep) if piece])


# ── Conversions ──────────────────────────────────────────────────────────

# A number's text: sign, then a decimal with at least one digit or one of the words.
# Compiled on first use (as are the JSON patterns below): start-up does without.
NUMBER_TEXT = r'[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))'
_number_text: list = []


@TABLE.fn('number->string', 1, 1, doc='The text of a number, as the printer writes it (integers without a decimal point).',
          sig='(number->string x)', examples=(('(number->string 2.5)', '"2.5"'),))
def number_tostring_arg(x):
    if x.__class__ is not float:
        raise expected('number->string', 'number', x)
    return format_number(x)


@TABLE.fn('string->number', 1, 1, doc='The number a string spells, or #f.',
          sig='(string->number s)', examples=(('(string->number "42")', '42'), ('(string->number "x")', '#f')))
def string_to_number(s):
    s = string_arg('string->number', s)
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


@TABLE.fn('format', 1, None, doc='A string from a template: ~a ~s ~% ~t ~~.',
          sig='(format template arg ...)', examples=(('(format "~a is ~s" "x" "y")', '"x is \\"y\\""'),))
def format_(template, *args):
    if template.__class__ is not str:
        raise expected('format', 'string', template)
    out = []
    pending = iter(args)
    i, n = 0, len(template)
    while i < n:
        j = template.find('~', i)
        if j < 0 or j == n - 1:
            out.append(template[i:])
            break
        out.append(template[i:j])
        d = template[j + 1]
        if d in 'aAsS':
            try:
                x = next(pending)
            except StopIteration:
                raise EvalError('format: not enough args') from None
            out.append(print_form(x) if d in 'aA' else display_form(x))
        else:
            out.append(_FORMAT_TEXT.get(d, template[j:j + 2]))
        i = j + 2
    return ''.join(out)


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
    if cls is float:
        return format_number(x)
    if cls is str:
        return _json_string(x)
    if cls is Symbol:
        return _json_string(x.name)
    if cls is bool:
        return 'true' if x else 'false'
    if cls is NilType:
        return 'null'
    if cls is List:     # only the empty list reaches here
        return '[]'
    raise EvalError('json-encode: cannot encode %s' % display_form(x))


def _json_hash(h: Hash):
    """A hash as a JSON object, in insertion order (render_nested's hash_shape)."""
    cells = hash_cells(h)
    for entry in cells:
        k = entry.car
        if k.__class__ is not Symbol and k.__class__ is not str:
            raise EvalError('json-encode: cannot encode key %s' % display_form(k))
    return '{', ', ', '}', _json_pair, cells


def _json_cycle(h: Hash):
    raise EvalError('json-encode: cannot encode a hash that contains itself')


@TABLE.fn('json-encode', 1, 1, doc='JSON text for a value; key/value lists become objects.',
          sig='(json-encode v)',
          examples=(('(json-encode \'(("a" 1) ("b" (1 2))))', '"{\\"a\\": 1, \\"b\\": [1, 2]}"'),))
def json_encode(v):
    return render_nested(v, _json_atom, _json_shape, hash_shape=_json_hash, cycle=_json_cycle)


def _json_pair(pair):
    return _key(pair) + ': ', pair.cdr.car


def _json_shape(lst):
    if _is_object(lst):
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
                value = float(m.group())
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
    try:
        return parse_json(s, make_list, make_object)
    except JsonError as e:
        raise EvalError('json-decode: invalid JSON: %s' % e) from None
