"""The editor features over an analysis, in rusty's own terms (1-based
lines and columns counted in characters, as spans are): hover text,
completion candidates, the call around the cursor, range formatting. The
server (server.py) turns them into the protocol's shapes; nothing here
needs pygls.
"""
from __future__ import annotations

import re

from .. import docs, forms as form_table
from ..errors import ReadError
from ..fmt import fmt_string
from ..reader import tokens
from ..values import Builtin, Lambda, Macro, Native, NativeGrad
from .analysis import Analysis, Definition, Globals, offset_of

SYMBOL_CHARS = re.compile(r'''[^\s()'"`,;]+''')
BACK_LINES = 2000       # how far back the call around the cursor is looked for


# ── The word under the cursor ────────────────────────────────────────────

def line_text(text: str, line: int) -> str:
    start = offset_of(text, line, 1)
    end = text.find('\n', start)
    return text[start:] if end < 0 else text[start:end]


def word_at(text: str, line: int, col: int) -> tuple[str, int] | None:
    """(the symbol-like word at or just before 1-based (line, col), its first column)."""
    src = line_text(text, line)
    for m in SYMBOL_CHARS.finditer(src):
        if m.start() + 1 <= col <= m.end() + 1:
            return m.group(), m.start() + 1
        if m.start() + 1 > col:
            break
    return None


def prefix_at(text: str, line: int, col: int) -> str:
    """The part of a symbol typed before the cursor."""
    src = line_text(text, line)[:col - 1]
    m = re.search(r'''[^\s()'"`,;]*$''', src)
    return m.group() if m else ''


# ── Describing a name ────────────────────────────────────────────────────

KIND_WORDS = {'function': 'function', 'variable': 'variable', 'macro': 'macro', 'native': 'native function',
              'parameter': 'parameter', 'local': 'local variable'}


def describe_definition(d: Definition) -> str:
    """Markdown for a binding the document (or a file it loads) makes."""
    head = d.sig or d.name
    where = '' if d.span is None else ' — %s:%d' % (_short(d.span.file), d.span.line)
    out = ['```rusty\n%s\n```' % head, '*%s*%s' % (KIND_WORDS.get(d.kind, d.kind), where)]
    if d.doc:
        out.append(_doc_markdown(parse_docstring(d.doc)))
    return '\n\n'.join(out)


def parse_docstring(text: str):
    """A docstring as docs.Doc: its first line is the signature only when it is
    written as one (starts with '('); otherwise every line is prose or example."""
    return docs.parse_doc(text if text.startswith('(') else '\n' + text)


def describe_global(known: Globals, name: str) -> str | None:
    """Markdown for a special form or a global the program starts with."""
    if name not in known.special and name not in known.names:
        return None
    entry = docs.entry(known.session, name)
    kind = 'special form' if name in known.special else _value_kind(known.value(name))
    if entry is None:
        return '```rusty\n%s\n```\n\n*%s*' % (name, kind)
    return '```rusty\n%s\n```\n\n*%s*\n\n%s' % (entry.sig, kind, _doc_markdown(entry))


def signature_of(known: Globals, a: Analysis | None, name: str) -> tuple[str, str] | None:
    """(signature, documentation) of a callable name, or None."""
    if a is not None:
        d = a.globals.get(name)
        if d is not None:
            return (d.sig, d.doc or '') if d.sig else None
    if name in known.special or name in known.names:
        e = docs.entry(known.session, name)
        if e is not None:
            return e.sig, e.text
    return None


def _value_kind(v) -> str:
    cls = v.__class__
    if cls is Builtin:
        return 'builtin'
    if cls is Lambda:
        return 'library function'
    if cls is Macro:
        return 'macro'
    if cls is Native or cls is NativeGrad:
        return 'native function'
    return 'global variable'


def _doc_markdown(d) -> str:
    out = [d.text] if d.text else []
    if d.examples:
        out.append('```rusty\n%s\n```' % '\n'.join(
            '%s%s%s' % (expr, docs.ARROW, result) for expr, result in d.examples))
    return '\n\n'.join(out)


def _short(path: str) -> str:
    return path.rsplit('/', 1)[-1]


# ── Completion ───────────────────────────────────────────────────────────

