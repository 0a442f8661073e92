"""The compiler's one door: `compile_lambda`, the runtime's Unit hook around
specials.lambda_maker. A lambda is lowered when one of its values is first
called (after RUSTY_COMPILE_CALLS calls); its tree is compiled at once, not
looked up in the disk cache (the key, a dump of the tree, cost three times
what compiling the tree does), its function made once per lambda value
with globals of its own (linking it to that value, its frame, the session
and the cells it assumes), and a lambda the lowering refuses stays on the
reference.

RUSTY_SPECIALIZE=0 (or RUSTY_COMPILE=0) leaves the hook out: the reference
evaluator alone."""
import os
from _weakref import ref
from sys import getrefcount
from time import perf_counter

from ..errors import RESERVE
from ..resolve import MISSING
from ..values import EMPTY, NIL, Builtin, Lambda, List, Macro, Symbol, Vector, cons
from . import support
from .support import SELF_CALL
from .entry import Entry

FILENAME = '<rusty-compiled>'

# The globals every generated module sees: helpers, classes and markers it
# names; each session's modules get a copy with their own GATE: the depth past
# which compiled code calls through apply.run, kept equal to the session's
# `Depth.gate` (the limit, or -1 while a tool watches every call) by a watcher,
# and their own PROF: the profiler while it alone is on (compiled code counts
# its own calls then, and GATE stays the limit), else None.
NAMESPACE: dict = {}
_SESSIONS: dict = {}    # id(Depth) -> (a weak reference to it, that session's namespace), gone with it


def session_namespace(D) -> dict:
    """The globals of the code compiled for the session whose depth state is D."""
    key = id(D)
    entry = _SESSIONS.get(key)
    if entry is not None and entry[0]() is D:
        return entry[1]
    ns = dict(namespace())
    ns['GATE'] = D.gate
    ns['PROF'] = None
    limit = D.limit             # (the namespace holds no reference to D, which must be free to go)
    D.watchers.append(lambda gate, counting: ns.update(GATE=limit if counting is not None else gate,
                                                       PROF=counting))
    _SESSIONS[key] = (ref(D, lambda _, key=key: _SESSIONS.pop(key, None)), ns)
    return ns


def namespace() -> dict:
    if not NAMESPACE:
        from ..resolve import MISSING, UNBOUND
        NAMESPACE.update({
            'List': List, 'EMPTY': EMPTY, 'NIL': NIL, 'Symbol': Symbol, 'int': int, 'float': float, 'str': str,
            'Lambda': Lambda, 'Macro': Macro, 'Builtin': Builtin, 'UNBOUND': UNBOUND, 'MISSING': MISSING, 'CONS': cons, 'NEW': List, 'VECTOR': Vector,
            'tuple': tuple, 'BaseException': BaseException, 'MemoryError': MemoryError, 'SystemError': SystemError,
            'RESERVE': RESERVE, 'INTS': support.INTS, 'CLOCK': perf_counter, 'REFS': getrefcount,
            'CALL_ANY': support.call_any, 'CALL_BUILTIN': support.call_builtin_at, 'FINISH': support.finish_tail,
            'EXPAND': support.expand_at, 'CELL_SET': support.cell_set, 'TOO_DEEP': support.too_deep,
            'CALL_FAILED': support.call_failed,
            'FAILED': support.failed_here, 'TAILED': support.tailed, 'ENV_READ': support.env_read,
            'UNWOUND': support.unwound, 'CONSED': support.consed_onto,
            'ENV_WRITE': support.env_write, 'GLOBAL_WRITE': support.global_write,
            'GLOBAL_MISSING': support.global_missing, 'NAMED': support.named, 'GATED': support.gated, 'LOCATED': support.located,
            '__builtins__': {},
        })
    return NAMESPACE


class Compiled:
    """A lowered lambda: the code of its function (named `name`), the
    globals every value's copy starts from, and the cells its code assumes
    the values of (lower.Lowering.ok), and the globals it calls as no macro
    (`heads`: Deopt watches them)."""
    __slots__ = ('code', 'globals', 'name', 'assumed', 'leaf', 'heads')

    def __init__(self, code, globals_, name, assumed, leaf=False, heads=()):
        self.code, self.globals, self.name, self.assumed, self.leaf = code, globals_, name, assumed, leaf
        self.heads = heads


