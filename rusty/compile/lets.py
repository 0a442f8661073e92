"""Lowering of let, let*, letrec and named let (a mixin of lower.Lowering):
the variables Python locals of the function around them; a named let's
loop a nested function, called directly, freed at once when nothing else
holds it."""
from . import pyast as ast

from ..eval import Usage, sub_span
from ..let_forms import parse_bindings
from ..resolve import Scope, body_defines
from ..values import EMPTY, List, Symbol, sym
from . import macros
from .called import only_called
from .nodes import L, S, Unsupported, _ident, assign, attr, call, const, name
from .special_forms import FN_FORMS, _makes_functions, _params


# The references to a named let's loop when only its own frame (env[2]) and
# variable (a closure cell) hold it, as sys.getrefcount counts them (the
# argument is one more).
LOOP_REFS = 3


class Lets:
    """Lowering's methods for the lets."""

    def f_let(self, x, scope, span, fn, tail):
        if len(x) < 3:
            raise Unsupported('let')
        if x.cdr.car.__class__ is Symbol:
            return self.named_let(x, scope, span, fn, tail)
        binds = _bindings(x, x.cdr.car)
        stmts, vals = self.inits(binds, scope, span, fn)
        lscope = Scope([b[0] for b in binds], scope)
        self.mark_defines(x.cdr.cdr)
        for dname in body_defines(x.cdr.cdr):
            lscope.add(dname, maybe_unbound=True)
        names = self.bind(lscope, fn)
        self.bound_once.update(names[:len(vals)])
        for n, v in zip(names, vals + [name('UNBOUND')] * (len(names) - len(vals))):
            stmts.append(assign(n, v))
        if tail:
            return stmts + self.body(x.cdr.cdr, lscope, span, fn, True)
        s, e = self.body(x.cdr.cdr, lscope, span, fn, False)
        return stmts + s, e

    def f_let_star(self, x, scope, span, fn, tail, rec=False):
        """let* (each init sees the names bound before it) and letrec (every
        name, NIL until its init ran), in one Scope as let_forms makes it."""
        if len(x) < 3:
            raise Unsupported('let*')
        binds = _bindings(x, x.cdr.car)
        lscope = Scope([], scope)
        for b in binds:
            lscope.add(b[0], maybe_unbound=not rec)
        names = self.bind(lscope, fn)
        stmts = [assign(n, name('NIL' if rec else 'UNBOUND')) for n in names]
        once = _bound_once(binds, x.cdr.cdr, self.assigned) if rec else ()
        for b in binds:
            bspan = sub_span(b[2], sub_span(b[3], span, self.unit), self.unit)
            var = self.vars[(id(lscope), lscope.index[b[0]])][0]
            s, e = self.known_lambda(b[1], var, lscope, bspan, fn) if b[0] in once else (None, None)
            if s is not None and only_called([c[1] for c in binds if c is not b] + list(x.cdr.cdr)
                                             + list(b[1].cdr.cdr), b[0], self.expanded):
                self.releasable.add(var)        # (freed after a tail call of it: Calls.known_call)
            if s is None:
                s, e = self.value(b[1], lscope, bspan, fn)
            stmts += s + [assign(var, e)]
        lscope.maybe_unbound.clear()
        self.mark_defines(x.cdr.cdr)
        for dname in body_defines(x.cdr.cdr):
            if dname not in lscope.index:
                lscope.add(dname, maybe_unbound=True)
                n = 'v_%s_%d' % (_ident(dname.name), self.count + 1)
                self.count += 1
                self.vars[(id(lscope), lscope.index[dname])] = (n, fn)
                stmts.append(assign(n, name('UNBOUND')))
        if tail:
            return stmts + self.body(x.cdr.cdr, lscope, span, fn, True)
        s, e = self.body(x.cdr.cdr, lscope, span, fn, False)
        return stmts + s, e

    def f_letrec(self, x, scope, span, fn, tail):
        return self.f_let_star(x, scope, span, fn, tail, True)

    def known_lambda(self, init, var, scope, span, fn):
        """A letrec's lambda bound to var (by no other form, never set!): a
        known local function as a body's define of one (known_define), made
        as value() makes it; (None, None) if init is no lambda of fixed arity."""
        if init.__class__ is not List or init is EMPTY or init.car not in FN_FORMS or len(init) < 3:
            return None, None
        params, rest = _params(init.cdr.car)
        if rest is not None:
            return None, None
        pyname = self.fresh('f_lambda_')
        self.known[var] = (pyname, len(params))
        s, e = self.nested(params, rest, init.cdr.cdr, scope, span, fn, 'lambda', var, pyname)
        return self.stamp(s, self.line(span, scope)), self.stamp([e], self.line(span, scope))[0]

    def inits(self, binds, scope, span, fn):
        return self.in_order([self.value(b[1], scope, sub_span(b[2], sub_span(b[3], span, self.unit), self.unit), fn)
                              for b in binds])

    def named_let(self, x, scope, span, fn, tail):
        if len(x) < 4:
            raise Unsupported('named let')
        lname = x.cdr.car
        binds = _bindings(x, x.cdr.cdr.car)
        stmts, vals = self.inits(binds, scope, span, fn)
        outer = Scope([lname], scope)
        (var,) = self.bind(outer, fn)
        params = tuple(b[0] for b in binds)
        loopvar = var if lname not in self.assigned else None
        loopfn = self.fresh('f_' + _ident(lname.name) + '_')
        if loopvar is not None:
            self.known[var] = (loopfn, len(params))
        defs, make = self.nested(params, None, x.cdr.cdr.cdr, outer, span, fn, lname.name, loopvar, loopfn, var)
        lazy = self.finished[loopfn].lazy_env      # (its env read from the cells when asked: the loop's, then)
        stmts += defs + [assign(var, make)] + ([] if lazy else [ast.Assign(
            [ast.Subscript(attr(name(var), 'env'), const(2), S)], name(var))])   # the loop's frame holds the loop
        site = self.k(span)
        r = self.fresh('r')
        body = x.cdr.cdr.cdr
        release = self.release(var, r, lazy, loopfn) if loopvar is not None and only_called(body, lname, self.expanded) else []
        if tail:        # the loop in this run level (past the gate: run's tail call)
            direct = self.tail_site(call(name(loopfn), name('d'), *vals), name(var), site, False, r)
            frame = ast.List([attr(name(var), 'env'), attr(name(var), 'scope')] + vals, L)
            return stmts + [ast.If(ast.Compare(name('GATE'), [ast.GtE()], [const(0)]),
                                   [direct] + release + [ast.Return(name(r))],
                                   [ast.Return(ast.Tuple([name(var), frame, site], L))])]
        q = self.fresh('q')
        return (stmts + [assign(q, attr(attr(name(var), 'code'), 'direct'))]
                + self.direct_call(name(q), name(var), vals, site, r, loopfn) + release), name(r)

    def release(self, var: str, r: str, lazy=False, loopfn=None) -> list:
        """After a named let's loop returned r (a pending tail call, of a
        loop around it say, holds what it needs: one of this loop counts):
        when nothing but the loop's own frame and variable holds the
        loop (its name only called, no function made in it: the count of
        references says none escaped), break the cycles they make (frame ->
        loop -> frame; variable's cell -> loop -> its function -> cell), so
        the loop is freed at once instead of by the cycle collector (`lazy`:
        its env is a LazyEnv, no frame holding the loop)."""
        if lazy:    # (a pending tail call of a loop in it holds the variable's cell, which no count sees)
            free = ast.Compare(call(name('REFS'), name(var)), [ast.Eq()], [const(LOOP_REFS - 1)])
            return [ast.If(self.not_held(free, r, loopfn), [assign(var, const(None))], [])]
        free = ast.Compare(call(name('REFS'), name(var)), [ast.Eq()], [const(LOOP_REFS)])
        return [ast.If(free, [ast.Assign([ast.Subscript(attr(name(var), 'env'), const(2), S)], const(None)),
                              assign(var, const(None))], [])]

    def not_held(self, free, r: str, fn: str):
        """`free` (the count of references to a local function's value), and,
        when functions are defined in function fn, that r is no pending tail
        call of one of them (support.made_in)."""
        top = self.finished[fn]
        inner = sorted(n for n, f in self.finished.items() if f is not top and _inside(f, top))
        if not inner:
            return free
        held = call(name('MADE_IN'), name(r), self.k(frozenset(inner)))
        return ast.BoolOp(ast.And(), [free, ast.UnaryOp(ast.Not(), held)])


