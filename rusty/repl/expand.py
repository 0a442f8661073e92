"""`,expand`'s one step for the derived special forms: `(when c a b)` is shown
as `(if c (begin a b))`, `let` as a lambda call, and so on.

The evaluator compiles these forms directly (they are not macros); each row
here rewrites one form into simpler ones with the same meaning, as the
manual's section on special forms describes it, so `,expand` can show what a
form means. tests/test_repl_expand.py evaluates each rewrite against the form.
A form of the wrong shape gets no rewrite (its usage error is shown instead).
"""
from __future__ import annotations

from ..values import EMPTY, List, Symbol, make_list, sym

IF, BEGIN, LAMBDA, LET, LET_STAR, LETREC = sym('if'), sym('begin'), sym('lambda'), sym('let'), sym('let*'), sym('letrec')
COND, AND, OR, SET, DEFINE, MEMBER, QUOTE = sym('cond'), sym('and'), sym('or'), sym('set!'), sym('define'), \
    sym('member'), sym('quote')
ELSE, WHILE, NOT = sym('else'), sym('while'), sym('not')


def L(*items) -> List:
    return make_list(items)


def _fresh(form, base: str) -> Symbol:
    """A name (base, base1, …) that occurs nowhere in form."""
    used = set()
    todo = [form]
    while todo:
        x = todo.pop()
        if x.__class__ is Symbol:
            used.add(x.name)
        elif x.__class__ is List:
            todo.extend(x)
    name, n = base, 0
    while name in used:
        n += 1
        name = '%s%d' % (base, n)
    return sym(name)


def _sequence(body: list):
    """One form for a body: itself, or (begin …)."""
    return body[0] if len(body) == 1 else make_list([BEGIN] + body)


def _pairs(bindings) -> tuple[list, list] | None:
    """The names and expressions of ((name expr)…), or None if not that shape."""
    if bindings.__class__ is not List:
        return None
    names, exprs = [], []
    for b in bindings:
        if b.__class__ is not List or len(b) != 2 or b.car.__class__ is not Symbol:
            return None
        names.append(b.car)
        exprs.append(b.cdr.car)
    return names, exprs


def _when(x, args):
    return L(IF, args[0], _sequence(args[1:]))


def _unless(x, args):
    return L(IF, args[0], EMPTY, _sequence(args[1:]))


def _and(x, args):
    if not args:
        return True
    if len(args) == 1:
        return args[0]
    return L(IF, args[0], make_list([AND] + args[1:]), False)


def _or(x, args):
    if not args:
        return False
    if len(args) == 1:
        return args[0]
    t = _fresh(x, 'tmp')
    return L(LET, L(L(t, args[0])), L(IF, t, t, make_list([OR] + args[1:])))


def _cond(x, args):
    if not args:
        return EMPTY
    first, rest = args[0], make_list([COND] + args[1:])
    if first.__class__ is not List or first is EMPTY:
        return None
    test, body = first.car, list(first.cdr)
    if test is ELSE:
        return _sequence(body) if body else EMPTY
    if not body:
        return L(OR, test, rest) if len(args) > 1 else test
    return L(IF, test, _sequence(body), rest) if len(args) > 1 else L(IF, test, _sequence(body))


def _case(x, args):
    key = _fresh(x, 'key')
    clauses = []
    for c in args[1:]:
        if c.__class__ is not List or c is EMPTY:
            return None
        body = list(c.cdr) or [EMPTY]
        test = ELSE if c.car is ELSE else L(MEMBER, key, L(QUOTE, c.car))
        clauses.append(make_list([test] + body))
    return L(LET, L(L(key, args[0])), make_list([COND] + clauses))


