"""Special forms: one compile function per form. Templates
and macros are in quasiquote.py, `match` in patterns.py, `case` in case_form.py,
the let family and `do` in let_forms.py.

Each `comp_X(x, scope, tail, span, unit)` receives the whole form and returns
a closure. A form of the wrong shape raises Usage, which `comp` turns into a
closure raising the usage error when (and only if) the form is evaluated.
"""
from .apply import recursion_message
from .errors import EvalError, Interrupted, RustyError, out_of_memory
from .eval import SPECIALS, Usage, comp, comp_body, const, special, sub_span, to_code
from .resolve import (MISSING, UNBOUND, GlobalRef, LocalRef, Scope, assign_by_name, body_defines,
                      define_in_frame, resolve)
from .syntax import check_in_scope, problem, usage_message
from .syntax_shapes import params_problem
from .values import EMPTY, NIL, Lambda, List, Symbol, cons, make_list, spanned, sym


def items(x: List) -> list:
    return list(x)


def cells(x: List) -> list:
    return list(x.cells())


DOT = sym('.')
ELSE = sym('else')


# ── quote, if, begin, and, or, when, unless, cond ────────────────────────

@special('quote')
def comp_quote(x, scope, tail, span, unit):
    if len(x) != 2:
        raise Usage(usage_message(x))
    return const(x.cdr.car)


@special('if')
def comp_if(x, scope, tail, span, unit):
    if len(x) < 3:
        raise Usage(usage_message(x))
    c = cells(x)
    then = comp(c[2].car, scope, tail, sub_span(c[2], span, unit), unit)
    other = comp(c[3].car, scope, tail, sub_span(c[3], span, unit), unit) if len(x) > 3 else None
    test = comp(c[1].car, scope, False, sub_span(c[1], span, unit), unit)
    if other is None:
        def ev(f):
            if test(f) is not False:
                return then(f)
            return NIL
        return ev

    def ev(f):
        if test(f) is not False:
            return then(f)
        return other(f)
    return ev


@special('begin')
def comp_begin(x, scope, tail, span, unit):
    return comp_body(x.cdr, scope, tail, span, unit)


def _operands(x, scope, tail, span, unit):
    """The operands of and/or compiled: (all but the last, the last in tail position)."""
    c = cells(x.cdr)
    codes = [comp(k.car, scope, tail and i == len(c) - 1, sub_span(k, span, unit), unit)
             for i, k in enumerate(c)]
    return codes[:-1], codes[-1]


@special('and')
def comp_and(x, scope, tail, span, unit):
    if len(x) == 1:
        return const(True)
    init, last = _operands(x, scope, tail, span, unit)
    if len(init) == 1:
        first, = init

        def ev(f):
            if first(f) is False:
                return False
            return last(f)
        return ev

    def ev(f):
        for code in init:
            if code(f) is False:
                return False
        return last(f)
    return ev


@special('or')
def comp_or(x, scope, tail, span, unit):
    if len(x) == 1:
        return const(False)
    init, last = _operands(x, scope, tail, span, unit)
    if len(init) == 1:
        first, = init

        def ev(f):
            v = first(f)
            if v is not False:
                return v
            return last(f)
        return ev

    def ev(f):
        for code in init:
            v = code(f)
            if v is not False:
                return v
        return last(f)
    return ev


def _comp_when(x, scope, tail, span, unit, want):
    if len(x) < 3:
        raise Usage(usage_message(x))
    test = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    body = comp_body(x.cdr.cdr, scope, tail, span, unit)
    if want:
        return lambda f: body(f) if test(f) is not False else NIL
    return lambda f: body(f) if test(f) is False else NIL


@special('when')
def comp_when(x, scope, tail, span, unit):
    return _comp_when(x, scope, tail, span, unit, True)


@special('unless')
def comp_unless(x, scope, tail, span, unit):
    return _comp_when(x, scope, tail, span, unit, False)


