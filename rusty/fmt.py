"""The canonical layout of program text: `fmt-string` and `rusty fmt`.

The formatter re-indents and re-spaces; it never reorders, adds or drops a token
and keeps every line break. It has its own tokenizer, which keeps what the reader
throws away (comments, block and datum comments, line structure) and copies
strings and comments byte for byte. The real reader validates the text first, so
a text that does not parse fails with exactly the reader's error.

The layout is a single left-to-right pass with an explicit stack of open lists:
linear in the text, no host recursion. Where the layout rules leave a choice:
- a line's indentation goes by what precedes it: a line that starts before the
  head of its list (`(` alone on a line) aligns with the head (column + 1);
- `#;` is a prefix like the quote sugar (no space after it), and the datum it
  comments out is not an element: it is never the head or the first argument;
- a comment's text runs to the line feed and is kept byte for byte, blanks at
  its end included (tools read comments: `; expect: 0 1 2 ` means that trailing
  space); only a carriage return before the line feed goes, as it does after
  code, so CRLF text comes out with LF line ends;
- an unterminated string at the end of the text gets no final newline, which
  would become part of it.
"""
from __future__ import annotations

import gc

from .forms import BODY_INDENT
from .reader import block_end, read, scan

# ── Tokens, comments and line breaks kept ───────────────────────────────

# The reader's own tokens (its scan); its atom kinds are one kind here.
ATOMS = {'bool': 'atom', 'hash': 'atom', 'num': 'atom', 'sym': 'atom'}


def lex(text: str) -> list[tuple[str, str]]:
    """(kind, text) for every piece of `text`, whitespace and comments included.

    Kinds: ws, comment, block (a whole, possibly nested, block comment), datum
    (`#;`), open, vopen (`#(`), close, sugar, str, atom. Concatenated, the
    texts are `text`.
    """
    out = []
    pos, n = 0, len(text)
    while pos < n:
        kind, end = scan(text, pos)
        kind = ATOMS.get(kind, kind)
        if kind == 'block':
            end = _block_end(text, end)
        out.append((kind, text[pos:end]))
        pos = end
    return out


def _block_end(text: str, pos: int) -> int:
    """The end of the block comment whose `#|` ends at pos; the end of text if unclosed."""
    end = block_end(text, pos)
    return len(text) if end < 0 else end


def is_symbol(tok: str) -> bool:
    """True if an atom token reads as a symbol."""
    if tok in ('#t', '#f'):
        return False
    return not tok or scan(tok, 0) != ('num', len(tok)) or tok.count('.') > 1


# ── Layout ───────────────────────────────────────────────────────────────

class _Open:
    """An open list in the output: where its `(` stands and what its first elements are."""
    __slots__ = ('col', 'n', 'head', 'head_line', 'second_col', 'chain', 'need', 'vector')

    def __init__(self, col: int, vector: bool = False):
        self.col = col            # output column of the '('
        self.vector = vector      # a `#(` vector: its elements are data, it has no head
        self.n = 0                # elements begun (datum-commented ones not counted)
        self.head = None          # the head's text when it is a plain symbol
        self.head_line = -1
        self.second_col = -1      # column of the second element when on the head's line
        self.chain = None         # 'real' / 'skip' while a prefix chain waits for its datum
        self.need = 0             # data the chain still needs

    def indent(self, body) -> int:
        """Indentation of a line that starts inside this list (the indentation rule)."""
        if self.head is not None and self.head in body:
            return self.col + 2
        if self.head is not None and self.second_col >= 0:
            return self.second_col
        return self.col + 1

    def begin(self, kind: str, tok: str, line: int, col: int) -> None:
        """Note that a datum, sugar or `#;` starts at (line, col) in this list."""
        if self.chain is not None:
            if kind == 'datum':
                self.need += 1
            return
        if kind == 'datum':
            self.chain, self.need = 'skip', 1
            return
        if kind == 'sugar':
            self.chain, self.need = 'real', 1
        self.n += 1
        if self.n == 1:
            self.head = tok if kind == 'atom' and not self.vector and is_symbol(tok) else None
            self.head_line = line
        elif self.n == 2 and line == self.head_line:
            self.second_col = col

    def complete(self) -> None:
        """Note that a datum (atom or list) of this list ended."""
        if self.chain is not None:
            self.need -= 1
            if self.need == 0:
                self.chain = None