def completions(known: Globals, a: Analysis | None, line: int, col: int):
    """(name, kind, detail) for every name that can stand at (line, col) and
    starts with what is typed there: locals in scope, the document's
    globals, then the program's starting globals and the special forms."""
    prefix = prefix_at(a.text, line, col) if a is not None else ''
    if a is not None and inside_import(a, prefix, line, col):
        return []
    seen = set()
    out = []

    def add(name, kind, detail):
        if name not in seen and name.startswith(prefix):
            seen.add(name)
            out.append((name, kind, detail))
    if a is not None:
        for name, d in sorted(a.locals_at(line, col).items()):
            add(name, 'local', d.sig or KIND_WORDS.get(d.kind, d.kind))
        for name, d in sorted(a.globals.items()):
            add(name, d.kind, d.sig or KIND_WORDS.get(d.kind, d.kind))
    for name in form_table.NAMES:
        add(name, 'special', form_table.BY_NAME[name].sig.split(' | ')[0])
    for name in sorted(known.names):
        if not name.startswith(prefix):
            continue
        v = known.value(name)
        sig = getattr(v, 'sig', None) or _lambda_sig(name, v)
        add(name, _value_kind(v), sig or _value_kind(v))
    return out


def inside_import(a: Analysis, prefix: str, line: int, col: int) -> bool:
    """Whether the cursor is in a name bound by import (`np.ze`: the server
    imports nothing, so it knows no module's names) or in an import form."""
    if '.' in prefix and prefix.split('.')[0] in a.imports:
        return True
    call = enclosing_call(a.text, line, col)
    return call is not None and call[0] == 'import'


def _lambda_sig(name, v) -> str | None:
    if v.__class__ is Lambda or v.__class__ is Macro:
        text = docs.docstring(v)
        if text and text.startswith('('):
            return text.split('\n', 1)[0]
        params = ' '.join(p.name for p in v.params) + (' . ' + v.rest.name if v.rest is not None else '')
        return '(%s%s)' % (name, ' ' + params if params.strip() else '')
    return None


# ── The call around the cursor ───────────────────────────────────────────

def enclosing_call(text: str, line: int, col: int) -> tuple[str, int] | None:
    """(head name, index of the argument at the cursor) of the innermost
    call the cursor is in, looking back at most BACK_LINES lines to a line
    that starts with '(' (a top-level form, in formatted code)."""
    end = offset_of(text, line, col)
    start_line = line
    while start_line > max(1, line - BACK_LINES):
        if line_text(text, start_line).startswith('('):
            break
        start_line -= 1
    chunk = text[offset_of(text, start_line, 1):end]
    stack: list[list] = []      # [head or None, elements so far]
    last_kind = None
    for kind, tok, _span in tokens(chunk):
        last_kind = kind
        if kind == 'open':
            if stack:
                stack[-1][1] += 1
            stack.append([None, 0])
        elif kind == 'close':
            if stack:
                stack.pop()
        elif kind in ('sugar', 'datum', 'unclosed'):
            continue
        elif stack:
            top = stack[-1]
            if top[1] == 0 and kind == 'sym':
                top[0] = tok
            top[1] += 1
    while stack and stack[-1][0] is None:
        stack.pop()
    if not stack:
        return None
    head, count = stack[-1]
    typing = last_kind not in (None, 'open', 'close') and chunk and not chunk[-1].isspace()
    index = count - 1 if not typing else count - 2
    return head, max(index, 0)


def parameters(sig: str) -> list[tuple[int, int]]:
    """The [start, end) offsets of each parameter in a signature's first alternative."""
    first = sig.split(' | ')[0]
    out = []
    depth = 0
    i = 0
    start = None
    body = first.find(' ')
    if not first.startswith('(') or body < 0:
        return out
    i = body + 1
    while i < len(first):
        c = first[i]
        if start is None and c not in ' )':
            start = i
            depth = 0
        if start is not None:
            if c in '([':
                depth += 1
            elif c in ')]':
                if depth == 0:
                    out.append((start, i))
                    start = None
                    break
                depth -= 1
            elif c == ' ' and depth == 0:
                out.append((start, i))
                start = None
        i += 1
    return out


# ── Formatting ───────────────────────────────────────────────────────────

def format_range(a: Analysis, first_line: int, last_line: int) -> tuple[int, int, str] | None:
    """(first line, last line, new text) replacing whole lines: the top-level
    forms the 1-based line range touches, formatted; None if they do not parse."""
    lo, hi = None, None
    for _form, span in a.forms:
        if span.end_line >= first_line and span.line <= last_line:
            lo = span.line if lo is None else min(lo, span.line)
            hi = span.end_line if hi is None else max(hi, span.end_line)
    if lo is None:
        return None
    lines = a.text.split('\n')
    chunk = '\n'.join(lines[lo - 1:hi]) + '\n'
    try:
        return lo, hi, fmt_string(chunk, a.file)
    except ReadError:
        return None


def format_document(text: str, file: str) -> str | None:
    """The whole text formatted, or None if it does not parse."""
    try:
        return fmt_string(text, file)
    except ReadError:
        return None