@special('cond')
def comp_cond(x, scope, tail, span, unit):
    clauses = []                # (test, body or None: the test's value)
    otherwise = const(NIL)      # the else clause's body
    for c in x.cdr.cells():
        clause = c.car
        if clause.__class__ is not List or clause is EMPTY:
            continue
        cspan = sub_span(c, span, unit)
        is_else = clause.car is ELSE
        test = None if is_else else comp(clause.car, scope, False, sub_span(clause, cspan, unit), unit)
        body = comp_body(clause.cdr, scope, tail, cspan, unit) if len(clause) > 1 else None
        if is_else:
            if body is not None:
                otherwise = body
            break
        clauses.append((test, body))
    if all(body is not None for _, body in clauses) and 2 <= len(clauses) <= 3:
        return _cond_unrolled(clauses, otherwise)

    def ev(f):
        for test, body in clauses:
            v = test(f)
            if v is not False:
                return body(f) if body is not None else v
        return otherwise(f)
    return ev


def _cond_unrolled(clauses, otherwise):
    """cond's walk written out for 2 or 3 clauses that each have a body."""
    if len(clauses) == 2:
        (t0, b0), (t1, b1) = clauses

        def ev(f):
            if t0(f) is not False:
                return b0(f)
            if t1(f) is not False:
                return b1(f)
            return otherwise(f)
        return ev
    (t0, b0), (t1, b1), (t2, b2) = clauses
    def ev3(f):
        if t0(f) is not False:
            return b0(f)
        if t1(f) is not False:
            return b1(f)
        if t2(f) is not False:
            return b2(f)
        return otherwise(f)
    return ev3


@special('eval-when')
def comp_eval_when(x, scope, tail, span, unit):
    if len(x) < 2 or x.cdr.car.__class__ is not List:
        raise Usage(usage_message(x))
    return comp_body(x.cdr.cdr, scope, tail, span, unit)


# ── Definitions and assignment ───────────────────────────────────────────

def parse_params(p):
    """(required symbols, rest symbol or None) from a parameter spec."""
    message = params_problem(p)
    if message is not None:
        raise Usage(message)
    if p.__class__ is Symbol:
        if p is DOT:            # (lambda . body): no parameter list at all
            raise Usage("malformed rest param after '.'")
        return (), p
    names = items(p)
    if DOT in names:
        i = names.index(DOT)
        return tuple(names[:i]), names[i + 1]
    return tuple(names), None


def lambda_maker(params, rest, body: List, scope, span, unit, name='lambda'):
    """Prepare a lambda; returns make(f) -> Lambda closed over frame f.

    The body is compiled when the lambda is first called, not when it is
    defined: most library functions are never called in a given run. A unit
    with `compile_lambda` wraps `make` (the compiler's door; `code()` gives
    it this body).
    """
    slots = list(params) + ([rest] if rest is not None else [])
    lscope = Scope(slots, scope)
    for d in body_defines(body):
        lscope.add(d, maybe_unbound=True)
    extra = len(lscope.names) - len(slots)
    compiled = []

    def code():
        if not compiled:
            compiled.append(comp_body(body, lscope, True, span, unit))
        return compiled[0]

    def make(f):
        if compiled:
            return Lambda(params, rest, body, compiled[0], f, name, lscope, extra)
        lam = Lambda(params, rest, body, None, f, name, lscope, extra)
        compile_on_first_call(lam, code)
        return lam
    if unit.compile_lambda is None:
        return make
    return unit.compile_lambda(make, code, params, rest, body, lscope, extra, span, unit, name)


def compile_on_first_call(proc, compile_body) -> None:
    """Give lambda or macro `proc` code that compiles its body (compile_body())
    when first run, then runs as that body from then on."""
    def first_call(fr):
        proc.code = compile_body()
        return proc.code(fr)
    proc.code = first_call


