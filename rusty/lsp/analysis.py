"""What an editor needs to know about a program text, found without running it.

One walk over the reader's forms (spans included) records every definition,
every symbol occurrence and the binding it refers to, the local scopes, the
files named by `load`, and the problems worth a diagnostic: read errors,
malformed special forms, unbound names (with the suggestion an `Undefined`
error would carry) and calls of known globals with the wrong number of
arguments. The special forms are walked by their syntax class in the forms
table; a macro call is expanded first (the standard library's macros, and the
document's own `defmacro`s, the only user code this ever runs).

The work is bounded: a walk that runs past its time budget stops where it is
and the analysis says it is partial; nesting deeper than MAX_DEPTH is not
looked into.
"""
from __future__ import annotations

import bisect
import os
import time
from collections import namedtuple

from .. import forms as form_table
from ..apply import builtin_arity_message
from ..errors import ReadError, RustyError, Span
from ..reader import read
from ..resolve import body_defines
from ..suggest import undefined_message
from ..values import EMPTY, Builtin, Lambda, List, Macro, Symbol

MAX_DEPTH = 150             # nesting looked into (deeper code is not judged)
MAX_EXPANSIONS = 2000       # macro expansions per analysis
MAX_EXPANSION_NESTING = 40  # an expansion inside an expansion inside …
BUDGET = 2.0                # seconds of walking per analysis
MACRO_TIMEOUT = 0.5         # seconds a macro body may run before it is interrupted
MAX_CUTS = 6               # tries at reading the part of a broken text before its error

# A binding an editor can point at. kind: function, variable, macro, native,
# parameter, local; `sig` is a call signature or None; `doc` a docstring or None.
Definition = namedtuple('Definition', 'name kind span form_span sig doc')
Diagnostic = namedtuple('Diagnostic', 'span message severity')   # severity: error, warning
Occurrence = namedtuple('Occurrence', 'span name binding')       # binding: a Definition or None (a global)

FORM_OF = form_table.BY_NAME   # name -> its row
ELSE = 'else'
UNDERSCORE = '_'
DOT = '.'