def _let(x, args):
    if args and args[0].__class__ is Symbol:                    # named let
        name, bindings, body = args[0], args[1], args[2:]
        pairs = _pairs(bindings)
        if pairs is None:
            return None
        proc = make_list([LAMBDA, make_list(pairs[0])] + body)
        return make_list([L(LETREC, L(L(name, proc)), name)] + pairs[1])
    pairs = _pairs(args[0])
    if pairs is None:
        return None
    return make_list([make_list([LAMBDA, make_list(pairs[0])] + args[1:])] + pairs[1])


def _let_star(x, args):
    bindings, body = args[0], args[1:]
    if bindings.__class__ is not List or len(bindings) < 2:
        return make_list([LET, bindings] + body)
    return L(LET, L(bindings.car), make_list([LET_STAR, bindings.cdr] + body))


def _letrec(x, args):
    pairs = _pairs(args[0])
    if pairs is None:
        return None
    names, exprs = pairs
    sets = [L(SET, n, e) for n, e in zip(names, exprs)]
    return make_list([LET, make_list([L(n, EMPTY) for n in names])] + sets + args[1:])


def _do(x, args):
    """One frame for the variables (closures made in the body see the steps
    assign them), a while loop, every step computed before any is assigned."""
    specs, end, body = args[0], args[1], args[2:]
    if specs.__class__ is not List or end.__class__ is not List or end is EMPTY:
        return None
    inits, steps = [], []
    for s in specs:
        if s.__class__ is not List or len(s) not in (2, 3) or s.car.__class__ is not Symbol:
            return None
        inits.append(L(s.car, s.cdr.car))
        if len(s) == 3:
            steps.append((s.car, s.cdr.cdr.car))
    if len(steps) == 1:
        assign = [L(SET, *steps[0])]
    elif steps:
        temps = [_fresh(x, 'next-' + name.name) for name, _ in steps]
        sets = [L(SET, name, t) for (name, _), t in zip(steps, temps)]
        assign = [make_list([LET, make_list([L(t, e) for t, (_, e) in zip(temps, steps)])] + sets)]
    else:
        assign = []
    loop = make_list([WHILE, L(NOT, end.car)] + body + assign)
    return make_list([LET, make_list(inits), loop] + (list(end.cdr) or [EMPTY]))


def _define(x, args):
    if args[0].__class__ is not List:
        return None                         # (define name value) is already simple
    head = args[0]
    return L(DEFINE, head.car, make_list([LAMBDA, head.cdr] + args[1:]))


def _def(x, args):
    if len(args) == 2:
        return L(DEFINE, args[0], args[1])
    return L(DEFINE, args[0], make_list([LAMBDA, args[1]] + args[2:]))


def _lambda_alias(x, args):
    return make_list([LAMBDA] + args)


def _eval_when(x, args):
    return make_list([BEGIN] + args[1:])


# special form -> its one step (None when the shape does not fit)
STEPS = {
    'when': _when, 'unless': _unless, 'and': _and, 'or': _or, 'cond': _cond, 'case': _case,
    'let': _let, 'let*': _let_star, 'letrec': _letrec, 'letrec*': _letrec, 'do': _do,
    'define': _define, 'def': _def, 'fn': _lambda_alias, 'λ': _lambda_alias, 'eval-when': _eval_when,
}


# the special forms with no simpler equivalent: ,expand says so
PRIMITIVE = ('if', 'begin', 'lambda', 'quote', 'set!', 'set', 'match', 'try-catch', 'quasiquote', 'unquote',
             'unquote-splicing', 'eval', 'defmacro', 'define-macro', 'load', 'load-relative', 'defrust', 'defrust*',
             'import', '.')


def one_step(form):
    """The one-step rewrite of a derived special form, or None (a primitive
    form, or one whose shape the rewrite does not take)."""
    if form.__class__ is not List or form is EMPTY or form.car.__class__ is not Symbol:
        return None
    step = STEPS.get(form.car.name)
    if step is None:
        return None
    try:
        return step(form, list(form.cdr))
    except (IndexError, AttributeError, TypeError):    # a shape the rewrite does not take
        return None
