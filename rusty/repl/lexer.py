"""A Pygments lexer for rusty (registered as the `rusty` lexer).

It tokenizes with the reader's own token rules, so what is
coloured as a string, comment or number is exactly what rusty reads as one.
Symbols are classified: special forms, builtins (and the standard library),
names being defined, quoted symbols.
"""
from __future__ import annotations

import re

from pygments.lexer import Lexer
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation,
                            String, Text)

from ..forms import NAMES, names_with
from ..reader import block_end, scan

SPECIAL_FORMS = frozenset(NAMES)

DEFINERS = frozenset(n for syntax in ('define', 'def', 'defmacro', 'defrust', 'defrust*')
                     for n in names_with(syntax))
ESCAPE = re.compile(r'\\[\s\S]?')

_builtins: frozenset | None = None


def builtin_names() -> frozenset:
    """Names bound by the builtin tables and the standard library (computed
    once, from the table index and the library's definitions: no table
    module imported, no library form decoded)."""
    global _builtins
    if _builtins is None:
        from ..runtime import LIBRARY_PRIMITIVES, stdlib_file, table_index
        names = set()
        for module, table_names in table_index():
            if module != LIBRARY_PRIMITIVES:        # the library's own, not the program's
                names.update(table_names)
        forms = stdlib_file()
        for i in range(len(forms)):
            head = forms.head(i)
            if head is not None and head[0] in DEFINERS:
                names.add(head[1])
        _builtins = frozenset(names)
    return _builtins


class RustyLexer(Lexer):
    """Lexer for rusty, the Python-hosted Lisp with a rustc JIT."""

    name = 'rusty'
    aliases = ['rusty']
    filenames = ['*.rsy']
    alias_filenames = ['*.lisp']   # secondary: other Lisps keep *.lisp (pygmentize -N)
    mimetypes = ['text/x-rusty']
    url = 'https://example.invalid/rusty'

    def __init__(self, **options):
        super().__init__(**options)
        self.builtins = options.get('builtins')

    def get_tokens_unprocessed(self, text):
        builtins = self.builtins
        pos, n = 0, len(text)
        after_open = False   # the symbol right after '(' is a list head
        quoted = 0           # open sugar waiting for its datum
        defining = False     # the next symbol is a name being defined
        while pos < n:
            kind, end = scan(text, pos)
            tok = text[pos:end]
            if kind == 'block':             # nestable #| |#, to the end if unclosed
                end = block_end(text, end)
                end = n if end < 0 else end
                yield pos, Comment.Multiline, text[pos:end]
                pos = end
                continue
            if kind == 'ws':
                yield pos, Text.Whitespace, tok
            elif kind == 'comment':
                yield pos, Comment.Single, tok
            elif kind == 'datum':
                yield pos, Comment.Special, tok
            elif kind == 'open' or kind == 'vopen':
                yield pos, Punctuation, tok
            elif kind == 'close':
                yield pos, Punctuation, tok
            elif kind == 'sugar':
                yield pos, Operator, tok
            elif kind == 'str':
                yield from _string(pos, tok)
            elif kind == 'bool':
                yield pos, Keyword.Constant, tok
            elif kind == 'num' and tok.count('.') <= 1:
                yield pos, Number, tok
            else:
                if builtins is None:
                    builtins = builtin_names()
                yield pos, self._symbol(tok, builtins, after_open, quoted, defining), tok
            if kind not in ('ws', 'comment', 'datum'):
                defining = (kind == 'sym' and after_open and tok in DEFINERS) or \
                           (defining and kind == 'open')
                after_open = kind == 'open'
                quoted = 1 if kind == 'sugar' and tok == "'" else 0
            pos = end

    @staticmethod
    def _symbol(tok, builtins, head, quoted, defining):
        if quoted:
            return String.Symbol
        if defining:
            return Name.Function
        if head and tok in SPECIAL_FORMS:
            return Keyword
        if tok in builtins:
            return Name.Builtin
        if tok in SPECIAL_FORMS:
            return Keyword
        return Name


def _string(pos, tok):
    """A string token split into plain text and escapes."""
    last = 0
    for m in ESCAPE.finditer(tok):
        if m.start() > last:
            yield pos + last, String, tok[last:m.start()]
        yield pos + m.start(), String.Escape, m.group()
        last = m.end()
    if last < len(tok):
        yield pos + last, String, tok[last:]