# Tiering up by hotness. Unless RUSTY_COMPILE_CALLS fixes a number of calls,
# a lambda is lowered once its values have spent PAYBACK times its estimated
# compile cost running the reference's body (their own time: less the calls of
# other warming lambdas they make) (a named let's or do's loop counts
# every iteration: each is a call of its lambda). Compiling then adds at most
# 1/PAYBACK to what running the lambda on the reference cost (a script never
# runs much slower than with RUSTY_SPECIALIZE=0); the estimate is the body's
# size (at least MIN_FORMS) times the compile seconds per form measured so far
# in this process (STATS), starting from PER_FORM.
PAYBACK = 7.0
PER_FORM = 1e-3
MIN_FORMS = 20          # (a small lambda costs about what one of 20 forms does: the fixed part)


class Stats:
    """What the compiler did in this process, for `--stats` and the estimate."""
    __slots__ = ('compiled', 'seconds', 'forms', 'loaded', 'refused', 'deopts')

    def __init__(self):
        self.compiled = self.loaded = self.refused = self.deopts = self.forms = 0
        self.seconds = 0.0

    def per_form(self) -> float:
        """Compile seconds per form of the lambdas compiled so far (PER_FORM before any)."""
        return self.seconds / self.forms if self.compiled and self.forms else PER_FORM

    def line(self) -> str:
        return ('stats: %d lambda%s compiled (%.3f s), %d left on the reference, %d deoptimised'
                % (self.compiled, '' if self.compiled == 1 else 's', self.seconds, self.refused, self.deopts))


STATS = Stats()
HOT = object()          # (compile_lambda's hot: the lambda is hot)
INNER = [0.0]           # seconds the warming calls inside the one timed now took (hot)


def door_from_env():
    """The session's hook: `compile_lambda`, tiering up by time spent
    (PAYBACK), or after RUSTY_COMPILE_CALLS calls on the reference when that
    is set (0: compile on the first call)."""
    try:
        calls = max(0, int(os.environ['RUSTY_COMPILE_CALLS']))
    except (KeyError, ValueError):
        calls = None

    def door(make, code, params, rest, body, lscope, extra, span, unit, name):
        return compile_lambda(make, code, params, rest, body, lscope, extra, span, unit, name, calls)
    return door


