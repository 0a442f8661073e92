"""Syntax checking: every special form in a form has the shape its row in
the forms table (forms.py) gives it, checked before any of the form runs.

Compilation is lazy (a lambda's body is compiled when first called), so a
malformed `let` in a function that never runs would otherwise go unnoticed.
`check` walks a whole top-level form, every nested lambda body included, and
raises the usage error of the first malformed special form at that form's
span. The runtime calls it before evaluating each top-level form (batch, the
REPL, `load`, `eval-string`), on the datum `eval` is given, and on each macro
expansion when it is made; editors call it for diagnostics.

What is code follows the evaluator (eval.py and the special forms):

- a list whose head is a special-form name is that form, wherever it is:
  special forms are recognised by name and cannot be shadowed;
- quoted data is not code, nor is a quasiquote template except its
  `unquote` / `unquote-splicing` parts (not nesting-aware, as the evaluator);
- a call whose head names a macro is not checked: its arguments are data
  until the macro runs, and the expansion is checked then. A head names a
  macro when no local binding shadows it and `is_macro` says so (the
  session's globals, the library's pending macros included), or when a
  `defmacro` of that name appears earlier in the walk;
- the body of `defrust` is the native subset, checked by its compiler.

Messages: a form with too few or too many items is
`NAME: expected SIG, got N parts`, SIG being the alternative of the row's
signature that applies (`(if 1 2 3 4)` ⇒ `if: expected (if test then [else]),
got 4 parts`); a part of the wrong kind has its own message, the same one the
form's compile function gives if it ever meets that form unchecked.
"""
from .errors import EvalError
from .forms import BY_NAME, entry
from .printer import display_form
from .resolve import FORM_OF, body_defines
from .import_syntax import import_alternative, shape_attribute, shape_import
from .values import EMPTY, List, Symbol, sym

DOT = sym('.')
ELSE = sym('else')
UNQUOTES = (sym('unquote'), sym('unquote-splicing'))
QMARK = sym('?')
QUOTE = sym('quote')
CONS = sym('cons')

# Names whose messages are not the row's first name's: (prefix, signature's
# name). The other aliases speak as their row (fn and λ as lambda,
# define-macro as defmacro); load-relative's messages begin `load:`.
SPEAKERS = {'letrec*': ('letrec*', 'letrec*'), 'load-relative': ('load', 'load-relative')}


def check(form, span=None, is_macro=None, local_names=(), use_spans=True) -> None:
    """Check `form` (a read form or code made from data) before it runs.

    - `span`: the form's own span (the top-level form's, or the call whose
      expansion this is); errors inside it point at the offending sub-form's
      span when its list cell has one (and `use_spans`), else at the nearest
      enclosing one that has, else at `span`.
    - `is_macro(symbol) -> bool`: whether a global name holds a macro now
      (None: none does). A local binding of the name hides the global.
    - `local_names`: names already bound around the form (for `eval` and
      macro expansions compiled inside a function).
    - `use_spans`: False for code made from data, whose cells' spans (from
      macro arguments) are not where it was written.

    Returns None, or raises rusty.errors.EvalError(message, span) for the
    first malformed special form, walking left to right, outermost first.
    A form nested deeper than Python's recursion limit raises RecursionError
    (the runtime turns it into the recursion-limit error).
    """
    walker = _Walker(is_macro, use_spans)
    scope = (frozenset(local_names), None) if local_names else None
    try:
        walker.code(form, scope)
    except _Malformed as m:
        raise EvalError(m.message, m.span if m.span is not None else span) from None


def check_in_scope(form, span, scope, genv) -> None:
    """check() for code made from data (eval's datum, a macro expansion) that
    is compiled in resolver Scope `scope` against globals `genv`."""
    names = []
    while scope is not None:
        names.extend(scope.names)
        scope = scope.parent
    check(form, span, genv.is_macro, names, use_spans=False)


def problem(x):
    """The usage message of special form `x` if its own shape is wrong (its
    parts' kinds and counts, not the forms nested in it), else None."""
    try:
        _SHALLOW.shape(x)
    except _Malformed as m:
        return m.message
    return None


def usage_message(x) -> str:
    """The usage message of malformed special form `x` (for its compile function)."""
    return problem(x) or expected(x, 0, len(x) - 1)


def expected(x, alternative: int, parts: int) -> str:
    """`NAME: expected SIG, got N parts` for special form x and its signature's alternative."""
    prefix, own = speakers(x.car.name)
    sig = alternatives(entry(own).sig)[alternative]
    return '%s: expected %s, got %d %s' % (prefix, sig, parts, 'part' if parts == 1 else 'parts')


