"""Lisp to Python: one lambda (and every lambda nested in it) lowered to the
`ast` of a module defining the lambda's positional function `fn(d, arg…)`.
Everything the code names besides its locals is a global of the function
(shared by the lambda's values, link.Linker: closure cells would be copied
into every call's frame): the objects it uses (`k…`), the session's depth
state D, the line table TABLE, the global environment GENV, and OK: true
while every global the code assumes the value of (an inlined builtin, the
lambda's own name) still holds it; but the lambda value SELF and the frame
E around it are closure cells of the maker compiling wraps the function in
(entry.maker: linking a value calls it), unless the code assumes its own
global holds the value (then they are globals of each value's own).

Names are resolved as the reference resolves them (resolve.py, the same Scope
objects): a local of this lambda or of a lambda nested in it is a Python local
(captured: a closure cell; assigned from inside a nested lambda: nonlocal),
a local of the reference frames around it is read through its frame (E), a
global through its cell. `d` is the run level's depth (see support.py).
Every form the lowering does not handle raises Unsupported, and the lambda
stays on the reference. Each statement and expression carries a line number;
TABLE maps it to the span the reference would report there.
"""
from . import pyast as ast
from gc import disable, enable, isenabled

from ..eval import SPECIALS, sub_span
from ..resolve import body_defines
from ..syntax import problem
from ..values import EMPTY, Lambda, List, Symbol, Vector, sym
from . import call_lines, counting, guards, kinds, macros, trmc
from .builtin_calls import BuiltinCalls
from .calls import Calls
from .expansion import pinned, unchanged_by_others
from .finish import give_back_first, tidy_temporaries
from .hoist import hoist
from .inline import library_spec
from .lets import Lets
from .nodes import (L, Unsupported, _ident, assign, attr, call, const, is_, is_temp, name, pure, stamp, statements,
                    walk_parts)
from .special_forms import SpecialForms, _makes_functions
from .support import ITSELF
from .variables import Fn, Variables

_Name, _Constant = ast.Name, ast.Constant


TINY = 120      # ast nodes: a body this small gets the copy entered first whatever its kinds (Lowering.uncounted)


