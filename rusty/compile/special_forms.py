"""Lowering of the special forms but the lets and `do` (a mixin of
lower.Lowering): quote, if, begin, and, or, when, unless, cond, set!,
define, def and lambda (a nested lambda: its own Python function)."""
from . import pyast as ast

from ..resolve import GlobalRef, Scope, _one_name, body_defines, resolve
from ..values import EMPTY, List, Symbol, cons, make_list, sym
from . import macros
from .called import defined_function, only_called
from .inline import _is_not
from .nodes import Unsupported, _ident, assign, attr, call, const, is_, is_not, is_temp, name
from .variables import FRAME_HOPS, Fn


FN_FORMS = frozenset(map(sym, ('lambda', 'fn', 'λ')))
DOT, ELSE, BEGIN, DEFINE, DEF = sym('.'), sym('else'), sym('begin'), sym('define'), sym('def')
QUOTE, LET = sym('quote'), sym('let')


class SpecialForms:
    """Lowering's methods f_NAME for the special form NAME (lower.FORMS)."""

    def f_quote(self, x, scope, span, fn, tail):
        return self.result([], self.k(x.cdr.car), tail)

    def result(self, stmts, e, tail):
        if tail:
            return stmts + [ast.Return(e)]
        return stmts, e

    def test(self, x, scope, span, fn):
        """(statements, Python condition) true when form x's value is not #f:
        when the statements end in branches each leaving the value in the
        temporary e, each leaves `value is not False` there instead, a bool
        (which kinds.py folds to the value when that is a bool already)."""
        s, e = self.value(x, scope, span, fn)
        if e.__class__ is ast.Name and is_temp(e.id) and s and _leaves_in(s[-1], e.id):
            _test_in(s[-1], e.id)
            return s, e
        return s, _is_not(e, const(False))

    def f_if(self, x, scope, span, fn, tail):
        c = list(x.cells())
        if len(c) not in (3, 4):
            raise Unsupported('if')
        ts, te = self.test(c[1].car, scope, self.span_of(c[1], span), fn)
        if tail:
            then = self.tail(c[2].car, scope, self.span_of(c[2], span), fn)
            other = (self.tail(c[3].car, scope, self.span_of(c[3], span), fn) if len(c) == 4
                     else [ast.Return(name('NIL'))])
            return ts + [ast.If(te, then, other)]
        r = self.fresh('r')
        s1, e1 = self.value(c[2].car, scope, self.span_of(c[2], span), fn)
        s2, e2 = self.value(c[3].car, scope, self.span_of(c[3], span), fn) if len(c) == 4 else ([], name('NIL'))
        if not s1 and not s2:
            if not ts:
                return [], ast.IfExp(te, e1, e2)
        return ts + [ast.If(te, s1 + [assign(r, e1)], s2 + [assign(r, e2)])], name(r)

    def f_begin(self, x, scope, span, fn, tail):
        return self.body(x.cdr, scope, span, fn, tail)

    def f_and(self, x, scope, span, fn, tail, is_and=True):
        c = list(x.cdr.cells())
        if not c:
            return self.result([], const(is_and), tail)
        r = self.fresh('r')
        out = []
        target = out
        for k in c[:-1]:
            s, e = self.value(k.car, scope, self.span_of(k, span), fn)
            target += s
            target.append(assign(r, e))
            stop = is_(name(r), const(False)) if is_and else is_not(name(r), const(False))
            inner = []
            target.append(ast.If(stop, [ast.Return(name(r))] if tail else [ast.Pass()], inner))
            target = inner
        last = c[-1]
        if tail:
            target += self.tail(last.car, scope, self.span_of(last, span), fn)
            return out
        s, e = self.value(last.car, scope, self.span_of(last, span), fn)
        target += s + [assign(r, e)]
        return out, name(r)

    def f_or(self, x, scope, span, fn, tail):
        return self.f_and(x, scope, span, fn, tail, False)

    def f_when(self, x, scope, span, fn, tail, want=True):
        if len(x) < 3:
            raise Unsupported('when')
        ts, te = self.test(x.cdr.car, scope, self.span_of(x.cdr, span), fn)
        if not want:
            te = ast.UnaryOp(ast.Not(), te)
        if tail:
            return ts + [ast.If(te, self.body(x.cdr.cdr, scope, span, fn, True), [ast.Return(name('NIL'))])]
        s, e = self.body(x.cdr.cdr, scope, span, fn, False)
        r = self.fresh('r')
        return ts + [ast.If(te, s + [assign(r, e)], [assign(r, name('NIL'))])], name(r)

    def f_unless(self, x, scope, span, fn, tail):
        return self.f_when(x, scope, span, fn, tail, False)

    def f_cond(self, x, scope, span, fn, tail):
        r = None if tail else self.fresh('r')
        out = []
        target = out
        done = False
        for c in x.cdr.cells():
            clause = c.car
            if clause.__class__ is not List or clause is EMPTY:
                continue
            cspan = self.span_of(c, span)
            has_body = clause.cdr is not EMPTY
            if clause.car is ELSE:
                if has_body:
                    target += self.body_into(clause.cdr, scope, cspan, fn, tail, r)
                else:
                    target += self.result_into([], name('NIL'), tail, r)
                done = True
                break
            ts, te = self.test(clause.car, scope, self.span_of(clause, cspan), fn)
            inner = []
            if has_body:
                then = self.body_into(clause.cdr, scope, cspan, fn, tail, r)
            else:
                v = self.fresh()
                ts2, te2 = self.value(clause.car, scope, self.span_of(clause, cspan), fn)
                target += ts2 + [assign(v, te2)]
                ts, te = [], is_not(name(v), const(False))
                then = self.result_into([], name(v), tail, r)
            target += ts + [ast.If(te, then, inner)]
            target = inner
        if not done:
            target += self.result_into([], name('NIL'), tail, r)
        if tail:
            return out
        return out, name(r)

    def body_into(self, forms, scope, span, fn, tail, r):
        if tail:
            return self.body(forms, scope, span, fn, True)
        s, e = self.body(forms, scope, span, fn, False)
        return s + [assign(r, e)]

    def result_into(self, s, e, tail, r):
        return s + [ast.Return(e)] if tail else s + [assign(r, e)]

    def f_set(self, x, scope, span, fn, tail):
        if len(x) != 3 or x.cdr.car.__class__ is not Symbol:
            raise Unsupported('set!')
        s = x.cdr.car
        vs, ve = self.value(x.cdr.cdr.car, scope, self.span_of(x.cdr.cdr, span), fn)
        ref = resolve(scope, s, self.genv)
        if ref.__class__ is GlobalRef:     # (bound, and no frame binds s at run time: set it; else by name)
            t = self.fresh()
            cell = self.k(self.genv.cell(s))
            slow = ast.Expr(call(name('GLOBAL_WRITE'), name('E'), self.k(s), name(t), self.k(span), name('GENV')))
            out = vs + [assign(t, ve), ast.If(is_not(attr(cell, 'value'), name('MISSING')),
                                              [ast.Expr(call(attr(cell, 'set'), name(t)))], [slow])]
            return self.result(out, name('NIL'), tail)
        found, hops = self.locate(ref, scope)
        if found is None:
            return self.result(vs + self.frame_write(ref, hops, s, ve, span), name('NIL'), tail)
        if ref.maybe_unbound:
            raise Unsupported('maybe unbound')
        self.use(found[0], found[1], fn, True)
        return self.result(vs + [assign(found[0], ve)], name('NIL'), tail)

    def frame_write(self, ref, hops, s, ve, span):
        """set! of an enclosing reference frame's slot, as env_write: in place unless the name's cell is dyn."""
        by_slot = not ref.maybe_unbound and ref.depth <= 2 and hops <= FRAME_HOPS
        t, cell, fr = self.fresh(), self.k(self.genv.cell(s)), name('E')
        slow = ast.Expr(call(name('ENV_WRITE'), name('E'), const(hops), const(ref.index), cell, self.k(s),
                             name(t), const(not ref.maybe_unbound and ref.depth <= 2), self.k(span), name('GENV')))
        for _ in range(hops):
            fr = ast.Subscript(fr, const(0), ast.Load())
        write = ast.Assign([ast.Subscript(fr, const(ref.index), ast.Store())], name(t))
        return [assign(t, ve), ast.If(attr(cell, 'dyn'), [slow], [write]) if by_slot else slow]

    def f_define(self, x, scope, span, fn, tail):
        """define (and def's forms of it) of a slot of the current scope:
        the body's define slots (a define elsewhere stays on the reference)."""
        if len(x) < 3:
            raise Unsupported('define')
        target = x.cdr.car
        if target.__class__ is Symbol:
            init = x.cdr.cdr.car
            var = self.slot(target, scope)
            self.not_known_yet(x, var)
            if init.__class__ is List and init is not EMPTY and init.car in FN_FORMS:
                self.naming = target.name       # NAMED names the lambda it makes so (the profiler's row)
                if len(init) >= 3:
                    params, rest = _params(init.cdr.car)
                    known = self.known_define(x, target, var, params, rest)
                    if known is not None:       # (a lambda made as lambda_maker makes it, named as define names it)
                        vs, ve = self.nested(params, rest, init.cdr.cdr, scope, self.span_of(x.cdr.cdr, span), fn,
                                             target.name, var, known)
                        ve = self.stamp([ve], self.line(self.span_of(x.cdr.cdr, span), scope))[0]
                        vs = self.stamp(vs, self.line(self.span_of(x.cdr.cdr, span), scope))
                        self.naming = None      # (made with define's name: no NAMED call, support.named)
                        return self.result(vs + [assign(var, ve)], name('NIL'), tail)
            if init is not None:
                vs, ve = self.value(init, scope, self.span_of(x.cdr.cdr, span), fn)
            self.naming = None
            t = self.fresh()
            out = vs + [assign(t, ve), ast.Expr(call(name('NAMED'), name(t), self.k(target))), assign(var, name(t))]
            return self.result(out, name('NIL'), tail)
        if target.__class__ is not List or target is EMPTY or target.car.__class__ is not Symbol:
            raise Unsupported('define')
        params, rest = _params(target.cdr)
        var = self.slot(target.car, scope)
        self.not_known_yet(x, var)
        known = self.known_define(x, target.car, var, params, rest)
        defs, make = self.nested(params, rest, x.cdr.cdr, scope, span, fn, target.car.name,
                                 var if known else None, known)
        return self.result(defs + [assign(var, make)], name('NIL'), tail)

    def known_define(self, x, s, var, params, rest):
        """The Python name of the function a body's `define` x of a lambda
        (symbol s, slot var) makes when that local is known to hold it
        wherever the body's later forms and the lambda's own body call it
        (Lowering.known, as a named let's loop: called directly, its self
        tail calls a loop): x runs first in its body, unconditionally, the
        body's only definition of s, no set! of s; else None."""
        if id(x) not in self.sure_defines or s in self.assigned or rest is not None:
            return None
        pyname = self.fresh('f_' + _ident(s.name) + '_')
        self.known[var] = (pyname, len(params))
        self.known_defines[var] = (x, pyname)
        body = self.define_bodies.get(id(x))
        group = _function_defines(body) if body is not None else frozenset()
        if body is not None and x.cdr.car.__class__ is List and only_called(_but(body, x) + list(x.cdr.cdr), s,
                                                                             self.expanded, group, self.called):
            self.releasable.add(var)
            self.release_groups[var] = id(body)
        elif body is not None and x.cdr.car.__class__ is Symbol and only_called(
                _but(body, x) + list(x.cdr.cdr.car.cdr.cdr), s, self.expanded, group, self.called):
            self.releasable.add(var)
            self.release_groups[var] = id(body)
        return pyname

    def not_known_yet(self, x, var) -> None:
        """A define x of var, unless var is a known local function another
        define made (one a macro's expansion lowered after it): that refuses."""
        mine = self.known_defines.get(var)
        if mine is not None and mine[0] is not x:
            raise Unsupported('a local function defined again')

    def mark_defines(self, body) -> None:
        """Note the defines of body that run unconditionally in its order
        (its own forms and those of its begins) and are the body's only
        definition of their name (known_define)."""
        counts: dict = {}
        for n in _all_defines(body):
            counts[n] = counts.get(n, 0) + 1
        stack = list(body)
        while stack:
            y = stack.pop()
            if y.__class__ is not List or y is EMPTY or y.cdr is EMPTY:
                continue
            if y.car is BEGIN:
                stack.extend(y.cdr)
            elif y.car is DEFINE or y.car is DEF:
                names = _one_name(y.cdr)
                if names and counts.get(names[0]) == 1:
                    self.sure_defines.add(id(y))
                    self.define_bodies[id(y)] = body

    def f_def(self, x, scope, span, fn, tail):
        if len(x) == 3:
            return self.f_define(x, scope, span, fn, tail)
        if len(x) < 3 or x.cdr.car.__class__ is not Symbol:
            raise Unsupported('def')
        params = x.cdr.cdr.car
        if params.__class__ is Symbol:
            sig = make_list([x.cdr.car, DOT, params])
        elif params.__class__ is List:
            sig = cons(x.cdr.car, params)
        else:
            raise Unsupported('def')
        form = self.defs_made.get(id(x))
        if form is None:        # (one form per def: known_define tells a second definition by it)
            form = self.defs_made[id(x)] = cons(x.car, cons(sig, x.cdr.cdr.cdr))
            if id(x) in self.sure_defines:
                self.sure_defines.add(id(form))
        return self.f_define(form, scope, span, fn, tail)

    def f_lambda(self, x, scope, span, fn, tail):
        if len(x) < 3:
            raise Unsupported('lambda')
        params, rest = _params(x.cdr.car)
        body = x.cdr.cdr
        lam = self.nested(params, rest, body, scope, span, fn, 'lambda')
        return self.result(*lam, tail)

    def nested(self, params, rest, body, scope, span, fn, lname, loopvar=None, pyname=None, pending=None):
        """(statements, expression) making the Lambda of a nested lambda (its
        scope made as lambda_maker makes it)."""
        slots = list(params) + ([rest] if rest is not None else [])
        self.mark_defines(body)
        lscope = Scope(slots, scope)
        for dname in body_defines(body):
            lscope.add(dname, maybe_unbound=True)
        pyname = pyname or self.fresh('f_' + _ident(lname) + '_')
        inner = Fn(pyname, None, fn, loop=('var', loopvar) if loopvar else None, selfname=loopvar)
        inner.label, self.naming = self.naming or lname, None
        names = self.bind(lscope, inner)
        inner.params, inner.defined = names[:len(slots)], names[len(slots):]
        self.bound_once.update(inner.params)
        fdef = self.function(inner, body, lscope, span)
        self.finished[pyname] = inner       # (its calls known: a direct tail call of it may nest no further)
        layout = self.env_layout(scope)
        inner.lazy_env = inner.exit_reads is not None and all(
            n in inner.exit_reads for _, ns in layout for n in ns)
        maker = self.k(_MakerSpec(params, rest, body, lscope, lname, len(names) - len(slots),
                                  layout if inner.lazy_env else None))
        if inner.lazy_env:      # (its env read from its function's cells when asked: frame_views.LazyEnv)
            return [fdef], call(maker, name(pyname))
        return [fdef], call(maker, name(pyname), self.frames(scope, fn, pending))

    def env_layout(self, scope) -> tuple:
        """((scope, the Python names of its slots)…), outermost first, of the
        compiled scopes visible from scope: the frames a lambda's env holds."""
        layout = []
        sc = scope
        while sc is not None and id(sc) in self.compiled_scopes:
            layout.append((sc, tuple(self.vars[(id(sc), i + 2)][0] for i in range(len(sc.names)))))
            sc = sc.parent
        return tuple(reversed(layout))


