"""Reading a document in units, again only where an edit touched it.

A unit is a run of whole lines holding one or more whole top-level forms
(forms sharing a line share a unit). After an edit, the lines before the
first changed line and after the last one are the same text as before: the
units wholly inside them are kept (those after it move by the change in line
count), and only the lines between the kept units are read again. That is
sound because each kept unit ends where the reader stands between top-level
forms, and the lines read again must read as whole forms; when they do not
(an unclosed string or list), the whole text is read again.
"""
from __future__ import annotations

from ..errors import ReadError
from ..reader import read
from ..values import EMPTY

MAX_CUTS = 6               # tries at reading the part of a broken text before its error


class Unit:
    """Whole top-level forms on lines of their own; spans as read (line `base` is the unit's first)."""
    __slots__ = ('text', 'forms', 'base', 'lines', 'pre', 'result', 'error')

    def __init__(self, text: str, forms: list, base: int, error=None):
        self.text = text
        self.forms = forms          # [(form, span)]
        self.base = base
        self.error = error          # a ReadError (lines that do not read: the forms before it are kept)
        self.lines = text.count('\n') + (0 if text.endswith('\n') else 1)
        self.pre = None             # its top-level facts (walker.TopLevel), found once
        self.result = None          # (context key, Facts) of its last walk


def offset_of(text: str, line: int, col: int) -> int:
    """The offset in text of 1-based (line, col)."""
    pos = 0
    for _ in range(line - 1):
        nl = text.find('\n', pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return min(pos + col - 1, len(text))


def read_forms(text: str, file: str):
    """(forms, error): all top-level forms, or on a read error the forms
    before the place it points at (cutting again, at most MAX_CUTS times,
    while what is left does not read either: an unclosed form inside an
    unclosed form), and the first error."""
    try:
        return read(text, file), None
    except ReadError as e:
        err = e
    first, cut = err, len(text)
    for attempt in range(MAX_CUTS):
        if err.span is None:
            return EMPTY, first
        cut = min(cut, offset_of(text, err.span.line, err.span.col))
        if attempt == MAX_CUTS - 1:         # deep nesting: back to a line that starts a top-level form
            cut = max(text.rfind('\n(', 0, cut) + 1, 0)
        try:
            return read(text[:cut], file), first
        except ReadError as e:
            err = e
    return EMPTY, first


def split_lines(text: str) -> list:
    """The lines of text, each with its '\\n' (the reader's lines: only '\\n' ends one)."""
    parts = text.split('\n')
    out = [p + '\n' for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def group(lines: list, forms, first_line: int, reuse: dict) -> list:
    """[(first line in the document, Unit)] of read forms whose spans count
    from line 1 = document line first_line; `lines` are the document's lines
    (ends kept); a unit of the same text in `reuse` is taken instead."""
    out = []
    run: list = []
    lo = hi = 0
    for c in forms.cells():
        span = c.span
        if span is None:
            continue
        if run and span.line > hi:
            out.append(_unit(lines, run, lo, hi, first_line, reuse))
            run = []
        if not run:
            lo = span.line
        run.append((c.car, span))
        hi = max(hi, span.end_line)
    if run:
        out.append(_unit(lines, run, lo, hi, first_line, reuse))
    return out


def _unit(lines, run, lo, hi, first_line, reuse):
    start = first_line + lo - 1
    text = ''.join(lines[start - 1:start - 1 + hi - lo + 1])
    old = reuse.get(text)
    if old is not None:
        return start, old
    return start, Unit(text, run, lo)


def read_units(text: str, file: str, old=None):
    """([(first line, Unit)], read error or None) for text; `old` is the
    previous (text, placed units) of the same document, whose untouched units
    are kept."""
    lines = split_lines(text)
    reuse = {u.text: u for _, u in old[1]} if old is not None else {}
    if old is not None:
        found = _incremental(text, lines, file, old, reuse)
        if found is not None:
            return found, None
    forms, err = read_forms(text, file)
    placed = group(lines, forms, 1, reuse)
    if err is not None:
        placed = _broken_tail(lines, placed, err)
    return placed, err


def _broken_tail(lines, placed, err):
    """The units before a read error, then one unit of every line from the
    error's on (with the forms of a unit that shares its first line)."""
    from .facts import shifted
    first = err.span.line if err.span is not None else len(lines) + 1
    forms: list = []
    base = None
    if placed and placed[-1][0] + placed[-1][1].lines - 1 >= first:
        first, unit = placed.pop()
        forms, base = unit.forms, unit.base     # a unit kept from an earlier text counts from its own base
    first = max(1, min(first, len(lines)))
    base = first if base is None else base
    if err.span is not None and base != first:
        err = type(err)(err.message, shifted(err.span, base - first))
    return placed + [(first, Unit(''.join(lines[first - 1:]), forms, base, err))]


def _incremental(text, lines, file, old, reuse):
    old_text, placed = old
    old_lines = split_lines(old_text)
    n_old, n_new = len(old_lines), len(lines)
    p = 0
    top = min(n_old, n_new)
    while p < top and old_lines[p] == lines[p]:
        p += 1
    s = 0
    while s < top - p and old_lines[n_old - 1 - s] == lines[n_new - 1 - s]:
        s += 1
    for st, u in placed:            # lines that did not read are read again, with the edit
        if u.error is not None:
            p = min(p, st - 1)
            s = min(s, max(n_old - (st + u.lines - 1), 0))
    delta = n_new - n_old
    before = [(st, u) for st, u in placed if st + u.lines - 1 <= p]
    after = [(st + delta, u) for st, u in placed if st > n_old - s]
    lo = before[-1][0] + before[-1][1].lines if before else 1          # first line read again
    hi = after[0][0] - 1 if after else n_new                          # last line read again
    middle = ''.join(lines[lo - 1:hi])
    try:
        forms = read(middle, file)
    except ReadError:
        forms, err = read_forms(middle, file)
        broken = Unit(middle, [(c.car, c.span) for c in forms.cells() if c.span is not None], 1, err)
        return before + ([(lo, broken)] if middle else []) + after
    return before + group(lines, forms, lo, reuse) + after
