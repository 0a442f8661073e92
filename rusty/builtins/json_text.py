"""The JSON builtins: json-encode and json-decode, and the reference walks they write and parse with.

JSON is written and parsed with explicit stacks, so deeply nested data never
overflows the host stack. `parse_json` is shared with the model files. These
walks are the reference for json_host.py's fast paths (the host's C scanner,
a recursive encoder), which leave to them whatever they might not agree on.
"""

from ..errors import EvalError
from ..printer import display_form, format_number, has_cycle, hash_cells, plain_item, render_nested
from ..reader import exact_integer
from ..values import EMPTY, NIL, BuiltinTable, Hash, List, NilType, Symbol, Vector, hash_key, make_list, sym
from .args import count_arg, string_arg
from .format_directives import MAX_WIDTH

TABLE = BuiltinTable()


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