def _all_defines(forms) -> list:
    """Every name a define-like form in these body forms binds, once per
    definition (resolve.body_defines' walk, repeats kept)."""
    from ..resolve import DEFINES, FORM_OF, SAME_FRAME_PARTS
    found = []
    stack = list(forms)
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x is EMPTY or x.cdr is EMPTY:
            continue
        form = FORM_OF.get(x.car)
        if form is None:
            continue
        names = DEFINES.get(form.syntax)
        if names is not None:
            found += names(x.cdr)
            continue
        parts = SAME_FRAME_PARTS.get(form.syntax)
        if parts is not None:
            stack.extend(parts(x.cdr))
    return found


class _MakerSpec:
    """What a nested lambda's LambdaMaker needs besides the session's depth
    (`layout`: its values' env is read from their functions' cells when
    asked, frame_views.LazyEnv; None: the code passes the frames it built)."""
    __slots__ = ('params', 'rest', 'body', 'scope', 'name', 'extra', 'layout')

    def __init__(self, params, rest, body, scope, name, extra, layout=None):
        self.params, self.rest, self.body, self.scope, self.name = params, rest, body, scope, name
        self.extra, self.layout = extra, layout


def _leaves_in(st, r: str) -> bool:
    """True if statement st ends each of its ways by assigning temporary r
    (or by leaving the function)."""
    cls = st.__class__
    if cls is ast.Assign:
        return len(st.targets) == 1 and st.targets[0].__class__ is ast.Name and st.targets[0].id == r
    if cls is ast.Return or cls is ast.Raise:
        return True
    if cls is ast.If:
        return bool(st.body) and bool(st.orelse) and _leaves_in(st.body[-1], r) and _leaves_in(st.orelse[-1], r)
    return False


