"""The reader: text -> forms with spans. The only code that looks at characters.

Tokens are the language's lexical syntax; forms are built from them. Lists
are built with an explicit stack (no host recursion), so nesting is limited
only by MAX_NESTING. Every list cell carries the span of its element; `read`
returns the top-level forms as a list whose cells carry each form's span.
"""
from __future__ import annotations

import re

from .errors import IncompleteInput, ReadError, Span
from .values import EMPTY, List, sym

MAX_NESTING = 8000

TOKEN = re.compile(r'''
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>;[^\n]*)
  | (?P<block>\#\|)
  | (?P<datum>\#;)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<sugar>,@|[,'`])
  | (?P<str>"(?:[^"\\]|\\[\s\S])*(?:\\\Z)?"?)
  | (?P<bool>\#[tf])
  | (?P<hash>\#)
  | (?P<num>-?[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?)
  | (?P<sym>[^ \t\r\n()'"`,]+)
''', re.VERBOSE)

BLOCK_MARK = re.compile(r'\#\||\|\#')
SUGAR = {"'": sym('quote'), '`': sym('quasiquote'), ',': sym('unquote'), ',@': sym('unquote-splicing')}
ESCAPES = {'n': '\n', 't': '\t', 'r': '\r'}
ESCAPE = re.compile(r'\\([\s\S]?)')


def _unescape(body: str) -> str:
    if '\\' not in body:
        return body
    return ESCAPE.sub(lambda m: ESCAPES.get(m.group(1), m.group(1)), body)


def _atom(kind: str, text: str):
    """The value of an atom token."""
    if kind == 'num':
        if text.count('.') > 1:
            return sym(text)
        return float(text)
    if kind == 'str':
        closed = len(text) >= 2 and text.endswith('"') and not _escaped_end(text)
        return _unescape(text[1:-1] if closed else text[1:])
    if kind == 'bool':
        return text == '#t'
    return sym(text)


def _escaped_end(text: str) -> bool:
    """True if the final quote of a string token is itself escaped."""
    n = 0
    i = len(text) - 2
    while i >= 1 and text[i] == '\\':
        n += 1
        i -= 1
    return n % 2 == 1


# ── Tokenizing with positions ────────────────────────────────────────────

def block_end(text: str, pos: int) -> int:
    """The end of the (nestable) block comment whose `#|` ends at pos; -1 if unclosed."""
    depth = 1
    while True:
        m = BLOCK_MARK.search(text, pos)
        if m is None:
            return -1
        pos = m.end()
        depth += 1 if m.group() == '#|' else -1
        if depth == 0:
            return pos


def tokens(text: str, file: str = '<string>'):
    """Yield (kind, text, span) for every token, comments and whitespace skipped.

    A block comment never closed is the token 'unclosed' (the `#|` only)."""
    pos, n = 0, len(text)
    line, line_start = 1, 0
    match = TOKEN.match
    while pos < n:
        m = match(text, pos)
        kind = m.lastgroup
        tok = m.group()
        end = m.end()
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
    """A list being read: its elements, their spans, and the sugars to wrap it in."""
    __slots__ = ('items', 'spans', 'span', 'pending', 'wrap')

    def __init__(self, span, wrap):
        self.items = []
        self.spans = []
        self.span = span
        self.pending = []   # sugars read at this level, waiting for their datum
        self.wrap = wrap    # sugars that preceded the '(' of this list


def read(text: str, file: str = '<string>') -> List:
    """All forms in `text` as a list (cells carry spans). Raises ReadError."""
    top = _Open(None, [])
    stack = [top]
    cur = top
    for kind, tok, span in tokens(text, file):
        if kind == 'open':
            if len(stack) > MAX_NESTING:
                raise ReadError('nesting too deep (over %d levels) — refusing to parse' % MAX_NESTING, span)
            cur = _Open(span, cur.pending)
            stack[-1].pending = []
            stack.append(cur)
        elif kind == 'close':
            if len(stack) == 1:
                raise ReadError("unexpected ')' with no matching '('", span)
            if cur.pending:
                _no_datum(cur.pending[-1])
            done = stack.pop()
            form = _build(done.items, done.spans)
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
        raise IncompleteInput("unexpected end of input: a '(' is never closed", stack[-1].span)
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
        form = List(SUGAR[tok], List(form, EMPTY, inner), sp)
    if wrap is None:
        level.pending = []
    level.items.append(form)
    level.spans.append(span)


def _build(items, spans) -> List:
    out = EMPTY
    for i in range(len(items) - 1, -1, -1):
        out = List(items[i], out, spans[i])
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
        if kind == 'open':
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
