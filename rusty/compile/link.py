"""Linking compiled lambdas: what the compiler's door (tierup.py, the
runtime's Unit hook around specials.lambda_maker) does once a lambda is hot:
look it up in the disk cache (codecache.py), else lower and compile it (and
store it there); each value's function is made by a call of the lambda's
maker (entry.maker) over globals all its values share (a Linker: the
session, the cells the code assumes, watched once), so linking a value
costs about what making a Python function does; a lambda the lowering
refuses stays on the reference. Also
the compile cost estimates the tier-up judges by (Stats, size).

RUSTY_SPECIALIZE=0 (or RUSTY_COMPILE=0) leaves the hook out: the reference
evaluator alone."""
import os
from _weakref import ref
from sys import getrefcount
from time import perf_counter

from _functools import partial

from ..errors import RESERVE
from ..resolve import MISSING
from ..values import EMPTY, NIL, Builtin, Hash, Lambda, List, Macro, Symbol, Vector, cons
from . import support
from .entry import MAKER, Entry, entry_class, maker
from .support import SELF_CALL

FILENAME = '<rusty-compiled>'

# The globals every generated module sees: helpers, classes and markers it
# names; each session's modules get a copy with their own GATE: the depth past
# which compiled code calls through apply.run, kept equal to the session's
# `Depth.gate` (the limit, or -1 while a tool watches every call) by a watcher,
# and their own PROF: the profiler while it alone is on, else None. The
# profiler's counting variants (profiled.py) see a second copy, whose GATE
# stays the limit while the profiler alone is on: they count their own calls.
NAMESPACE: dict = {}
_SESSIONS: dict = {}    # id(Depth) -> _Session, gone with the Depth


class _Session:
    """A session's namespaces (default code's, counting code's) and the
    Switches of its linked lambda values (profiled.py)."""
    __slots__ = ('D', 'ns', 'counting', 'switches', 'on')

    def __init__(self, D, key):
        self.D = ref(D, lambda _, key=key: _SESSIONS.pop(key, None))
        self.ns, self.counting = dict(namespace()), dict(namespace())
        self.ns.update(GATE=D.gate, PROF=None)
        self.counting.update(GATE=D.gate, PROF=None)
        self.switches: dict = {}      # id -> weak reference (no weakref module: start-up)
        self.on = False
        limit = D.limit             # (the watcher holds no reference to D, which must be free to go)
        D.watchers.append(lambda gate, counting: self.watch(gate, counting, limit))

    def watch(self, gate, counting, limit) -> None:
        """The tools moved the gate (`counting`: the profiler, while it alone is on)."""
        self.ns.update(GATE=gate, PROF=counting)
        self.counting.update(GATE=limit if counting is not None else gate, PROF=counting)
        if counting is not None:
            counting.counts_itself = support.enter_counted
        if (counting is not None) != self.on:
            self.on = counting is not None
            from .profiled import switch_all
            switch_all(self.switches, self.on)


def _session(D) -> _Session:
    key = id(D)
    s = _SESSIONS.get(key)
    if s is None or s.D() is not D:
        s = _SESSIONS[key] = _Session(D, key)
    return s


def session_namespace(D) -> dict:
    """The globals of the code compiled for the session whose depth state is D."""
    return _session(D).ns


def namespace() -> dict:
    if not NAMESPACE:
        from ..resolve import MISSING, UNBOUND
        from . import exit_frames
        NAMESPACE.update({
            'List': List, 'EMPTY': EMPTY, 'NIL': NIL, 'Symbol': Symbol, 'int': int, 'float': float, 'str': str, 'bool': bool, 'len': len,
            'Lambda': Lambda, 'Macro': Macro, 'Builtin': Builtin, 'UNBOUND': UNBOUND, 'MISSING': MISSING, 'CONS': cons, 'NEW': List, 'VECTOR': Vector, 'HASH': Hash,
            'tuple': tuple, 'BaseException': BaseException, 'MemoryError': MemoryError, 'SystemError': SystemError,
            'RESERVE': RESERVE, 'INTS': support.INTS, 'COUNTED': support.enter_counted, 'CLOCK': perf_counter, 'REFS': getrefcount,
            'CALL_ANY': support.call_any, 'CALL_BUILTIN': support.call_builtin_at, 'FINISH': support.finish_tail,
            'EXPAND': support.expand_at, 'REF': support.reference_site, 'EXIT': exit_frames.reference_exit, 'EXPAND_EXIT': exit_frames.expand_exit, 'TOO_DEEP': support.too_deep,
            'CALL_FAILED': support.call_failed, 'MADE_IN': support.made_in,
            'FAILED': support.failed_here, 'ENV_READ': support.env_read,
            'UNWOUND': support.unwound, 'CONSED': support.consed_onto,
            'ENV_WRITE': support.env_write, 'GLOBAL_WRITE': support.global_write,
            'GLOBAL_MISSING': support.global_missing, 'NAMED': support.named, 'GATED': support.gated, 'LOCATED': support.located,
            '__builtins__': {},
        })
    return NAMESPACE


