"""The walk of one unit's forms: definitions, occurrences, scopes and problems.

Names are judged against a Context, what the whole document defines at top
level (found by a cheap scan of each unit, `top_level`), so a unit's walk
depends only on its text and the Context, and is kept while both stay.
Problems are worded as running the program words them: an unbound name gets
the suggestion an `Undefined` error carries, a call with the wrong number of
arguments apply's message and hint; a mistake gets one diagnostic (the
arguments of a call whose head is unbound are not judged).
"""
from __future__ import annotations

import time

from .. import forms as form_table
from ..apply import builtin_arity_message, lambda_arity_error
from ..errors import RustyError
from ..resolve import body_defines
from ..spelling import spelling
from ..suggest import undefined_message
from ..values import EMPTY, Builtin, Lambda, List, Macro, Symbol
from . import walks
from .facts import Definition, Diagnostic, Occurrence
from .units import offset_of

FORM_OF = form_table.BY_NAME
MAX_EXPANSIONS = 2000       # macro expansions per analysis
MAX_EXPANSION_NESTING = 40  # an expansion inside an expansion inside …
DOT = '.'
MACROS = '\0macros'                # Walker.deps keys that are no names
UNKNOWN_LOADS = '\0unknown-loads'
IMPORT = walks.IMPORT


class Stop(Exception):
    """The walk ran out of its budget."""


# ── What each unit defines at top level ──────────────────────────────────

class TopLevel:
    """A unit's top-level facts: names defined (with counts), names assigned,
    function parameters, macros (with their text), loads and imports."""

    def __init__(self):
        self.defines: list = []
        self.assigned: set = set()
        self.functions: dict = {}       # name -> (param symbols, rest symbol or None)
        self.macros: dict = {}          # name -> (param symbols, rest, text)
        self.loads: list = []           # (path, span, relative) / (None, span, None) when not a literal
        self.imports: set = set()


def top_level(unit) -> TopLevel:
    """The unit's TopLevel (found once per unit)."""
    if unit.pre is None:
        t = TopLevel()
        for form, span in unit.forms:
            t.defines += [s.name for s in body_defines([form])]
            _scan(t, unit, form, span)
        unit.pre = t
    return unit.pre


def _scan(t: TopLevel, unit, form, span):
    if form.__class__ is not List or form is EMPTY or form.car.__class__ is not Symbol:
        return
    name = form.car.name
    cells = list(form.cells())
    if name == IMPORT:
        t.imports |= walks.imported_names(form)
        return
    f = FORM_OF.get(name)
    if f is None:
        return
    if f.name in ('begin', 'eval-when'):
        for c in cells[1:]:
            _scan(t, unit, c.car, c.span or span)
    elif f.syntax == 'load':
        arg = cells[1].car if len(cells) > 1 else None
        t.loads.append((arg, span, f.name == 'load-relative') if arg.__class__ is str else (None, span, None))
    elif f.syntax == 'assign' and len(cells) > 1 and cells[1].car.__class__ is Symbol:
        t.assigned.add(cells[1].car.name)
    elif f.syntax == 'defmacro' and len(cells) >= 3 and cells[1].car.__class__ is Symbol:
        start = offset_of(unit.text, span.line - unit.base + 1, span.col)
        end = offset_of(unit.text, span.end_line - unit.base + 1, span.end_col)
        t.macros[cells[1].car.name] = parameters(cells[2].car) + (unit.text[start:end],)
    elif f.syntax in ('define', 'def') and len(cells) >= 3:
        target = cells[1].car
        if target.__class__ is List and target is not EMPTY and target.car.__class__ is Symbol:
            t.functions[target.car.name] = parameters(target.cdr)
        elif target.__class__ is Symbol and f.syntax == 'def' and len(cells) >= 4 and \
                cells[2].car.__class__ in (List, Symbol):
            t.functions[target.name] = parameters(cells[2].car)
        elif target.__class__ is Symbol and _is_lambda(cells[2].car):
            t.functions[target.name] = parameters(cells[2].car.cdr.car)