class Analysis:
    """The facts about one text (see the module docstring)."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.error: RustyError | None = None     # the read error, if the text does not parse
        self.forms: list = []                     # (form, span) of the top-level forms read
        self.globals: dict[str, Definition] = {}  # the document's own global definitions (first of each)
        self.arities: dict[str, tuple] = {}       # function name -> (required, has rest), defined once
        self.symbols: list[Definition] = []       # top-level definitions, in order
        self.occurrences: list[Occurrence] = []
        self.scopes: list[tuple] = []             # (span, {name: Definition}) of each local scope
        self.loads: list[tuple] = []              # (path as written, span, relative?)
        self.diagnostics: list[Diagnostic] = []
        self.partial = False                      # the walk stopped at its budget
        self._keys: list | None = None

    # ── Queries ──

    def occurrence_at(self, line: int, col: int) -> Occurrence | None:
        """The symbol occurrence covering 1-based (line, col), or None."""
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

    def locals_at(self, line: int, col: int) -> dict[str, Definition]:
        """The local bindings visible at (line, col), innermost winning."""
        found: list[tuple] = []
        for span, names in self.scopes:
            if contains(span, line, col):
                found.append((span, names))
        found.sort(key=lambda sn: (sn[0].line, sn[0].col))
        out: dict[str, Definition] = {}
        for _span, names in found:
            out.update(names)
        return out


def contains(span: Span, line: int, col: int) -> bool:
    """Whether 1-based (line, col) lies within span (its end included, for a cursor just after)."""
    if line < span.line or line > span.end_line:
        return False
    if line == span.line and col < span.col:
        return False
    return not (line == span.end_line and col > span.end_col)


# ── Knowledge of the globals a program starts with ───────────────────────

class Globals:
    """The names bound before a program runs (builtins, the standard library),
    from a session of the runtime, plus macro expansion in it."""

    def __init__(self, session):
        self.session = session
        self.names = frozenset(session.global_names())
        self.special = frozenset(form_table.NAMES)
        self._values: dict = {}

    def value(self, name: str):
        if name not in self.names:
            return None
        if name not in self._values:
            self._values[name] = self.session.global_value(name)
        return self._values[name]


def session_globals():
    """A Globals over a fresh session (its output goes nowhere)."""
    import io
    from ..runtime import Session
    return Globals(Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO()))


# ── Reading ──────────────────────────────────────────────────────────────

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


def syntax_problem(form, span, unit):
    """The first malformed special form in a top-level form, as a rusty error
    with its span, or None: the syntax check a program gets when it is read in
    (`rusty.syntax.check`, nested lambda bodies and all), then each special
    form handed to its compile function (which runs nothing) for the kinds of
    parts only the compiler judges."""
    from .. import syntax
    try:
        syntax.check(form, span, unit.genv.is_macro)
    except RustyError as e:
        return RustyError(e.message, e.span or span)
    except Exception:       # a shape the check did not expect: not ours to judge here
        pass
    return _compile_problem(form, span, unit)


def _compile_problem(form, span, unit):
    """The first special form in `form` its compile function refuses, or None."""
    from .. import eval as ev
    stack = [(form, span, 0)]
    while stack:
        x, sp, depth = stack.pop()
        if x.__class__ is not List or x is EMPTY or depth > MAX_DEPTH:
            continue
        head = x.car
        if head.__class__ is Symbol and head.name in FORM_OF and FORM_OF[head.name].syntax not in (
                'unquote', 'quote'):
            compile_form = ev.SPECIALS.get(head)
            if compile_form is not None:
                try:
                    compile_form(x, None, False, sp, unit)
                except ev.Usage as u:
                    return RustyError(u.message, sp)
                except RustyError as e:
                    return RustyError(e.message, e.span or sp)
                except Exception:       # a shape the compiler did not expect: not ours to judge here
                    pass
        if head.__class__ is Symbol and head.name in ('quote', 'quasiquote'):
            continue        # data (a template's unquoted code is checked when it is expanded)
        for c in x.cells():
            if c.car.__class__ is List:
                stack.append((c.car, c.span or sp, depth + 1))
    return None


# ── The walk ─────────────────────────────────────────────────────────────

class _Stop(Exception):
    """The walk ran out of its budget."""


def analyse(text: str, file: str, known: Globals, loaded=None, budget: float = BUDGET) -> Analysis:
    """The analysis of `text` (named `file`). `loaded(path, relative)` gives
    the global names a loaded file defines (a dict name -> Definition) or None
    when it cannot be found."""
    a = Analysis(text, file)
    forms, err = read_forms(text, file)
    if err is not None:
        a.error = err
        a.diagnostics.append(Diagnostic(err.span, err.message, 'error'))
    a.forms = [(c.car, c.span) for c in forms.cells()]
    w = _Walker(a, known, loaded, time.monotonic() + budget)
    try:
        w.run()
    except _Stop:
        a.partial = True
    return a


class _Walker:
    def __init__(self, a: Analysis, known: Globals, loaded, deadline: float):
        self.a = a
        self.known = known
        self.loaded = loaded
        self.deadline = deadline
        self.ticks = 0
        self.expansions = 0
        self.expanding = 0
        self.extra_globals: dict[str, Definition] = {}   # from loaded files
        self.lenient = 0          # >0: inside code whose names we cannot judge
        self.unknown_loads = False
        self.macro_session = None
        self.redefined: set = set()     # names the document defines more than once or assigns

    # ── Top level ──

    def run(self):
        a = self.a
        self._collect_globals()
        unit = self._unit()
        for form, span in a.forms:
            problem = syntax_problem(form, span, unit) if unit is not None else None
            if problem is not None:
                a.diagnostics.append(Diagnostic(problem.span, problem.message, 'error'))
            saved = self.lenient, self.expanding
            self.lenient += problem is not None
            try:
                self.walk(form, span, [], 0)
            except RecursionError:      # nesting the depth bound did not catch: leave this form unjudged
                pass
            finally:
                self.lenient, self.expanding = saved

    def _unit(self):
        session = getattr(self.known, 'session', None)
        return None if session is None else session.unit

    def _collect_globals(self):
        """Every name the document defines at top level (so forward references
        resolve), the files it loads, and its own macros."""
        a = self.a
        seen: dict[str, int] = {}
        for form, span in a.forms:
            for name in body_defines([form]):
                seen[name.name] = seen.get(name.name, 0) + 1
            self._scan_top(form, span)
        self.redefined = {n for n, k in seen.items() if k > 1}
        self.top_names = set(seen)

    def _scan_top(self, form, span):
        """Loads and defmacros at top level (looking into begin and eval-when)."""
        if form.__class__ is not List or form is EMPTY or form.car.__class__ is not Symbol:
            return
        f = FORM_OF.get(form.car.name)
        if f is None:
            return
        if f.syntax in ('sequence', 'eval-when') and f.name in ('begin', 'eval-when'):
            for c in form.cdr.cells():
                self._scan_top(c.car, c.span or span)
        elif f.syntax == 'load':
            arg = form.cdr.car if form.cdr is not EMPTY else None
            if arg.__class__ is str:
                self.a.loads.append((arg, span, f.name == 'load-relative'))
                names = self.loaded(arg, f.name == 'load-relative') if self.loaded else None
                if names is None:
                    self.unknown_loads = True
                else:
                    for n, d in names.items():
                        self.extra_globals.setdefault(n, d)
            else:
                self.unknown_loads = True
        elif f.syntax == 'defmacro':
            self._define_macro(form, span)

    def _define_macro(self, form, span):
        """Evaluate a top-level defmacro in a session of this analysis's own."""
        if self.known.session is None:
            return
        try:
            if self.macro_session is None:
                import io
                from ..runtime import Session
                self.macro_session = Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO())
            start = offset_of(self.a.text, span.line, span.col)
            end = offset_of(self.a.text, span.end_line, span.end_col)
            self.macro_session.run(self.a.text[start:end], self.a.file)
        except RustyError:
            pass

    # ── Budget ──

    def tick(self):
        self.ticks += 1
        if self.ticks & 255 == 0 and time.monotonic() > self.deadline:
            raise _Stop()

    # ── Names ──

    def lookup(self, name: str, scopes: list):
        """('local', Definition) / ('global', Definition or None) / (None, None)."""
        for names in reversed(scopes):
            d = names.get(name)
            if d is not None:
                return 'local', d
        d = self.a.globals.get(name)
        if d is not None or name in self.top_names:
            return 'global', d
        d = self.extra_globals.get(name)
        if d is not None:
            return 'global', d
        if name in self.known.names or name in self.known.special:
            return 'global', None
        return None, None

    def reference(self, s: Symbol, span, scopes: list):
        """A symbol read as a variable."""
        kind, d = self.lookup(s.name, scopes)
        if span is not None and span.file == self.a.file:
            self.a.occurrences.append(Occurrence(span, s.name, d))
            if kind is None and not self.unknown_loads:
                candidates = list(self.known.special) + list(self.known.names) + list(self.top_names) \
                    + list(self.extra_globals) + [n for names in scopes for n in names]
                self.problem(span, undefined_message(s.name, candidates))

    def bind(self, s, span, scopes: list, kind: str, form_span=None, sig=None, doc=None):
        """A binder occurrence: record it in the innermost scope (or globally)."""
        if s.__class__ is not Symbol or s.name == DOT:
            return None
        d = Definition(s.name, kind, span, form_span or span, sig, doc)
        if scopes:
            scopes[-1][s.name] = d
        else:
            self.a.globals.setdefault(s.name, d)
        if span is not None and span.file == self.a.file:
            self.a.occurrences.append(Occurrence(span, s.name, d))
        return d

    def new_scope(self, span, scopes: list) -> list:
        names: dict = {}
        if span is not None:
            self.a.scopes.append((span, names))
        return scopes + [names]

    # ── Forms ──

    def walk(self, x, span, scopes: list, depth: int):
        """x as code, at `span`."""
        self.tick()
        cls = x.__class__
        if cls is Symbol:
            self.reference(x, span, scopes)
            return
        if cls is not List or x is EMPTY or depth > MAX_DEPTH:
            return
        head = x.car
        if head.__class__ is Symbol and self.lookup(head.name, scopes)[0] != 'local':
            f = FORM_OF.get(head.name)
            if f is not None and head.name not in self.a.globals:
                if x.span is not None and x.span.file == self.a.file:
                    self.a.occurrences.append(Occurrence(x.span, head.name, None))
                SYNTAX_WALKS.get(f.syntax, _walk_sequence)(self, f, x, span, scopes, depth + 1)
                return
            macro = self.macro(head.name)
            if macro is not None:
                self.macro_call(macro, x, span, scopes, depth + 1)
                return
            self.check_arity(head.name, x, span, scopes)
        self.walk_items(x.cells(), span, scopes, depth + 1)

    def walk_items(self, cells, span, scopes, depth):
        expanding = self.expanding
        for c in cells:
            self.walk(c.car, c.span if expanding else (c.span or span), scopes, depth)

    def problem(self, span, message: str):
        """A diagnostic, unless the code is not ours to judge or has no place."""
        if not self.lenient and span is not None and span.file == self.a.file:
            self.a.diagnostics.append(Diagnostic(span, message, 'error'))

    def macro(self, name: str):
        if name in self.a.globals or name in self.top_names:
            if self.macro_session is None:
                return None
            m = self.macro_session.global_value(name)
            return m if m.__class__ is Macro else None
        m = self.known.value(name)
        return m if m.__class__ is Macro else None

    def macro_call(self, m: Macro, x, span, scopes, depth):
        """Expand the call and walk the expansion; if it cannot be expanded,
        walk the arguments without judging their names."""
        if x.span is not None and x.span.file == self.a.file:
            self.a.occurrences.append(Occurrence(x.span, x.car.name, self.a.globals.get(x.car.name)))
        n = len(x) - 1
        message = arity_problem(m.name, len(m.params), m.rest is not None, n)
        if message is not None:
            self.problem(span, message)
            return
        expansion = None
        if self.expansions < MAX_EXPANSIONS and self.expanding < MAX_EXPANSION_NESTING:
            self.expansions += 1
            session = self.macro_session if (self.macro_session is not None and
                                             x.car.name in self.top_names) else self.known.session
            expansion = expand(session, x)
        if expansion is None:
            self.lenient += 1
            try:
                self.walk_items(x.cdr.cells(), span, scopes, depth)
            finally:
                self.lenient -= 1
            return
        self.expanding += 1     # code the macro made has no spans: only the parts the call wrote do
        try:
            self.walk(expansion, None, scopes, depth)
        finally:
            self.expanding -= 1

    def check_arity(self, name: str, x, span, scopes):
        """A call of a known global function with the wrong number of arguments."""
        if name in self.redefined:
            return
        n = len(x) - 1
        if name in self.a.arities:
            req, rest = self.a.arities[name]
            message = arity_problem(name, req, rest, n)
        elif name in self.top_names or name in self.extra_globals:
            return
        else:
            v = self.known.value(name)
            if v.__class__ is Builtin:
                message = builtin_arity_message(v, n) if not v.lo <= n <= v.hi else None
            elif v.__class__ is Lambda:
                message = arity_problem(v.name, len(v.params), v.rest is not None, n)
            else:
                return
        if message is not None:
            self.problem(span, message)


