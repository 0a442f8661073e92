"""The evaluator: each form is compiled once into a closure `ev(frame) -> value`.

Compiling resolves every name (resolve.py) and pre-dispatches every node, so
running a program is a walk over closures with no per-node type tests. Special
forms live in specials.py; application (frames, the tail-call loop, the depth
limit, builtin and native calls, located errors) in apply.py. This module
holds what the forms share: compile units, variable references, calls and
macro expansion.

This is the reference evaluator. A unit may carry `compile_lambda` (the
runtime's door to the compiler to Python, unless RUSTY_SPECIALIZE=0): it
wraps each lambda's maker, and the lambdas it compiles must behave exactly
like the ones here; and `compile_loop`, the door through which a `do` loop
running long continues in compiled code (let_forms.comp_do).
"""
from _operator import itemgetter       # the C module (operator imports more)

from .apply import Depth, make_frame, recursion_message, run
from .call_sites import CALLS, NO_CELL, NOT_YET, call2, call_n
from .errors import EvalError, RecursionLimit
from .forms import NAMES
from .printer import display_form
from .resolve import MISSING, UNBOUND, GlobalEnv, GlobalRef, lookup_by_name, resolve, visible_names
from .spelling import attribute_problem
from .syntax import check_in_scope, problem
from .values import EMPTY, NIL, List, Macro, Symbol, Vector, make_list, sym

SPECIAL_FORM_NAMES = list(NAMES)      # forms.py's table, in its order

# Filled by the modules forms.py names (specials, quasiquote, patterns, …):
# head symbol -> compile function(x, scope, tail, span, unit). Until a form's
# module is loaded, its names hold a stand-in that loads it (defer_specials).
SPECIALS: dict = {}


def special(*names):
    """Register a special form's compile function under its names."""
    def register(fn):
        for n in names:
            SPECIALS[sym(n)] = fn
        return fn
    return register


def defer_specials(rows, load) -> tuple:
    """Give every name of the form rows `rows` that has no compile function
    yet a stand-in: the form's first compile calls load(module) with the row's
    module (whose import registers its real functions), then hands the form to
    the real one. Rows of the 'unquote' syntax are ordinary calls, not forms.
    The modules so deferred, in order."""
    stand_ins = {}
    for f in rows:
        if f.syntax == 'unquote':
            continue
        for n in f.names:
            if sym(n) not in SPECIALS:
                if f.module not in stand_ins:
                    stand_ins[f.module] = _stand_in(f.module, load)
                SPECIALS[sym(n)] = stand_ins[f.module]
    return tuple(stand_ins)


def _stand_in(module: str, load):
    """The compile function standing for `module`'s forms until it is loaded."""
    def compile_deferred(x, scope, tail, span, unit):
        load(module)
        real = SPECIALS[x.car]
        if real is compile_deferred:
            raise EvalError('internal error: %s did not register %s' % (module, x.car.name), span)
        return real(x, scope, tail, span, unit)
    return compile_deferred


def undefined_error(s: Symbol, frame, genv: GlobalEnv, span) -> EvalError:
    problem = attribute_problem(genv, s) if '.' in s.name else None
    if problem is not None:         # an imported module's missing attribute
        problem.span = span
        return problem
    from .suggest import undefined_message     # only a failing run needs the suggestions
    names = SPECIAL_FORM_NAMES + visible_names(frame, genv)
    return EvalError(undefined_message(s.name, names), span)


# ── Compile units ────────────────────────────────────────────────────────

class Unit:
    """What a compilation needs besides the form: the globals, the host
    interpreter, the session's depth state, the hook wrapping a lambda's maker
    (`compile_lambda`, or None for the reference evaluator alone), the hook
    a `do` loop hands its parts to (`compile_loop`, or None), and whether
    the code came from source (with spans) or from data (macro expansions and
    eval, whose errors point at the enclosing form)."""
    __slots__ = ('genv', 'interp', 'depth', 'compile_lambda', 'use_spans', 'compile_loop')

    def __init__(self, genv: GlobalEnv, interp, depth: Depth, compile_lambda=None, use_spans=True,
                 compile_loop=None):
        self.genv = genv
        self.interp = interp
        self.depth = depth
        self.compile_lambda = compile_lambda
        self.use_spans = use_spans
        self.compile_loop = compile_loop

    def from_data(self) -> 'Unit':
        """This unit for code made from data (no spans of its own)."""
        if not self.use_spans:
            return self
        return Unit(self.genv, self.interp, self.depth, self.compile_lambda, False, self.compile_loop)


