"""Lowering of calls (a mixin of lower.Lowering): the arguments in order,
the generic call (a macro expanded, a compiled lambda of the arity called
directly, anything else the reference way), and the faster ways of calling
what a global or a named let holds when lowered: a lambda directly, itself
as a loop, a cons of a call of itself (trmc.py), a named let's loop."""
from . import pyast as ast

from ..resolve import GlobalRef, resolve
from ..values import Builtin, Lambda, Symbol
from . import entry, macros, trmc, walks
from .exits import to_reference
from .expansion import expansion
from .inline import inline_spec, library_spec
from .small import small_spec
from .nodes import L, S, Unsupported, assign, attr, attr_store, call, const, is_, is_temp, name, pure, store
from .support import ITSELF


# Globals whose callers stay on the reference: `breakpoint` finds its
# environment in the reference's frames.
REFERENCE_CALLS = frozenset(('breakpoint',))

# How many tail calls made directly (Calls.leaf_call) may run at once: past
# it a tail call is the pending call run continues (each such call holds one
# host frame until the chain returns). Not fewer: each level of a chain that
# returns a pending call keeps the loops it made (Lets.not_held) for the
# collector (earley, loops tail-calling the loops around them: at 100, 273
# young collections and 30% more time than at 1000, which left 2); a host
# frame a hop is far inside the Python frames a level may take
# (evalthread.PY_FRAMES_PER_LEVEL).
TAIL_HOPS = 1000



