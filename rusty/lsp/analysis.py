"""What an editor needs to know about a program text, found without running it.

The text is read in units (units.py) and each unit's forms are walked
(walker.py, walks.py) against what the whole document defines at top level:
every definition, every symbol occurrence and the binding it refers to, the
local scopes, the files named by `load`, the names bound by `import`, and
the problems worth a diagnostic: read errors, malformed special forms,
unbound names (with the suggestion an `Undefined` error would carry) and
calls with the wrong number of arguments. A macro call is expanded first
(expansion.py: the standard library's macros here, the document's own in a
restricted worker process). After an edit, the units it did not touch keep
their facts while what the document defines at top level stays the same.

The work is bounded: a walk that runs past its time budget stops where it is
and the analysis says it is partial; nesting deeper than MAX_DEPTH is not
looked into.
"""
from __future__ import annotations

import os
import time

from .. import forms as form_table
from ..errors import RustyError, Span
from .expansion import Budget, Expansions
from .facts import Analysis, Definition, Diagnostic, Facts, Occurrence, contains, shifted
from .units import offset_of, read_forms, read_units
from .walker import Context, Stop, Walker, syntax_problem, top_level
from .walks import MAX_DEPTH

# what the server, the features and the tests use of the analysis
__all__ = ['Analysis', 'Definition', 'Diagnostic', 'Occurrence', 'Globals', 'RustyError', 'Span', 'BUDGET',
           'MAX_DEPTH', 'analyse', 'contains', 'load_candidates', 'offset_of', 'read_forms', 'session_globals',
           'syntax_problem']

BUDGET = 2.0                # seconds of walking per analysis (time spent expanding in the worker apart)


class Globals:
    """The names bound before a program runs (builtins, the standard library),
    from a session of the runtime, and the macro expansion analyses share."""

    def __init__(self, session):
        self.session = session
        self.names = frozenset(session.global_names())
        self.special = frozenset(form_table.NAMES)
        self._values: dict = {}
        self._expansions = None

    def value(self, name: str):
        if name not in self.names:
            return None
        if name not in self._values:
            self._values[name] = self.session.global_value(name)
        return self._values[name]

    @property
    def expansions(self) -> Expansions:
        if self._expansions is None:
            self._expansions = Expansions(self.session)
        return self._expansions


def session_globals():
    """A Globals over a fresh session (its output goes nowhere)."""
    import io
    from ..runtime import Session
    return Globals(Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO()))


def analyse(text: str, file: str, known: Globals, loaded=None, budget: float = BUDGET,
            previous: Analysis | None = None, expanding: float | None = None) -> Analysis:
    """The analysis of `text` (named `file`). `loaded(path, relative)` gives
    the global names a loaded file defines (a dict name -> Definition) or None
    when it cannot be found; `previous` is the last analysis of the same
    document, whose untouched units are kept; `expanding` the seconds its
    own macros may spend in the expansion worker (expansion.BUDGET if None)."""
    a = Analysis(text, file)
    old = None
    if previous is not None and previous.file == file:
        old = (previous.text, [(start, unit) for start, unit, _ in previous.placed])
    placed, _ = read_units(text, file, old)
    for start, unit in placed:
        if unit.error is not None:
            err = unit.error
            err = type(err)(err.message, shifted(err.span, start - unit.base))
            a.error = a.error or err
            a.diagnostics.append(Diagnostic(err.span, err.message, 'error'))
    tops = [top_level(u) for _, u in placed]
    extra, unknown = _loads(a, placed, tops, loaded)
    ctx = Context(tops, extra, unknown)
    a.arities = {n: (len(p), r is not None) for n, (p, r) in ctx.functions.items() if n not in ctx.redefined}
    a.imports = ctx.imports
    _walk_units(a, placed, ctx, known, budget, Budget() if expanding is None else Budget(expanding))
    a.assemble()
    return a


def _loads(a: Analysis, placed, tops, loaded):
    """(names the loaded files define, whether some load cannot be followed)."""
    extra: dict = {}
    unknown = False
    for (start, unit), t in zip(placed, tops):
        for path, span, relative in t.loads:
            if path is None:
                unknown = True
                continue
            a.loads.append((path, shifted(span, start - unit.base), relative))
            names = loaded(path, relative) if loaded else None
            if names is None:
                unknown = True
            else:
                for n, d in names.items():
                    extra.setdefault(n, d)
    return extra, unknown


def _walk_units(a: Analysis, placed, ctx: Context, known: Globals, budget: float, expanding: Budget) -> None:
    """Each unit's facts: kept from its last walk under the same context, else walked now."""
    unit_ctx = known.session.unit if getattr(known, 'session', None) is not None else None
    w = Walker(ctx, known, known.expansions, expanding, time.monotonic() + budget, a.file, None)
    stopped = False
    for start, unit in placed:
        kept = unit.result
        if kept is not None and (kept[0] == ctx.key or (kept[2] is not None and ctx.satisfies(kept[2]))):
            unit.result = (ctx.key,) + kept[1:]
            a.placed.append((start, unit, kept[1]))
            continue
        facts = Facts()
        if stopped:
            facts.partial = True
        else:
            a.walked += 1
            w.facts, w.deps = facts, {}
            skipped = expanding.skipped
            try:
                for form, span in unit.forms:
                    w.walk_form(form, span, unit_ctx)
                # kept unless a macro call in it waited for time this analysis no longer had
                unit.result = (ctx.key, facts, w.deps) if expanding.skipped == skipped else None
            except Stop:
                facts.partial = stopped = True
        a.placed.append((start, unit, facts))


# ── Files named by load ──────────────────────────────────────────────────

# ── Files named by load ──────────────────────────────────────────────────

def load_candidates(path: str, relative: bool, doc_file: str, roots=()) -> list[str]:
    """Where a loaded file may be: beside the document, then under each root (a
    workspace folder, the working directory) for a plain `load`."""
    if os.path.isabs(path):
        return [path]
    here = os.path.dirname(doc_file) if doc_file else ''
    out = [os.path.join(here, path)]
    if not relative:
        out += [os.path.join(r, path) for r in roots]
    return out