@special('lambda', 'fn', 'λ')
def comp_lambda(x, scope, tail, span, unit, name='lambda'):
    if len(x) < 3:
        raise Usage(usage_message(x))
    params, rest = parse_params(x.cdr.car)
    return lambda_maker(params, rest, x.cdr.cdr, scope, span, unit, name)


def _define_value(x, target: Symbol, scope, span, unit):
    """define's value form x compiled; a well-formed lambda form's values
    named `target` when made (as _named names them at once after): the
    name a function's compiled code knows itself by."""
    if x.__class__ is List and x is not EMPTY and x.car.__class__ is Symbol \
            and SPECIALS.get(x.car) is comp_lambda and len(x) >= 3 and problem(x) is None \
            and params_problem(x.cdr.car) is None:
        try:
            return comp_lambda(x, scope, False, span, unit, target.name)
        except Usage:
            pass
    return comp(x, scope, False, span, unit)


def definer(name: Symbol, scope, span, unit):
    """A function store(f, value) binding `name` in the current frame."""
    genv = unit.genv
    if scope is None:
        cell = genv.cell(name)
        return lambda f, v: cell.set(v)
    i = scope.index.get(name)
    if i is not None:
        def store(f, v):
            f[i] = v
        return store
    return lambda f, v: define_in_frame(f, name, v, genv)


def _named(v, name: Symbol):
    if v.__class__ is Lambda and v.name == 'lambda':
        v.name = name.name
    return v


@special('define')
def comp_define(x, scope, tail, span, unit):
    if len(x) < 3:
        raise Usage(usage_message(x))
    target = x.cdr.car
    if target.__class__ is Symbol:
        value = _define_value(x.cdr.cdr.car, target, scope, sub_span(x.cdr.cdr, span, unit), unit)
        store = definer(target, scope, span, unit)

        def ev(f):
            store(f, _named(value(f), target))
            return NIL
        return ev
    if target.__class__ is not List:
        raise Usage(usage_message(x))
    if target is EMPTY:
        raise Usage(usage_message(x))
    name = target.car
    if name.__class__ is not Symbol:
        raise Usage(usage_message(x))
    params, rest = parse_params(target.cdr)
    make = lambda_maker(params, rest, x.cdr.cdr, scope, span, unit, name.name)
    store = definer(name, scope, span, unit)

    def ev(f):
        store(f, make(f))
        return NIL
    return ev


@special('def')
def comp_def(x, scope, tail, span, unit):
    if len(x) < 3:
        raise Usage(usage_message(x))
    if len(x) == 3:
        return comp_define(x, scope, tail, span, unit)
    name, params = x.cdr.car, x.cdr.cdr.car
    if name.__class__ is not Symbol:
        raise Usage(usage_message(x))
    if params.__class__ is Symbol:
        sig = make_list([name, DOT, params])
    elif params.__class__ is List:
        sig = cons(name, params)
    else:
        raise Usage(usage_message(x))
    return comp_define(spanned(x.car, cons(sig, x.cdr.cdr.cdr), x.span), scope, tail, span, unit)


@special('set!')
def comp_set_bang(x, scope, tail, span, unit):
    if len(x) != 3 or x.cdr.car.__class__ is not Symbol:
        raise Usage(usage_message(x))
    name = x.cdr.car
    value = comp(x.cdr.cdr.car, scope, False, sub_span(x.cdr.cdr, span, unit), unit)
    genv = unit.genv
    ref = resolve(scope, name, genv)
    by_name = _set_by_name(name, genv, span)
    if ref.__class__ is LocalRef and not ref.maybe_unbound and ref.depth <= 2:
        return _set_slot(ref.depth, ref.index, genv.cell(name), value, by_name)
    if ref.__class__ is GlobalRef:
        return _set_global(ref.cell, value, by_name)
    return lambda f: by_name(f, value(f))


