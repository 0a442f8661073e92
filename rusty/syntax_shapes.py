"""The syntax check's shapes: the kinds of a special form's parts, beyond
their count (syntax.py checks the count and calls these through SHAPES)."""
from .printer import display_form
from .import_syntax import shape_attribute, shape_import
from .syntax_usage import CONS, DOT, ELLIPSIS, ELLIPSIS_ALONE, ELSE, QMARK, QUOTE, speaker
from .values import EMPTY, List, Symbol, sym


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


def ellipsis_problem(items: list, dotted: bool) -> str | None:
    """What is wrong with the `...` among a list pattern's items (before any
    `.` rest), or None."""
    at = [i for i, e in enumerate(items) if e is ELLIPSIS]
    if not at:
        return None
    if at[0] == 0:
        return ELLIPSIS_ALONE
    if len(at) > 1:
        return "match: only one '...' in a list pattern"
    if dotted:
        return "match: '...' and a '.' rest in one list pattern"
    return None


def _pattern(w, p, cell) -> None:
    """A match pattern: a list pattern's `.` and `...` have shapes to keep."""
    if p is ELLIPSIS:
        w.fail(ELLIPSIS_ALONE, cell)
    if p.__class__ is not List or p is EMPTY or p.car is QUOTE:
        return
    items = list(p)
    if p.car is QMARK:
        items = items[2:]
    elif p.car is CONS and len(items) == 3:
        items = items[1:]
    else:
        dotted = DOT in items
        if dotted:
            i = items.index(DOT)
            after = items[i + 1:]
            if len(after) != 1 or after[0].__class__ is not Symbol or after[0] is ELLIPSIS:
                w.fail("match: malformed rest pattern after '.'", cell)
            items = items[:i]
        problem = ellipsis_problem(items, dotted)
        if problem is not None:
            w.fail(problem, cell)
        items = [q for q in items if q is not ELLIPSIS]
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
