"""Templates and macros: quasiquote and defmacro.

Expansion itself lives in eval.py (it happens at call sites); this module
builds data from templates and defines macros: eval-when blocks, definition-
time hygiene (hygiene.py), and the macro value.
"""
from .errors import EvalError
from .eval import Usage, comp, comp_body, const, special, sub_span
from .hygiene import rename_templates
from .printer import display_form
from .resolve import UNBOUND, Scope, body_defines
from .specials import compile_on_first_call, definer, items, parse_params
from .syntax import usage_message
from .values import EMPTY, NIL, List, Macro, Symbol, Vector, make_list, sym


# ── quasiquote ───────────────────────────────────────────────────────────

UNQUOTE = sym('unquote')
UNQUOTE_SPLICING = sym('unquote-splicing')


def _is(form, head) -> bool:
    return form.__class__ is List and form is not EMPTY and form.car is head and len(form) == 2


def _has_unquote(t) -> bool:
    stack = [t]
    while stack:
        x = stack.pop()
        if x.__class__ is List:
            if x is not EMPTY and (x.car is UNQUOTE or x.car is UNQUOTE_SPLICING) and len(x) == 2:
                return True
            stack.extend(x)
        elif x.__class__ is Vector:
            stack.extend(x.items)
    return False


def comp_template(t, scope, span, unit):
    """A closure building the data of quasiquote template `t`."""
    if t.__class__ is Vector:       # its elements as a list template; a fresh vector each time
        elements = comp_template(make_list(t.items), scope, span, unit)

        def ev(f):
            return Vector(list(elements(f)))
        return ev
    if not _has_unquote(t):
        return const(t)
    if _is(t, UNQUOTE):
        return comp(t.cdr.car, scope, False, sub_span(t.cdr, span, unit), unit)
    parts = []   # (splice?, code)
    for c in t.cells():
        e = c.car
        if _is(e, UNQUOTE_SPLICING):
            parts.append((True, comp(e.cdr.car, scope, False, sub_span(e.cdr, span, unit), unit)))
        else:
            parts.append((False, comp_template(e, scope, sub_span(c, span, unit), unit)))

    def ev(f):
        out = []
        for splice, code in parts:
            v = code(f)
            if splice:
                if v.__class__ is List:
                    out.extend(v)
                elif v is not NIL:
                    raise EvalError(',@: expected list, got ' + display_form(v), span)
            else:
                out.append(v)
        return make_list(out)
    return ev


@special('quasiquote')
def comp_quasiquote(x, scope, tail, span, unit):
    if len(x) != 2:
        raise Usage(usage_message(x))
    return comp_template(x.cdr.car, scope, span, unit)


# ── Macros ───────────────────────────────────────────────────────────────

EVAL_WHEN = sym('eval-when')


@special('defmacro', 'define-macro')
def comp_defmacro(x, scope, tail, span, unit):
    if len(x) < 4 or x.cdr.car.__class__ is not Symbol or x.cdr.cdr.car.__class__ is not List:
        raise Usage(usage_message(x))
    name = x.cdr.car
    try:
        params, rest = parse_params(x.cdr.cdr.car)
    except Usage:
        raise Usage(usage_message(x))
    body = items(x.cdr.cdr.cdr)
    blocks = [b for b in body if b.__class__ is List and b is not EMPTY and b.car is EVAL_WHEN]
    remaining = [b for b in body if not (b.__class__ is List and b is not EMPTY and b.car is EVAL_WHEN)]
    if not remaining:
        raise Usage(usage_message(x))
    # The eval-when blocks run in a fresh frame that becomes the macro's environment.
    bscope = Scope([], scope)
    for d in body_defines(blocks):
        bscope.add(d, maybe_unbound=True)
    block_code = comp_body(make_list(blocks), bscope, False, span, unit) if blocks else None
    store = definer(name, scope, span, unit)
    env_scope = bscope if blocks else scope

    def ev(f):
        env = f
        if block_code is not None:
            env = [f, bscope] + [UNBOUND] * len(bscope.names)
            block_code(env)
        renamed = rename_templates(make_list(remaining))
        mscope = Scope(list(params) + ([rest] if rest is not None else []), env_scope)
        nparams = len(mscope.names)
        for d in body_defines(renamed):
            mscope.add(d, maybe_unbound=True)
        m = Macro(params, rest, renamed, None, env, name.name, mscope, len(mscope.names) - nparams)
        compile_on_first_call(m, lambda: comp_body(renamed, mscope, True, span, unit))
        store(f, m)
        return NIL
    return ev