class Compiled:
    """A lowered lambda: the code of its maker (entry.maker; a loop's: of
    its function), its function's name, the globals its values' shared
    ones are made from (Linker), the cells its code assumes
    the values of (lower.Lowering.ok), and the globals it calls as no macro
    (`heads`: Deopt watches them)."""
    __slots__ = ('code', 'globals', 'name', 'assumed', 'leaf', 'heads', 'source', 'counts', 'counted', 'linker',
                 'itself')

    def __init__(self, code, globals_, name, assumed, leaf=False, heads=(), source=None, counts=False):
        self.code, self.globals, self.name, self.assumed, self.leaf = code, globals_, name, assumed, leaf
        self.heads = heads
        self.source = source            # lowered's arguments: the counting variant is lowered from them
        self.counts = counts            # this is the counting variant (counting.py)
        self.counted = None             # the counting variant, once lowered (profiled.variant)
        self.linker = None              # its values' Linker, once one is linked (a lambda's; a loop's: none)
        self.itself = assumes_itself(assumed)   # (OK assumes its global holds the value: Linker)


# Tiering up by hotness (tierup.py): a lambda is lowered once its values have
# spent PAYBACK times its estimated compile cost running the reference's body:
# it likely spends as much again there, and compiled code runs it some 3 to 10
# times faster, so compiling pays, and one compiled just before it stops being
# called adds at most 1/PAYBACK to what running it there cost. The estimate is the
# body's size in weighted forms (`size`: a fixed part of MIN_FORMS forms, and one
# per form: measured, a compile grows as the body does, large or small, and
# weighing a form of a large body more made a 1,300-form lambda look four times
# dearer than it is) times the compile seconds per weighted form measured so far in this process
# and stored with the entries loaded from the disk cache (STATS.per_form),
# which starts from PER_FORM and moves away from it as compiles are measured
# (PRIOR_FORMS: the prior's weight). The prior is what the suite's first runs
# measured (processor seconds, some 600 compiles of 5 to 2,700 forms): about
# 1.3 to 2.2 ms of fixed cost and 7e-5 s per form, a fixed part of some 25
# forms; a fixed part of 10 at 2e-4 s made a 150-form lambda look twice as
# dear as it was, and it warmed twice as long.
PAYBACK = 2.0
# A lambda (or loop) an earlier run looked up in the disk cache and left on
# the reference (codecache.missed_before), or that the cache misses in a second
# run of a script (codecache.ran_before) or in a run that loaded code, is
# compiled only once it has spent MARGIN times that (and never ahead of it,
# tierup.banked): evidence that was marginal then, and is again now, compiles
# nothing in a second run. (Six: with estimates this near the real cost, one
# sample too many of a lambda the first run left alone reached three times.)
MARGIN = 6.0
PER_FORM = 8e-5
PER_FORM_LOADED = 1e-5  # (loading from the disk cache)
PRIOR_FORMS = 100       # (the priors weigh as much as this many measured forms: a lambda or two, then the
                        # program's own compiles: simplex's loops cost twice the prior and warmed half as long)
MIN_FORMS = 25          # (the fixed part of a compile: about what 25 forms cost)


def size(body) -> float:
    """The size of a lambda's (or loop's) body for the compile cost estimates, in weighted forms."""
    return MIN_FORMS + support.form_count(body, 1 << 20)


