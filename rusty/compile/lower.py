"""Lisp to Python: one lambda (and every lambda nested in it) lowered to the
`ast` of a module defining the lambda's positional function `fn(d, arg…)`.
Everything the code names besides its locals is a global of the function
(link.link gives each lambda value its own globals: closure cells would be
copied into every call's frame): the objects it uses (`k…`), the lambda
value SELF and the frame E around it, the session's depth state D, the line
table TABLE, the global environment GENV, and OK: true while every global
the code assumes the value of (an inlined builtin, the lambda's own name)
still holds it.

Names are resolved as the reference resolves them (resolve.py, the same Scope
objects): a local of this lambda or of a lambda nested in it is a Python local
(captured: a closure cell; assigned from inside a nested lambda: nonlocal),
a local of the reference frames around it is read through its frame (E), a
global through its cell. `d` is the run level's depth (see support.py).
Every form the lowering does not handle raises Unsupported, and the lambda
stays on the reference. Each statement and expression carries a line number;
TABLE maps it to the span the reference would report there.
"""
import ast

from ..eval import SPECIALS, sub_span
from ..resolve import GlobalRef, Scope, body_defines, resolve
from ..syntax import problem
from ..values import EMPTY, Builtin, Lambda, List, Symbol, Vector, cons, make_list, sym
from . import counting, guards, kinds, loops, trmc, walks
from .support import form_count
from .nodes import Unsupported
from .nodes import (L, S, assign, attr, attr_store, call, children, const, is_, is_not, is_temp, name, statements,
                    store, walk)
from .inline import INT_CLOSED, PAIR_ONLY, _is_not, inline_spec, library_spec
from .hoist import hoist
from .expansion import expansion, unchanged_by_others
from . import entry




# Globals whose callers stay on the reference: `breakpoint` finds its
# environment in the reference's frames.
REFERENCE_CALLS = frozenset(('breakpoint',))
FN_FORMS = frozenset(map(sym, ('lambda', 'fn', 'λ')))
DOT, ELSE = sym('.'), sym('else')


def pure(e) -> bool:
    """An expression that may be repeated and moved: a constant or a name."""
    return e.__class__ is ast.Constant or e.__class__ is ast.Name


def _ident(text: str) -> str:
    return ''.join(c if c.isascii() and (c.isalnum() or c == '_') else '_' for c in text)


TINY = 120      # ast nodes: a body this small gets the uncounted copy whatever its kinds (Lowering.uncounted)


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