def _is_lambda(x) -> bool:
    return (x.__class__ is List and x is not EMPTY and x.car.__class__ is Symbol
            and x.car.name in ('lambda', 'fn', 'λ') and x.cdr is not EMPTY)


def parameters(params) -> tuple:
    """(parameter symbols, rest symbol or None) of a parameter form."""
    if params.__class__ is Symbol:
        return (), params
    if params.__class__ is not List:
        return (), None
    names = [p for p in params if p.__class__ is Symbol]
    for i, p in enumerate(names):
        if p.name == DOT:
            return tuple(names[:i]), (names[i + 1] if i + 1 < len(names) else None)
    return tuple(names), None


class Context:
    """What the whole document defines at top level, from its units' TopLevels."""

    def __init__(self, tops: list, extra_globals: dict, unknown_loads: bool):
        counts: dict = {}
        self.functions: dict = {}
        self.macros: dict = {}
        self.imports: set = set()
        assigned: set = set()
        for t in tops:
            for n in t.defines:
                counts[n] = counts.get(n, 0) + 1
            assigned |= t.assigned
            self.functions.update(t.functions)
            self.macros.update(t.macros)
            self.imports |= t.imports
        self.top_names = set(counts)
        self.redefined = {n for n, k in counts.items() if k > 1} | assigned
        self.extra_globals = extra_globals
        self.unknown_loads = unknown_loads
        self.macro_texts = tuple(m[2] for t in tops for m in t.macros.values()) or None
        self._described: dict = {}
        self.key = hash((frozenset(self.top_names), frozenset(self.redefined), frozenset(self.functions.items()),
                         self.macro_texts, frozenset(extra_globals), unknown_loads, frozenset(self.imports)))

    def describe(self, name: str) -> tuple:
        """What the document says of a name: (defined at top level, defined more
        than once or assigned, its parameters if a function, its parameters if a
        macro, defined by a loaded file, bound by an import)."""
        found = self._described.get(name)
        if found is None:
            m = self.macros.get(name)
            imported = (name in self.imports or spelling(name, ()) is not None      # :key, .method
                        or (DOT in name and not name.startswith(DOT) and name.split(DOT)[0] in self.imports))
            found = self._described[name] = (name in self.top_names, name in self.redefined,
                                              self.functions.get(name), None if m is None else m[:2],
                                              name in self.extra_globals, imported)
        return found

    def satisfies(self, deps: dict) -> bool:
        """Whether every answer a unit's walk depended on (Walker.deps) is still this context's."""
        for name, answer in deps.items():
            if name == MACROS:
                now = self.macro_texts
            elif name == UNKNOWN_LOADS:
                now = self.unknown_loads
            else:
                now = self.describe(name)
            if now != answer:
                return False
        return True


# ── The walk ─────────────────────────────────────────────────────────────

