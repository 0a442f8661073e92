"""The binding forms: let (and named let), let*, letrec,
letrec* and do. Each makes one frame for its names; named let and do loop
through the tail-call machinery of apply.py."""
from .apply import make_frame, run
from .eval import Usage, comp, comp_body, special, sub_span
from .resolve import UNBOUND, Scope, body_defines
from .specials import lambda_maker
from .syntax import usage_message
from .values import EMPTY, NIL, List, Symbol

def parse_bindings(x, bs):
    """[(symbol, init form, init cell)] of let-family form x's binding list bs."""
    if bs.__class__ is not List:
        raise Usage(usage_message(x))
    out = []
    for c in bs.cells():
        b = c.car
        if b.__class__ is not List or len(b) != 2 or b.car.__class__ is not Symbol:
            raise Usage(usage_message(x))
        out.append((b.car, b.cdr.car, b.cdr, c))
    return out


def _binding_span(b, span, unit):
    return sub_span(b[2], sub_span(b[3], span, unit), unit)


@special('let')
def comp_let(x, scope, tail, span, unit):
    if len(x) < 3:
        raise Usage(usage_message(x))
    if x.cdr.car.__class__ is Symbol:
        return comp_named_let(x, scope, tail, span, unit)
    binds = parse_bindings(x, x.cdr.car)
    inits = [comp(b[1], scope, False, _binding_span(b, span, unit), unit) for b in binds]
    lscope = Scope([b[0] for b in binds], scope)
    for d in body_defines(x.cdr.cdr):
        lscope.add(d, maybe_unbound=True)
    nextra = len(lscope.names) - len(binds)
    body = comp_body(x.cdr.cdr, lscope, tail, span, unit)
    extra = [UNBOUND] * nextra
    if not extra and len(inits) == 1:
        i0, = inits
        return lambda f: body([f, lscope, i0(f)])
    if not extra and len(inits) == 2:
        i0, i1 = inits
        return lambda f: body([f, lscope, i0(f), i1(f)])
    if not extra and len(inits) == 3:
        i0, i1, i2 = inits
        return lambda f: body([f, lscope, i0(f), i1(f), i2(f)])

    def ev(f):
        fr = [f, lscope]
        for i in inits:
            fr.append(i(f))
        if extra:
            fr += extra
        return body(fr)
    return ev


def comp_named_let(x, scope, tail, span, unit):
    if len(x) < 4:
        raise Usage(usage_message(x))
    name = x.cdr.car
    binds = parse_bindings(x, x.cdr.cdr.car)
    inits = [comp(b[1], scope, False, _binding_span(b, span, unit), unit) for b in binds]
    outer = Scope([name], scope)
    make = lambda_maker(tuple(b[0] for b in binds), None, x.cdr.cdr.cdr, outer, span, unit, name.name)
    D = unit.depth

    n = len(inits)

    def ev(f):
        args = []
        for i in inits:
            args.append(i(f))
        f1 = [f, outer, None]
        loop = make(f1)
        f1[2] = loop
        if loop.fast == n:      # (its frame is just the arguments, as make_frame would build it)
            fr = [loop.env, loop.scope]
            fr += args
        else:
            fr = make_frame(loop, args, span)
        if tail:
            return (loop, fr, span)
        return run(loop, fr, span, D)
    return ev


def _comp_let_star(x, scope, tail, span, unit, rec: bool):
    if len(x) < 3:
        raise Usage(usage_message(x))
    binds = parse_bindings(x, x.cdr.car)
    names = [b[0] for b in binds]
    lscope = Scope([], scope)
    for n in names:
        lscope.add(n, maybe_unbound=not rec)
    inits = []
    for b in binds:     # a name is bound once its init has run: later inits read its slot plainly
        inits.append((lscope.index[b[0]], comp(b[1], lscope, False, _binding_span(b, span, unit), unit)))
        lscope.maybe_unbound.discard(b[0])
    lscope.maybe_unbound.clear()
    for d in body_defines(x.cdr.cdr):
        if d not in lscope.index:
            lscope.add(d, maybe_unbound=True)
    nnames = len(set(names))
    initial = [NIL if rec else UNBOUND] * nnames + [UNBOUND] * (len(lscope.names) - nnames)
    body = comp_body(x.cdr.cdr, lscope, tail, span, unit)

    def ev(f):
        fr = [f, lscope]
        fr += initial
        for i, init in inits:
            fr[i] = init(fr)
        return body(fr)
    return ev


@special('let*')
def comp_let_star(x, scope, tail, span, unit):
    return _comp_let_star(x, scope, tail, span, unit, False)


@special('letrec', 'letrec*')
def comp_letrec(x, scope, tail, span, unit):
    return _comp_let_star(x, scope, tail, span, unit, True)


@special('do')
def comp_do(x, scope, tail, span, unit):
    if len(x) < 3 or x.cdr.car.__class__ is not List or x.cdr.cdr.car.__class__ is not List:
        raise Usage(usage_message(x))
    specs = []
    for c in x.cdr.car.cells():
        s = c.car
        if s.__class__ is not List or len(s) not in (2, 3) or s.car.__class__ is not Symbol:
            raise Usage(usage_message(x))
        specs.append((s, c))
    test_clause = x.cdr.cdr.car
    if test_clause is EMPTY:
        raise Usage(usage_message(x))
    body_forms = x.cdr.cdr.cdr
    inits = [comp(s.cdr.car, scope, False, sub_span(s.cdr, sub_span(c, span, unit), unit), unit)
             for s, c in specs]
    dscope = Scope([s.car for s, _ in specs], scope)
    for d in body_defines(body_forms):
        dscope.add(d, maybe_unbound=True)
    extra = [UNBOUND] * (len(dscope.names) - len(specs))
    steps = [(dscope.index[s.car], comp(s.cdr.cdr.car, dscope, False,
                                         sub_span(s.cdr.cdr, sub_span(c, span, unit), unit), unit))
             for s, c in specs if len(s) == 3]
    test = comp(test_clause.car, dscope, False, sub_span(test_clause, span, unit), unit)
    result = comp_body(test_clause.cdr, dscope, False, span, unit)
    body = comp_body(body_forms, dscope, False, span, unit)

    hot = None if unit.compile_loop is None else unit.compile_loop(x, dscope, span, unit)
    step = stepper(steps)

    def ev(f):
        fr = [f, dscope] + [i(f) for i in inits] + extra
        while test(fr) is False:
            body(fr)
            step(fr)
        return result(fr)
    if hot is None:
        return ev

    def ev_hot(f):          # (the door's: after each iteration, hot(fr) may give the rest of the loop)
        fr = [f, dscope] + [i(f) for i in inits] + extra
        while test(fr) is False:
            body(fr)
            step(fr)
            rest = hot(fr)
            if rest is not None:
                return rest(fr)
        return result(fr)
    return ev_hot


def stepper(steps):
    """`step(fr)`: a `do` loop's steps [(slot, code)…] computed, all from the
    frame as it is, then stored."""
    if len(steps) == 1:
        (i0, s0), = steps

        def step(fr):
            fr[i0] = s0(fr)
        return step
    if len(steps) == 2:
        (i0, s0), (i1, s1) = steps

        def step(fr):
            v0 = s0(fr)
            v1 = s1(fr)
            fr[i0] = v0
            fr[i1] = v1
        return step

    def step(fr):
        new = [(i, s(fr)) for i, s in steps]
        for i, v in new:
            fr[i] = v
    return step