def speakers(name: str) -> tuple:
    """(the prefix of special form `name`'s messages, whose signature they name)."""
    found = SPEAKERS.get(name)
    if found is None:
        row = BY_NAME[name].name
        return row, row
    return found


def speaker(name: str) -> str:
    """The prefix of special form `name`'s messages."""
    return speakers(name)[0]


def alternatives(sig: str) -> list:
    """The alternatives of a signature written as forms (not `'datum` sugar)."""
    return [a for a in sig.split(' | ') if a.startswith('(')]


# ── The walk ─────────────────────────────────────────────────────────────

class _Malformed(Exception):
    """A malformed form met by the walk; `span` is filled in as it unwinds."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message = message
        self.span = span


class _Walker:
    """One check: the macro test, the macros defined so far, the span policy.
    A scope is None (top level) or (frozenset of names, outer scope)."""

    def __init__(self, is_macro, use_spans: bool):
        self.is_macro = is_macro
        self.use_spans = use_spans
        self.defined = set()        # names a defmacro met so far binds

    # Code and its parts

    def code(self, x, scope) -> None:
        """Check x as code."""
        if x.__class__ is not List or x is EMPTY:
            return
        head = x.car
        if head.__class__ is Symbol:
            form = FORM_OF.get(head)
            if form is not None and form.syntax != 'unquote':
                self.shape(x)
                walk = WALKS.get(form.syntax)
                if walk is not None:        # (a syntax with no walk: its parts are not known to be code)
                    walk(self, x, scope)
                return
            if self.names_macro(head, scope):
                return
        self.items(x, scope)

    def items(self, lst, scope) -> None:
        """Check every element of list `lst` as code."""
        cell = lst
        while cell is not EMPTY:
            try:
                self.code(cell.car, scope)
            except _Malformed as m:
                self.locate(m, cell)
                raise
            cell = cell.cdr

    def each(self, lst, fn) -> None:
        """fn(cell) for each cell of list `lst`; an error inside points at that cell's element."""
        cell = lst
        while cell is not EMPTY:
            try:
                fn(cell)
            except _Malformed as m:
                self.locate(m, cell)
                raise
            cell = cell.cdr

    def at(self, cell, scope) -> None:
        """Check the element of `cell` as code."""
        try:
            self.code(cell.car, scope)
        except _Malformed as m:
            self.locate(m, cell)
            raise

    def body(self, lst, scope, names=()) -> None:
        """Check body forms `lst` in a new frame binding `names` and its defines."""
        bound = frozenset(names).union(body_defines(lst))
        self.items(lst, (bound, scope) if bound else scope)

    def locate(self, m: _Malformed, cell) -> None:
        """Give m the span of cell's element if it has none yet."""
        if m.span is None and self.use_spans:
            m.span = cell.span

    def fail(self, message: str, cell=None):
        """Raise a malformation at the element of `cell` (or the enclosing form)."""
        m = _Malformed(message)
        if cell is not None:
            self.locate(m, cell)
        raise m

    def names_macro(self, s: Symbol, scope) -> bool:
        """True if head `s` is a macro here: not a local, and a macro globally."""
        if s not in self.defined and (self.is_macro is None or not self.is_macro(s)):
            return False
        while scope is not None:
            if s in scope[0]:
                return False
            scope = scope[1]
        return True

    # A form's own shape

    def shape(self, x) -> None:
        """Raise if special form x has the wrong number or kind of parts."""
        form = FORM_OF[x.car]
        n = len(x) - 1
        alt = CHOOSE.get(form.syntax, _first)(x, n)
        lo, hi = form.parts[alt]
        if n < lo or (hi is not None and n > hi):
            self.fail(expected(x, alt, n))
        rule = SHAPES.get(form.syntax)
        if rule is not None:
            rule(self, x)


def _first(x, n) -> int:
    return 0


def _define_alternative(x, n) -> int:
    """(define name value) or (define (name . params) body...)."""
    return 1 if n and x.cdr.car.__class__ is List else 0


def _def_alternative(x, n) -> int:
    """(def name value) or (def name (params...) body...)."""
    return 1 if n >= 3 else 0


def _let_alternative(x, n) -> int:
    """(let ((name expr)...) body...) or (let loop ((var init)...) body...)."""
    return 1 if n and x.cdr.car.__class__ is Symbol else 0


# syntax -> which alternative of the signature a form is written in
CHOOSE = {'define': _define_alternative, 'def': _def_alternative, 'let': _let_alternative,
          'import': import_alternative}


# ── Shapes: the kinds of a form's parts ──────────────────────────────────