class Stats:
    """What the compiler did in this process, for `--stats` and the estimates."""
    __slots__ = ('compiled', 'seconds', 'cost', 'forms', 'loaded', 'load_seconds', 'load_forms', 'saved',
                 'saved_forms', 'refused', 'deopts', 'loops', 'loops_loaded', 'rerun')

    def __init__(self):
        self.compiled = self.loaded = self.refused = self.deopts = self.forms = self.load_forms = self.saved_forms = 0
        self.loops = self.loops_loaded = 0
        self.rerun = None       # (an earlier run ran this program: warm; None: not asked yet)
        self.seconds = self.load_seconds = self.saved = 0.0
        self.cost = 0.0         # (the compiles' processor time: `seconds` is the clock's, longer on a busy machine)

    def per_form(self) -> float:
        """Compile seconds (of the processor: `cost`) per (weighted) form of the lambdas (and loops)
        compiled so far, or loaded (what compiling them took when they were stored: `saved`), from
        the prior PER_FORM."""
        return ((self.cost + self.saved + PER_FORM * PRIOR_FORMS)
                / (self.forms + self.saved_forms + PRIOR_FORMS))

    def warm(self, unit=None) -> bool:
        """True once this process has loaded compiled code, or from the start when an earlier run ran
        its program (codecache.ran_before, asked once, about unit's session): an earlier run compiled
        what paid, and left on the reference what the cache misses now, whether it looked it up or not."""
        if self.rerun is None and unit is not None:
            self.rerun = codecache().ran_before(unit)
        return bool(self.loaded or self.loops_loaded or self.rerun)

    def per_form_loaded(self) -> float:
        """Seconds per (weighted) form of the lambdas looked up in the cache so far, from the prior PER_FORM_LOADED."""
        return (self.load_seconds + PER_FORM_LOADED * PRIOR_FORMS) / (self.load_forms + PRIOR_FORMS)

    def line(self) -> str:
        """The --stats line (the loops, osr.py's, named when some were compiled, or loaded)."""
        c, n, k = self.compiled, self.loops, self.loops_loaded
        made = '%d lambda%s' % (c, 's'[c == 1:]) + (' and %d loop%s' % (n, 's'[n == 1:]) if n else '')
        got = '%d lambda%s and %d loop%s' % (self.loaded, 's'[self.loaded == 1:], k, 's'[k == 1:]) if k else self.loaded
        return ('stats: %s compiled (%.3f s), %s loaded from the cache, %d on the reference%s'
                % (made, self.seconds, got, self.refused, ', %d deoptimised' % self.deopts if self.deopts else ''))


STATS = Stats()


def _switch(k, c, unit, disarm):
    """The Switch of c's values (profiled.py: their way between default and counting code; made once)."""
    from .profiled import Switch

    def to_counting(switch, lam):
        """lam linked to c's counting variant (its function), or None."""
        if k.session.ns['PROF'] is None:
            return None
        counted = counting_variant(c, unit)
        return None if counted is None else link(counted, lam, lam.env, unit, disarm, c)
    k.switch = switch = Switch(k, to_counting)
    s = k.session
    s.switches[id(switch)] = ref(switch, lambda _, key=id(switch), held=s.switches: held.pop(key, None))
    return switch


def counting_variant(c, unit):
    """The counting variant of Compiled c (profiled.py), lowered on first
    need and kept with c; None if it cannot be had."""
    if c.counted is None:
        t = perf_counter()
        params, rest, body, lscope, span, unit, name, _, _, seen = c.source
        c.counted = lowered(params, rest, body, lscope, span, unit, name, counting=True, seen=seen) or False
        _not_own_time(unit, perf_counter() - t)
    return c.counted or None


def _not_own_time(unit, seconds) -> None:
    """Keep `seconds` of compiling out of the own time of the profiled call it happened in."""
    profiling = getattr(unit.interp, 'profiling', None)
    if profiling is not None:
        profiling.profiler.inner += seconds


class Deopt:
    """Watches, for the values linked to one Compiled (a Linker), a global
    its code calls (Cell.trip calls it before the value changes): when the
    global becomes a macro, or held a macro (whose expansion the code has
    in place: macros.py), or turns dyn, each value still on that code is
    dropped from it (`disarm`) and runs the reference again, which expands
    the macro in its own frames."""
    __slots__ = ('compiled', 'disarm', 'linker', '__weakref__')

    def __init__(self, compiled, disarm, linker):
        self.compiled, self.disarm, self.linker = compiled, disarm, ref(linker)     # (the linker's globals hold this)

    def __call__(self, cell, new):
        if new is not MISSING and new.__class__ is not Macro and not cell.holds_macro():
            cell.watched_by(ref(self))          # (trip emptied the list)
            return
        k = self.linker()
        if k is None:
            return
        k.cleared()
        for lam in k.live():
            if k.mine(lam.code):        # (still on this code: its Entry, or profiled.py's)
                self.disarm(lam, self.compiled)


class Assuming:
    """Watches the cells the code of a Linker's values assumes the values of
    (Compiled.assumed): the first change of any clears their OK, after which
    their code reads the cells."""
    __slots__ = ('linker', '__weakref__')

    def __init__(self, linker):
        self.linker = ref(linker)

    def __call__(self, cell, new):
        k = self.linker()
        if k is not None:
            k.cleared()


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
    """Import the lowering modules and load the readers earlier runs compiled (codecache.load_readers), once."""
    from .lower import lower
    if not _LOWER:
        _LOWER.append(lower)
        if codecache_on():
            codecache().load_readers()
    return lower


