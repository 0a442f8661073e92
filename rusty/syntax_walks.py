"""The syntax check's walks: which parts of a special form are code, and in
which scope (syntax.py's walker calls these through WALKS)."""
from .resolve import body_defines
from .syntax_usage import DOT, ELSE, QMARK, QUOTE, UNQUOTES, Malformed
from .values import EMPTY, List, Symbol


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
            except Malformed as m:
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
