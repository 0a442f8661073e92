"""Definition-time hygiene for defmacro.

Every quasiquote form in a macro body is rewritten once: identifiers that the
template itself binds (let-family, named let, lambda/fn/λ, do) are renamed,
consistently through their scope, to fresh `NAME__N` symbols. Nothing under
unquote/unquote-splicing is renamed (but quasiquotes nested there are
templates of their own); free identifiers are left alone.

Which forms bind what comes from the forms table (forms.py, by syntax):
a form read as `let`, `let*`, `letrec`, `lambda` or `do` is renamed here.
"""
from .resolve import FORM_OF
from .values import EMPTY, List, Symbol, gensym, spanned, sym

QUASIQUOTE = sym('quasiquote')
UNQUOTES = (sym('unquote'), sym('unquote-splicing'))
DOT = sym('.')


def rebuild(original: List, new_items) -> List:
    """A list of `new_items` keeping the element spans of `original`."""
    spans = [c.span for c in original.cells()]
    out = EMPTY
    for x, sp in zip(reversed(new_items), reversed(spans)):
        out = spanned(x, out, sp)
    return out


def _is_unquote(x) -> bool:
    return x.__class__ is List and len(x) == 2 and x.car in UNQUOTES


def rename_templates(x):
    """Code outside templates: find quasiquote forms and rename their binders."""
    if x.__class__ is not List or x is EMPTY:
        return x
    if x.car is QUASIQUOTE and len(x) == 2:
        return rebuild(x, [x.car, _template(x.cdr.car, {})])
    return rebuild(x, [rename_templates(e) for e in x])


def _fresh(names, env: dict) -> dict:
    """env extended with a fresh symbol for each binder name (symbols only)."""
    new = dict(env)
    renamed = {}
    for n in names:
        if n.__class__ is Symbol and n is not DOT and n not in renamed:
            renamed[n] = gensym(n.name)
    new.update(renamed)
    return new


def _template(t, env: dict):
    cls = t.__class__
    if cls is Symbol:
        return env.get(t, t)
    if cls is not List or t is EMPTY:
        return t
    if _is_unquote(t):
        return rebuild(t, [t.car, rename_templates(t.cdr.car)])
    form = FORM_OF.get(t.car) if t.car.__class__ is Symbol else None
    rename = RENAMERS.get(form.syntax) if form is not None else None
    if rename is not None:
        renamed = rename(form.syntax, t, env)
        if renamed is not None:
            return renamed
    return rebuild(t, [_template(e, env) for e in t])


def _binders(bindings: List) -> list:
    """The names a binding list binds: `(n v)` entries whose n is a symbol."""
    return [b.car for b in bindings
            if b.__class__ is List and b is not EMPTY and b.car.__class__ is Symbol]


def _binding(b, name_env: dict, init_env: dict):
    if b.__class__ is List and b is not EMPTY and b.car.__class__ is Symbol:
        return rebuild(b, [name_env.get(b.car, b.car)] + [_template(e, init_env) for e in b.cdr])
    return _template(b, init_env)


def _let_family(syntax, t, env):
    """let (plain or named), let*, letrec(*) templates; None if not that shape."""
    if len(t) < 3:
        return None
    if syntax == 'let' and t.cdr.car.__class__ is Symbol and len(t) >= 4:
        return _named_let(t, env)
    if t.cdr.car.__class__ is List:
        return _let(syntax, t, env)
    return None


def _let(syntax, t, env):
    head, bindings, body = t.car, t.cdr.car, t.cdr.cdr
    inner = _fresh(_binders(bindings), env)
    if syntax == 'let':
        new_bs = [_binding(b, inner, env) for b in bindings]
    elif syntax == 'let*':
        new_bs, seen = [], dict(env)
        for b in bindings:
            new_bs.append(_binding(b, inner, seen))
            if b.__class__ is List and b is not EMPTY and b.car.__class__ is Symbol:
                seen[b.car] = inner[b.car]
    else:
        new_bs = [_binding(b, inner, inner) for b in bindings]
    return rebuild(t, [head, rebuild(bindings, new_bs)] + [_template(e, inner) for e in body])


def _named_let(t, env):
    head, name, bindings, body = t.car, t.cdr.car, t.cdr.cdr.car, t.cdr.cdr.cdr
    if bindings.__class__ is not List:
        return rebuild(t, [_template(e, env) for e in t])
    inner = _fresh([name] + _binders(bindings), env)
    new_bs = [_binding(b, inner, env) for b in bindings]
    return rebuild(t, [head, inner[name], rebuild(bindings, new_bs)] + [_template(e, inner) for e in body])


def _lambda(syntax, t, env):
    if len(t) < 3:
        return None
    head, params, body = t.car, t.cdr.car, t.cdr.cdr
    if params.__class__ is Symbol:
        inner = _fresh([params], env)
        new_params = inner.get(params, params)     # `.`: a dotted template, left to lambda to refuse
    elif params.__class__ is List:
        inner = _fresh(list(params), env)
        new_params = rebuild(params, [inner.get(p, p) if p.__class__ is Symbol else _template(p, env)
                                      for p in params])
    else:
        return rebuild(t, [_template(e, env) for e in t])
    return rebuild(t, [head, new_params] + [_template(e, inner) for e in body])


def _do(syntax, t, env):
    if len(t) < 3 or t.cdr.car.__class__ is not List:
        return None
    head, specs, rest = t.car, t.cdr.car, t.cdr.cdr
    inner = _fresh(_binders(specs), env)
    new_specs = []
    for s in specs:
        if s.__class__ is List and s is not EMPTY and s.car.__class__ is Symbol:
            parts = list(s)
            new = [inner[s.car]]
            if len(parts) > 1:
                new.append(_template(parts[1], env))
            new.extend(_template(e, inner) for e in parts[2:])
            new_specs.append(rebuild(s, new))
        else:
            new_specs.append(_template(s, env))
    return rebuild(t, [head, rebuild(specs, new_specs)] + [_template(e, inner) for e in rest])


# syntax (forms.py) -> how a template of that form is renamed (None: not that shape)
RENAMERS = {'let': _let_family, 'let*': _let_family, 'letrec': _let_family, 'lambda': _lambda, 'do': _do}