def params_problem(p):
    """The message for a bad parameter spec (lambda, define, def), or None."""
    if p.__class__ is Symbol:
        return None
    if p.__class__ is not List:
        return 'params must be symbols'
    names = list(p)
    if DOT in names:
        i = names.index(DOT)
        after = names[i + 1:]
        if len(after) != 1 or after[0].__class__ is not Symbol or after[0] is DOT:
            return "malformed rest param after '.'"
        names = names[:i]
    if any(n.__class__ is not Symbol for n in names):
        return 'params must be symbols'
    return None


def _params(w, cell) -> None:
    message = params_problem(cell.car)
    if message is not None:
        w.fail(message, cell)


def _shape_lambda(w, x) -> None:
    _params(w, x.cdr)


def _shape_define(w, x) -> None:
    target = x.cdr.car
    if target.__class__ is Symbol:
        return
    if target.__class__ is not List:
        w.fail('define: first arg must be symbol or list', x.cdr)
    if target is EMPTY:
        w.fail('define: empty signature', x.cdr)
    if target.car.__class__ is not Symbol:
        w.fail('define: first arg must be symbol or list', x.cdr)
    message = params_problem(target.cdr)
    if message is not None:
        w.fail(message, x.cdr)


def _shape_def(w, x) -> None:
    if len(x) == 3:
        _shape_define(w, x)
        return
    if x.cdr.car.__class__ is not Symbol:
        w.fail('define: first arg must be symbol or list', x.cdr)
    _params(w, x.cdr.cdr)


def _shape_assign(w, x) -> None:
    if x.cdr.car.__class__ is not Symbol:
        name = x.car.name
        w.fail('%s: name must be a symbol, got %s' % (name, display_form(x.cdr.car)), x.cdr)


def _bindings(w, x, cell) -> None:
    """A let-family binding list in `cell`: ((name expr)...)."""
    name = speaker(x.car.name)
    bs = cell.car
    if bs.__class__ is not List:
        w.fail('%s: bindings must be a list ((name expr)...), got %s' % (name, display_form(bs)), cell)
    c = bs
    while c is not EMPTY:
        b = c.car
        if b.__class__ is not List or b is EMPTY or b.car.__class__ is not Symbol or b.cdr is EMPTY \
                or b.cdr.cdr is not EMPTY:
            w.fail('%s: each binding must be (name expr)' % name, c)
        c = c.cdr


def _shape_let(w, x) -> None:
    _bindings(w, x, x.cdr.cdr if x.cdr.car.__class__ is Symbol else x.cdr)


def _shape_let_star(w, x) -> None:
    _bindings(w, x, x.cdr)


DO_VAR = 'do: each variable must be (var init [step]), got %s'


def _shape_do(w, x) -> None:
    specs, clause = x.cdr, x.cdr.cdr
    if specs.car.__class__ is not List:
        w.fail('do: expected ((var init [step])...), got %s' % display_form(specs.car), specs)
    c = specs.car
    while c is not EMPTY:
        s = c.car
        if s.__class__ is not List or s is EMPTY or s.car.__class__ is not Symbol or len(s) not in (2, 3):
            w.fail(DO_VAR % display_form(s), c)
        c = c.cdr
    if clause.car.__class__ is not List or clause.car is EMPTY:
        w.fail('do: expected (test result...), got %s' % display_form(clause.car), clause)


def _shape_cond(w, x) -> None:
    c = x.cdr
    while c is not EMPTY:
        clause = c.car
        if clause.__class__ is not List or clause is EMPTY:
            w.fail('cond: each clause must be (test body...), got %s' % display_form(clause), c)
        if clause.car is ELSE and c.cdr is not EMPTY:
            w.fail('cond: else must be the last clause', c)
        c = c.cdr


def _shape_case(w, x) -> None:
    c = x.cdr.cdr
    while c is not EMPTY:
        clause = c.car
        ok = clause.__class__ is List and clause is not EMPTY and (
            clause.car.__class__ is List or (clause.car is ELSE and c.cdr is EMPTY))
        if not ok:
            w.fail('case: bad clause ' + display_form(clause), c)
        c = c.cdr


def _shape_match(w, x) -> None:
    c = x.cdr.cdr
    while c is not EMPTY:
        clause = c.car
        if clause.__class__ is not List or clause is EMPTY:
            w.fail('match: each clause must be (pattern body...), got %s' % display_form(clause), c)
        _pattern(w, clause.car, c)
        c = c.cdr