class Lowering(Variables, Calls, BuiltinCalls, SpecialForms, Lets):
    """The lowering of one root lambda; `consts` are the objects the code
    names k0, k1, … (in order), `table` line -> span. Its methods live by
    what they lower: variables.py, calls.py, builtin_calls.py,
    special_forms.py, lets.py; the root, bodies and bookkeeping here."""

    def __init__(self, unit, name: str, counting: bool = False):
        self.unit = unit
        self.counting = counting        # the profiler's variant: each function counts its calls (counting.py)
        self.seen = None                # the root's arguments on the reference (evidence.Seen), if any
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
        self.known: dict = {}           # python name of a named let's loop -> (its function, its arity)
        self.sure_defines: set = set()  # ids of body defines run first and alone (SpecialForms.known_define)
        self.known_defines: dict = {}   # python name of a local so defined -> (its define, its function)
        self.define_bodies: dict = {}   # id(sure define) -> the body it is in (SpecialForms.known_define)
        self.releasable: set = set()    # known local functions freed after a tail call of them (Calls.known_call)
        self.release_groups: dict = {}  # such a function's variable -> its body's id (freed with the one tail-called)
        self.defs_made: dict = {}       # id(def form) -> the define form f_def made of it
        self.finished: dict = {}        # python name of a nested function lowered -> its Fn
        self.assumed: dict = {}         # id(cell) -> (cell, the value the fast code assumes it holds)
        self.stable: set = set()        # python names of Lisp locals no set! targets
        self.bound_once: set = set()    # python names of parameters and `let` variables (bound by their form alone)
        self.naming = None              # the name a define gives the lambda about to be lowered
        self.tail_calls = False         # a global's lambda called directly in tail position (lambda_call)
        self.heads: dict = {}           # id(cell) -> cell: globals called, assumed no macro (link.Deopt)
        self.written_back: set = set()  # python names a macro expanded at run time may change (expansion.py)
        self.cell_written: dict = {}    # of them, those of enclosing functions -> the functions writing them
        self.pinning: list = []         # (FunctionDef, its pin) of each function with exits (expansion.pinned)
        self.expanded: dict = {}        # id(macro call form) -> its macros.Expansion (None: not expanded)
        self.expanding = 0              # expansions being lowered inside one another
        self.called: dict = {}          # a body's forms' parts of called.only_called's answers (known_define)
        self.nonlocals = False          # some function declares a name nonlocal (kinds.simplify)
        self.sites = None               # line -> the lambda a direct call there calls (call_lines.py), once one is made

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

    stamp = staticmethod(stamp)      # (nodes.stamp: self.stamp(nodes, ln, also))

    def ok(self, cell, value) -> ast.Name:
        """The test that cell still holds value (a builtin, or ITSELF: the
        lambda value being linked): OK, the module's flag, true while every
        assumption holds (a change of a watched cell clears it: link.link)."""
        self.assumed[id(cell)] = (cell, value)
        return name('OK')

    def assumes(self, cell, value) -> bool:
        """True if OK already assumes that cell holds value (so a test that
        it does is true while OK holds: guards.finish_checks)."""
        return self.assumed.get(id(cell), (None, None))[1] is value

    def unprofiled(self) -> list:
        """The tests that no profiler counts calls, for a fast path that
        makes none (PROF is None): none in the default code, whose gate is
        down while the profiler is on, which its fast paths test too."""
        return [is_(name('PROF'), const(None))] if self.counting else []

    def span_of(self, cell, span):
        return sub_span(cell, span, self.unit)

    # ── the root ──

    def root(self, params, rest, body, lscope, span):
        """The Module defining the root's function (lscope holds the body's
        defines after the parameters, as lambda_maker made it)."""
        macros.prescan(self, body, lscope)         # (also self.scan_assigned(body)'s work)
        self.mark_defines(body)
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
        kinds.simplify(fdef, cells=self.cell_written, nonlocals=self.nonlocals)
        if self.known or any(v is ITSELF for _, v in self.assumed.values()):
            guards.finish_checks(fdef, top.quiet)       # (else it calls none of its own functions: no test to drop)
        if top.quiet:           # (its calls of itself keep OK known: the tests finish_checks left decided)
            guards.fold(fdef, True)
        handlers, loops = tidy_temporaries(fdef)
        if loops:
            hoist(fdef, self.stable & self.bound_once)
        give_back_first(handlers, self.stamp)
        if top.consed:
            trmc.finish_returns(fdef)
        for f, pin in self.pinning:     # (last: never run, no pass need see them)
            self.stamp([pin], f.lineno)
            f.body.append(pin)
        if self.sites is not None:
            call_lines.place(fdef, self.table, self.consts, self.sites)
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
        loop_ok = fn.loop is not None and not _makes_functions(body, self.expanded)
        if not loop_ok:
            fn.loop = None
        stmts = [assign(n, name('UNBOUND')) for n in fn.defined]     # a fresh frame's define slots
        first = len(self.table) + 1
        stmts += self.body(body, scope, span, fn, tail=True)
        sized = []          # (the nodes specialize counted: uncounted's size)
        reads_outer = bool(fn.exit_reads)     # (its exits read enclosing locals: no copies, below)
        if not fn.assigned_outer and not reads_outer:
            never = self.seen.never_int(fn.params) if fn is self.root_fn and self.seen is not None else ()
            stmts = kinds.specialize(stmts, fn.params, unchanged_by_others(self, fn), is_temp, self.fresh, never,
                                     sized, uncounted=not self.counting)
        lines = range(first, len(self.table) + 1)
        if fn.looped:
            tail = ast.IfExp(is_(name('site'), const(None)), const(None),
                             ast.Tuple([name('site'), attr(name(fn.selfname), 'name')], L))
        else:
            tail = const(None)
        lets = self.let_frames(fn, scope, lines)
        names = self.k(tuple((p.elts[0].value, p.elts[1].value) for p in self.frame_names(fn, scope).elts))
        failed = call(name('FAILED'), name('e'), name('TABLE'), name('D'), tail, names, self.k(lets))
        if self.sites is not None:          # (its direct calls' failures: sites.py)
            failed.args.append(self.k(self.sites))
        if fn.consed:
            failed = trmc.unwinding(failed, names)
        handler = ast.ExceptHandler(name('BaseException'), 'e', [ast.Raise(failed, None)])
        if self.counting:       # (the profiler's variant: counting.py)
            quick = []
        else:
            quick = [] if reads_outer else self.uncounted(stmts, fn.looped, fn.self_called, fn.quiet,
                                                          sized[0] if sized else None, len(sized) < 2 or sized[1])
            stmts = counting.generic(stmts, quick)
            if fn.self_called and not quick:        # (no INTS to pass: no SELF_CALL parameter)
                fn.self_called = counting.unmarked(stmts)
        opening = []
        if fn.looped:       # (site: the last self tail call's, also after the copy's loop left off)
            opening = [assign('site', const(None))]
            stmts = [ast.While(const(True), stmts, [])]
        if fn.consed:
            opening = trmc.opening() + opening
        decls = [ast.Nonlocal(sorted(fn.assigned_outer))] if fn.assigned_outer else []
        self.nonlocals = self.nonlocals or bool(decls)
        args = self.arguments(['d'] + fn.params)
        if fn.self_called:
            args.args.append(ast.arg(counting.SELF_CALL))
            args.defaults.append(const(False))
        if not self.counting:       # (the copy and the general code in one try: one handler)
            fdef = ast.FunctionDef(fn.pyname, args, decls + opening + [ast.Try(quick + stmts, [handler], [], [])], [])
        else:
            label = attr(name(fn.selfname), 'name') if fn.selfname else const(fn.label)
            fdef = ast.FunctionDef(fn.pyname, args, decls + opening + counting.function_body(
                stmts, handler, self.k(body), label, fn.self_called), [])
        self.pinning += [(fdef, pin) for pin in pinned(fn)]
        fdef.lets = lets            # (call_lines.place adds its calls' lines)
        return fdef

    def uncounted(self, stmts, looped, self_called, quiet=False, size=None, tests_ok=True) -> list:
        """For a body given an integer copy (kinds.specialize), or a small
        self tail loop or a TINY body of any kinds, the copy entered first:
        the integer copy (then `stmts` keep only the general body:
        counting.generic), or a copy run while OK holds (its OK tests
        decided: guards.py). A self tail loop runs the copy while the copy's
        test holds at each hop, and leaves off to the general code with the
        parameters as the last hop bound them. The copy's calls of its own
        function pass INTS (kinds.py) where they know that OK holds and
        every argument is an exact integer: the callee enters the copy on
        that alone. (The profiler's variant has no such copy: counting.py.)
        `size`: stmts' nodes as kinds.specialize counted them, if it did;
        `tests_ok`: False if they test no OK (a copy would decide nothing: none)."""
        if len(stmts) == 1 and stmts[0].__class__ is ast.If and getattr(stmts[0], 'integer_copy', False):
            spec_test, body = stmts[0].test, stmts[0].body      # (the copy itself: counting.generic drops its If)
        elif tests_ok and kinds.small(stmts, kinds.SPECIALIZED_NODES if looped else TINY, size):    # runs while OK holds
            spec_test, body = name('OK'), kinds.twin(stmts, is_temp, self.fresh, uncounted=True)
        else:
            return []
        parts = list(spec_test.values) if spec_test.__class__ is ast.BoolOp else [spec_test]
        if looped:          # each hop tests the copy's test again (the entry's holds for the first)
            blocks = [body] + [b for st in statements(body) for b in (getattr(st, 'body', None), getattr(st, 'orelse', None))
                               if b and b.__class__ is list]
            for block in blocks:
                block[:] = [_located(ast.If(kinds.clone(spec_test), [x], [ast.Break()]), x)
                            if x.__class__ is ast.Continue else x for x in block]
            loop = ast.While(const(True), body, [])
            loop.holds = spec_test          # true at each entry of the loop's body (guards.py, kinds.py)
            body = [loop]
        test = kinds.clone(spec_test)
        if self_called:
            test = ast.BoolOp(ast.Or(), [is_(name(counting.SELF_CALL), name('INTS')), test])
        entry = ast.If(test, body, [])     # (inside the function's try: its handler is the general code's)
        entry.uncounted_copy = not looped or quiet      # (kinds.py: what its calls of itself return)
        entry.quiet = quiet
        entry.holds = ast.BoolOp(ast.And(), parts)   # (guards.py, kinds.py; never written out)
        return [entry]

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
        cls = x.__class__
        kind = self.form_kind(x) if cls is List else None
        if kind is not None:
            method = FORMS.get(kind)
            if method is None:
                raise Unsupported(kind)
            out = method(self, x, scope, span, fn, False)
            stamp(out[0], self.line(span, scope), out[1])
            return out
        table = self.table          # (self.line, inline: a line for every form)
        ln = len(table) + 1
        table[ln] = span
        if scope is not None:
            self.scopes[ln] = scope
        if cls is Symbol:
            e = self.ref(x, scope, span, fn)
            c = e.__class__
            if c is _Name or c is _Constant:        # (stamp's own test, inline: most refs a name)
                d = e.__dict__
                if 'lineno' not in d:
                    d['lineno'] = ln
                    d['col_offset'] = 0
            else:
                stamp((), ln, e)
            return [], e
        if cls is List:
            if x is EMPTY:
                return [], name('NIL')
            out = self.call(x, scope, span, fn, False)
            stamp(out[0], ln, out[1])
            return out
        if cls is int or cls is float or cls is str or cls is bool:
            e = ast.Constant(x)
            e.lineno, e.col_offset = ln, 0
            return [], e
        if cls is Vector:
            return [], stamp([call(name('VECTOR'), call(attr(attr(self.k(x), 'items'), 'copy')))], ln)[0]
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