def arity_problem(name: str, required: int, rest: bool, n: int) -> str | None:
    """The arity error of lambda or macro `name` with these parameters called
    with n args (the message applying it gives), or None."""
    if rest and n < required:
        return '%s: expected at least %d args, got %d' % (name, required, n)
    if not rest and n != required:
        return '%s: expected %d args, got %d' % (name, required, n)
    return None


def expand(session, x):
    """The expansion of macro call x in session (repeatedly, while the head is
    a macro), or None if it fails or runs longer than MACRO_TIMEOUT."""
    import threading
    timer = threading.Timer(MACRO_TIMEOUT, session.worker.interrupt)
    timer.start()
    try:
        out = session.macroexpand(x)
    except RustyError:
        return None
    finally:
        timer.cancel()
    return None if out is x else out


# ── The special forms, by syntax class ───────────────────────────────────

def _cells(x):
    return list(x.cells())


def _walk_sequence(w, f, x, span, scopes, depth):
    w.walk_items(x.cdr.cells(), span, scopes, depth)


def _walk_quote(w, f, x, span, scopes, depth):
    return None


def _walk_quasiquote(w, f, x, span, scopes, depth):
    if x.cdr is not EMPTY:
        _template(w, x.cdr.car, span, scopes, depth, 1)


def _template(w, t, span, scopes, depth, level):
    """Walk the unquoted parts of a quasiquote template."""
    if t.__class__ is not List or t is EMPTY or depth > MAX_DEPTH:
        return
    w.tick()
    head = t.car
    if head.__class__ is Symbol and head.name in ('unquote', 'unquote-splicing') and t.cdr is not EMPTY:
        if level == 1:
            c = t.cdr
            w.walk(c.car, c.span or span, scopes, depth + 1)
            return
        level -= 1
    elif head.__class__ is Symbol and head.name == 'quasiquote':
        level += 1
    for c in t.cells():
        _template(w, c.car, c.span or span, scopes, depth + 1, level)


