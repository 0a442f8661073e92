"""The special forms as the analysis walks them, one function per syntax
class of the forms table: what each form binds, which of its parts are code
(walked, names judged) and which are data."""
from __future__ import annotations

from ..resolve import body_defines
from ..values import EMPTY, List, Symbol
from .facts import Definition

MAX_DEPTH = 150             # nesting looked into (deeper code is not judged)
ELSE = 'else'
UNDERSCORE = '_'
DOT = '.'
IMPORT = 'import'
AS = ':as'


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
        if f.name == 'set' and w.bound(target.car.name, scopes) is None:
            w.bind(target.car, target.span, scopes, 'variable', span)
        else:
            w.lenient += f.name == 'set'
            w.reference(target.car, target.span or span, scopes)
            w.lenient -= f.name == 'set'
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
        w.facts.symbols.append(d)
    inner = w.new_scope(span, scopes)
    _params(w, params, pspan, inner, span)
    _body(w, body, span, inner, depth)


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
        w.facts.symbols.append(d)


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


def _walk_eval_when(w, f, x, span, scopes, depth):
    """(eval-when (phase…) form…): the phases are names, not code."""
    w.walk_items(list(x.cells())[2:], span, scopes, depth)


def _walk_eval(w, f, x, span, scopes, depth):
    w.walk_items(x.cdr.cells(), span, scopes, depth)


def _walk_load(w, f, x, span, scopes, depth):
    w.walk_items(x.cdr.cells(), span, scopes, depth)


def _walk_import(w, f, x, span, scopes, depth):
    """(import module …): binds names (imported_names); nothing in it is judged or completed."""
    cells = _cells(x)
    for name in sorted(imported_names(x)):
        if scopes:
            scopes[-1][name] = Definition(name, 'import', None, span, None, None)
    for c in cells[1:]:
        if c.car.__class__ is Symbol and c.span is not None:
            w.bind(c.car, c.span, scopes, 'import', span)


def imported_names(form) -> set:
    """The names an `(import …)` form binds: a module (its first segment too),
    an alias after :as, the names listed in (module name …)."""
    out = set()
    items = list(form)[1:]
    for i, x in enumerate(items):
        if x.__class__ is Symbol and x.name != AS and not (i > 0 and items[i - 1].__class__ is Symbol
                                                            and items[i - 1].name == AS):
            out |= {x.name, x.name.split('.')[0]}
        elif x.__class__ is Symbol and x.name == AS and i + 1 < len(items) and items[i + 1].__class__ is Symbol:
            out.add(items[i + 1].name)
        elif x.__class__ is List and x is not EMPTY:
            out |= {s.name for s in list(x)[1:] if s.__class__ is Symbol and not s.name.startswith(':')}
    return out


SYNTAX_WALKS = {
    'quote': _walk_quote, 'quasiquote': _walk_quasiquote, 'unquote': _walk_sequence,
    'sequence': _walk_sequence, 'assign': _walk_assign, 'cond': _walk_cond, 'case': _walk_case,
    'try': _walk_try, 'lambda': _walk_lambda, 'let': _walk_let, 'let*': _walk_let, 'letrec': _walk_let,
    'do': _walk_do, 'match': _walk_match, 'define': _walk_define, 'def': _walk_define,
    'defmacro': _walk_defmacro, 'defrust': _walk_defrust, 'defrust*': _walk_defrust,
    'eval-when': _walk_eval_when, 'eval': _walk_eval, 'load': _walk_load, 'import': _walk_import,
}