class Walker:
    """Walks the forms of one unit after another, into each unit's Facts (see the module docstring)."""

    def __init__(self, ctx: Context, known, expansions, budget, deadline: float, file: str, facts):
        self.ctx = ctx
        self.known = known
        self.expansions = expansions
        self.budget = budget
        self.deadline = deadline
        self.file = file
        self.facts = facts
        self.ticks = 0
        self.expanded = 0
        self.expanding = 0
        self.lenient = 0          # >0: inside code whose names we cannot judge
        self.deps: dict | None = {}     # what the walk of this unit asked the context (None: everything)
        self.origins: dict = {}         # id of a list in a macro call -> where it was written

    def fact(self, name: str) -> tuple:
        """The context's answer about a global name, recorded as something this unit depends on."""
        answer = self.ctx.describe(name)
        if self.deps is not None:
            self.deps[name] = answer
        return answer

    def depend(self, key: str, value) -> None:
        if self.deps is not None:
            self.deps[key] = value

    def tick(self):
        self.ticks += 1
        if self.ticks & 255 == 0 and time.monotonic() - self.budget.spent > self.deadline:
            raise Stop()

    def walk_form(self, form, span, unit_ctx):
        problem = syntax_problem(form, span, unit_ctx) if unit_ctx is not None else None
        if problem is not None:
            self.facts.diagnostics.append(Diagnostic(problem.span, problem.message, 'error'))
        saved = self.lenient, self.expanding
        self.lenient += problem is not None
        try:
            self.walk(form, span, [], 0)
        except RecursionError:      # nesting the depth bound did not catch: leave this form unjudged
            pass
        finally:
            self.lenient, self.expanding = saved

    # ── Names ──

    def bound(self, name: str, scopes: list) -> str | None:
        """'local', 'global' or None (unbound)."""
        head = name.split(DOT)[0] if DOT in name and not name.startswith(DOT) else None
        for names in reversed(scopes):
            if name in names:
                return 'local'
            if head is not None and head in names and names[head].kind == 'import':
                return 'local'
        f = self.fact(name)
        if f[0] or f[4] or f[5] or name in self.known.names or name in self.known.special:
            return 'global'
        return None

    def local(self, name: str, scopes: list):
        for names in reversed(scopes):
            d = names.get(name)
            if d is not None:
                return d
        return None

    def reference(self, s: Symbol, span, scopes: list):
        """A symbol read as a variable."""
        kind = self.bound(s.name, scopes)
        if span is not None and span.file == self.file:
            self.facts.occurrences.append(Occurrence(span, s.name, self.local(s.name, scopes)))
            self.depend(UNKNOWN_LOADS, self.ctx.unknown_loads)
            if kind is None and not self.ctx.unknown_loads and not self.lenient:
                self.deps = None        # the suggestion depends on every name
                self.problem(span, undefined_message(s.name, self.candidates(scopes)))
        return kind

    def candidates(self, scopes) -> list:
        ctx = self.ctx
        return list(self.known.special) + list(self.known.names) + list(ctx.top_names) \
            + list(ctx.extra_globals) + list(ctx.imports) + [n for names in scopes for n in names]

    def bind(self, s, span, scopes: list, kind: str, form_span=None, sig=None, doc=None):
        """A binder occurrence: record it in the innermost scope (or globally)."""
        if s.__class__ is not Symbol or s.name == DOT:
            return None
        d = Definition(s.name, kind, span, form_span or span, sig, doc)
        if scopes:
            scopes[-1][s.name] = d
        else:
            self.facts.globals.setdefault(s.name, d)
        if span is not None and span.file == self.file:
            self.facts.occurrences.append(Occurrence(span, s.name, d if scopes else None))
        return d

    def new_scope(self, span, scopes: list) -> list:
        names: dict = {}
        if span is not None:
            self.facts.scopes.append((span, names))
        return scopes + [names]

    def problem(self, span, message: str):
        """A diagnostic, unless the code is not ours to judge or has no place."""
        if not self.lenient and span is not None and span.file == self.file:
            d = Diagnostic(span, message, 'error')
            if d not in self.facts.diagnostics[-4:]:       # code a macro repeats is one mistake
                self.facts.diagnostics.append(d)

    # ── Forms ──

    def walk(self, x, span, scopes: list, depth: int):
        """x as code, at `span`."""
        self.tick()
        cls = x.__class__
        if cls is Symbol:
            self.reference(x, span, scopes)
            return
        if cls is not List or x is EMPTY or depth > walks.MAX_DEPTH:
            return
        head = x.car
        if head.__class__ is Symbol:
            kind = self.bound(head.name, scopes)
            if kind != 'local' and not self.fact(head.name)[0]:
                f = FORM_OF.get(head.name)
                if f is not None or head.name == IMPORT:
                    if x.span is not None and x.span.file == self.file:
                        self.facts.occurrences.append(Occurrence(x.span, head.name, None))
                    walk = walks.SYNTAX_WALKS.get(f.syntax if f is not None else IMPORT, walks._walk_sequence)
                    walk(self, f, x, span, scopes, depth + 1)
                    return
            if kind != 'local':
                macro = self.macro(head.name)
                if macro is not None:
                    self.macro_call(macro, x, span, scopes, depth + 1)
                    return
            if kind is None:            # one diagnostic: the unbound head, its arguments not judged
                head_span = x.span if x.span is not None else span
                self.reference(head, head_span, scopes)
                self.lenient += 1
                try:
                    self.walk_items(x.cdr.cells(), span, scopes, depth + 1)
                finally:
                    self.lenient -= 1
                return
            if kind == 'global':
                self.check_arity(head.name, x, span)
        self.walk_items(x.cells(), span, scopes, depth + 1)

    def walk_items(self, cells, span, scopes, depth):
        expanding = self.expanding
        for c in cells:
            if expanding:       # code the macro made has no place; the call's own parts keep theirs
                sp = c.span
                if sp is None and c.car.__class__ is List:
                    sp = self.origins.get(id(c.car))
                self.walk(c.car, sp, scopes, depth)
            else:
                self.walk(c.car, c.span or span, scopes, depth)

    def note_origins(self, x) -> None:
        """Where each list inside macro call x was written (an expansion moves them into new cells)."""
        stack = [x]
        while stack:
            y = stack.pop()
            for c in y.cells():
                if c.car.__class__ is List and c.car is not EMPTY:
                    if c.span is not None and id(c.car) not in self.origins:
                        self.origins[id(c.car)] = c.span
                    stack.append(c.car)

    def macro(self, name: str):
        """(name, params, rest, defs): a macro of the document (defs: its
        macros' texts) or of the standard library (defs None), or None."""
        f = self.fact(name)
        if f[0]:
            if f[3] is None:
                return None
            self.depend(MACROS, self.ctx.macro_texts)
            return name, f[3][0], f[3][1], self.ctx.macro_texts
        v = self.known.value(name)
        if v.__class__ is Macro:
            return name, v.params, v.rest, None
        return None

    def macro_call(self, m, x, span, scopes, depth):
        """Expand the call and walk the expansion; if it cannot be expanded,
        walk the arguments without judging their names."""
        name, params, rest, defs = m
        if x.span is not None and x.span.file == self.file:
            self.facts.occurrences.append(Occurrence(x.span, name, None))
        err = lambda_arity_error(name, params, rest, len(x) - 1)
        if err is not None:
            self.problem(span, diagnostic_text(err))
            return
        expansion = None
        if self.expanded < MAX_EXPANSIONS and self.expanding < MAX_EXPANSION_NESTING:
            self.expanded += 1
            expansion, refused = self.expansions.expand(defs, x, self.budget)
            if refused is not None:
                from .restricted import REFUSAL
                self.problem(span, 'macro %s: %s' % (name, REFUSAL % refused))
        if expansion is None:
            self.lenient += 1
            try:
                self.walk_items(x.cdr.cells(), span, scopes, depth)
            finally:
                self.lenient -= 1
            return
        self.note_origins(x)
        self.expanding += 1     # code the macro made has no spans: only the parts the call wrote do
        try:
            self.walk(expansion, self.origins.get(id(expansion)), scopes, depth)
        finally:
            self.expanding -= 1

    def check_arity(self, name: str, x, span):
        """A call of a known global function with the wrong number of arguments."""
        f = self.fact(name)
        if f[1]:
            return
        n = len(x) - 1
        if f[2] is not None:
            params, rest = f[2]
            err = lambda_arity_error(name, params, rest, n)
            message = diagnostic_text(err) if err is not None else None
        elif f[0] or f[4] or f[5]:
            return
        else:
            v = self.known.value(name)
            if v.__class__ is Builtin:
                message = builtin_arity_message(v, n) if not v.lo <= n <= v.hi else None
            elif v.__class__ is Lambda:
                err = lambda_arity_error(v.name, v.params, v.rest, n)
                message = diagnostic_text(err) if err is not None else None
            else:
                return
        if message is not None:
            self.problem(span, message)


def diagnostic_text(err: RustyError) -> str:
    """An error's message and its hints, as a report shows them."""
    return '\n'.join([err.message] + ['hint: ' + h for h in err.hints])


# ── The shape of special forms ───────────────────────────────────────────

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
        if x.__class__ is not List or x is EMPTY or depth > walks.MAX_DEPTH:
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