_LOWER: list = []


def prime_cache() -> bool:
    """The entries a process's first compile would make or read afresh, made
    now (codecache.prime: a cache directory's first run); False."""
    if codecache_on():
        codecache().prime()
    return False


def codecache():
    """The disk cache's module (imported when first used)."""
    from . import codecache
    return codecache


def codecache_on() -> bool:
    """Whether compiled lambdas are looked up in and stored to the disk cache (RUSTY_CODE_CACHE)."""
    return os.environ.get('RUSTY_CODE_CACHE', '1') != '0'


def from_cache(key, params, rest, body, lscope, span, unit, name=None, seen=None):
    """The Compiled lambda from the disk cache's entry `key`, or None."""
    got = codecache().load(key, params, rest, body, lscope, span, unit)
    if got is None:
        return None
    fcode, consts, table, assumed, pyname, leaf, heads, seconds = got
    STATS.saved += seconds
    return _compiled(fcode, consts, table, assumed, pyname, leaf, heads, unit,
                     (params, rest, body, lscope, span, unit, name, None, False, seen))


def lowered(params, rest, body, lscope, span, unit, name, retry=None, key=None, counting=False, seen=None):
    """The Compiled lambda, None when it stays on the reference, or Refused
    while a macro it calls keeps it there; with `key`, stored in the disk
    cache under that name; `counting`: its variant counting its own calls
    (profiled.py); `seen`: its arguments on the reference (evidence.py)."""
    from .lower import Unsupported, lower_compiled
    from .special_forms import _MakerSpec
    t = perf_counter()
    try:
        code, consts, table, assumed, pyname, leaf, heads = lower_compiled(FILENAME, unit, params, rest, body, lscope,
                                                                           span, name, counting, seen, wrap=_maker)
    except Unsupported as e:
        if e.cell is not None and retry is not None:
            return Refused(e.cell, retry)
        return None
    except (RecursionError, SyntaxError, ValueError):     # past what Python compiles (nesting)
        return None
    made = pyname if assumes_itself(assumed) else MAKER
    fcode = next(c for c in code.co_consts if c.__class__ is code.__class__ and c.co_name == made)
    if key and not counting:
        codecache().store(key, fcode, pyname, leaf, consts, table, assumed, heads, perf_counter() - t, params, rest,
                          body, lscope, span, unit)
    consts = [support.maker_of(c, unit.depth, counting) if c.__class__ is _MakerSpec else c for c in consts]
    return _compiled(fcode, consts, table, assumed, pyname, leaf, heads, unit,
                     (params, rest, body, lscope, span, unit, name, None, False, seen), counting)


def _maker(mod, consts, table, assumed, pyname, *_):
    """The Module defining the maker of the root's functions (entry.maker), unless its code
    assumes its own global holds the value (Compiled.itself: its values have globals of their own)."""
    return mod if assumes_itself(assumed) else maker(mod, pyname)


def assumes_itself(assumed) -> bool:
    """True if code assuming `assumed` assumes its own global holds the value it runs for (ITSELF)."""
    return any(value is support.ITSELF for _, value in assumed)


def _compiled(fcode, consts, table, assumed, pyname, leaf, heads, unit, source=None, counting=False) -> Compiled:
    return Compiled(fcode, module_globals(consts, unit.depth, table, unit.genv, counting), pyname, assumed, leaf,
                    heads, source, counting)


def module_globals(consts, D, table, genv, counting=False) -> dict:
    """The globals one lowered lambda's values start from: its objects k0,
    k1, …, the session's depth state D, the line table TABLE, the global
    environment GENV and, as its builtins, the session's namespace (whose
    GATE the session's watcher keeps current). Globals, not closure cells:
    a function's cells are copied into its frame on every call, so a large
    function with its objects as cells paid for them per call and in frame
    size (deep recursion)."""
    g = {'k%d' % i: c for i, c in enumerate(consts)}
    g.update(D=D, TABLE=table, GENV=genv, __builtins__=_session(D).counting if counting else session_namespace(D))
    return g


_Function = type(session_namespace)


