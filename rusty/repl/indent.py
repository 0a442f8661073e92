"""Structure of the text being typed, from rusty's own tokenizer: is the input
complete, how deep is it, where does the next line start (Lisp indentation),
which parenthesis matches which. Never from Pygments tokens: a parenthesis
inside a string or comment is not a parenthesis.
"""
from __future__ import annotations

from ..forms import BODY_INDENT
from ..reader import open_depth, tokens

def is_body_form(name: str) -> bool:
    """Heads whose remaining items form a body, indented by two under the '('
    (the formatter's body table)."""
    return name in BODY_INDENT


# ── Completeness ─────────────────────────────────────────────────────────

def status(text: str) -> str:
    """'complete', 'open' (more lines needed) or 'unmatched' (a stray ')')."""
    depth, in_string = open_depth(text)
    if depth < 0:
        return 'unmatched'
    if depth > 0 or in_string:
        return 'open'
    return 'complete'


# ── Indentation ──────────────────────────────────────────────────────────

class _List:
    __slots__ = ('col', 'items', 'vector')

    def __init__(self, col, vector=False):
        self.col = col          # 0-based column of the '('
        self.items = []         # (kind, text, line, col) of each element's first token
        self.vector = vector    # a `#(` vector: data, aligned with its first element


def open_lists(text: str) -> list:
    """The lists still open at the end of text, outermost first."""
    stack = []
    for kind, tok, span in tokens(text):
        if kind == 'close':
            if stack:
                stack.pop()
            continue
        if kind == 'sugar' or kind == 'datum':
            continue    # the datum after it is the element
        if stack:
            top = stack[-1]
            top.items.append((kind, tok, span.line, span.col - 1))
        if kind == 'open':
            stack.append(_List(span.col - 1))
        elif kind == 'vopen':                   # `#(`: its '(' is the second character
            stack.append(_List(span.col, vector=True))
    return stack


def indent_for(text: str) -> int | None:
    """Columns of indentation for a new line after `text` (None inside a string)."""
    depth, in_string = open_depth(text)
    if in_string:
        return None
    stack = open_lists(text) if depth > 0 else []
    if not stack:
        return 0
    top = stack[-1]
    items = top.items
    if not items or top.vector:
        return top.col + 1
    kind, head, line, col = items[0]
    if kind == 'sym' and is_body_form(head):
        return top.col + 2
    if kind == 'open' or kind == 'vopen' or kind == 'str':
        return col
    if len(items) >= 2 and items[1][2] == line:
        return items[1][3]       # align with the first argument
    starts = [it for it, prev in zip(items[1:], items) if it[2] != prev[2]]
    if starts:
        return starts[-1][3]     # align with the last line that began with an argument
    return col


# ── Matching parentheses ─────────────────────────────────────────────────

def paren_pairs(text: str) -> dict:
    """Offset of every real parenthesis -> offset of its partner (None if unmatched)."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == '\n':
            starts.append(i + 1)
    pairs: dict = {}
    stack = []
    for kind, _tok, span in tokens(text):
        if kind == 'open' or kind == 'vopen':    # the '(' of `#(` is its second character
            stack.append(starts[span.line - 1] + span.col - (1 if kind == 'open' else 0))
        elif kind == 'close':
            off = starts[span.line - 1] + span.col - 1
            if stack:
                o = stack.pop()
                pairs[o] = off
                pairs[off] = o
            else:
                pairs[off] = None
    for o in stack:
        pairs[o] = None
    return pairs