def _test_in(st, r: str) -> None:
    """Make each assignment that ends a way of st (see _leaves_in) assign
    `value is not False`."""
    if st.__class__ is ast.Assign:
        st.value = ast.copy_location(_is_not(st.value, ast.copy_location(const(False), st)), st)
    elif st.__class__ is ast.If:
        _test_in(st.body[-1], r)
        _test_in(st.orelse[-1], r)


def _params(p):
    """(required symbols, rest symbol or None), by specials.parse_params."""
    from ..eval import Usage
    from ..specials import parse_params
    try:
        return parse_params(p)
    except Usage as u:
        raise Unsupported(u.message) from None


def _function_defines(body) -> frozenset:
    """The names the defines of functions in body (its begins spread) bind."""
    found = set()
    for y in _but(body, None):
        if y.__class__ is List and y is not EMPTY and y.car is DEFINE:
            named = defined_function(y)
            if named is not None:
                found.add(named[0])
    return frozenset(found)


def _but(body, x) -> list:
    """The forms of body but x (and its begins' forms, x among them, spread)."""
    out = []
    for y in body:
        if y is x:
            continue
        if y.__class__ is List and y is not EMPTY and y.car is BEGIN:
            out += _but(y.cdr, x)
        else:
            out.append(y)
    return out


def _makes_functions(forms, expanded=None) -> bool:
    """True if the forms contain a lambda or a named let (a closure over a
    loop's variables would see them change); a macro call is read as its
    expansion too (`expanded`: Lowering.expanded; one made at run time may make any)."""
    stack = list(forms)
    while stack:
        x = stack.pop()
        if x.__class__ is List and x is not EMPTY:
            if x.car in FN_FORMS or (x.car is sym('let') and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol):
                return True
            if x.car is sym('quote'):
                continue
            if expanded and id(x) in expanded:
                e = expanded[id(x)]
                if e is None or e.form is macros.FAILED:
                    return True
                stack.append(e.form)
            stack.extend(x)
    return False