class Calls:
    """Lowering.call and the calls it chooses between."""

    def args(self, cells, scope, span, fn):
        """Statements and pure expressions of the arguments, left to right."""
        return self.in_order([self.value(c.car, scope, self.span_of(c, span), fn) for c in cells])

    def in_order(self, parts):
        """Statements and expressions of parts evaluated left to right: a value
        goes to a temporary unless it is a constant, or a name no later part's
        statements can change."""
        stmts, exprs = [], []
        for i, (s, e) in enumerate(parts):
            stmts += s
            later = any(p[0] for p in parts[i + 1:])
            if self.fixed(e) and not (later and e.id in self.written_back):
                pass
            elif e.__class__ is not ast.Constant and (not pure(e) or later):
                t = self.fresh()
                stmts.append(assign(t, e))
                e = name(t)
            exprs.append(e)
        return stmts, exprs

    def call(self, x, scope, span, fn, tail):
        head = x.car
        cells = list(x.cdr.cells())
        if head.__class__ is Symbol:
            ref = resolve(scope, head, self.genv)
            if ref.__class__ is GlobalRef:
                cell = ref.cell
                if cell.holds_macro():
                    return macros.lower_call(self, x, cell, scope, span, fn, tail)
                self.heads[id(cell)] = cell
                if head.name in REFERENCE_CALLS:
                    raise Unsupported(head.name)
                b = cell.current()
                if b.__class__ is Builtin and b.name in walks.WALKS:
                    got = walks.walk_call(self, x, cells, cell, b, scope, span, fn, tail)
                    if got is not None:         # (its body, compiled twice, holds no walk: any size)
                        return got
                if tail and fn.trmc and scope is self.root_scope \
                        and trmc.site(x, scope, self.genv, self.root_name, len(fn.params)):
                    return self.consing_call(x, cells, cell, scope, span, fn)
                if tail and fn.loop is not None and fn.loop[0] == 'self' and head.name == self.root_name:
                    return self.self_call(x, cells, cell, scope, span, fn)
                if b.__class__ is Builtin:
                    builder = inline_spec(b, len(cells))
                    if builder is not None:
                        return self.inline(x, cells, cell, b, builder, scope, span, fn, tail)
                    return self.builtin_call(x, cells, cell, b, scope, span, fn, tail)
                if b.__class__ is Lambda:
                    spec = library_spec(self.unit, b, head.name, len(cells)) or small_spec(self, b, len(cells))
                    if spec is not None:
                        return self.library_call(x, cells, cell, b, spec, scope, span, fn, tail)
                    return self.lambda_call(x, cells, cell, scope, span, fn, tail)
            else:
                found, _ = self.locate(ref, scope)
                if found is not None and found[0] in self.known and head not in self.assigned:
                    return self.known_call(x, cells, found[0], scope, span, fn, tail)
        hs, he = self.value(head, scope, self.span_of(x, span), fn)
        if not hs and self.fixed(he):      # the head's own variable: nothing else sets it
            return self.dispatch(x, cells, [], he.id, scope, span, fn, tail)
        p = self.fresh('p')
        return self.dispatch(x, cells, hs + [assign(p, he)], p, scope, span, fn, tail)

    def fixed(self, e) -> bool:
        """True if e is a temporary (set once, by its own form) or a
        parameter or `let` variable no set! changes: nothing evaluated after
        it can change it."""
        return e.__class__ is ast.Name and (is_temp(e.id) or (e.id in self.stable and e.id in self.bound_once))

    def dispatch(self, x, cells, head_stmts, p, scope, span, fn, tail):
        """The generic call once the head's value is in p: a macro expands,
        a compiled lambda of the arity is called directly, anything else the
        reference way."""
        n = len(cells)
        arg_stmts, args = self.args(cells, scope, span, fn)
        r = self.fresh('r')
        site = self.k(span)
        is_macro = is_(attr(name(p), '__class__'), name('Macro'))
        fits = ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Lambda')),
                                      ast.Compare(attr(name(p), 'fast'), [ast.Eq()], [const(n)])])
        other = call(name('CALL_ANY'), name(p), ast.List(args, L), site, const(tail), name('d'), name('D'))
        if tail:
            frame = ast.List([attr(name(p), 'env'), attr(name(p), 'scope')] + args, L)
            fits.values[1] = self.tail_fits(p, n)
            go = self.leaf_call(p, self.fresh('q'), args, site) + [ast.Return(ast.Tuple([name(p), frame, site], L))]
            call_it = ast.If(fits, go, [ast.Return(other)])
            call_it = self.itself(p, args, span, fn, call_it)
        else:
            fnv = self.fresh('q')
            fits.values = self.direct_fits(p, fnv, n)
            builtin = ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Builtin')),
                                             ast.Compare(attr(name(p), 'lo'), [ast.LtE(), ast.LtE()],
                                                         [const(n), attr(name(p), 'hi')])])
            call_it = ast.If(fits, [entry.unwrap(fnv)] + self.direct_call(name(fnv), name(p), args, site, r),
                             [ast.If(builtin, self.builtin_body(p, args, site, r), [assign(r, other)])])
        expanded = expansion(self, p, x, scope, span, fn, tail, r)
        if not arg_stmts:
            # (arguments computed by no statement: the usual case, a direct
            # call, is tested first; a macro is no Lambda, so it is still expanded)
            call_it.orelse = [ast.If(is_macro, expanded, call_it.orelse)]
            out = head_stmts + [call_it]
        else:
            out = head_stmts + [ast.If(is_macro, expanded, arg_stmts + [call_it])]
        return out if tail else (out, name(r))

    def itself(self, p, args, span, fn, other):
        """A tail call of the value in p from the root's own function, which
        loops on its self tail calls: when p holds the very lambda value this
        code runs as (SELF: a named let's loop read from its frame, a function
        a local define named) and no tool watches calls, the loop, as
        self_call makes it; else `other`."""
        if fn is not self.root_fn or fn.loop != ('self', None) or len(args) != len(fn.params):
            return other
        fn.looped = True
        again = rebind(fn.params, args) + [assign('site', self.k(span)), ast.Continue()]
        looping = ast.BoolOp(ast.And(), [is_(name(p), name('SELF')), ast.Compare(name('GATE'), [ast.GtE()], [const(0)])])
        return ast.If(looping, again, [other])

    def direct_call(self, fnv, lam, args, site, r, callee=None, caller=None):
        """A non-tail call of positional function fnv (lambda lam): the call
        and a tail call it returns, as run does; past the gate (the depth
        limit, or a tool watching calls: Depth.gate, copied by
        link.session_namespace) through run. A failure in the callee is the
        function's handler's to report (sites.py: the call gets a line of
        its own, which names its site and lam: lam is a name, read again
        there).
        `callee`: the Python name of fnv's function when it is this code's
        own (guards.finish_checks may skip the tail call test); `caller`:
        the Fn making the call when that is fnv's function itself, which
        then says so to the profiler (counting.SELF_CALL)."""
        mine = []
        if caller is not None:
            caller.self_called = True
            mine = [const(True)]
        fcall = call(fnv, ast.BinOp(name('d'), ast.Add(), const(1)), *args, *mine)
        fcall.self_call = caller is not None            # (kinds.py may pass INTS instead)
        fcall.site_lam, fcall.site_key = lam, site      # (call_lines.place: its line, its failures)
        if self.sites is None:
            self.sites = {}
        go = assign(r, fcall)
        finish = ast.If(is_(attr(name(r), '__class__'), name('tuple')),
                        [assign(r, call(name('FINISH'), name(r), lam, site, name('d'), name('D')))], [])
        finish.callee = callee
        gated = assign(r, call(name('GATED'), lam, ast.List(args, L), site, name('d'), name('D')))
        return [ast.If(ast.Compare(name('d'), [ast.Lt()], [name('GATE')]), [go, finish], [gated])]

    def lambda_call(self, x, cells, cell, scope, span, fn, tail):
        """A call of a global holding a lambda when compiled: directly while
        it holds a compiled lambda of the arity (the lambda itself, while OK
        holds: its own function), else the generic call."""
        n = len(cells)
        if not tail and x.car.name == self.root_name and self.root_fn.loop is not None and n == len(self.root_fn.params):
            r = self.fresh('r')         # (loop: no rest parameter) the lambda itself: its own function
            arg_stmts, args = self.args(cells, scope, span, fn)
            go = arg_stmts + self.direct_call(name(self.root_fn.pyname), name('SELF'), args, self.k(span), r,
                                              self.root_fn.pyname, fn if fn is self.root_fn else None)
            o_stmts, o_value = to_reference(self, x, scope, span, fn, False)
            return [ast.If(self.ok(cell, ITSELF), go, o_stmts + [assign(r, o_value)])], name(r)
        p, site = self.fresh('p'), self.k(span)
        head = assign(p, attr(self.k(cell), 'value'))
        arg_stmts, args = self.args(cells, scope, span, fn)
        odd = ast.BoolOp(ast.Or(), [is_(attr(name(p), '__class__'), name('Macro')), is_(name(p), name('MISSING'))])
        other = call(name('CALL_ANY'), name(p), ast.List(args, L), site, const(tail), name('d'), name('D'))
        if tail:
            frame = ast.List([attr(name(p), 'env'), attr(name(p), 'scope')] + args, L)
            fits = ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Lambda')), self.tail_fits(p, n)])
            go = self.leaf_call(p, self.fresh('q'), args, site) + [ast.Return(ast.Tuple([name(p), frame, site], L))]
            call_it, out = ast.If(fits, go, [ast.Return(other)]), None
            exit_stmts = to_reference(self, x, scope, span, fn, True)
        else:
            q, out = self.fresh('q'), self.fresh('r')
            call_it = ast.If(ast.BoolOp(ast.And(), self.direct_fits(p, q, n)), [entry.unwrap(q)] + self.direct_call(name(q), name(p), args,
                             site, out), [assign(out, other)])
            e_stmts, e_value = to_reference(self, x, scope, span, fn, False)
            exit_stmts = e_stmts + [assign(out, e_value)]
        if arg_stmts:   # (the head is a macro or unbound before any argument is computed)
            stmts = [head, ast.If(odd, exit_stmts, arg_stmts + [call_it])]
        else:           # (arguments computed by no statement: the usual case, a direct call, tested first)
            call_it.orelse = [ast.If(odd, exit_stmts, call_it.orelse)]
            stmts = [head, call_it]
        return stmts if tail else (stmts, name(out))

    def direct_fits(self, p: str, q: str, n: int) -> list:
        """The tests that p is a compiled lambda of n parameters (its Entry into
        q), and, in the profiler's variant, one that counts itself (not one
        made by default code before the profiler)."""
        tests = [is_(attr(name(p), '__class__'), name('Lambda')), entry.test(self, name(p), q, n)]
        if self.counting:
            tests.append(is_(attr(attr(name(p), 'code'), 'func'), name('COUNTED')))
        return tests

    def tail_fits(self, p: str, n: int):
        """The test that lambda p takes a frame of n arguments in a pending
        tail call: its positional parameters, or its compiled function's (a
        body's defines make their own slots: support.arity)."""
        return ast.BoolOp(ast.Or(), [ast.Compare(attr(name(p), 'fast'), [ast.Eq()], [const(n)]),
                                     entry.test(self, name(p), self.fresh('q'), n)])

    def leaf_call(self, p, q, args, site) -> list:
        """A tail call of lambda p, compiled with the arity (its Entry into
        q), while no tool watches calls, no profiler counts them and fewer
        than TAIL_HOPS such calls are running (D.tails): its function
        called at this run level's depth, as run would continue the level
        with it: its value (or its own pending tail call) is this one's, and
        a failure is reported as the level's after a tail call (sites.tailed,
        by the function's handler: tail_site). Past the bound the pending
        tail call goes to run as before, so the host stack stays bounded (a
        million mutual tail calls: constant)."""
        self.tail_calls = True
        r = self.fresh('r')
        tails = attr(name('D'), 'tails')
        count = [ast.Assign([attr_store(name('D'), 'tails')], ast.BinOp(tails, ast.Add(), const(1)))]
        lam = name(p)       # (in the test below: the node call_lines.place reads the lambda's final name from)
        call_it = self.tail_site(call(name(q), name('d'), *args), lam, site, True, r)
        test = ast.BoolOp(ast.And(), [entry.test(self, lam, q, len(args)),
                                      ast.Compare(name('GATE'), [ast.GtE()], [const(0)]),
                                      ast.Compare(attr(name('D'), 'tails'), [ast.Lt()], [const(TAIL_HOPS)])]
                          + self.unprofiled())
        again = [ast.Assign([attr_store(name('D'), 'tails')], ast.BinOp(attr(name('D'), 'tails'), ast.Sub(), const(1)))]
        return [ast.If(test, [entry.unwrap(q)] + count + [call_it] + again + [ast.Return(name(r))], [])]

    def tail_site(self, fcall, lam, site, counted: bool, r: str):
        """`r = fcall`, a tail call made directly of lambda lam (a name the
        code holds elsewhere too) at site: a failure in it is the function's
        handler's to report (sites.py), as the level's after a tail call
        (sites.tailed), the call first uncounted from D.tails if `counted`."""
        fcall.site_lam, fcall.site_key, fcall.site_tail = lam, site, counted
        if self.sites is None:
            self.sites = {}
        return assign(r, fcall)

    def missing(self, p, cell, x, scope, span):
        """A statement making p, read from cell, the name's value by name when the cell had none."""
        return ast.If(is_(name(p), name('MISSING')), [assign(p, call(
            name('GLOBAL_MISSING'), self.k(cell), self.k(x.car), name('E'), self.k(scope),
            const(self.levels(scope)), self.k(self.span_of(x, span)), name('GENV')))], [])

    def self_call(self, x, cells, cell, scope, span, fn):
        """A tail call that may be the lambda calling itself: the loop, else a tail call."""
        p = self.fresh('p')
        head = attr(self.k(cell), 'value')
        if len(cells) != len(fn.params):
            return self.dispatch(x, cells, [assign(p, head), self.missing(p, cell, x, scope, span)],
                                 p, scope, span, fn, True)
        arg_stmts, args = self.args(cells, scope, span, fn)
        fn.looped = True
        again = arg_stmts + rebind(fn.params, args)
        again += [assign('site', self.k(span)), ast.Continue()]
        other = to_reference(self, x, scope, span, fn, True)
        looping = ast.BoolOp(ast.And(), [self.ok(cell, ITSELF), ast.Compare(name('GATE'), [ast.GtE()], [const(0)])])
        return [ast.If(looping, again, other)]

    def consing_call(self, x, cells, cell, scope, span, fn):
        """`(cons X (self a…))` in tail position (trmc.py): while OK holds
        and the depth limit has room, X's cell made and one more level
        looped; else the call, then the cell."""
        b = cell.current()
        normal = self.inline(x, cells, cell, b, inline_spec(b, 2), scope, span, fn, True)
        inner = cells[1].car
        ispan = self.span_of(cells[1], span)
        me = resolve(scope, inner.car, self.genv).cell
        parts = [self.value(cells[0].car, scope, self.span_of(cells[0], span), fn)]
        parts += [self.value(c.car, scope, self.span_of(c, ispan), fn) for c in inner.cdr.cells()]
        stmts, exprs = self.in_order(parts)
        fn.looped = fn.consed = True
        self.ok(me, ITSELF)
        more = stmts + trmc.step(self.fresh(), exprs[0], fn.params, rebind(fn.params, exprs[1:]), self.k(ispan))
        room = ast.BoolOp(ast.And(), [self.ok(cell, b), ast.Compare(name('d'), [ast.Lt()], [name('GATE')])])
        return [ast.If(room, more, normal)]

    def known_call(self, x, cells, var, scope, span, fn, tail):
        """A call of a named let's loop (a local never assigned): its function directly."""
        loopfn, nparams = self.known[var]
        if len(cells) != nparams:
            p = self.fresh('p')
            return self.dispatch(x, cells, [assign(p, name(var))], p, scope, span, fn, tail)
        arg_stmts, args = self.args(cells, scope, span, fn)
        if tail and fn.loop == ('var', var):
            fn.looped = True
            again = rebind(fn.params, args)
            again += [assign('site', self.k(span)), ast.Continue()]
            frame = ast.List([attr(name(var), 'env'), attr(name(var), 'scope')] + args, L)
            watched = [ast.Return(ast.Tuple([name(var), frame, self.k(span)], L))]
            return arg_stmts + [ast.If(ast.Compare(name('GATE'), [ast.GtE()], [const(0)]), again, watched)]
        if tail and loopfn in self.finished:
            # a known function whose lowering finished before this call's:
            # entered directly at this run level's depth (as a named let's
            # first call is); such calls only go to functions finished
            # earlier, so they nest no deeper than the unit has functions
            site, r = self.k(span), self.fresh('r')
            direct = self.tail_site(call(name(loopfn), name('d'), *args), name(var), site, False, r)
            frame = ast.List([attr(name(var), 'env'), attr(name(var), 'scope')] + args, L)
            tests = [ast.Compare(name('GATE'), [ast.GtE()], [const(0)])] + self.unprofiled()
            room = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
            return arg_stmts + [ast.If(room, [direct] + _release(self, var, loopfn, r, fn) + [ast.Return(name(r))],
                                       [ast.Return(ast.Tuple([name(var), frame, site], L))])]
        if tail:        # a tail call from elsewhere: by the run loop (no host stack grows)
            p = self.fresh('p')
            return self.dispatch(x, cells, [assign(p, name(var))], p, scope, span, fn, tail)
        site = self.k(span)
        r = self.fresh('r')
        return arg_stmts + self.direct_call(name(loopfn), name(var), args, site, r, loopfn,
                                            fn if fn.pyname == loopfn else None), name(r)