class Lowering:
    """The lowering of one root lambda; `consts` are the objects the code
    names k0, k1, … (in order), `table` line -> span."""

    def __init__(self, unit, name: str):
        self.unit = unit
        self.genv = unit.genv
        self.root_name = name
        self.consts: list = []
        self._const_ids: dict = {}
        self.table: dict = {}
        self.scopes: dict = {}          # line -> the scope of the form there
        self.vars: dict = {}            # (id(scope), slot index) -> (python name, Fn)
        self.compiled_scopes: set = set()
        self.root_scope = None
        self.count = 0
        self.assigned: set = set()      # symbols some set! in the unit targets
        self.no_inline = 0
        self.known: dict = {}           # python name of a named let's loop -> (its function, its arity)
        self.assumed: dict = {}         # id(cell) -> (cell, the value the fast code assumes it holds)
        self.stable: set = set()        # python names of Lisp locals no set! targets
        self.bound_once: set = set()    # python names of parameters and `let` variables (bound by their form alone)
        self.naming = None              # the name a define gives the lambda about to be lowered
        self.tail_calls = False         # a global's lambda called directly in tail position (lambda_call)
        self.heads: dict = {}           # id(cell) -> cell: globals called, assumed no macro (link.Deopt)
        self.written_back: set = set()  # python names a macro expanded at run time may change (expansion.py)
        self.cell_written: dict = {}    # of them, those of enclosing functions -> the functions writing them

    # ── bookkeeping ──

    def fresh(self, stem='t') -> str:
        self.count += 1
        return '%s%d' % (stem, self.count)

    def k(self, obj) -> ast.Name:
        """The global of the code's module holding obj."""
        key = id(obj)
        n = self._const_ids.get(key)
        if n is None:
            n = self._const_ids[key] = 'k%d' % len(self.consts)
            self.consts.append(obj)
        return name(n)

    def line(self, span, scope=None) -> int:
        """A new line number of the generated code, mapped to span (and to
        the scope of the form there, for the frames shown after a failure)."""
        n = len(self.table) + 1
        self.table[n] = span
        if scope is not None:
            self.scopes[n] = scope
        return n

    def stamp(self, nodes, ln: int):
        """Give every node (and descendant) without a position line ln."""
        todo = list(nodes)
        while todo:         # a node with a position has all its descendants stamped
            node = todo.pop()
            if 'lineno' in node._attributes:
                if hasattr(node, 'lineno'):
                    continue
                node.lineno = node.end_lineno = ln
                node.col_offset = node.end_col_offset = 0
            todo += children(node)
        return nodes

    def ok(self, cell, value) -> ast.Name:
        """The test that cell still holds value (a builtin, or ITSELF: the
        lambda value being linked): OK, the module's flag, true while every
        assumption holds (a change of a watched cell clears it: link.link)."""
        self.assumed[id(cell)] = (cell, value)
        return name('OK')

    def span_of(self, cell, span):
        return sub_span(cell, span, self.unit)

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

    # ── the root ──

    def root(self, params, rest, body, lscope, span):
        """The Module defining the root's function (lscope holds the body's
        defines after the parameters, as lambda_maker made it)."""
        self.scan_assigned(body)
        self.root_scope = lscope
        looping = self.root_name != 'lambda' and rest is None
        top = Fn('f_' + _ident(self.root_name), None, None, loop=('self', None) if looping else None,
                 selfname='SELF')
        names = self.bind(lscope, top)
        nslots = len(params) + (rest is not None)
        top.params, top.defined = names[:nslots], names[nslots:]
        self.bound_once.update(top.params)
        self.root_fn = top
        assumed = trmc.qualifies(self.root_name, params, rest, body, lscope, self.genv) if looping else None
        top.trmc = assumed is not None
        if looping and assumed is None and not body_defines(body):
            forms = [c.car for c in body.cells() if c.car.__class__ is not str or c.cdr is EMPTY]
            assumed = trmc.runs_no_lisp(forms, lscope, self.genv, self.root_name, len(params),
                                        self.library_car_cdr) if forms else None
        top.quiet = assumed is not None
        for cell, b in assumed or ():       # (while these hold, the body runs no Lisp code but its own)
            self.ok(cell, b)
        fdef = self.function(top, body, lscope, span)
        self.stamp([fdef], self.line(span))
        guards.fold(fdef, top.quiet)
        kinds.simplify(fdef, cells=self.cell_written)
        guards.finish_checks(fdef, top.quiet)
        if top.quiet:           # (its calls of itself keep OK known: the tests finish_checks left decided)
            guards.fold(fdef, True)
        defs, handlers = fuse_tests(fdef)
        for node in defs:
            coalesce(node)
        hoist(fdef, self.stable & self.bound_once)
        give_back_first(handlers, self.stamp)
        if top.consed:
            trmc.finish_returns(fdef)
        return ast.Module([fdef], [])

    def library_car_cdr(self, cell, head, nargs) -> bool:
        """True if the global holds a library car/cdr composition (inline.LIBRARY)
        called with its one argument: it runs the library's car and cdr alone."""
        b = cell.current()
        return b.__class__ is Lambda and library_spec(self.unit, b, head.name, nargs) is not None

    def arguments(self, names):
        return ast.arguments([], [ast.arg(n) for n in names], None, [], [], None, [])

    def scan_assigned(self, forms):
        stack = list(forms)
        while stack:
            x = stack.pop()
            if x.__class__ is List and x is not EMPTY:
                if x.car is sym('set!') and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol:
                    self.assigned.add(x.cdr.car)
                if x.car is sym('quote'):
                    continue
                stack.extend(x)

    def function(self, fn: Fn, body, scope, span):
        """The FunctionDef of fn: its body in tail position, in a loop if it
        makes self tail calls, inside the handler that locates failures."""
        loop_ok = fn.loop is not None and not _makes_functions(body)
        if not loop_ok:
            fn.loop = None
        stmts = [assign(n, name('UNBOUND')) for n in fn.defined]     # a fresh frame's define slots
        first = len(self.table) + 1
        stmts += self.body(body, scope, span, fn, tail=True)
        if not fn.assigned_outer:
            stmts = kinds.specialize(stmts, fn.params, unchanged_by_others(self, fn), is_temp, self.fresh)
        lines = range(first, len(self.table) + 1)
        if fn.looped:
            tail = ast.IfExp(is_(name('site'), const(None)), const(None),
                             ast.Tuple([name('site'), attr(name(fn.selfname), 'name')], L))
        else:
            tail = const(None)
        failed = call(name('FAILED'), name('e'), name('TABLE'), name('D'), tail, self.frame_names(fn, scope),
                      self.k(self.let_frames(fn, scope, lines)))
        if fn.consed:
            failed = trmc.unwinding(failed, self.frame_names(fn, scope))
        handler = ast.ExceptHandler(name('BaseException'), 'e', [ast.Raise(failed, None)])
        quick = self.uncounted(stmts, failed, fn.looped, fn.self_called, fn.quiet)
        if fn.looped:       # (site: the last self tail call's, also after the uncounted loop left off)
            quick = [assign('site', const(None))] + quick
            stmts = [ast.While(const(True), stmts, [])]
        if fn.consed:
            quick = trmc.opening() + quick
        counting.failing(handler)
        label = attr(name(fn.selfname), 'name') if fn.selfname else const(fn.label)
        decls = [ast.Nonlocal(sorted(fn.assigned_outer))] if fn.assigned_outer else []
        args = self.arguments(['d'] + fn.params)
        if fn.self_called:
            args.args.append(ast.arg(counting.SELF_CALL))
            args.defaults.append(const(False))
        return ast.FunctionDef(fn.pyname, args,
                               decls + quick + counting.entry(self.k(body), label, fn.self_called)
                               + [ast.Try(counting.counted(stmts), [handler], [], [])], [])

    def uncounted(self, stmts, failed, looped, self_called, quiet=False) -> list:
        """For a body given an integer copy (kinds.specialize), or a small
        self tail loop or a TINY body of any kinds, one more copy of that,
        entered first while no profiler counts calls (PROF is None) (and,
        without the integer copy, while OK holds):
        the counting's test at entry and at each return (and hop) left out (a
        copy of every small body cost short scripts more in compiling than it
        gave). A self tail loop runs the copy while the copy's test holds at
        each hop, and leaves off to the counted code (PROF still None: it
        counts nothing) with the parameters as the last hop bound them.
        The copy's calls of its own function pass INTS (kinds.py) where they
        know that OK holds and every argument is an exact integer: the
        callee enters the copy on that alone."""
        if len(stmts) == 1 and stmts[0].__class__ is ast.If and getattr(stmts[0], 'integer_copy', False):
            spec_test, spec_body = stmts[0].test, stmts[0].body
        elif kinds.small(stmts, kinds.SPECIALIZED_NODES if looped else TINY):    # the copy runs while OK holds
            spec_test, spec_body = name('OK'), stmts
        else:
            return []
        parts = list(spec_test.values) if spec_test.__class__ is ast.BoolOp else [spec_test]
        at = 1 if parts[0].__class__ is ast.Name and parts[0].id == 'OK' else 0
        parts.insert(at, is_(name('PROF'), const(None)))
        body = kinds.twin(spec_body, is_temp, self.fresh)
        for node in walk(ast.Module(body, [])):
            if getattr(node, 'self_call', False):
                node.uncounted = True
        if looped:          # each hop tests the copy's test again (the entry's holds for the first)
            blocks = [body] + [b for st in statements(body) for b in (getattr(st, 'body', None), getattr(st, 'orelse', None))
                               if b and b.__class__ is list]
            for block in blocks:
                block[:] = [_located(ast.If(kinds.clone(spec_test), [x], [ast.Break()]), x)
                            if x.__class__ is ast.Continue else x for x in block]
            loop = ast.While(const(True), body, [])
            loop.holds = spec_test          # true at each entry of the loop's body (guards.py, kinds.py)
            body = [loop]
        handler = ast.ExceptHandler(name('BaseException'), 'e', [ast.Raise(kinds.clone(failed), None)])
        test = ast.BoolOp(ast.And(), parts)
        if self_called:
            test = ast.BoolOp(ast.Or(), [is_(name(counting.SELF_CALL), name('INTS')), test])
        entry = ast.If(test, [ast.Try(body, [handler], [], [])], [])
        entry.uncounted_copy = not looped or quiet      # (kinds.py: what its calls of itself return)
        entry.quiet = quiet
        entry.holds = parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)   # (guards.py, kinds.py)
        return [entry]

    def let_frames(self, fn, scope, lines) -> dict:
        """line -> ((scope, ((Lisp name, Python local)…))…) of the lets (and
        let*, letrec) of fn around the code at that line (of `lines`, those
        made while lowering fn's body), innermost first, up to fn's own
        scope: the frames a failure there shows (support.frame_of)."""
        out = {}
        scopes = self.scopes
        for ln in lines:
            sc = scopes.get(ln)
            chain = []
            while sc is not None and sc is not scope:
                pairs = [(s.name, self.vars[(id(sc), i + 2)][0]) for i, s in enumerate(sc.names)
                         if self.vars.get((id(sc), i + 2), (None, None))[1] is fn]
                if len(pairs) != len(sc.names):
                    break               # not fn's (a nested function's, a reference frame's)
                chain.append((sc, tuple(pairs)))
                sc = sc.parent
            if sc is scope and chain:
                out[ln] = tuple(chain)
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

    # ── bodies and forms ──

    def body(self, forms, scope, span, fn, tail):
        """comp_body: the forms in order (docstrings skipped), the last in tail
        position; statements, ending in a return when tail, else with the value
        in the last (returned by value())."""
        cells = [c for c in forms.cells() if c.car.__class__ is not str or c.cdr is EMPTY]
        if not cells:
            return [ast.Return(name('NIL'))] if tail else ([], name('NIL'))
        stmts = []
        for c in cells[:-1]:
            s, e = self.value(c.car, scope, self.span_of(c, span), fn)
            stmts += s
            if not pure(e):
                stmts.append(self.stamp([ast.Expr(e)], self.line(span))[0])
        last = cells[-1]
        if tail:
            return stmts + self.tail(last.car, scope, self.span_of(last, span), fn)
        s, e = self.value(last.car, scope, self.span_of(last, span), fn)
        return stmts + s, e

    def form_kind(self, x):
        if x.__class__ is List and x is not EMPTY and x.car.__class__ is Symbol and x.car in SPECIALS:
            if problem(x) is not None:
                raise Unsupported('malformed ' + x.car.name)
            return x.car.name
        return None

    def value(self, x, scope, span, fn):
        """(statements, expression) computing form x, not in tail position."""
        kind = self.form_kind(x)
        if kind is not None:
            method = FORMS.get(kind)
            if method is None:
                raise Unsupported(kind)
            out = method(self, x, scope, span, fn, False)
            return self.stamp(out[0], self.line(span, scope)), self.stamp([out[1]], self.line(span, scope))[0]
        ln = self.line(span, scope)
        cls = x.__class__
        if cls is Symbol:
            return [], self.stamp([self.ref(x, scope, span, fn)], ln)[0]
        if cls is List:
            if x is EMPTY:
                return [], name('NIL')
            s, e = self.call(x, scope, span, fn, False)
            return self.stamp(s, ln), self.stamp([e], ln)[0]
        if cls is int or cls is float or cls is str or cls is bool:
            return [], self.stamp([const(x)], ln)[0]
        if cls is Vector:
            return [], self.stamp([call(name('VECTOR'), call(attr(attr(self.k(x), 'items'), 'copy')))], ln)[0]
        return [], name('NIL')

    def tail(self, x, scope, span, fn):
        """Statements computing form x in tail position (ending in return)."""
        kind = self.form_kind(x)
        ln = self.line(span, scope)
        if kind is not None:
            method = FORMS.get(kind)
            if method is None:
                raise Unsupported(kind)
            return self.stamp(method(self, x, scope, span, fn, True), ln)
        if x.__class__ is List and x is not EMPTY:
            return self.stamp(self.call(x, scope, span, fn, True), ln)
        s, e = self.value(x, scope, span, fn)
        return s + self.stamp([ast.Return(e)], ln)

    def tail_or_value(self, x, scope, span, fn, tail):
        if tail:
            return self.tail(x, scope, span, fn)
        return self.value(x, scope, span, fn)

    def into(self, stmts, e, target):
        """Statements leaving the value e (after stmts) in target."""
        return stmts + [assign(target, e)]

    # ── variables ──

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
        return call(name('ENV_READ'), name('E'), const(hops), const(ref.index), self.k(self.genv.cell(s)),
                    self.k(s), const(ref.maybe_unbound), self.k(span), name('GENV'), self.k(scope),
                    const(self.levels(scope)))

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

    # ── calls ──

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
                    refused = Unsupported('macro call')
                    refused.cell = cell
                    raise refused
                self.heads[id(cell)] = cell
                if head.name in REFERENCE_CALLS:
                    raise Unsupported(head.name)
                b = cell.current()
                if not self.no_inline and b.__class__ is Builtin and b.name in walks.WALKS:
                    got = walks.walk_call(self, x, cells, cell, b, scope, span, fn, tail)
                    if got is not None:         # (its body, compiled twice, holds no walk: any size)
                        return got
                if form_count(x.cdr, BIG) >= BIG and not self.no_inline:
                    return self.big_call(x, cells, cell, scope, span, fn, tail)
                if tail and fn.trmc and not self.no_inline and scope is self.root_scope \
                        and trmc.site(x, scope, self.genv, self.root_name, len(fn.params)):
                    return self.consing_call(x, cells, cell, scope, span, fn)
                if tail and fn.loop is not None and fn.loop[0] == 'self' and head.name == self.root_name:
                    return self.self_call(x, cells, cell, scope, span, fn)
                if not self.no_inline and b.__class__ is Builtin:
                    builder = inline_spec(b, len(cells))
                    if builder is not None:
                        return self.inline(x, cells, cell, b, builder, scope, span, fn, tail)
                    return self.builtin_call(x, cells, cell, b, scope, span, fn, tail)
                if not self.no_inline and b.__class__ is Lambda:
                    spec = library_spec(self.unit, b, head.name, len(cells))
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

    def dispatch(self, x, cells, head_stmts, p, scope, span, fn, tail, first=None, known=None):
        """The generic call once the head's value is in p: a macro expands,
        a compiled lambda of the arity is called directly, anything else the
        reference way. `first(args)`, if given, is a (test, value or
        statements) tried before all that, once the arguments are computed;
        `known`, if given, a test true only while p is known to be no macro."""
        n = len(cells)
        arg_stmts, args = self.args(cells, scope, span, fn)
        r = self.fresh('r')
        site = self.k(span)
        is_macro = is_(attr(name(p), '__class__'), name('Macro'))
        if known is not None:
            is_macro = ast.BoolOp(ast.And(), [ast.UnaryOp(ast.Not(), known), is_macro])
        fits = ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Lambda')),
                                      ast.Compare(attr(name(p), 'fast'), [ast.Eq()], [const(n)])])
        other = call(name('CALL_ANY'), name(p), ast.List(args, L), site, const(tail), name('d'), name('D'))
        if tail:
            frame = ast.List([attr(name(p), 'env'), attr(name(p), 'scope')] + args, L)
            rest = [ast.If(fits, [ast.Return(ast.Tuple([name(p), frame, site], L))], [ast.Return(other)])]
        elif self.no_inline:
            rest = [assign(r, other)]
        else:
            fnv = self.fresh('q')
            fits.values[1] = entry.test(self, name(p), fnv, n)
            builtin = ast.BoolOp(ast.And(), [is_(attr(name(p), '__class__'), name('Builtin')),
                                             ast.Compare(attr(name(p), 'lo'), [ast.LtE(), ast.LtE()],
                                                         [const(n), attr(name(p), 'hi')])])
            rest = [ast.If(fits, [entry.unwrap(fnv)] + self.direct_call(name(fnv), name(p), args, site, r),
                           [ast.If(builtin, self.builtin_body(p, args, site, r), [assign(r, other)])])]
        if first is not None:
            test, value = first(args)
            if value.__class__ is not list:        # an expression: the call's value
                cells = self.cells_into(r, value)
                if cells is not None:
                    value = cells + [ast.Return(_no_tail_call(name(r)))] if tail else cells
                else:
                    value = [ast.Return(value)] if tail else [assign(r, value)]
            rest = [ast.If(test, value, rest)]
            rest[0].ok_implies = getattr(test, 'ok_implies', False)     # (guards.finish_checks)
        expanded = expansion(self, p, x, scope, span, fn, tail, r)
        if not arg_stmts and first is None and rest[0].__class__ is ast.If and rest[0].test is fits:
            # (arguments computed by no statement: the usual case, a direct
            # call, is tested first; a macro is no Lambda, so it is still expanded)
            call_it = rest[0]
            call_it.orelse = [ast.If(is_macro, expanded, call_it.orelse)]
            return head_stmts + [call_it] if tail else (head_stmts + [call_it], name(r))
        out = head_stmts + [ast.If(is_macro, expanded, arg_stmts + rest)]
        return out if tail else (out, name(r))

    def direct_call(self, fnv, lam, args, site, r, callee=None, caller=None):
        """A non-tail call of positional function fnv (lambda lam): the call,
        its failures and a tail call it returns, as run does; past the gate
        (the depth limit, or a tool watching calls: Depth.gate, copied by link.session_namespace) through run.
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
        go = ast.Try([assign(r, fcall)],
                     [ast.ExceptHandler(name('BaseException'), 'e', [
                         ast.Raise(call(name('CALL_FAILED'), name('e'), lam, site, name('D')), None)])], [], [])
        finish = ast.If(is_(attr(name(r), '__class__'), name('tuple')),
                        [assign(r, call(name('FINISH'), name(r), lam, site, name('d'), name('D')))], [])
        finish.callee = callee
        gated = assign(r, call(name('GATED'), lam, ast.List(args, L), site, name('d'), name('D')))
        return [ast.If(ast.Compare(name('d'), [ast.Lt()], [name('GATE')]), [go, finish], [gated])]

    def slow(self, x, cells, head_stmts, p, scope, span, fn, tail):
        """The generic call with arguments compiled without fast paths (the
        other branch of a fast path: code grows linearly with nesting)."""
        self.no_inline += 1
        try:
            return self.dispatch(x, cells, head_stmts, p, scope, span, fn, tail)
        finally:
            self.no_inline -= 1

    def lambda_call(self, x, cells, cell, scope, span, fn, tail):
        """A call of a global holding a lambda when compiled: directly while
        it holds a compiled lambda of the arity, else the generic call."""
        n = len(cells)
        p, q = self.fresh('p'), self.fresh('q')
        site = self.k(span)
        fits = [is_(attr(name(p), '__class__'), name('Lambda')),
                ast.Compare(attr(name(p), 'fast'), [ast.Eq()], [const(n)])]
        other = self.slow(x, cells, [self.missing(p, cell, x, scope, span)], p, scope, span, fn, tail)
        arg_stmts, args = self.args(cells, scope, span, fn)
        head = assign(p, attr(self.k(cell), 'value'))
        if not tail and x.car.name == self.root_name and self.root_fn.loop is not None and n == len(self.root_fn.params):
            r = self.fresh('r')         # (loop: no rest parameter) the lambda itself: its own function
            go = arg_stmts + self.direct_call(name(self.root_fn.pyname), name('SELF'), args, site, r,
                                              self.root_fn.pyname, fn if fn is self.root_fn else None)
            o_stmts, o_value = other
            return [ast.If(self.ok(cell, ITSELF), go, [head] + o_stmts + [assign(r, o_value)])], name(r)
        if tail:
            frame = ast.List([attr(name(p), 'env'), attr(name(p), 'scope')] + args, L)
            go = arg_stmts + self.leaf_call(p, q, args, site) + [ast.Return(ast.Tuple([name(p), frame, site], L))]
            return [head, ast.If(ast.BoolOp(ast.And(), fits), go, other)]
        fits[1] = entry.test(self, name(p), q, n)
        r = self.fresh('r')
        go = [entry.unwrap(q)] + arg_stmts + self.direct_call(name(q), name(p), args, site, r)
        o_stmts, o_value = other
        return [head, ast.If(ast.BoolOp(ast.And(), fits), go, o_stmts + [assign(r, o_value)])], name(r)

    def leaf_call(self, p, q, args, site) -> list:
        """A tail call of lambda p that, when p's compiled code calls no
        other global's lambda in tail position (its `leaf` function, into q),
        no tool watches calls and no profiler counts them, calls that
        function at this run level's depth, as run would continue the level
        with it: its value (or its own pending tail call) is this one's, and
        a failure is reported as the level's after a tail call (TAILED).
        Such a call nests no further, so the host stack stays bounded."""
        self.tail_calls = True
        r = self.fresh('r')
        call_it = ast.Try([assign(r, call(name(q), name('d'), *args))], [
            ast.ExceptHandler(name('BaseException'), 'e', [
                ast.Raise(call(name('TAILED'), name('e'), site, name(p)), None)])], [], [])
        test = ast.BoolOp(ast.And(), [entry.test(self, name(p), q, len(args)), entry.leaf_test(q),
                                      ast.Compare(name('GATE'), [ast.GtE()], [const(0)]),
                                      is_(name('PROF'), const(None))])
        return [ast.If(test, [call_it, ast.Return(name(r))], [])]

    def big_call(self, x, cells, cell, scope, span, fn, tail):
        """A call of a global with large arguments: the fast paths tried
        after the generic call's own steps (head, macro, arguments), so the
        arguments are compiled once (the fast forms compile them twice)."""
        p = self.fresh('p')
        b = cell.current()
        head = [assign(p, attr(self.k(cell), 'value')), self.missing(p, cell, x, scope, span)]
        first = known = None
        builder = inline_spec(b, len(cells)) if b.__class__ is Builtin else None
        if tail and fn.loop is not None and fn.loop[0] == 'self' and x.car.name == self.root_name \
                and len(cells) == len(fn.params):
            fn.looped = True
            known = self.ok(cell, ITSELF)       # p is SELF while OK: no need to read the cell
            head = [ast.If(known, [assign(p, name('SELF'))], head)]

            def first_loop(args):
                again = rebind(fn.params, args)
                return (ast.BoolOp(ast.And(), [self.ok(cell, ITSELF),
                                               ast.Compare(name('GATE'), [ast.GtE()], [const(0)])]),
                        again + [assign('site', self.k(span)), ast.Continue()])
            first = first_loop
        elif builder is not None:
            fallback = self.k(b)
            implied = self.assumes(cell, b)
            if implied:
                known = name('OK')          # p is the builtin while OK holds: no macro

            def first_inline(args):
                value = call(name('CALL_BUILTIN'), fallback, ast.List(args, L), self.k(span), name('d'), name('D'))
                for guard, v in reversed(builder(*args)):
                    value = v if guard is None else ast.IfExp(guard, v, value)
                test = is_(name(p), fallback)
                test.ok_implies = implied
                return test, value
            first = first_inline
        return self.dispatch(x, cells, head, p, scope, span, fn, tail, first, known)

    def library_call(self, x, cells, cell, b, spec, scope, span, fn, tail):
        """A standard-library lambda computed in place (inline.LIBRARY) while
        OK holds (the global holds the library's own lambda), the depth limit
        has room for the call it stands for (a tail call: while no tool
        watches calls), no profiler counts calls (PROF: counting.py) and its
        guard holds; the lambda called when the guard fails (its arguments
        computed once); the generic call otherwise."""
        room = (ast.Compare(name('GATE'), [ast.GtE()], [const(0)]) if tail
                else ast.Compare(name('d'), [ast.Lt()], [name('GATE')]))
        test = ast.BoolOp(ast.And(), [self.ok(cell, b), room, is_(name('PROF'), const(None))])
        arg_stmts, args = self.args(cells, scope, span, fn)
        guard, value = spec(*args)
        lam, site, r = self.k(b), self.k(span), self.fresh('r')
        p = self.fresh('p')
        other = self.slow(x, cells, [assign(p, attr(self.k(cell), 'value')), self.missing(p, cell, x, scope, span)],
                          p, scope, span, fn, tail)
        if tail:        # the lambda itself: a tail call of it, as dispatch makes one
            frame = ast.List([attr(lam, 'env'), attr(lam, 'scope')] + args, L)
            fast = arg_stmts + [ast.If(guard, [ast.Return(value)], [ast.Return(ast.Tuple([lam, frame, site], L))])]
            return [ast.If(test, fast, other)]
        q = self.fresh('q')
        called = [ast.If(entry.test(self, lam, q, len(args)),
                         [entry.unwrap(q)] + self.direct_call(name(q), lam, args, site, r),
                         [assign(r, call(name('CALL_ANY'), lam, ast.List(args, L), site, const(False), name('d'),
                                         name('D')))])]
        fast = arg_stmts + [ast.If(guard, [assign(r, value)], called)]
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
        n = len(cells)
        p = self.fresh('p')
        site = self.k(span)
        arg_stmts, args = self.args(cells, scope, span, fn)
        other = self.slow(x, cells, [], p, scope, span, fn, tail)
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

    def assumes(self, cell, value) -> bool:
        """True if OK already assumes that cell holds value (so a test that
        it does is true while OK holds: guards.finish_checks)."""
        return self.assumed.get(id(cell), (None, None))[1] is value

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
        other = self.slow(x, cells, [assign(p, head), self.missing(p, cell, x, scope, span)], p, scope, span, fn,
                          True)
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
        if tail:        # a tail call from elsewhere: by the run loop (no host stack grows)
            p = self.fresh('p')
            return self.dispatch(x, cells, [assign(p, name(var))], p, scope, span, fn, tail)
        site = self.k(span)
        r = self.fresh('r')
        return arg_stmts + self.direct_call(name(loopfn), name(var), args, site, r, loopfn,
                                            fn if fn.pyname == loopfn else None), name(r)

    def inline(self, x, cells, cell, b, builder, scope, span, fn, tail):
        """An inlined builtin, while its cell still holds it; the generic call otherwise."""
        arg_stmts, args = self.args(cells, scope, span, fn)
        r = self.fresh('r')
        fallback = call(name('CALL_BUILTIN'), self.k(b), ast.List(args, L), self.k(span), name('d'), name('D'))
        fallback.int_closed = b.name in INT_CLOSED         # (kinds.kind_of)
        fallback.pair_only = b.name in PAIR_ONLY            # (kinds._pair_known)
        value = fallback
        for guard, v in reversed(builder(*args)):
            if guard is None or (guard.__class__ is ast.Constant and guard.value is True):
                value = v
            elif not (guard.__class__ is ast.Constant and guard.value is False):
                value = ast.IfExp(guard, v, value)
        self.no_inline += 1
        try:
            p = self.fresh('p')
            generic = self.dispatch(x, cells, [assign(p, attr(self.k(cell), 'value'))], p, scope, span, fn, tail)
        finally:
            self.no_inline -= 1
        held = self.ok(cell, b)
        fast = self.cells_into(r, value)
        if tail:
            fast = [ast.Return(value)] if fast is None else fast + [ast.Return(_no_tail_call(name(r)))]
            return [ast.If(held, arg_stmts + fast, generic)]
        g_stmts, g_value = generic
        fast = [assign(r, value)] if fast is None else fast
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

    # ── special forms ──

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
        if ref.__class__ is GlobalRef:
            out = vs + [ast.Expr(call(name('GLOBAL_WRITE'), name('E'), self.k(s), ve, self.k(span), name('GENV')))]
            return self.result(out, name('NIL'), tail)
        found, hops = self.locate(ref, scope)
        if found is None:
            by_slot = not ref.maybe_unbound and ref.depth <= 2
            out = vs + [ast.Expr(call(name('ENV_WRITE'), name('E'), const(hops), const(ref.index),
                                      self.k(self.genv.cell(s)), self.k(s), ve, const(by_slot),
                                      self.k(span), name('GENV')))]
            return self.result(out, name('NIL'), tail)
        if ref.maybe_unbound:
            raise Unsupported('maybe unbound')
        self.use(found[0], found[1], fn, True)
        return self.result(vs + [assign(found[0], ve)], name('NIL'), tail)

    def f_define(self, x, scope, span, fn, tail):
        """define (and def's forms of it) of a slot of the current scope:
        the body's define slots (a define elsewhere stays on the reference)."""
        if len(x) < 3:
            raise Unsupported('define')
        target = x.cdr.car
        if target.__class__ is Symbol:
            init = x.cdr.cdr.car
            if init.__class__ is List and init is not EMPTY and init.car in FN_FORMS:
                self.naming = target.name       # NAMED names the lambda it makes so (the profiler's row)
            vs, ve = self.value(init, scope, self.span_of(x.cdr.cdr, span), fn)
            self.naming = None
            var = self.slot(target, scope)
            t = self.fresh()
            out = vs + [assign(t, ve), ast.Expr(call(name('NAMED'), name(t), self.k(target))), assign(var, name(t))]
            return self.result(out, name('NIL'), tail)
        if target.__class__ is not List or target is EMPTY or target.car.__class__ is not Symbol:
            raise Unsupported('define')
        params, rest = _params(target.cdr)
        defs, make = self.nested(params, rest, x.cdr.cdr, scope, span, fn, target.car.name)
        return self.result(defs + [assign(self.slot(target.car, scope), make)], name('NIL'), tail)

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
        return self.f_define(cons(x.car, cons(sig, x.cdr.cdr.cdr)), scope, span, fn, tail)

    def slot(self, s, scope) -> str:
        """The Python name of the current scope's slot for s (a define's target)."""
        i = scope.index.get(s)
        if i is None or id(scope) not in self.compiled_scopes:
            raise Unsupported('define outside a body')
        n, _ = self.vars[(id(scope), i)]
        return n

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
        maker = self.k(_MakerSpec(params, rest, body, lscope, lname, len(names) - len(slots)))
        return [fdef], call(maker, name(pyname), self.frames(scope, fn, pending))

    def f_let(self, x, scope, span, fn, tail):
        if len(x) < 3:
            raise Unsupported('let')
        if x.cdr.car.__class__ is Symbol:
            return self.named_let(x, scope, span, fn, tail)
        binds = _bindings(x, x.cdr.car)
        stmts, vals = self.inits(binds, scope, span, fn)
        lscope = Scope([b[0] for b in binds], scope)
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
        for b in binds:
            bspan = sub_span(b[2], sub_span(b[3], span, self.unit), self.unit)
            s, e = self.value(b[1], lscope, bspan, fn)
            stmts += s + [assign(self.vars[(id(lscope), lscope.index[b[0]])][0], e)]
        lscope.maybe_unbound.clear()
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
        stmts += defs + [assign(var, make), ast.Assign(   # the loop's frame holds the loop (as named let's does)
            [ast.Subscript(attr(name(var), 'env'), const(2), S)], name(var))]
        site = self.k(span)
        r = self.fresh('r')
        body = x.cdr.cdr.cdr
        release = self.release(var, r) if loopvar is not None and _only_called(body, lname) else []
        if tail:        # the loop in this run level (past the gate: run's tail call)
            direct = ast.Try([assign(r, call(name(loopfn), name('d'), *vals))], [
                ast.ExceptHandler(name('BaseException'), 'e', [
                    ast.Raise(call(name('TAILED'), name('e'), site, name(var)), None)])], [], [])
            frame = ast.List([attr(name(var), 'env'), attr(name(var), 'scope')] + vals, L)
            return stmts + [ast.If(ast.Compare(name('GATE'), [ast.GtE()], [const(0)]),
                                   [direct] + release + [ast.Return(name(r))],
                                   [ast.Return(ast.Tuple([name(var), frame, site], L))])]
        q = self.fresh('q')
        return (stmts + [assign(q, attr(attr(name(var), 'code'), 'direct'))]
                + self.direct_call(name(q), name(var), vals, site, r, loopfn) + release), name(r)

    def release(self, var: str, r: str) -> list:
        """After a named let's loop returned r: when r is no pending tail
        call and nothing but the loop's own frame and variable holds the
        loop (its name only called, no function made in it: the count of
        references says none escaped), break the cycles they make (frame ->
        loop -> frame; variable's cell -> loop -> its function -> cell), so
        the loop is freed at once instead of by the cycle collector."""
        free = ast.BoolOp(ast.And(), [is_not(attr(name(r), '__class__'), name('tuple')),
                                      ast.Compare(call(name('REFS'), name(var)), [ast.Eq()], [const(LOOP_REFS)])])
        return [ast.If(free, [ast.Assign([ast.Subscript(attr(name(var), 'env'), const(2), S)], const(None)),
                              assign(var, const(None))], [])]



ITSELF = object()       # what `ok` assumes of the root's own global: the lambda value being linked


class _MakerSpec:
    """What a nested lambda's LambdaMaker needs besides the session's depth."""
    __slots__ = ('params', 'rest', 'body', 'scope', 'name', 'extra')

    def __init__(self, params, rest, body, scope, name, extra):
        self.params, self.rest, self.body, self.scope, self.name = params, rest, body, scope, name
        self.extra = extra


# The references to a named let's loop when only its own frame (env[2]) and
# variable (a closure cell) hold it, as sys.getrefcount counts them (the
# argument is one more).
LOOP_REFS = 3
BIG = 24       # arguments this large (in forms) are compiled once: see big_call




def _located(node, where):
    """node, with every part of it that has no position given where's."""
    for n in walk(node):
        if 'lineno' in n._attributes and not hasattr(n, 'lineno'):
            ast.copy_location(n, where)
    return node


def _no_tail_call(e):
    """e, marked as a value that is never a pending tail call (guards.py)."""
    e.no_tail_call = True
    return e


def _is_cons(e) -> bool:
    return e.__class__ is ast.Call and e.func.__class__ is ast.Name and e.func.id == 'CONS'


def _cells_first(stmts: list) -> list:
    """The cells of a chain made innermost first: each cell's cdr is made
    before the cell that points at it (groups of three statements)."""
    groups = [stmts[i:i + 3] for i in range(0, len(stmts), 3)]
    return [st for g in reversed(groups) for st in g]


def rebind(params, args) -> list:
    """The parameters given a self tail call's arguments (all at once; a
    parameter passed as itself is left as it is)."""
    pairs = [(n, a) for n, a in zip(params, args) if not (a.__class__ is ast.Name and a.id == n)]
    if not pairs:
        return []
    if len(pairs) == 1:
        return [assign(pairs[0][0], pairs[0][1])]
    return [ast.Assign([ast.Tuple([store(n) for n, _ in pairs], S)], ast.Tuple([a for _, a in pairs], L))]


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


def _first_in(test):
    """The Name evaluated first in test, if it is t, `not t` or `t <op> …`
    (or `constant <op> t`)."""
    if test.__class__ is ast.UnaryOp and test.op.__class__ is ast.Not:
        test = test.operand
    if test.__class__ is ast.Compare:
        test = test.comparators[0] if test.left.__class__ is ast.Constant else test.left
    return test if test.__class__ is ast.Name else None


def _put_first(test, e):
    if test.__class__ is ast.Name:
        return e
    inner = test.operand if test.__class__ is ast.UnaryOp else test
    if inner.__class__ is ast.Compare:
        if inner.left.__class__ is ast.Constant:
            inner.comparators[0] = e
        else:
            inner.left = e
    else:
        test.operand = e
    return test


_FUSED = {ast.If: 'test', ast.Assign: 'value', ast.Return: 'value'}     # the expression a statement evaluates first


def fuse_tests(fdef) -> tuple:
    """`t = E` then `if t:` (or `not t`, `t <op> …`; or `x = t`, `return t`
    and the like), where that is the temporary's one use, becomes `if E:`
    (in every function of fdef). Gives back fdef's functions and exception
    handlers, which fusing leaves as they are (one walk for the passes after)."""
    uses, defs, handlers = {}, [], []
    for node in walk(fdef):
        kind = node.__class__
        if kind is ast.Name:
            if is_temp(node.id):
                uses[node.id] = uses.get(node.id, 0) + 1
        elif kind is ast.FunctionDef:
            defs.append(node)
        elif kind is ast.ExceptHandler:
            handlers.append(node)
    todo = [fdef]
    while todo:
        node = todo.pop()
        for field in ('body', 'orelse', 'finalbody'):
            stmts = getattr(node, field, None)
            if not stmts or stmts.__class__ is not list:
                continue
            out = []
            for st in stmts:
                part = _FUSED.get(st.__class__)
                while part is not None and out and getattr(st, part) is not None:
                    prev, t = out[-1], _first_in(getattr(st, part))
                    if t is None or uses.get(t.id) != 2 or prev.__class__ is not ast.Assign \
                            or len(prev.targets) != 1 or prev.targets[0].__class__ is not ast.Name \
                            or prev.targets[0].id != t.id or prev.value.__class__ is ast.Constant:
                        break               # (a constant put in `t is not False` would be a literal `is`)
                    setattr(st, part, _put_first(getattr(st, part), prev.value))
                    out.pop()
                out.append(st)
            setattr(node, field, out)
            todo.extend(out)
        todo.extend(getattr(node, 'handlers', ()))
    return defs, handlers


def give_back_first(handlers, stamp) -> None:
    """Every handler (of lowered code: `except … as e`) first gives back the memory reserve when it
    caught running out of memory (errors.give_back_if_out_of_memory's test,
    written out): before anything that allocates, a call's frame or its
    arguments' tuple. A failure inside a handler leaves through a cleanup
    that needs a new int in a function this large, and CPython 3.11 retries
    that allocation forever while memory stays full."""
    oom = ast.BoolOp(ast.Or(), [is_(attr(name('e'), '__class__'), name('MemoryError')),
                                is_(attr(name('e'), '__class__'), name('SystemError'))])
    give_back = ast.If(oom, [ast.Assign([ast.Subscript(name('RESERVE'), const(1), ast.Store())], const(None))], [])
    for node in handlers:
        if node.name == 'e':
            node.body[:0] = stamp([kinds.clone(give_back)], node.lineno)


def coalesce(fdef) -> None:
    """Let temporaries of one function share names where their spans in the
    code's order do not overlap (a temporary lives from its first to its last
    occurrence: the code has no loop but a self tail call's, which assigns
    every temporary before using it): fewer locals, smaller frames."""
    spans, order = {}, []

    def visit(node):
        for child in children(node):
            if child.__class__ is ast.FunctionDef or child.__class__ is ast.Lambda:
                continue
            if child.__class__ is ast.Name and is_temp(child.id):
                order.append(child)
                first, _ = spans.get(child.id, (len(order), 0))
                spans[child.id] = (first, len(order))
            visit(child)
    visit(fdef)
    free, live, names = [], [], {}
    for temp, (first, last) in sorted(spans.items(), key=lambda kv: kv[1]):
        for end, n in [x for x in live if x[0] < first]:
            live.remove((end, n))
            free.append(n)
        n = free.pop() if free else 'x%d' % (len(live) + len(free))
        live.append((last, n))
        names[temp] = n
    for node in {id(node): node for node in order}.values():     # a node may sit in several places
        node.id = names[node.id]


def _params(p):
    """(required symbols, rest symbol or None), by specials.parse_params."""
    from ..eval import Usage
    from ..specials import parse_params
    try:
        return parse_params(p)
    except Usage as u:
        raise Unsupported(u.message) from None


def _bindings(x, bs):
    """let_forms.parse_bindings: [(symbol, init form, init cell, binding cell)]."""
    from ..eval import Usage
    from ..let_forms import parse_bindings
    try:
        return parse_bindings(x, bs)
    except Usage as u:
        raise Unsupported(u.message) from None


def _only_called(forms, s) -> bool:
    """True if symbol s occurs in forms only as the head of a call, and they
    make no functions (nothing else can hold a named let's loop)."""
    if _makes_functions(forms):
        return False
    stack = list(forms)
    while stack:
        x = stack.pop()
        if x is s:
            return False
        if x.__class__ is List and x is not EMPTY:
            if x.car is sym('quote'):
                continue
            if x.car is not s:
                stack.append(x.car)
            stack.extend(x.cdr)
    return True


def _makes_functions(forms) -> bool:
    """True if the forms contain a lambda or a named let (a closure over a
    loop's variables would see them change)."""
    stack = list(forms)
    while stack:
        x = stack.pop()
        if x.__class__ is List and x is not EMPTY:
            if x.car in FN_FORMS or (x.car is sym('let') and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol):
                return True
            if x.car is sym('quote'):
                continue
            stack.extend(x)
    return False


FORMS = {
    'quote': Lowering.f_quote, 'if': Lowering.f_if, 'begin': Lowering.f_begin, 'and': Lowering.f_and,
    'or': Lowering.f_or, 'when': Lowering.f_when, 'unless': Lowering.f_unless, 'cond': Lowering.f_cond,
    'set!': Lowering.f_set, 'lambda': Lowering.f_lambda, 'fn': Lowering.f_lambda, 'λ': Lowering.f_lambda,
    'define': Lowering.f_define, 'def': Lowering.f_def, 'let': Lowering.f_let, 'let*': Lowering.f_let_star, 'letrec': Lowering.f_letrec, 'letrec*': Lowering.f_letrec,
    'do': loops.f_do,
}


def lower(unit, params, rest, body, lscope, span, name):
    """(Module, consts, table, assumed, pyname, leaf, heads) of the root lambda, or
    Unsupported: the Module defines the root's function `pyname`, whose
    globals (link.link) are its objects k…, E, SELF, D, TABLE, GENV and OK;
    `assumed` pairs cells with the values OK says they hold; `leaf`: its
    code calls no other global's lambda directly in tail position (so a
    tail call of it may call it directly: Lowering.lambda_call); `heads`: the
    globals it calls, compiled as no macro (a change of kind deoptimises)."""
    low = Lowering(unit, name)
    mod = low.root(params, rest, body, lscope, span)
    return (mod, low.consts, low.table, tuple(low.assumed.values()), low.root_fn.pyname, not low.tail_calls,
            tuple(low.heads.values()))