class Linker:
    """The values linked to one Compiled c (link), over globals `g` made
    from c's: with OK, true while the cells c's code assumes hold their
    values (one watcher, Assuming, clears it), and one Deopt. Where c's
    code assumes its own global holds the value (c.itself: a global
    function calling itself, linked once or so), each value's function is
    made from the code with globals of its own (a copy of g, with its own
    name, SELF, E and OK); else by a call of c's maker (entry.maker) over g
    itself, shared. It also keeps how to make each value's Entry, weak
    references to the values linked (a deoptimisation, or the profiler's
    Switch, finds them so) and the values' Switch (profiled.py)."""
    __slots__ = ('compiled', 'g', 'make', 'inner', 'defaults', 'values', 'limit', 'owned', 'entry', 'enter', 'D',
                 'end', 'leaf', 'session', 'switch', '__weakref__')

    def __init__(self, c: Compiled, lam, unit, disarm, deopt_as):
        ITSELF = support.ITSELF
        self.compiled, self.D, self.session, self.switch = c, unit.depth, _session(unit.depth), None
        g = self.g = dict(c.globals)
        g['LINKER'] = self
        ok = True
        for cell, value in c.assumed:
            if cell.current() is not (lam if value is ITSELF else value):
                ok = False
        g['OK'] = ok
        if ok and c.assumed:
            g['ASSUMING'] = watcher = Assuming(self)      # (kept alive by the globals)
            mine = ref(watcher)
            for cell, _ in c.assumed:
                cell.watched_by(mine)
        if disarm is not None and c.heads:
            g['DEOPT'] = watcher = Deopt(deopt_as or c, disarm, self)
            mine = ref(watcher)
            for cell in c.heads:
                cell.watched_by(mine)
        code = c.code
        if c.itself:
            self.make, self.inner = None, code
            self.defaults = (False,) if code.co_argcount and code.co_varnames[code.co_argcount - 1] == SELF_CALL \
                else None       # (the parameter's default: a def in the module would give it)
        else:
            self.make = _Function(code, g, MAKER)
            self.inner = next(x for x in code.co_consts if x.__class__ is code.__class__)    # (its functions' code)
        self.values, self.limit, self.owned = [], 64, []
        n = support.arity(lam)
        self.entry = entry_class(n) if n >= 0 else Entry
        self.enter = support.enter_counted if c.counts else support.enter
        self.end = 2 + len(lam.params) + (lam.rest is not None)
        self.leaf = n >= 0 and c.leaf

    def own(self, lam, env):
        """lam's function of its own globals, OK false unless lam is what its global holds."""
        c = self.compiled
        g = dict(self.g)
        g['E'], g['SELF'] = env, lam
        fn = g[c.name] = _Function(self.inner, g, c.name, self.defaults)
        self.owned.append(ref(fn))      # (few: a global function is linked once or so)
        if g['OK']:
            for cell, value in c.assumed:
                if value is support.ITSELF and cell.current() is not lam:
                    g['OK'] = False
        return fn

    def cleared(self) -> None:
        """OK false in every value's globals (the shared ones, and each of its own: `owned`)."""
        self.g['OK'] = False
        for r in self.owned:
            fn = r()
            if fn is not None:
                fn.__globals__['OK'] = False

    def function(self, lam, env):
        """A function of c's code for lam and the frame env around it."""
        make = self.make
        return make(env, lam) if make is not None else self.own(lam, env)

    def mine(self, code) -> bool:
        """True if a value's code enters a function of c's code (its Entry, or profiled.py's stand-in)."""
        return isinstance(code, partial) and bool(code.args) and getattr(code.args[0], '__code__', None) is self.inner

    def keep(self, lam) -> None:
        """Keep a weak reference to lam (the dead ones dropped as the list doubles)."""
        values = self.values
        values.append(ref(lam))
        if len(values) >= self.limit:
            values[:] = [r for r in values if r() is not None]
            self.limit = max(64, 2 * len(values))

    def live(self) -> list:
        """The values linked that are still alive."""
        return [v for v in (r() for r in self.values) if v is not None]


def link(c: Compiled, lam, env, unit, disarm=None, deopt_as=None):
    """Make lam run c: its function (given back), made for lam and the frame
    env around it by c's Linker (made at the first link), and the Entry into
    it as lam's code, or, c being default code while the profiler is on,
    profiled.py's stand-in. `disarm(lam, compiled)`: what drops a value
    from its compiled code (tierup.py); `deopt_as`: the Compiled it drops
    (c's default code when c is its counting variant)."""
    k = c.linker
    if k is None:
        k = c.linker = Linker(c, lam, unit, disarm, deopt_as)
        if not c.counts:
            _switch(k, c, unit, disarm)
    make = k.make
    fn = make(env, lam) if make is not None else k.own(lam, env)    # (k.function's)
    k.keep(lam)
    lam.code = e = k.entry(k.enter, fn, k.D, k.end)
    e.direct, e.leaf = fn, fn if k.leaf else None
    if k.session.on and not c.counts:
        k.switch.on_value(lam)
    return fn