def _release(self, var: str, loopfn: str, r: str, fn) -> list:
    """After a tail call of a known local function (a body's define or a
    letrec's lambda) returned (a pending tail call holds the values it
    needs: a call of this one counts): when the body around it names the
    function only as a call's head and makes no other
    (SpecialForms.known_define: `releasable`) and nothing but its variable
    holds its value (the count of references says none escaped), the
    variable's cell and the function's own name cleared, breaking the
    cycles cell -> value -> function -> cell, so the value is freed at once
    rather than by the cycle collector (as a named let's loop: Lets.release).
    When its env is a LazyEnv, not after a pending tail call (r) of a
    function defined in it, which holds the variable's cell, unseen by the
    count (Lets.not_held)."""
    if var not in self.releasable or _owner(self, var) is not fn:   # (cleared where it is a local)
        return []
    free = ast.Compare(call(name('REFS'), name(var)), [ast.Eq()], [const(KNOWN_REFS)])
    if self.finished[loopfn].lazy_env:
        free = self.not_held(free, r, loopfn)
    out = [ast.If(free, [assign(var, const(None)), assign(loopfn, const(None))], [])]
    return out + _release_group(self, var, r)


def _owner(self, var: str):
    """The Fn whose local the Python variable var is."""
    return next((f for n, f in self.vars.values() if n == var), None)


