"""Lowering of calls of globals holding builtins or standard-library lambdas
(a mixin of lower.Lowering): computed in place (inline.py) while the global
holds what it held when lowered, its function called directly, fresh cells
made in place; the generic call otherwise."""
from . import pyast as ast

from ..resolve import GlobalRef, resolve
from ..values import EMPTY, Builtin, List, Symbol
from . import entry
from .calls import _no_tail_call
from .exits import to_reference
from .inline import INT_CLOSED, PAIR_ONLY
from .nodes import L, assign, attr, attr_store, call, const, is_, name


class BuiltinCalls:
    """Lowering's calls of builtins and library lambdas computed in place."""

    def library_call(self, x, cells, cell, b, spec, scope, span, fn, tail):
        """A standard-library lambda computed in place (inline.LIBRARY) while
        OK holds (the global holds the library's own lambda), the depth limit
        has room for the call it stands for (a tail call: while no tool
        watches calls), no profiler counts calls (PROF: counting.py) and its
        guard holds; the lambda called when the guard fails (its arguments
        computed once); the generic call otherwise."""
        room = (ast.Compare(name('GATE'), [ast.GtE()], [const(0)]) if tail
                else ast.Compare(name('d'), [ast.Lt()], [name('GATE')]))
        test = ast.BoolOp(ast.And(), [self.ok(cell, b), room] + self.unprofiled())
        arg_stmts, args = self.args(cells, scope, span, fn)
        cases = spec(*args)
        cases = [cases] if cases.__class__ is tuple else cases     # (small.py's: alternatives)
        lam, site, r = self.k(b), self.k(span), self.fresh('r')
        other = to_reference(self, x, scope, span, fn, tail)
        if tail:        # the lambda itself: a tail call of it, as dispatch makes one
            frame = ast.List([attr(lam, 'env'), attr(lam, 'scope')] + args, L)
            fast = [ast.Return(ast.Tuple([lam, frame, site], L))]
            for guard, value in reversed(cases):
                fast = [ast.If(guard, [ast.Return(value)], fast)]
            return [ast.If(test, arg_stmts + fast, other)]
        q = self.fresh('q')
        fast = [ast.If(entry.test(self, lam, q, len(args)),
                       [entry.unwrap(q)] + self.direct_call(name(q), lam, args, site, r),
                       [assign(r, call(name('CALL_ANY'), lam, ast.List(args, L), site, const(False), name('d'),
                                       name('D')))])]
        for guard, value in reversed(cases):
            fast = [ast.If(guard, [assign(r, value)], fast)]
        fast = arg_stmts + fast
        o_stmts, o_value = other
        return [ast.If(test, fast, o_stmts + [assign(r, o_value)])], name(r)

    def builtin_body(self, p, args, site, r):
        """A builtin in p (of the arity) called directly, as apply.call_builtin does."""
        return [ast.Assign([attr_store(name('D'), 'n')], name('d')), ast.Try(
            [assign(r, call(attr(name(p), 'fn'), *args))],
            [ast.ExceptHandler(name('BaseException'), 'e', [
                ast.Raise(call(name('LOCATED'), name('e'), site, name('D')), None)])], [], [])]

    def builtin_call(self, x, cells, cell, b, scope, span, fn, tail):
        """A call of a global holding a builtin when compiled: its function
        directly while the global holds it (arity checked now), else the generic call."""
        fused = self.fused_call(x, cells, cell, b, scope, span, fn, tail)
        if fused is not None:
            return fused
        n = len(cells)
        p = self.fresh('p')
        site = self.k(span)
        arg_stmts, args = self.args(cells, scope, span, fn)
        other = to_reference(self, x, scope, span, fn, tail)
        head = assign(p, attr(self.k(cell), 'value'))
        r = self.fresh('r')
        if b.lo <= n <= b.hi:
            go = arg_stmts + self.builtin_body(p, args, site, r)
        else:
            go = arg_stmts + [assign(r, call(name('CALL_BUILTIN'), name(p), ast.List(args, L), site,
                                             name('d'), name('D')))]
        test = is_(name(p), self.k(b))
        if tail:
            chosen = ast.If(test, go + [ast.Return(_no_tail_call(name(r)) if b.first_order else name(r))], other)
            chosen.ok_implies = self.assumes(cell, b)
            return [head, chosen]
        o_stmts, o_value = other
        return [head, ast.If(test, go, o_stmts + [assign(r, o_value)])], name(r)

    def fused_call(self, x, cells, cell, b, scope, span, fn, tail):
        """`(f (g e))` of two globals holding builtins when compiled, f
        reading its list once (`of_items` on its function: its value of a
        Python list of the elements) and g making a list (`items_of`: the
        elements of its value, or None): while both globals hold them, f's
        value of g's elements, no cell made; each builtin called in turn, as
        builtin_call calls it, when items_of gives None (g's own value or
        error decides); else the generic call. None for any other call."""
        inner = _fusable(self, cells, b, scope)
        if inner is None:
            return None
        gcell, g, e_cell = inner
        self.heads[id(gcell)] = gcell
        ispan = self.span_of(cells[0], span)
        arg_stmts, (arg,) = self.args([e_cell], scope, ispan, fn)
        p, q, r, rv = self.fresh('p'), self.fresh('p'), self.fresh('r'), self.fresh('r')
        site, isite = self.k(span), self.k(ispan)
        fused = self.k(fused_value)
        each = self.builtin_body(q, [arg], isite, rv) + self.builtin_body(p, [name(rv)], site, r)
        go = arg_stmts + [ast.Assign([attr_store(name('D'), 'n')], name('d')),
                          ast.Try([assign(r, call(fused, name(q), name(p), arg))],
                                  [ast.ExceptHandler(name('BaseException'), 'e', [
                                      ast.Raise(call(name('LOCATED'), name('e'), site, name('D')), None)])], [], []),
                          ast.If(is_(name(r), const(None)), each, [])]
        head = [assign(p, attr(self.k(cell), 'value')), assign(q, attr(self.k(gcell), 'value'))]
        test = ast.BoolOp(ast.And(), [is_(name(p), self.k(b)), is_(name(q), self.k(g))])
        other = to_reference(self, x, scope, span, fn, tail)
        if tail:
            return head + [ast.If(test, go + [ast.Return(_no_tail_call(name(r)) if b.first_order else name(r))],
                                  other)]
        o_stmts, o_value = other
        return head + [ast.If(test, go, o_stmts + [assign(r, o_value)])], name(r)

    def inline(self, x, cells, cell, b, builder, scope, span, fn, tail):
        """An inlined builtin, while its cell still holds it; the generic call otherwise."""
        arg_stmts, args = self.args(cells, scope, span, fn)
        r = self.fresh('r')
        fallback = call(name('CALL_BUILTIN'), self.k(b), ast.List(args, L), self.k(span), name('d'), name('D'))
        fallback.int_closed = b.name in INT_CLOSED         # (expr_kinds.kind_of)
        fallback.pair_only = b.name in PAIR_ONLY            # (expr_kinds._pair_known)
        if getattr(builder, 'stores', False):
            return self.inline_effect(x, arg_stmts, builder(*args), fallback, cell, b, scope, span, fn, tail, r)
        value = fallback
        for guard, v in reversed(builder(*args)):
            if guard is None or (guard.__class__ is ast.Constant and guard.value is True):
                value = v
            elif not (guard.__class__ is ast.Constant and guard.value is False):
                value = ast.IfExp(guard, v, value)
        generic = to_reference(self, x, scope, span, fn, tail)
        held = self.ok(cell, b)
        fast = self.cells_into(r, value)
        if tail:
            fast = [ast.Return(value)] if fast is None else fast + [ast.Return(_no_tail_call(name(r)))]
            return [ast.If(held, arg_stmts + fast, generic)]
        g_stmts, g_value = generic
        fast = [assign(r, value)] if fast is None else fast
        return [ast.If(held, arg_stmts + fast, g_stmts + [assign(r, g_value)])], name(r)

    def inline_effect(self, x, arg_stmts, cases, fallback, cell, b, scope, span, fn, tail, r):
        """An inlined builtin with an effect (inline.Effect: vector-set!):
        under its guard the store made in place and r its value, else the
        builtin called (its exact result or error); the generic call
        unless the global still holds it."""
        (guard, effect), = cases
        fast = [ast.If(guard, [ast.Assign([effect.target], effect.value), assign(r, effect.result)],
                       [assign(r, fallback)])]
        generic = to_reference(self, x, scope, span, fn, tail)
        held = self.ok(cell, b)
        if tail:
            return [ast.If(held, arg_stmts + fast + [ast.Return(_no_tail_call(name(r)))], generic)]
        g_stmts, g_value = generic
        return [ast.If(held, arg_stmts + fast, g_stmts + [assign(r, g_value)])], name(r)

    def cells_into(self, r, value):
        """Statements leaving value in r when it builds fresh cells (CONS,
        perhaps behind one guard): each cell made and filled in place, no
        function called per cell (what values.cons does); else None."""
        guard, other = None, None
        if value.__class__ is ast.IfExp:
            guard, other, value = value.test, value.orelse, value.body
        if not _is_cons(value):
            return None
        stmts, target = [], r
        while _is_cons(value):
            car, value = value.args
            nxt = self.fresh() if _is_cons(value) else None
            stmts += [assign(target, call(name('NEW'))),
                      ast.Assign([attr_store(name(target), 'car')], car),
                      ast.Assign([attr_store(name(target), 'cdr')], name(nxt) if nxt else value)]
            target = nxt
        stmts = _cells_first(stmts)
        return stmts if guard is None else [ast.If(guard, stmts, [assign(r, other)])]