def _walk_assign(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) >= 2 and cells[1].car.__class__ is Symbol:
        target = cells[1]
        if f.name == 'set' and w.lookup(target.car.name, scopes)[0] is None:
            w.bind(target.car, target.span, scopes, 'variable', span)
        else:
            w.lenient += f.name == 'set'
            w.reference(target.car, target.span or span, scopes)
            w.lenient -= f.name == 'set'
        if not scopes:
            w.redefined.add(target.car.name)
    w.walk_items(cells[2:], span, scopes, depth)


def _walk_cond(w, f, x, span, scopes, depth):
    for clause in x.cdr.cells():
        c = clause.car
        if c.__class__ is not List or c is EMPTY:
            w.walk(c, clause.span or span, scopes, depth)
            continue
        first = c.car
        rest = c.cells()
        if first.__class__ is Symbol and first.name == ELSE:
            next(rest)
        w.walk_items(rest, clause.span or span, scopes, depth)


def _key_then_clauses(w, x, span, scopes, depth) -> list:
    """case and match: walk the key; the cells of the clauses that are lists."""
    cells = _cells(x)
    if len(cells) < 2:
        return []
    w.walk(cells[1].car, cells[1].span or span, scopes, depth)
    return [c for c in cells[2:] if c.car.__class__ is List and c.car is not EMPTY]