def _located(node, where):
    """node, with every part of it that has no position given where's."""
    for n in walk_parts(node):
        if 'lineno' in n._attributes and not hasattr(n, 'lineno'):
            ast.copy_location(n, where)
    return node


def _later(module: str, function: str):
    """The lowering of a rarer form, its module imported when the first such
    form is lowered (not with the compiler: a program may never use it)."""
    def first(low, x, scope, span, fn, tail):
        from importlib import import_module
        f = getattr(import_module('.' + module, __package__), function)
        for form, got in list(FORMS.items()):
            if got is first:
                FORMS[form] = f
        return f(low, x, scope, span, fn, tail)
    return first


FORMS = {
    'quote': Lowering.f_quote, 'if': Lowering.f_if, 'begin': Lowering.f_begin, 'and': Lowering.f_and,
    'or': Lowering.f_or, 'when': Lowering.f_when, 'unless': Lowering.f_unless, 'cond': Lowering.f_cond,
    'set!': Lowering.f_set, 'lambda': Lowering.f_lambda, 'fn': Lowering.f_lambda, 'λ': Lowering.f_lambda,
    'define': Lowering.f_define, 'def': Lowering.f_def, 'let': Lowering.f_let, 'let*': Lowering.f_let_star, 'letrec': Lowering.f_letrec, 'letrec*': Lowering.f_letrec,
    'do': _later('loops', 'f_do'),
    'try-catch': _later('try_form', 'f_try'), 'case': _later('case_lower', 'f_case'),
    'match': _later('match_lower', 'f_match'), 'quasiquote': _later('quasi', 'f_quasiquote'),
    'eval-when': _later('effect_forms', 'f_eval_when'), 'load': _later('effect_forms', 'f_load'),
    'load-relative': _later('effect_forms', 'f_load_relative'), 'import': _later('effect_forms', 'f_import'),
    '.': _later('effect_forms', 'f_attribute'), 'set': _later('effect_forms', 'f_set_plain'),
    'defrust': _later('effect_forms', 'f_defrust'), 'defrust*': _later('effect_forms', 'f_defrust_star'),
}