def _is_cons(e) -> bool:
    return e.__class__ is ast.Call and e.func.__class__ is ast.Name and e.func.id == 'CONS'


def _cells_first(stmts: list) -> list:
    """The cells of a chain made innermost first: each cell's cdr is made
    before the cell that points at it (groups of three statements)."""
    groups = [stmts[i:i + 3] for i in range(0, len(stmts), 3)]
    return [st for g in reversed(groups) for st in g]


def fused_value(g, f, x):
    """Builtin f's value of the elements builtin g's value of x would hold
    (BuiltinCalls.fused_call); None when g's items_of gives none (no
    of_items gives None: no builtin's value is)."""
    items = g.fn.items_of(x)
    return None if items is None else f.fn.of_items(items)


def _fusable(low, cells, b, scope):
    """(g's cell, g, e's cell) when the call of builtin b is `(b (g e))`, b
    reading its list once (of_items) and g a builtin of one argument
    making a list (items_of) held by a global that is no macro; else None."""
    if getattr(b.fn, 'of_items', None) is None or len(cells) != 1 or not b.lo <= 1 <= b.hi:
        return None
    form = cells[0].car
    if form.__class__ is not List or form is EMPTY or form.car.__class__ is not Symbol \
            or form.cdr is EMPTY or form.cdr.cdr is not EMPTY:
        return None
    ref = resolve(scope, form.car, low.genv)
    if ref.__class__ is not GlobalRef or ref.cell.holds_macro():
        return None
    g = ref.cell.current()
    if g.__class__ is not Builtin or getattr(g.fn, 'items_of', None) is None or not g.lo <= 1 <= g.hi:
        return None
    return ref.cell, g, form.cdr