def _walk_case(w, f, x, span, scopes, depth):
    for clause in _key_then_clauses(w, x, span, scopes, depth):
        w.walk_items(list(clause.car.cells())[1:], clause.span or span, scopes, depth)


def _walk_try(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) >= 2:
        w.walk(cells[1].car, cells[1].span or span, scopes, depth)
    if len(cells) >= 4:
        inner = w.new_scope(span, scopes)
        var = cells[2].car
        if var.__class__ is List:
            for v in var.cells():
                w.bind(v.car, v.span, inner, 'local', span)
        w.walk_items(cells[3:], span, inner, depth)


def _params(w, params, pspan, scopes, form_span):
    """Bind a parameter list (a list, possibly dotted, or a bare symbol)."""
    if params.__class__ is Symbol:
        w.bind(params, pspan, scopes, 'parameter', form_span)
    elif params.__class__ is List:
        for p in params.cells():
            w.bind(p.car, p.span, scopes, 'parameter', form_span)


def _body(w, cells, span, scopes, depth):
    """A body: its internal defines are visible throughout it."""
    for name in body_defines([c.car for c in cells]):
        scopes[-1].setdefault(name.name, Definition(name.name, 'local', None, span, None, None))
    w.walk_items(cells, span, scopes, depth)


def _walk_lambda(w, f, x, span, scopes, depth):
    cells = _cells(x)
    inner = w.new_scope(span, scopes)
    if len(cells) >= 2:
        _params(w, cells[1].car, cells[1].span, inner, span)
    _body(w, cells[2:], span, inner, depth)