def _pattern(w, p, cell) -> None:
    """A match pattern: only a list pattern's `.` has a shape to keep."""
    if p.__class__ is not List or p is EMPTY or p.car is QUOTE:
        return
    if p.car is QMARK:
        return
    items = list(p)
    if p.car is CONS and len(items) == 3:
        items = items[1:]
    elif DOT in items:
        i = items.index(DOT)
        after = items[i + 1:]
        if len(after) != 1 or after[0].__class__ is not Symbol:
            w.fail("match: malformed rest pattern after '.'", cell)
        items = items[:i]
    for q in items:
        _pattern(w, q, cell)


def _shape_try(w, x) -> None:
    var = x.cdr.cdr
    v = var.car
    if v.__class__ is not List or v is EMPTY or v.cdr is not EMPTY or v.car.__class__ is not Symbol:
        w.fail('try-catch: the error variable must be (name), got %s' % display_form(v), var)


def _shape_eval_when(w, x) -> None:
    if x.cdr.car.__class__ is not List:
        w.fail('eval-when: phase spec must be a list', x.cdr)


def _shape_defmacro(w, x) -> None:
    if x.cdr.car.__class__ is not Symbol:
        w.fail('defmacro: name must be a symbol, got %s' % display_form(x.cdr.car), x.cdr)
    params = x.cdr.cdr
    if params.car.__class__ is not List or params_problem(params.car) is not None:
        w.fail('defmacro: params must be a list of symbols, got %s' % display_form(params.car), params)
    body = [b for b in params.cdr if not _is_eval_when(b)]
    if not body:
        w.fail('defmacro: body must have an expression after any eval-when blocks')


def _is_eval_when(b) -> bool:
    return b.__class__ is List and b is not EMPTY and b.car is EVAL_WHEN


EVAL_WHEN = sym('eval-when')


def _shape_defrust(w, x) -> None:
    name, params = x.cdr, x.cdr.cdr
    if name.car.__class__ is not Symbol:
        w.fail('defrust: name must be a symbol, got %s' % display_form(name.car), name)
    if params.car.__class__ is not List or any(p.__class__ is not Symbol for p in params.car):
        w.fail('defrust: params must be a list of symbols, got %s' % display_form(params.car), params)


def _shape_defrust_star(w, x) -> None:
    c = x.cdr
    while c is not EMPTY:
        spec = c.car
        if spec.__class__ is not List or len(spec) != 3 or spec.car.__class__ is not Symbol \
                or spec.cdr.car.__class__ is not List or any(p.__class__ is not Symbol for p in spec.cdr.car):
            w.fail('defrust*: each function must be (name (params...) body)', c)
        c = c.cdr


# syntax -> the check of a form's parts beyond their count
SHAPES = {'import': shape_import, 'attribute': shape_attribute, 'lambda': _shape_lambda, 'define': _shape_define, 'def': _shape_def, 'assign': _shape_assign,
          'let': _shape_let, 'let*': _shape_let_star, 'letrec': _shape_let_star, 'do': _shape_do,
          'cond': _shape_cond, 'case': _shape_case, 'match': _shape_match, 'try': _shape_try,
          'eval-when': _shape_eval_when, 'defmacro': _shape_defmacro, 'defrust': _shape_defrust,
          'defrust*': _shape_defrust_star}


# ── Walks: which parts are code, in which scope ──────────────────────────

def _walk_none(w, x, scope) -> None:
    """quote: data only; defrust(*): the native subset, checked when compiled."""


def _walk_all(w, x, scope) -> None:
    w.items(x.cdr, scope)


def _walk_assign(w, x, scope) -> None:
    w.items(x.cdr.cdr, scope)


def _walk_template(w, x, scope) -> None:
    """quasiquote: only the unquoted parts of the template are code."""
    todo = [x.cdr]
    while todo:
        cell = todo.pop()
        t = cell.car
        if t.__class__ is not List or t is EMPTY:
            continue
        if t.car in UNQUOTES and t.cdr is not EMPTY and t.cdr.cdr is EMPTY:
            try:
                w.at(t.cdr, scope)
            except _Malformed as m:
                w.locate(m, cell)
                raise
            continue
        inner = []
        c = t
        while c is not EMPTY:
            inner.append(c)
            c = c.cdr
        todo.extend(reversed(inner))


def _walk_lambda(w, x, scope) -> None:
    w.body(x.cdr.cdr, scope, _param_names(x.cdr.car))


def _param_names(p) -> list:
    if p.__class__ is Symbol:
        return [p]
    return [n for n in p if n is not DOT]


def _walk_define(w, x, scope) -> None:
    target = x.cdr.car
    if target.__class__ is Symbol:
        w.items(x.cdr.cdr, scope)
    else:
        w.body(x.cdr.cdr, scope, [target.car] + _param_names(target.cdr))