def _inside(f, top) -> bool:
    """True if Fn f is defined, at any depth, in Fn top."""
    while f is not None:
        if f is top:
            return True
        f = f.outer
    return False


def _bound_once(binds, body, assigned) -> set:
    """The names of a letrec's bindings no other binding, body define or set! binds."""
    seen: dict = {}
    for b in binds:
        seen[b[0]] = seen.get(b[0], 0) + 1
    again = set(body_defines(body)) | assigned
    return {n for n, k in seen.items() if k == 1 and n not in again}


def _bindings(x, bs):
    """let_forms.parse_bindings: [(symbol, init form, init cell, binding cell)]."""
    try:
        return parse_bindings(x, bs)
    except Usage as u:
        raise Unsupported(u.message) from None


def _only_called(forms, s, expanded=None) -> bool:
    """True if symbol s occurs in forms only as the head of a call, and they
    make no functions (nothing else can hold a named let's loop); a macro
    call is read as its expansion (`expanded`: Lowering.expanded)."""
    if _makes_functions(forms, expanded):
        return False
    stack = list(forms)
    while stack:
        x = stack.pop()
        if x is s:
            return False
        if x.__class__ is List and x is not EMPTY:
            if x.car is sym('quote'):
                continue
            if expanded and id(x) in expanded:
                e = expanded[id(x)]
                if e is None or e.form is macros.FAILED:
                    return False
                stack.append(e.form)
            if x.car is not s:
                stack.append(x.car)
            stack.extend(x.cdr)
    return True
