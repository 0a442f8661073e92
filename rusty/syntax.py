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

This module is the walk; the checks of a form's parts are syntax_shapes.py,
which parts are code syntax_walks.py, the messages syntax_usage.py.
"""
from .errors import EvalError
from .import_syntax import import_alternative
from .resolve import FORM_OF, body_defines
from .syntax_shapes import SHAPES
from .syntax_usage import Malformed, expected
from .syntax_walks import WALKS
from .values import EMPTY, List, Symbol


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
    except Malformed as m:
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
    except Malformed as m:
        return m.message
    return None


def usage_message(x) -> str:
    """The usage message of malformed special form `x` (for its compile function)."""
    return problem(x) or expected(x, 0, len(x) - 1)


# ── The walk ─────────────────────────────────────────────────────────────

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
            except Malformed as m:
                self.locate(m, cell)
                raise
            cell = cell.cdr

    def each(self, lst, fn) -> None:
        """fn(cell) for each cell of list `lst`; an error inside points at that cell's element."""
        cell = lst
        while cell is not EMPTY:
            try:
                fn(cell)
            except Malformed as m:
                self.locate(m, cell)
                raise
            cell = cell.cdr

    def at(self, cell, scope) -> None:
        """Check the element of `cell` as code."""
        try:
            self.code(cell.car, scope)
        except Malformed as m:
            self.locate(m, cell)
            raise

    def body(self, lst, scope, names=()) -> None:
        """Check body forms `lst` in a new frame binding `names` and its defines."""
        bound = frozenset(names).union(body_defines(lst))
        self.items(lst, (bound, scope) if bound else scope)

    def locate(self, m: Malformed, cell) -> None:
        """Give m the span of cell's element if it has none yet."""
        if m.span is None and self.use_spans:
            m.span = cell.span

    def fail(self, message: str, cell=None):
        """Raise a malformation at the element of `cell` (or the enclosing form)."""
        m = Malformed(message)
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


_SHALLOW = _Walker(None, False)     # problem()'s walker: shape() keeps no state