def _bindings(w, bindings_cell, span, outer, inner, depth, sequential=False, recursive=False):
    """((name init)…): inits in `outer` (each seeing the names bound before
    it when sequential; every name when recursive), names bound in `inner`."""
    b = bindings_cell.car
    if b.__class__ is not List:
        return
    pairs = [c for c in b.cells() if c.car.__class__ is List and c.car is not EMPTY]
    if recursive:
        for c in pairs:
            w.bind(c.car.car, _first_span(c.car), inner, 'local', span)
    for c in pairs:
        pair = c.car
        init_cells = list(pair.cells())[1:]
        w.walk_items(init_cells, c.span or span, inner if (sequential or recursive) else outer, depth)
        if not recursive:
            w.bind(pair.car, _first_span(pair), inner, 'local', span)


def _first_span(x):
    """The span of a list's first element."""
    return x.span if x.__class__ is List and x is not EMPTY else None


def _walk_let(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) < 2:
        return
    inner = w.new_scope(span, scopes)
    if f.syntax == 'let' and cells[1].car.__class__ is Symbol and len(cells) >= 3:     # named let
        w.bind(cells[1].car, cells[1].span, inner, 'function', span)
        _bindings(w, cells[2], span, scopes, inner, depth)
        _body(w, cells[3:], span, inner, depth)
        return
    _bindings(w, cells[1], span, scopes, inner, depth,
              sequential=f.syntax == 'let*', recursive=f.syntax == 'letrec')
    _body(w, cells[2:], span, inner, depth)


def _walk_do(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) < 3 or cells[1].car.__class__ is not List:
        w.walk_items(cells[1:], span, scopes, depth)
        return
    inner = w.new_scope(span, scopes)
    specs = [c for c in cells[1].car.cells() if c.car.__class__ is List and c.car is not EMPTY]
    for c in specs:
        parts = list(c.car.cells())
        w.walk_items(parts[1:2], c.span or span, scopes, depth)
        w.bind(c.car.car, _first_span(c.car), inner, 'local', span)
    for c in specs:
        w.walk_items(list(c.car.cells())[2:], c.span or span, inner, depth)
    w.walk_items(cells[2:], span, inner, depth)


def _walk_match(w, f, x, span, scopes, depth):
    for clause in _key_then_clauses(w, x, span, scopes, depth):
        inner = w.new_scope(clause.span or span, scopes)
        parts = list(clause.car.cells())
        _pattern(w, parts[0].car, parts[0].span or span, inner, depth)
        _body(w, parts[1:], clause.span or span, inner, depth)


def _pattern(w, p, span, scopes, depth):
    """Bind a pattern's names; walk the predicates of its (? pred) parts."""
    if depth > MAX_DEPTH:
        return
    if p.__class__ is Symbol:
        if p.name not in (UNDERSCORE, DOT):
            w.bind(p, span, scopes, 'local', span)
        return
    if p.__class__ is not List or p is EMPTY:
        return
    head = p.car
    if head.__class__ is Symbol and head.name == 'quote':
        return
    cells = list(p.cells())
    if head.__class__ is Symbol and head.name == '?' and len(cells) == 2:
        w.walk(cells[1].car, cells[1].span or span, scopes[:-1], depth + 1)
        return
    if head.__class__ is Symbol and head.name == 'cons' and len(cells) == 3:
        cells = cells[1:]
    for c in cells:
        _pattern(w, c.car, c.span or span, scopes, depth + 1)


def _signature(name: str, params) -> str:
    """(name p …) as text, from a parameter form."""
    from ..printer import write_form
    if params.__class__ is Symbol:
        return '(%s . %s)' % (name, params.name)
    if params.__class__ is List:
        inner = ' '.join(write_form(p) for p in params)
        return '(%s%s)' % (name, ' ' + inner if inner else '')
    return '(%s)' % name


def _docstring(body_cells) -> str | None:
    if len(body_cells) > 1 and body_cells[0].car.__class__ is str:
        return body_cells[0].car
    return None


