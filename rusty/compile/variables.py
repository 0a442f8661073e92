"""Lowering of Lisp variables (a mixin of lower.Lowering): a scope's slots
given Python names, a variable read or written (a Python local, a slot of
a reference frame around the root, a global's cell), the reference frames
built around compiled locals, and the frames a failure shows."""
from . import pyast as ast

from ..resolve import GlobalRef, Scope, resolve
from .nodes import L, Unsupported, _ident, attr, call, const, is_not, name, store


# Enclosing reference frames a local is read from inline (E[0]…[0][i]: a
# subscript a frame, far cheaper than a call); further
# out, by support.env_read.
FRAME_HOPS = 12    # (tests/test_compile_frame_reads.py reads past it)


class Fn:
    """One Python function being generated: a lambda, a named let's loop."""

    def __init__(self, pyname, params, outer, loop=None, selfname=None):
        self.pyname = pyname
        self.params = params            # Python parameter names after d
        self.outer = outer
        self.loop = loop                # how a self tail call is recognised: ('cell', k) / ('var', name) / None
        self.selfname = selfname        # expression text's owner of .name for backtraces (SELF or a var)
        self.label = 'lambda'           # its name for the profiler when it has no selfname
        self.assigned_outer = set()     # names of outer functions this one assigns
        self.defined = []               # Python names of the body's define slots (UNBOUND at entry)
        self.looped = False             # a self tail call was compiled as the loop
        self.self_called = False        # it calls itself (not in tail position): counting.SELF_CALL
        self.trmc = False               # it may loop at a cons of a call of itself (trmc.py)
        self.consed = False             # and does, somewhere
        self.quiet = False              # the root, its body running no Lisp code but its own while OK holds
        self.exit_reads = None          # the enclosing functions' locals its exits read (a set; None: no exit)
        self.exit_layouts = {}          # id(scope) -> (layout, locals written) of its exits there (expansion.py)