def _set_by_name(name, genv, span):
    """`set!`'s reference assignment: the nearest binding of name, by name."""
    def by_name(f, v):
        if not assign_by_name(f, name, v, genv):
            raise EvalError("set!: undefined variable '%s'" % name.name, span)
        return NIL
    return by_name


def _set_global(cell, value, by_name):
    """`set!` of a global, written the way a reference reads it: in its cell while
    that holds a value (cell.dyn, a frame's run-time binding, makes it MISSING)."""
    def ev(f):
        v = value(f)
        if cell.value is MISSING:
            return by_name(f, v)
        cell.set(v)
        return NIL
    return ev


def _set_slot(depth: int, i: int, cell, value, by_name):
    """`set!` of a local slot 0-2 frames out, written the way a reference reads it: by
    name only when this session gave some frame a run-time binding of the name (cell.dyn)."""
    if depth == 0:
        def ev(f):
            f[i] = value(f)
            return NIL
        return ev
    if depth == 1:
        def ev(f):
            v = value(f)
            if cell.dyn:
                return by_name(f, v)
            f[0][i] = v
            return NIL
        return ev

    def ev(f):
        v = value(f)
        if cell.dyn:
            return by_name(f, v)
        f[0][0][i] = v
        return NIL
    return ev


@special('set')
def comp_set(x, scope, tail, span, unit):
    if len(x) != 3 or x.cdr.car.__class__ is not Symbol:
        raise Usage(usage_message(x))
    name = x.cdr.car
    value = comp(x.cdr.cdr.car, scope, False, sub_span(x.cdr.cdr, span, unit), unit)
    genv = unit.genv

    def ev(f):
        v = value(f)
        if not assign_by_name(f, name, v, genv):
            define_in_frame(f, name, v, genv)
        return NIL
    return ev


# ── try-catch ────────────────────────────────────────────────────────────

@special('try-catch')
def comp_try(x, scope, tail, span, unit):
    c = cells(x)
    if len(c) < 4 or c[2].car.__class__ is not List or len(c[2].car) != 1 \
            or c[2].car.car.__class__ is not Symbol:
        raise Usage(usage_message(x))
    body = comp(c[1].car, scope, False, sub_span(c[1], span, unit), unit)
    var = c[2].car.car
    hscope = Scope([var], scope)
    for d in body_defines([c[3].car]):
        hscope.add(d, maybe_unbound=True)
    extra = [UNBOUND] * (len(hscope.names) - 1)
    handler = comp(c[3].car, hscope, tail, sub_span(c[3], span, unit), unit)
    D = unit.depth

    def ev(f):
        try:
            return body(f)
        except RustyError as e:
            message = e.message
        except KeyboardInterrupt:
            message = Interrupted().message
        except RecursionError:
            message = recursion_message(D)
        except MemoryError:
            message = out_of_memory().message
        return handler([f, hscope, message] + extra)
    return ev


# ── eval ─────────────────────────────────────────────────────────────────

@special('eval')
def comp_eval(x, scope, tail, span, unit):
    if len(x) != 2:
        raise Usage(usage_message(x))
    arg = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    data_unit = unit.from_data()

    def ev(f):
        form = to_code(arg(f))
        check_in_scope(form, span, scope, unit.genv)
        return comp(form, scope, tail, span, data_unit)(f)
    return ev


# ── load, load-relative ──────────────────────────────────────────────────

def _load(x, scope, span, unit, relative: bool):
    if len(x) != 2:
        raise Usage(usage_message(x))
    arg = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    interp = unit.interp

    def ev(f):
        path = arg(f)
        if path.__class__ is not str:
            raise EvalError('load: expects 1 string argument', span)
        return interp.load(path, relative, span)
    return ev


@special('load')
def comp_load(x, scope, tail, span, unit):
    return _load(x, scope, span, unit, False)


@special('load-relative')
def comp_load_relative(x, scope, tail, span, unit):
    return _load(x, scope, span, unit, True)
