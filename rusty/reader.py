"""The reader: text -> forms with spans. The only code that looks at characters.

Tokens are the language's lexical syntax; forms are built from them. Lists
are built with an explicit stack (no host recursion), so nesting is limited
only by MAX_NESTING. Every list cell carries the span of its element; `read`
returns the top-level forms as a list whose cells carry each form's span.
"""
from .errors import IncompleteInput, ReadError, Span
from .values import EMPTY, List, Vector, spanned, sym

MAX_NESTING = 8000

SUGAR = {"'": sym('quote'), '`': sym('quasiquote'), ',': sym('unquote'), ',@': sym('unquote-splicing')}
ESCAPES = {'n': '\n', 't': '\t', 'r': '\r'}


def _unescape(body: str) -> str:
    """A string token's body with its backslash escapes replaced (`\\n` is a newline,
    a backslash before any other character is that character, a final one vanishes)."""
    if '\\' not in body:
        return body
    out, i = [], 0
    while True:
        j = body.find('\\', i)
        if j < 0:
            out.append(body[i:])
            return ''.join(out)
        c = body[j + 1:j + 2]
        out.append(body[i:j])
        out.append(ESCAPES.get(c, c))
        i = j + 2


def _atom(kind: str, text: str):
    """The value of an atom token."""
    if kind == 'num':
        if text.isdigit() or text[0] == '-' and text[1:].isdigit():
            return exact_integer(text)      # sign and decimal digits only: exact
        if text.count('.') > 1:
            return sym(text)
        return float(text)
    if kind == 'str':
        closed = len(text) >= 2 and text.endswith('"') and not _escaped_end(text)
        return _unescape(text[1:-1] if closed else text[1:])
    if kind == 'bool':
        return text == '#t'
    return sym(text)


def exact_integer(text: str, base: int = 10) -> int:
    """The exact integer a digit string denotes, however many digits it has
    (Python limits int <-> str conversions of over 4300 digits by default)."""
    try:
        return int(text, base)
    except ValueError:
        if len(text) <= 4300:
            raise
        import sys
        sys.set_int_max_str_digits(0)
        return int(text, base)


def _escaped_end(text: str) -> bool:
    """True if the final quote of a string token is itself escaped."""
    n = 0
    i = len(text) - 2
    while i >= 1 and text[i] == '\\':
        n += 1
        i -= 1
    return n % 2 == 1


# ── Tokenizing with positions ────────────────────────────────────────────

# The lexical syntax, token by token (the first kind that fits wins):
#   ws       a run of space, tab, CR, LF
#   comment  ';' to the end of the line
#   block    '#|' (scan stops after it: block_end finds the nestable end)
#   datum    '#;'
#   vopen    '#(' (a vector literal's opening)
#   open, close   '(' and ')'
#   sugar    ",@", ',', "'", '`'
#   str      '"' to the next unescaped '"' (a backslash takes the next
#            character with it); unclosed, to the end of the text
#   bool     '#t', '#f'
#   hash     '#' otherwise
#   num      -?[0-9][0-9.]* with an optional exponent [eE][+-]?[0-9]+
#   sym      a run of anything but whitespace, ( ) ' " ` and ','
_WS = frozenset(' \t\r\n')
_DIGITS = frozenset('0123456789')
_NUM_BODY = frozenset('0123456789.')
_SYM_END = frozenset(' \t\r\n()\'"`,')
_SINGLE = {'(': 'open', ')': 'close', "'": 'sugar', '`': 'sugar'}
_AFTER_HASH = {'|': 'block', ';': 'datum', '(': 'vopen', 't': 'bool', 'f': 'bool'}


def scan(text: str, pos: int):
    """(kind, end) of the token starting at `pos` (< len(text)); every
    character starts some token, so the text splits into tokens exactly."""
    c = text[pos]
    n = len(text)
    if c in _WS:
        end = pos + 1
        while end < n and text[end] in _WS:
            end += 1
        return 'ws', end
    kind = _SINGLE.get(c)
    if kind is not None:
        return kind, pos + 1
    if c == ';':
        end = text.find('\n', pos)
        return 'comment', n if end < 0 else end
    if c == '#':
        kind = _AFTER_HASH.get(text[pos + 1:pos + 2])
        return ('hash', pos + 1) if kind is None else (kind, pos + 2)
    if c == ',':
        return 'sugar', pos + 2 if text.startswith('@', pos + 1) else pos + 1
    if c == '"':
        return 'str', _string_end(text, pos + 1)
    if c in _DIGITS or (c == '-' and pos + 1 < n and text[pos + 1] in _DIGITS):
        return 'num', _number_end(text, pos + 1)
    end = pos + 1
    while end < n and text[end] not in _SYM_END:
        end += 1
    return 'sym', end


def _string_end(text: str, pos: int) -> int:
    """The end of a string token whose body starts at `pos`."""
    n = len(text)
    while True:
        q = text.find('"', pos)
        b = text.find('\\', pos, n if q < 0 else q)
        if b < 0:
            return n if q < 0 else q + 1
        pos = b + 2
        if pos >= n:
            return n


def _number_end(text: str, pos: int) -> int:
    """The end of a number token whose first digit ends at `pos`."""
    n = len(text)
    while pos < n and text[pos] in _NUM_BODY:
        pos += 1
    if pos < n and (text[pos] == 'e' or text[pos] == 'E'):
        k = pos + 1
        if k < n and (text[k] == '+' or text[k] == '-'):
            k += 1
        j = k
        while j < n and text[j] in _DIGITS:
            j += 1
        if j > k:
            return j
    return pos