class Variables:
    """Lowering.bind and the methods that read, write and show Lisp variables."""

    def bind(self, scope: Scope, fn: Fn) -> list:
        """Python names for every slot of scope, owned by fn."""
        self.compiled_scopes.add(id(scope))
        names = []
        for i, s in enumerate(scope.names):
            n = 'v_%s_%d' % (_ident(s.name), self.count + 1)
            self.count += 1
            self.vars[(id(scope), i + 2)] = (n, fn)
            names.append(n)
            if s not in self.assigned:
                self.stable.add(n)
        return names

    def let_frames(self, fn, scope, lines) -> dict:
        """line -> ((scope, ((Lisp name, Python local)…))…) of the lets (and
        let*, letrec) of fn around the code at that line (of `lines`, those
        made while lowering fn's body), innermost first, up to fn's own
        scope: the frames a failure there shows (frame_views.frame_of)."""
        out = {}
        scopes = self.scopes
        made = {}           # id(innermost scope) -> its chain (one tuple for all its lines: the disk cache stores it once)
        for ln in lines:
            sc = scopes.get(ln)
            got = made.get(id(sc))
            if got is not None:
                if got:
                    out[ln] = got
                continue
            inner = sc
            chain = []
            while sc is not None and sc is not scope:
                pairs = [(s.name, self.vars[(id(sc), i + 2)][0]) for i, s in enumerate(sc.names)
                         if self.vars.get((id(sc), i + 2), (None, None))[1] is fn]
                if len(pairs) != len(sc.names):
                    break               # not fn's (a nested function's, a reference frame's)
                chain.append((sc, tuple(pairs)))
                sc = sc.parent
            got = made[id(inner)] = tuple(chain) if sc is scope and chain else ()
            if got:
                out[ln] = got
        return out

    def frame_names(self, fn, scope):
        """A constant tuple pairing each Lisp name of fn's scope with its Python
        local (what ,locals shows of a failed compiled function)."""
        pairs = []
        for i, s in enumerate(scope.names):
            n, owner = self.vars.get((id(scope), i + 2), (None, None))
            if n is not None and owner is fn:
                pairs.append(ast.Tuple([const(s.name), const(n)], L))
        return ast.Tuple(pairs, L)

    def locate(self, ref, scope):
        """(python name, owning Fn) of a compiled local, or (hops, index) beyond the root."""
        sc = scope
        for _ in range(ref.depth):
            sc = sc.parent
        if id(sc) in self.compiled_scopes:
            return self.vars[(id(sc), ref.index)], None
        return None, ref.depth - self.levels(scope)     # hops from E, the frame around the root

    def levels(self, scope) -> int:
        """Compiled scopes from scope out to the root scope, inclusive."""
        n = 0
        sc = scope
        while sc is not None and id(sc) in self.compiled_scopes:
            n += 1
            sc = sc.parent
        return n

    def ref(self, s, scope, span, fn):
        ref = resolve(scope, s, self.genv)
        if ref.__class__ is GlobalRef:
            return self.global_read(ref.cell, s, scope, span)
        found, hops = self.locate(ref, scope)
        if found is not None:
            if ref.maybe_unbound:       # not bound yet: the name seen from further out
                target = scope
                for _ in range(ref.depth):
                    target = target.parent
                t = self.fresh('g')
                outer = self.ref(s, target.parent, span, fn)
                return ast.IfExp(is_not(ast.NamedExpr(store(t), name(found[0])), name('UNBOUND')), name(t), outer)
            return name(found[0])
        cell = self.k(self.genv.cell(s))
        slow = call(name('ENV_READ'), name('E'), const(hops), const(ref.index), cell,
                    self.k(s), const(ref.maybe_unbound), self.k(span), name('GENV'), self.k(scope),
                    const(self.levels(scope)))
        if hops > FRAME_HOPS:
            return slow
        fr = name('E')
        for _ in range(hops):
            fr = ast.Subscript(fr, const(0), L)
        read = ast.Subscript(fr, const(ref.index), L)       # (the frame's slot, as comp_ref reads it)
        if not ref.maybe_unbound:
            return ast.IfExp(attr(cell, 'dyn'), slow, read)
        t = self.fresh('g')         # (a body's define read before it ran: by name, as env_read)
        bound = ast.BoolOp(ast.And(), [is_not(ast.NamedExpr(store(t), read), name('UNBOUND')),
                                       ast.UnaryOp(ast.Not(), attr(cell, 'dyn'))])
        return ast.IfExp(bound, name(t), slow)

    def global_read(self, cell, s, scope, span):
        t = self.fresh('g')
        slow = call(name('GLOBAL_MISSING'), self.k(cell), self.k(s), name('E'), self.k(scope),
                    const(self.levels(scope)), self.k(span), name('GENV'))
        test = is_not(ast.NamedExpr(store(t), attr(self.k(cell), 'value')), name('MISSING'))
        return ast.IfExp(test, name(t), slow)

    def use(self, n: str, owner: Fn, fn: Fn, write: bool):
        if write and owner is not fn:
            f = fn
            while f is not owner:
                f.assigned_outer.add(n)
                f = f.outer

    def frames(self, scope, fn, pending=None):
        """The reference frame chain of the compiled locals visible from scope,
        built where it is evaluated (for a macro expanded at run time, and a
        lambda's env; not a closure, which would make the locals cells)."""
        chain = []
        sc = scope
        while sc is not None and id(sc) in self.compiled_scopes:
            chain.append(sc)
            sc = sc.parent
        f = name('E')
        for sc in reversed(chain):
            vals = [name(n) if n != pending else const(None)
                    for n in (self.vars[(id(sc), i + 2)][0] for i in range(len(sc.names)))]
            f = ast.List([f, self.k(sc)] + vals, L)
        return f

    def slot(self, s, scope) -> str:
        """The Python name of the current scope's slot for s (a define's target)."""
        i = scope.index.get(s)
        if i is None or id(scope) not in self.compiled_scopes:
            raise Unsupported('define outside a body')
        n, _ = self.vars[(id(scope), i)]
        return n