def _define_function(w, name_cell, params, pspan, body, span, scopes, depth, kind='function'):
    """A named function: the name bound where the form stands, the body a lambda."""
    name = name_cell.car
    sig = _signature(name.name, params) if name.__class__ is Symbol else None
    d = w.bind(name, name_cell.span, scopes, kind, span, sig, _docstring(body))
    if d is not None and not scopes:
        w.a.symbols.append(d)
        if kind == 'function' and name.name not in w.redefined:
            required, rest = _arity_of(params)
            w.a.arities[name.name] = (required, rest)
    inner = w.new_scope(span, scopes)
    _params(w, params, pspan, inner, span)
    _body(w, body, span, inner, depth)


def _arity_of(params) -> tuple:
    if params.__class__ is Symbol:
        return 0, True
    names = [p.name for p in params if p.__class__ is Symbol]
    if DOT in names:
        return names.index(DOT), True
    return len(names), False


def _walk_define(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) < 2:
        return
    target = cells[1].car
    if target.__class__ is List and target is not EMPTY:        # (define (f . params) body…)
        head_cell = next(target.cells())
        params = target.cdr
        if head_cell.car.__class__ is List:                      # curried: walk leniently
            w.walk_items(cells[2:], span, scopes, depth)
            return
        _define_function(w, head_cell, params, None, cells[2:], span, scopes, depth)
        return
    if f.syntax == 'def' and len(cells) >= 4 and cells[2].car.__class__ in (List, Symbol):
        _define_function(w, cells[1], cells[2].car, cells[2].span, cells[3:], span, scopes, depth)
        return
    value = cells[2].car if len(cells) > 2 else None
    if value.__class__ is List and value is not EMPTY and value.car.__class__ is Symbol and \
            value.car.name in ('lambda', 'fn', 'λ') and len(value) >= 2:
        vcells = _cells(value)
        _define_function(w, cells[1], vcells[1].car, vcells[1].span, vcells[2:], cells[2].span or span,
                         scopes, depth)
        return
    w.walk_items(cells[2:], span, scopes, depth)
    d = w.bind(target, cells[1].span, scopes, 'variable', span)
    if d is not None and not scopes:
        w.a.symbols.append(d)


def _walk_defmacro(w, f, x, span, scopes, depth):
    cells = _cells(x)
    if len(cells) < 3:
        return
    w.lenient += 1          # a macro's body builds code: its names are data until it runs
    try:
        _define_function(w, cells[1], cells[2].car, cells[2].span, cells[3:], span, scopes, depth, 'macro')
    finally:
        w.lenient -= 1


def _walk_defrust(w, f, x, span, scopes, depth):
    cells = _cells(x)
    specs = [x.cdr] if f.syntax == 'defrust' else [c.car for c in cells[1:]
                                                   if c.car.__class__ is List and c.car is not EMPTY]
    w.lenient += 1          # the native subset has names of its own
    try:
        for spec in specs:
            sc = _cells(spec) if spec.__class__ is List else []
            if len(sc) >= 2:
                _define_function(w, sc[0], sc[1].car, sc[1].span, sc[2:], span, scopes, depth, 'native')
    finally:
        w.lenient -= 1


def _walk_eval(w, f, x, span, scopes, depth):
    w.walk_items(x.cdr.cells(), span, scopes, depth)


def _walk_load(w, f, x, span, scopes, depth):
    w.walk_items(x.cdr.cells(), span, scopes, depth)


SYNTAX_WALKS = {
    'quote': _walk_quote, 'quasiquote': _walk_quasiquote, 'unquote': _walk_sequence,
    'sequence': _walk_sequence, 'assign': _walk_assign, 'cond': _walk_cond, 'case': _walk_case,
    'try': _walk_try, 'lambda': _walk_lambda, 'let': _walk_let, 'let*': _walk_let, 'letrec': _walk_let,
    'do': _walk_do, 'match': _walk_match, 'define': _walk_define, 'def': _walk_define,
    'defmacro': _walk_defmacro, 'defrust': _walk_defrust, 'defrust*': _walk_defrust,
    'eval-when': _walk_sequence, 'eval': _walk_eval, 'load': _walk_load,
}


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