def compile_lambda(make, code, params, rest, body, lscope, extra, span, unit, name, after=1):
    """lambda_maker's `make`, wrapped: the values it makes run the
    reference's body `code()` until the lambda is hot (`after` calls of any
    of them; None: the time PAYBACK says), then compiled code, or the
    reference's when lowering refuses. A value whose compiled code a
    redefinition makes wrong (Deopt) is armed again: back on the reference,
    compiled anew later."""
    state = []                         # [] not tried; [None] the reference; [Compiled]
    calls = [after]
    spent = [0.0, -1.0]                # seconds on the reference, the budget (-1: not yet estimated)

    def hot(fr):
        """Run the reference's body on frame fr, or HOT once the lambda is."""
        if spent[0] < spent[1]:                 # (the common case first: warming up)
            saved, INNER[0] = INNER[0], 0.0
            t = perf_counter()
            r = code()(fr)      # (an error leaves INNER off: a little time misplaced, no more)
            t = perf_counter() - t
            spent[0] += t - INNER[0]            # its own time: not that of the warming calls it made
            INNER[0] = saved + t
            return r
        if after is not None:
            if calls[0] > 0:
                calls[0] -= 1
                return code()(fr)
            return HOT
        if spent[1] < 0:
            spent[1] = PAYBACK * max(MIN_FORMS, support.form_count(body)) * STATS.per_form()
            return hot(fr)
        return HOT

    def arm(lam):
        """Give lam the code that runs the reference until the lambda is hot, then links it."""
        def first_call(fr):
            if spent[0] < spent[1] and not state:       # warming up (hot's first case, inline: the common one)
                saved, INNER[0] = INNER[0], 0.0
                t = perf_counter()
                r = code()(fr)
                t = perf_counter() - t
                spent[0] += t - INNER[0]
                INNER[0] = saved + t
                return r
            if not state:
                r = hot(fr)
                if r is not HOT:
                    return r
                _load_lower()           # first: its import is no compile cost per form
                t = perf_counter()
                state.append(lowered(params, rest, body, lscope, span, unit, name, retry))
                t = perf_counter() - t
                STATS.seconds += t
                _not_own_time(unit, t)
                if state[0].__class__ is Compiled:
                    STATS.compiled += 1
                    STATS.forms += max(MIN_FORMS, support.form_count(body))
                else:
                    STATS.refused += 1
            if state[0] is None:
                lam.code = code()
            elif state[0].__class__ is Refused:
                return code()(fr)       # (until the macro it calls changes: Refused)
            else:
                link(state[0], lam, lam.env, unit, disarm)
            if session_namespace(unit.depth)['PROF'] is not None:
                return code()(fr)       # a profiler's stand-in counts this call: compiled code would count it again
            return lam.code(fr)
        lam.code = first_call

    def disarm(lam, compiled):
        """lam's compiled code is wrong from now on: forget it (if still the lambda's) and arm lam again."""
        if state and state[0] is compiled:
            del state[:]
            calls[0] = after
            spent[0] = 0.0
            STATS.deopts += 1
        arm(lam)

    def retry(refusal):
        """The macro that kept the lambda on the reference changed: lower it again at its next call."""
        if state and state[0] is refusal:
            del state[:]
            calls[0] = after
            spent[0] = 0.0

    def make_compiled(f):
        lam = make(f)
        if state and state[0] is None:
            return lam
        arm(lam)
        return lam
    return make_compiled


def _not_own_time(unit, seconds) -> None:
    """Keep `seconds` of compiling out of the own time of the profiled call it happened in."""
    profiling = getattr(unit.interp, 'profiling', None)
    if profiling is not None:
        profiling.profiler.inner += seconds


class Deopt:
    """Watches, for one linked lambda value, a global its compiled code calls
    as no macro (Cell.trip calls it before the value changes): when the
    global becomes a macro (or stops being one, or turns dyn), the value's
    compiled code is dropped (`disarm`) and it runs the reference again,
    which expands the macro in its own frames."""
    __slots__ = ('compiled', 'disarm', 'fn', '__weakref__')

    def __init__(self, compiled, disarm, fn):
        self.compiled, self.disarm, self.fn = compiled, disarm, ref(fn)     # (fn's globals hold this)

    def __call__(self, cell, new):
        if new is not MISSING and (new.__class__ is Macro) == cell.holds_macro():
            cell.watched_by(ref(self))          # (trip emptied the list)
            return
        fn = self.fn()
        if fn is None:
            return
        g = fn.__globals__
        g['OK'] = False
        lam, code = g['SELF'], g['SELF'].code
        if isinstance(code, Entry) and code.direct is fn:       # (still the value's code: support.adapter)
            self.disarm(lam, self.compiled)


class Assuming:
    """Watches the cells a linked function's code assumes the values of
    (Compiled.assumed): the first change of any clears the function's OK,
    after which its code reads the cells."""
    __slots__ = ('fn', '__weakref__')

    def __init__(self, fn):
        self.fn = ref(fn)

    def __call__(self, cell, new):
        fn = self.fn()
        if fn is not None:
            fn.__globals__['OK'] = False


class Refused:
    """A lambda left on the reference because it calls the macro in `cell`:
    watching the cell, it has the lambda lowered again once that changes."""
    __slots__ = ('retry', '__weakref__')

    def __init__(self, cell, retry):
        self.retry = retry
        cell.watched_by(ref(self))

    def __call__(self, cell, new):
        self.retry(self)


def _load_lower():
    """Import the lowering modules (once; later calls cost a dict lookup)."""
    from .lower import lower
    return lower