def _walk_def(w, x, scope) -> None:
    if len(x) == 3:
        _walk_define(w, x, scope)
    else:
        w.body(x.cdr.cdr.cdr, scope, [x.cdr.car] + _param_names(x.cdr.cdr.car))


def _walk_let(w, x, scope) -> None:
    named = x.cdr.car.__class__ is Symbol
    cell = x.cdr.cdr if named else x.cdr
    names = _binding_inits(w, cell, scope)
    w.body(cell.cdr, scope, names + ([x.cdr.car] if named else []))


def _walk_let_star(w, x, scope) -> None:
    names = [b.car for b in x.cdr.car]
    inner = (frozenset(names), scope) if names else scope
    _binding_inits(w, x.cdr, inner)
    w.body(x.cdr.cdr, scope, names)


def _binding_inits(w, cell, scope) -> list:
    """Check each init of the binding list in `cell`; the names it binds."""
    w.each(cell.car, lambda c: w.at(c.car.cdr, scope))
    return [b.car for b in cell.car]


def _walk_do(w, x, scope) -> None:
    specs = x.cdr.car
    names = [s.car for s in specs]
    inner = (frozenset(names), scope) if names else scope

    def spec(c):            # (var init [step]): the init outside, the step inside
        w.at(c.car.cdr, scope)
        if c.car.cdr.cdr is not EMPTY:
            w.at(c.car.cdr.cdr, inner)
    w.each(specs, spec)
    w.items(x.cdr.cdr.car, inner)     # test and results
    w.body(x.cdr.cdr.cdr, inner)


def _walk_cond(w, x, scope) -> None:
    w.each(x.cdr, lambda c: w.items(c.car.cdr if c.car.car is ELSE else c.car, scope))


def _walk_case(w, x, scope) -> None:
    w.at(x.cdr, scope)
    w.each(x.cdr.cdr, lambda c: w.items(c.car.cdr, scope))


def _walk_match(w, x, scope) -> None:
    w.at(x.cdr, scope)

    def clause(c):
        _pattern_code(w, c.car.car, scope)
        w.body(c.car.cdr, scope, _pattern_names(c.car.car))
    w.each(x.cdr.cdr, clause)


def _pattern_code(w, p, scope) -> None:
    """The expressions inside a pattern: the predicate of each `(? pred …)`."""
    if p.__class__ is not List or p is EMPTY or p.car is QUOTE:
        return
    if p.car is QMARK and p.cdr is not EMPTY:
        w.at(p.cdr, scope)
        for q in p.cdr.cdr:
            _pattern_code(w, q, scope)
        return
    for q in p:
        _pattern_code(w, q, scope)


def _pattern_names(p) -> list:
    """The symbols a pattern may bind (a superset is fine: only shadowing asks)."""
    out = []
    todo = [p]
    while todo:
        q = todo.pop()
        if q.__class__ is Symbol:
            out.append(q)
        elif q.__class__ is List and q is not EMPTY and q.car is not QUOTE:
            todo.extend(q)
    return out


def _walk_try(w, x, scope) -> None:
    w.at(x.cdr, scope)
    handler = x.cdr.cdr.cdr
    var = x.cdr.cdr.car.car
    inner = (frozenset([var]), scope)
    extra = body_defines([handler.car])
    w.at(handler, (inner[0].union(extra), scope) if extra else inner)


def _walk_eval_when(w, x, scope) -> None:
    w.items(x.cdr.cdr, scope)


def _walk_defmacro(w, x, scope) -> None:
    w.defined.add(x.cdr.car)
    w.body(x.cdr.cdr.cdr, scope, _param_names(x.cdr.cdr.car))


# syntax -> how a form's parts are walked (every syntax but 'unquote', a call)
WALKS = {'quote': _walk_none, 'quasiquote': _walk_template, 'sequence': _walk_all, 'assign': _walk_assign,
         'cond': _walk_cond, 'case': _walk_case, 'try': _walk_try, 'lambda': _walk_lambda, 'let': _walk_let,
         'let*': _walk_let_star, 'letrec': _walk_let_star, 'do': _walk_do, 'match': _walk_match,
         'define': _walk_define, 'def': _walk_def, 'defmacro': _walk_defmacro, 'defrust': _walk_none,
         'defrust*': _walk_none, 'eval-when': _walk_eval_when, 'eval': _walk_all, 'load': _walk_all,
         'import': _walk_none, 'attribute': lambda w, x, scope: w.at(x.cdr, scope)}


_SHALLOW = _Walker(None, False)     # problem()'s walker: shape() keeps no state