def _release_group(self, var: str, r: str) -> list:
    """With the tail-called known function var released, the other known
    local functions of its body, each whose names only calls (no other
    function made there but theirs: only_called's `group`), also freed
    when nothing but its variable holds its value, unless r is a pending
    tail call (of any of them, say, whose closure holds the others' cells,
    which no count sees)."""
    body = self.release_groups.get(var)
    if body is None:
        return []
    out = []
    for other, (_, pyname) in self.known_defines.items():
        if other == var or other not in self.releasable or self.release_groups.get(other) != body \
                or pyname not in self.finished or _owner(self, other) is not _owner(self, var):
            continue
        free = ast.BoolOp(ast.And(), [
            ast.Compare(attr(name(r), '__class__'), [ast.IsNot()], [name('tuple')]),
            ast.Compare(call(name('REFS'), name(other)), [ast.Eq()], [const(KNOWN_REFS)])])
        out.append(ast.If(free, [assign(other, const(None)), assign(pyname, const(None))], []))
    return out


# The references to a known local function's value when only its variable (a
# closure cell) holds it, as sys.getrefcount counts them (the argument is one more).
KNOWN_REFS = 2


def _no_tail_call(e):
    """e, marked as a value that is never a pending tail call (guards.py)."""
    e.no_tail_call = True
    return e


def rebind(params, args) -> list:
    """The parameters given a self tail call's arguments (all at once; a
    parameter passed as itself is left as it is)."""
    pairs = [(n, a) for n, a in zip(params, args) if not (a.__class__ is ast.Name and a.id == n)]
    if not pairs:
        return []
    if len(pairs) == 1:
        return [assign(pairs[0][0], pairs[0][1])]
    return [ast.Assign([ast.Tuple([store(n) for n, _ in pairs], S)], ast.Tuple([a for _, a in pairs], L))]