def lowered(params, rest, body, lscope, span, unit, name, retry=None):
    """The Compiled lambda, None when it stays on the reference, or Refused
    while a macro it calls keeps it there."""
    from .lower import Unsupported, _MakerSpec, lower
    try:
        mod, consts, table, assumed, pyname, leaf, heads = lower(unit, params, rest, body, lscope, span, name)
        code = compile(mod, FILENAME, 'exec', dont_inherit=True)
    except Unsupported as e:
        if e.cell is not None and retry is not None:
            return Refused(e.cell, retry)
        return None
    except (RecursionError, SyntaxError, ValueError):     # past what Python compiles (nesting)
        return None
    consts = [support.LambdaMaker(c.params, c.rest, c.body, c.scope, c.name, unit.depth, c.extra)
              if c.__class__ is _MakerSpec else c for c in consts]
    fcode = next(c for c in code.co_consts if c.__class__ is code.__class__ and c.co_name == pyname)
    return Compiled(fcode, module_globals(consts, unit.depth, table, unit.genv), pyname, assumed, leaf, heads)


def module_globals(consts, D, table, genv) -> dict:
    """The globals one lowered lambda's values start from: its objects k0,
    k1, …, the session's depth state D, the line table TABLE, the global
    environment GENV and, as its builtins, the session's namespace (whose
    GATE the session's watcher keeps current). Globals, not closure cells:
    a function's cells are copied into its frame on every call, so a large
    function with its objects as cells paid for them per call and in frame
    size (deep recursion)."""
    g = {'k%d' % i: c for i, c in enumerate(consts)}
    g.update(D=D, TABLE=table, GENV=genv, __builtins__=session_namespace(D))
    return g


_Function = type(session_namespace)


def link(c: Compiled, lam, env, unit, disarm=None) -> None:
    """Make lam run c: a function of its own, whose globals add to c's its
    lambda value SELF, the frame E around it and OK, true while the cells
    c's code assumes hold their values (each watched: a change clears OK for
    good, and the code reads the cells from then on). A value linked while
    its name holds another starts with OK false."""
    from .lower import ITSELF
    g = dict(c.globals)
    g['E'], g['SELF'] = env, lam
    code = c.code
    own = code.co_argcount and code.co_varnames[code.co_argcount - 1] == SELF_CALL
    fn = g[c.name] = _Function(code, g, c.name, (False,) if own else None)     # (the parameter's default)
    ok = True
    for cell, value in c.assumed:
        if cell.current() is not (lam if value is ITSELF else value):
            ok = False
    g['OK'] = ok
    if ok:
        g['ASSUMING'] = watcher = Assuming(fn)      # (kept alive by the function's globals)
        mine = ref(watcher)
        for cell, _ in c.assumed:
            cell.watched_by(mine)
    if disarm is not None and c.heads:
        g['DEOPT'] = watcher = Deopt(c, disarm, fn)       # (kept alive by the function's globals)
        mine = ref(watcher)
        for cell in c.heads:
            cell.watched_by(mine)
    lam.code = support.adapter(fn, unit.depth, lam.extra, lam.fast, fn if c.leaf else None)


def python_source(lam, unit) -> str:
    """The Python the compiler makes of lambda value lam (for `,py`), or why
    it stays on the reference."""
    from .lower import Unsupported, lower
    try:
        mod, consts = lower(unit, lam.params, lam.rest, lam.body, lam.scope, None, lam.name)[:2]
    except Unsupported as e:
        return '# stays on the reference evaluator: %s' % e
    import ast
    names = ['#   k%d: %s' % (i, _shown(c)) for i, c in enumerate(consts)]
    return '\n'.join(['# %s, compiled by rusty (k…: the objects the code names)' % lam.name] + names
                     + [ast.unparse(mod)])


def _shown(obj) -> str:
    from ..printer import display_form
    cls = obj.__class__.__name__
    if cls == 'Cell':
        return 'a global cell'
    if cls in ('Span', '_MakerSpec', 'Scope', 'list', 'Unit', '_Lambda'):
        return {'Span': 'a source position', '_MakerSpec': 'the maker of a nested lambda',
                'Scope': 'a scope', 'list': 'a macro call site', 'Unit': 'the compile unit',
                '_Lambda': 'the lambda of an inlined walk (its name)'}[cls]
    return display_form(obj)