def block_end(text: str, pos: int) -> int:
    """The end of the (nestable) block comment whose `#|` ends at pos; -1 if unclosed."""
    depth = 1
    opens = text.find('#|', pos)
    closes = text.find('|#', pos)
    while closes >= 0:
        if 0 <= opens < closes:         # the nearer mark wins; they may overlap (#|#)
            depth += 1
            pos = opens + 2
        else:
            depth -= 1
            pos = closes + 2
            if depth == 0:
                return pos
        if 0 <= opens < pos:
            opens = text.find('#|', pos)
        if closes < pos:
            closes = text.find('|#', pos)
    return -1


def tokens(text: str, file: str = '<string>'):
    """Yield (kind, text, span) for every token, comments and whitespace skipped.

    A block comment never closed is the token 'unclosed' (the `#|` only); a
    byte-order mark (U+FEFF) opening the text is skipped, columns counting
    from after it."""
    pos, n = 0, len(text)
    if text.startswith('\ufeff'):
        pos = 1
    line, line_start = 1, pos
    while pos < n:
        kind, end = scan(text, pos)
        tok = text[pos:end]
        start_line, start_col = line, pos - line_start + 1
        if kind == 'block':
            end = block_end(text, end)
            if end < 0:
                yield 'unclosed', tok, Span(file, line, start_col, line, start_col + 2)
                return
            tok = text[pos:end]
        nl = tok.count('\n') if kind in ('ws', 'str', 'block') else 0
        if nl:
            line += nl
            line_start = pos + tok.rindex('\n') + 1
        if kind != 'ws' and kind != 'comment' and kind != 'block':
            yield kind, tok, Span(file, start_line, start_col, line, end - line_start + 1)
        pos = end


# ── Reading forms ────────────────────────────────────────────────────────

class _Open:
    """A list (or vector) being read: its elements, their spans, and the sugars to wrap it in."""
    __slots__ = ('items', 'spans', 'span', 'pending', 'wrap', 'vector')

    def __init__(self, span, wrap, vector=False):
        self.items = []
        self.spans = []
        self.span = span
        self.pending = []   # sugars read at this level, waiting for their datum
        self.wrap = wrap    # sugars that preceded the '(' of this list
        self.vector = vector  # opened by '#(': a literal vector, its elements data


def read(text: str, file: str = '<string>') -> List:
    """All forms in `text` as a list (cells carry spans). Raises ReadError."""
    top = _Open(None, [])
    stack = [top]
    cur = top
    for kind, tok, span in tokens(text, file):
        if kind == 'open' or kind == 'vopen':
            if len(stack) > MAX_NESTING:
                raise ReadError('nesting too deep (over %d levels) — refusing to parse' % MAX_NESTING, span)
            cur = _Open(span, cur.pending, kind == 'vopen')
            stack[-1].pending = []
            stack.append(cur)
        elif kind == 'close':
            if len(stack) == 1:
                raise ReadError("unexpected ')' with no matching '('", span)
            if cur.pending:
                _no_datum(cur.pending[-1])
            done = stack.pop()
            form = Vector(done.items) if done.vector else _build(done.items, done.spans)
            full = Span(file, done.span.line, done.span.col, span.end_line, span.end_col)
            cur = stack[-1]
            _add(cur, form, full, done.wrap)
        elif kind == 'sugar' or kind == 'datum':
            cur.pending.append((tok, span))
        elif kind == 'unclosed':
            raise IncompleteInput("unexpected end of input: a '#|' comment is never closed", span)
        else:
            _add(cur, _atom(kind, tok), span, None)
    if len(stack) > 1:
        opening = '#(' if stack[-1].vector else '('
        raise IncompleteInput("unexpected end of input: a '%s' is never closed" % opening, stack[-1].span)
    if top.pending:
        _no_datum(top.pending[-1])
    return _build(top.items, top.spans)


def _no_datum(prefix):
    """The parse error for a sugar or `#;` with no datum after it."""
    tok, span = prefix
    if tok == '#;':
        raise ReadError("unexpected end of input: '#;' has no datum to comment out", span)
    raise ReadError("'%s' must be followed by a datum" % tok, span)


def _add(level: _Open, form, span: Span, wrap):
    """Append a finished datum to `level`, wrapping it in any pending sugar;
    a pending `#;` drops it instead (outer prefixes then wait for the next)."""
    sugars = wrap if wrap is not None else level.pending
    for i in range(len(sugars) - 1, -1, -1):
        tok, sp = sugars[i]
        if tok == '#;':
            level.pending = sugars[:i]
            return
        inner = span
        span = Span(span.file, sp.line, sp.col, span.end_line, span.end_col)
        form = spanned(SUGAR[tok], spanned(form, EMPTY, inner), sp)
    if wrap is None:
        level.pending = []
    level.items.append(form)
    level.spans.append(span)


def _build(items, spans) -> List:
    out = EMPTY
    for i in range(len(items) - 1, -1, -1):
        out = spanned(items[i], out, spans[i])
    return out


# ── Completeness (for the REPL) ──────────────────────────────────────────

def open_depth(text: str) -> tuple[int, bool]:
    """(parentheses still open, whether a string is still open) at the end of text.

    Only parentheses outside strings and comments count; the depth goes negative
    when a ')' closes more than was opened.
    """
    depth = 0
    in_string = False
    for kind, tok, _span in tokens(text):
        if kind == 'open' or kind == 'vopen':
            depth += 1
        elif kind == 'close':
            depth -= 1
            if depth < 0:
                return depth, False
        elif kind == 'str':
            in_string = len(tok) < 2 or not tok.endswith('"') or _escaped_end(tok)
        elif kind == 'unclosed':
            return depth, True      # an open block comment needs more lines, like a string
    return depth, in_string