def layout(text: str, body=None) -> str:
    """The canonical layout of `text`, which must already read (see fmt_string)."""
    body = BODY_INDENT if body is None else body
    out: list[str] = []
    col = 0                   # output column after what is written
    line = 0                  # output line number
    breaks = 0                # line breaks seen since the last token
    prev = None               # kind of the previous token (None at the start)
    prev_tok = ''
    stack = [_Open(0)]        # stack[0] is the top level
    for kind, tok in lex(text):
        if kind == 'ws':
            breaks += tok.count('\n')
            continue
        top = stack[-1]
        if breaks and prev is not None:
            line += 2 if breaks > 1 else 1
            col = 0 if len(stack) == 1 else top.indent(body)
            out.append(('\n\n' if breaks > 1 else '\n') + ' ' * col)
        elif prev is not None and _space_between(prev, prev_tok, kind, tok):
            out.append(' ')
            col += 1
        breaks = 0
        if kind in BEGINS:
            top.begin(kind, tok, line, col)
        elif kind == 'comment':
            tok = tok[:-1] if tok[-1:] == '\r' else tok
        out.append(tok)
        if kind in MULTI_LINE and '\n' in tok:
            line += tok.count('\n')
            col = len(tok) - tok.rindex('\n') - 1
        else:
            col += len(tok)
        if kind == 'open' or kind == 'vopen':
            stack.append(_Open(col - 1, kind == 'vopen'))
        elif kind == 'close':
            if len(stack) > 1:
                stack.pop()
            stack[-1].complete()
        elif kind == 'atom' or kind == 'str':
            top.complete()
        prev, prev_tok = kind, tok
    if prev is None:
        return ''
    if prev == 'str' and _unterminated(prev_tok):
        return ''.join(out)   # a final newline would become part of the string
    out.append('\n')
    return ''.join(out)


BEGINS = frozenset(('atom', 'str', 'open', 'vopen', 'sugar', 'datum'))  # what starts a datum or an element
MULTI_LINE = frozenset(('str', 'block'))                                 # tokens that may hold line breaks
PREFIXES = frozenset(('open', 'vopen', 'sugar', 'datum'))                # no space after these


def _space_between(prev: str, prev_tok: str, kind: str, tok: str) -> bool:
    """Whether two tokens on one line are separated by a space (the spacing rule).

    None after `(`, a quote sugar or `#;`, none before `)`; but `, @x` keeps its
    space, which `,@x` (unquote-splicing) would not read the same without.
    """
    if prev in PREFIXES:
        return prev_tok == ',' and tok[:1] == '@'
    return kind != 'close'


def _unterminated(tok: str) -> bool:
    """True if a string token runs to the end of the text without its closing quote."""
    if len(tok) < 2 or not tok.endswith('"'):
        return True
    n, i = 0, len(tok) - 2
    while i >= 1 and tok[i] == '\\':
        n += 1
        i -= 1
    return n % 2 == 1


def fmt_string(text: str, file: str = '<string>') -> str:
    """The canonical layout of a program text; raises the reader's error if it does not parse."""
    validate(text, file)
    return layout(text)


def validate(text: str, file: str) -> None:
    """Read `text` with the real reader, for its errors alone.

    The forms are thrown away at once and hold no cycles, so the cyclic garbage
    collector is paused meanwhile: over a large file its passes cost more than
    the reading itself, and grow faster than linearly.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        read(text, file)
    finally:
        if paused:
            gc.enable()