def lower(unit, params, rest, body, lscope, span, name, counting=False, seen=None):
    """(Module, consts, table, assumed, pyname, leaf, heads) of the root lambda, or
    Unsupported: the Module defines the root's function `pyname`, whose
    globals (link.Linker) are its objects k…, D, TABLE, GENV and OK (E and SELF: entry.maker's);
    `assumed` pairs cells with the values OK says they hold; `leaf`: its
    code calls no other global's lambda directly in tail position (so a
    tail call of it may call it directly: Lowering.lambda_call); `heads`: the
    globals it calls, compiled as no macro (a change of kind deoptimises).
    `counting`: the profiler's variant (counting.py); `seen`: what the
    lambda's calls on the reference showed of its arguments (evidence.py)."""
    low = Lowering(unit, name, counting)
    low.seen = seen
    mod = low.root(params, rest, body, lscope, span)
    return (mod, low.consts, low.table, tuple(low.assumed.values()), low.root_fn.pyname, not low.tail_calls,
            tuple(low.heads.values()))


def lower_compiled(filename, *args, wrap=None):
    """lower's answer with its Module compiled (under filename): the code in
    the Module's place (`wrap(Module, consts, table, assumed, pyname, leaf,
    heads)` the Module compiled, if given). The collector is paused meanwhile: the nodes made
    all live until compiled, then go, so a collection would walk them in vain."""
    paused = isenabled()
    disable()
    try:
        mod, *rest = lower(*args)
        if wrap is not None:
            mod = wrap(mod, *rest)
        code = compile(mod, filename, 'exec', dont_inherit=True)
        del mod
        return (code, *rest)
    finally:
        if paused:
            enable()
