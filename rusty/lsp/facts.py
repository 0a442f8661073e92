"""The facts an analysis finds, and the queries an editor asks of them.

A document is read in units (units.py: runs of lines holding whole top-level
forms). Each unit's facts (Facts) are found by walking its forms, with spans
as the unit was read; the Analysis places each unit at its line in the
current text and shifts what a query returns, so a unit an edit did not
touch keeps its facts (and its walk is not done again).
"""
from __future__ import annotations

import bisect
from collections import namedtuple

from ..errors import RustyError, Span

# A binding an editor can point at. kind: function, variable, macro, native,
# parameter, local, import; `sig` is a call signature or None; `doc` a docstring or None.
Definition = namedtuple('Definition', 'name kind span form_span sig doc')
Diagnostic = namedtuple('Diagnostic', 'span message severity')   # severity: error, warning
Occurrence = namedtuple('Occurrence', 'span name binding')       # binding: a local Definition or None


class Facts:
    """What the walk of one unit found, its spans as the unit was read."""

    def __init__(self):
        self.globals: dict[str, Definition] = {}  # the unit's global definitions (first of each)
        self.symbols: list[Definition] = []       # its top-level definitions, in order
        self.occurrences: list[Occurrence] = []
        self.scopes: list[tuple] = []             # (span, {name: Definition}) of each local scope
        self.diagnostics: list[Diagnostic] = []
        self.partial = False                      # the walk stopped at its budget inside this unit
        self._keys: list | None = None

    def occurrence_at(self, line: int, col: int) -> Occurrence | None:
        if self._keys is None:
            self.occurrences.sort(key=lambda o: (o.span.line, o.span.col))
            self._keys = [(o.span.line, o.span.col) for o in self.occurrences]
        i = bisect.bisect_right(self._keys, (line, col)) - 1
        while i >= 0:
            o = self.occurrences[i]
            if o.span.line != line:
                return None
            if o.span.col <= col <= o.span.end_col:
                return o
            i -= 1
        return None

    def scopes_at(self, line: int, col: int) -> list[tuple]:
        return [(span, names) for span, names in self.scopes if contains(span, line, col)]


def contains(span: Span, line: int, col: int) -> bool:
    """Whether 1-based (line, col) lies within span (its end included, for a cursor just after)."""
    if line < span.line or line > span.end_line:
        return False
    if line == span.line and col < span.col:
        return False
    return not (line == span.end_line and col > span.end_col)


def shifted(span: Span | None, by: int) -> Span | None:
    if span is None or by == 0:
        return span
    return Span(span.file, span.line + by, span.col, span.end_line + by, span.end_col)


def shifted_definition(d: Definition | None, by: int) -> Definition | None:
    if d is None or by == 0:
        return d
    return d._replace(span=shifted(d.span, by), form_span=shifted(d.form_span, by))


class Analysis:
    """The facts about one text: its placed units' facts, shifted to where the units stand."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.error: RustyError | None = None     # the read error, if the text does not parse
        self.placed: list = []                    # (first line, Unit, Facts) in line order
        self.arities: dict[str, tuple] = {}       # function name -> (required, has rest), defined once
        self.loads: list[tuple] = []              # (path as written, span, relative?)
        self.imports: set = set()                 # names bound by import forms
        self.diagnostics: list[Diagnostic] = []
        self.globals: dict[str, Definition] = {}
        self.symbols: list[Definition] = []
        self.partial = False                      # the walk stopped at its budget
        self.walked = 0                           # units walked for this analysis (not reused)
        self._starts: list | None = None

    def assemble(self) -> None:
        """Diagnostics, globals and symbols of the placed units, in the text's terms."""
        for start, unit, facts in self.placed:
            by = start - unit.base
            self.diagnostics += [d._replace(span=shifted(d.span, by)) for d in facts.diagnostics]
            for name, d in facts.globals.items():
                if name not in self.globals:
                    self.globals[name] = shifted_definition(d, by)
            self.symbols += [shifted_definition(d, by) for d in facts.symbols]
            self.partial = self.partial or facts.partial

    @property
    def forms(self) -> list:
        """(form, span) of each top-level form, spans where the forms stand now."""
        return [(form, shifted(span, start - unit.base)) for start, unit, _ in self.placed
                for form, span in unit.forms]

    def _unit_at(self, line: int):
        """(shift, facts) of the unit holding line, or None."""
        if self._starts is None:
            self._starts = [p[0] for p in self.placed]
        i = bisect.bisect_right(self._starts, line) - 1
        if i < 0:
            return None
        start, unit, facts = self.placed[i]
        if line >= start + unit.lines:
            return None
        return start - unit.base, facts

    # ── Queries ──

    def occurrence_at(self, line: int, col: int) -> Occurrence | None:
        """The symbol occurrence covering 1-based (line, col), or None."""
        found = self._unit_at(line)
        if found is None:
            return None
        by, facts = found
        o = facts.occurrence_at(line - by, col)
        if o is None:
            return None
        return Occurrence(shifted(o.span, by), o.name, shifted_definition(o.binding, by))

    def locals_at(self, line: int, col: int) -> dict[str, Definition]:
        """The local bindings visible at (line, col), innermost winning."""
        found = self._unit_at(line)
        if found is None:
            return {}
        by, facts = found
        scopes = facts.scopes_at(line - by, col)
        scopes.sort(key=lambda sn: (sn[0].line, sn[0].col))
        out: dict[str, Definition] = {}
        for _span, names in scopes:
            for name, d in names.items():
                out[name] = shifted_definition(d, by)
        return out