class Usage(Exception):
    """A special form has the wrong shape; becomes an error when it runs."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def sub_span(cell, span, unit):
    """The span of the element in `cell`, or the enclosing one."""
    if unit.use_spans and cell.span is not None:
        return cell.span
    return span


def raiser(message: str, span):
    def ev(f):
        raise EvalError(message, span)
    return ev


def const(v):
    def ev(f):
        return v
    return ev


# ── Compiling forms ──────────────────────────────────────────────────────

def comp(x, scope, tail, span, unit):
    """Compile one form into a closure."""
    cls = x.__class__
    if cls is Symbol:
        return comp_ref(x, scope, span, unit)
    if cls is List:
        if x is EMPTY:
            return const(NIL)
        head = x.car
        if head.__class__ is Symbol:
            special = SPECIALS.get(head)
            if special is not None:
                message = problem(x)       # what syntax.check says of the form, if it was not run
                if message is not None:
                    return raiser(message, span)
                try:
                    return special(x, scope, tail, span, unit)
                except Usage as u:
                    return raiser(u.message, span)
        return comp_call(x, scope, tail, span, unit)
    if cls is float or cls is int or cls is str or cls is bool:
        return const(x)
    if cls is Vector:   # a literal vector: a fresh one each time (it is mutable)
        items = x.items

        def ev(f):
            return Vector(items[:])
        return ev
    return const(NIL)   # data -> code: any other value is the form ()


def comp_body(forms: List, scope, tail, span, unit):
    """Forms in order, the last in tail position; empty body => Nil. A string
    before the last form (a docstring) does nothing, so it is not run."""
    codes = [comp(c.car, scope, False, sub_span(c, span, unit), unit) for c in forms.cells()
             if c.car.__class__ is not str or c.cdr is EMPTY]
    if not codes:
        return const(NIL)
    if tail and forms is not EMPTY:
        last = forms
        while last.cdr is not EMPTY:
            last = last.cdr
        codes[-1] = comp(last.car, scope, True, sub_span(last, span, unit), unit)
    if len(codes) == 1:
        return codes[0]
    if len(codes) == 2:
        a, b = codes

        def ev(f):
            a(f)
            return b(f)
        return ev
    init, last_code = codes[:-1], codes[-1]

    def ev(f):
        for c in init:
            c(f)
        return last_code(f)
    return ev


# ── Variable references ──────────────────────────────────────────────────

def lookup_or_raise(f, s: Symbol, genv: GlobalEnv, span):
    """By-name lookup; raises Undefined with a suggestion."""
    v = lookup_by_name(f, s, genv)
    if v is MISSING:
        raise undefined_error(s, f, genv, span)
    return v


def comp_ref(s: Symbol, scope, span, unit):
    """A variable reference: a global cell read or a frame slot read."""
    genv = unit.genv
    ref = resolve(scope, s, genv)
    if ref.__class__ is GlobalRef:
        cell = ref.cell

        def ev(f):
            v = cell.value
            if v is MISSING:
                return lookup_or_raise(f, s, genv, span)
            return v
        return ev
    depth, i = ref.depth, ref.index
    cell = genv.cell(s)     # cell.dyn: this session gave some frame a run-time binding of s
    if ref.maybe_unbound and depth == 0:     # (a let*'s or a body define's own slot)
        def ev(f):
            v = f[i]
            if v is UNBOUND:
                return lookup_or_raise(f, s, genv, span)
            return v
        return ev
    if ref.maybe_unbound:
        def ev(f):
            fr = f
            for _ in range(depth):
                fr = fr[0]
            v = fr[i]
            if v is UNBOUND or (depth and cell.dyn):
                return lookup_or_raise(f, s, genv, span)
            return v
        return ev
    if depth == 0:
        return itemgetter(i)        # f[i], taken by the host without a frame of its own
    if depth == 1:
        def ev(f):
            if cell.dyn:
                return lookup_or_raise(f, s, genv, span)
            return f[0][i]
        return ev
    if depth == 2:
        def ev(f):
            if cell.dyn:
                return lookup_or_raise(f, s, genv, span)
            return f[0][0][i]
        return ev

    if depth == 3:
        def ev(f):
            if cell.dyn:
                return lookup_or_raise(f, s, genv, span)
            return f[0][0][0][i]
        return ev
    hops = (None,) * depth

    def ev(f):
        if cell.dyn:
            return lookup_or_raise(f, s, genv, span)
        fr = f
        for _ in hops:
            fr = fr[0]
        return fr[i]
    return ev


# ── Data to code ─────────────────────────────────────────────────────────

_DATA_ATOMS = (float, int, str, bool, Symbol, Vector)


def to_code(x):
    """Data as code: Nil and non-data values become the form ()."""
    cls = x.__class__
    if cls is List:
        if x is EMPTY:
            return x
        items = [to_code(e) for e in x]
        if all(a is b for a, b in zip(items, x)):
            return x
        return make_list(items)
    if cls in _DATA_ATOMS:
        return x
    return EMPTY


# ── Calls ────────────────────────────────────────────────────────────────

def expand_macro(m: Macro, arg_forms: List, f, scope, tail, span, unit, cache: list):
    """Expand a macro call and evaluate the expansion in the caller's frame.

    `cache` is the call site's [macro, epoch, code]: a pure macro's expansion
    is reused while neither the macro nor any global has changed (macro_cache.py).
    """
    D = unit.depth
    if D.n >= D.limit:
        raise expansion_too_deep(m, D, span)
    epoch = unit.genv.epoch[0]
    if cache[0] is m and cache[1] == epoch:
        code = cache[2]
    else:
        fr = make_frame(m, list(arg_forms), span)
        expansion = to_code(run(m, fr, span, D))
        check_in_scope(expansion, span, scope, unit.genv)
        code = comp(expansion, scope, tail, span, unit.from_data())
        from .macro_cache import is_pure       # loaded with the first macro expansion
        if is_pure(m, unit.genv):
            cache[:] = [m, epoch, code]
    if tail and D.expanding != D.n:
        return tail_expansion(code, f, D)
    # A non-tail expansion stays active while its code runs, and so does one in
    # tail position reached inside another's code with no call between (an
    # expansion expanding the macro again): each counts toward the depth.
    D.n += 1
    saved, D.expanding = D.expanding, D.n
    try:
        if D.n > D.limit:
            raise expansion_too_deep(m, D, span)
        return code(f)
    finally:
        D.n -= 1
        D.expanding = saved


def tail_expansion(code, f, D):
    """Run a tail-position expansion's code: it stands in for its call site,
    so no depth unit, but one nested in it at the same depth will take one."""
    saved, D.expanding = D.expanding, D.n
    try:
        return code(f)
    finally:
        D.expanding = saved


def expansion_too_deep(m: Macro, D, span) -> RecursionLimit:
    """The depth limit, reached at an expansion of m: the report says which
    (a macro whose expansion calls it again expands until the limit)."""
    e = RecursionLimit(recursion_message(D), span)
    e.hints.append("reached while expanding the macro '%s'; a macro whose expansion calls it "
                   "again, with nothing to stop it, expands until this limit" % m.name)
    return e


def comp_call(x: List, scope, tail, span, unit):
    """A call: evaluate the head, then a macro expands, anything else is
    applied to the evaluated arguments. The closure is made for the call's
    argument count (CALLS), and takes a builtin, or a lambda whose frame is
    its arguments, without apply.apply_procedure's steps in between."""
    head = x.car
    head_code = comp(head, scope, False, sub_span(x, span, unit), unit)
    arg_forms = x.cdr
    arg_codes = [comp(c.car, scope, False, sub_span(c, span, unit), unit) for c in arg_forms.cells()]
    sym_head = head.__class__ is Symbol
    cache = [None, -1, None]

    def expand(f, m):
        if sym_head:
            return expand_macro(m, arg_forms, f, scope, tail, span, unit, cache)
        raise EvalError('Not callable: ' + display_form(m), span)
    cell = head_cell(head, scope, unit)
    if len(arg_codes) == 2:     # a literal argument is passed as its value
        literals = tuple(c.car if c.car.__class__ in _LITERALS else NOT_YET for c in arg_forms.cells())
        return call2(cell, head_code, arg_codes, expand, span, tail, unit.depth, literals)
    make = CALLS.get(len(arg_codes), call_n)     # (call_sites.py)
    return make(cell, head_code, arg_codes, expand, span, tail, unit.depth)


_LITERALS = (int, float, str, bool)     # the forms comp makes a const of


def head_cell(head, scope, unit):
    """The global cell a call's head reads (its value read in place, the
    head's code run only when it is MISSING), or NO_CELL."""
    if head.__class__ is Symbol:
        ref = resolve(scope, head, unit.genv)
        if ref.__class__ is GlobalRef:
            return ref.cell
    return NO_CELL
