"""On-stack replacement of `do` loops: the runtime's Unit.compile_loop.

The reference runs a `do` (let_forms.comp_do) as a Python loop over one
frame `fr` it updates in place. With this door, after each iteration it asks
`hot(fr)`; once the loop is hot (it has run PAYBACK times its estimated
compile cost on the reference, as link.compile_lambda reckons a lambda's:
the time between its iterations, less compiles and collections in them,
tierup.elsewhere; or
RUSTY_COMPILE_CALLS iterations when that is set), the answer is `resume`:
the loop lowered once (osr_lower.py) into a function of the frame around the
loop and the loop's slots, which continues from `fr` as it stands (at the
test) and returns the loop's result. So a long loop at top level, or in a
function called once, runs compiled. The compiled loop is kept in the disk
cache (codecache.loop_key): once the loop has run long enough to pay for a
load (Stats.per_form_loaded, far less than a compile) it is looked up there
first, so a second run of a script switches sooner and compiles no loop.

A loop in a lambda's body that is hot over many short runs (none alone
long enough to pay for compiling it) has that lambda compiled in its stead,
if at most tierup.TAKEOVER times as large and a call of it has returned
(`takes_over`): the runs are likely the lambda's calls, and the next call
runs the loop inside the lambda's compiled code; the loop is not compiled
alone first and again inside the lambda later (a function called often
that runs a short loop: its loop's evidence is exact, its own sampled).

A loop whose forms make functions keeps running on the reference: a closure
made before the switch holds `fr`, which compiled code would no longer
update. A loop the lowering refuses stays on the reference for good. While
the profiler counts calls (PROF), the loop stays on the reference (compiled
code would count a call of its own). RUSTY_SPECIALIZE=0 leaves the door out.
"""
import os
from _weakref import ref
from time import perf_counter, thread_time

from ..errors import give_back_if_out_of_memory
from ..resolve import MISSING
from ..values import List, Macro, sym
from . import frame_views, link, tierup

MAKERS = frozenset(map(sym, ('lambda', 'fn', 'λ')))
DEFINERS = frozenset(map(sym, ('define', 'def')))


def door_from_env():
    """The session's `compile_loop`: hot by time spent, or after
    RUSTY_COMPILE_CALLS iterations when that is set (0: after the first)."""
    try:
        after = max(0, int(os.environ['RUSTY_COMPILE_CALLS']))
    except (KeyError, ValueError):
        after = None

    def door(x, dscope, span, unit):
        return loop_door(x, dscope, span, unit, after)
    return door


def loop_door(x, dscope, span, unit, after):
    """`hot(fr)` for the `do` form x (its frame's scope dscope): None while
    the loop is to go on on the reference, else `resume(fr)`, the rest of the
    loop compiled; or None for a loop that never switches. Once hot enough
    to pay for a load, the loop is looked up in the disk cache; if it is not
    there, it warms on until compiling pays, then is compiled and stored."""
    names = [s.car for s in x.cdr.car]
    if len(set(names)) != len(names) or makes_functions(x.cdr.cdr):
        return None
    state = []              # [] warming; [None] on the reference for good; [Loop]
    left = [after]
    spent = [0.0, -1.0, 0, 0.0, 0.0, 0.0]   # seconds on the reference, budget (-1: not yet), id of the frame, last
                                            # clock, tierup.elsewhere() then, and seconds of this run of the loop
    making = getattr(unit.compile_lambda, 'making', None)
    maker = making() if making is not None else None    # tierup's credit of the lambda whose body holds the loop
    cache = [None, False, False]    # the disk cache's key ('' none; None: not yet made), looked up since warming,
                                    # an earlier run left it on the reference (codecache.missed_before)

    def hot(fr):
        if state:
            loop = state[0]
            if loop is None or loop.ns['PROF'] is not None:
                return None
            return loop.resume
        if after is not None:
            if left[0] > 0:
                left[0] -= 1
                return None
        else:
            t, e = perf_counter(), tierup.elsewhere()
            if spent[2] == id(fr):
                took = t - spent[3] - (e - spent[4])      # (less compiles and collections: not the loop's)
                spent[0] += took
                spent[5] += took
            else:
                spent[2], spent[5] = id(fr), 0.0    # (another run of the loop: the time between is not its)
            spent[3], spent[4] = t, e
            if spent[1] < 0:
                stats = link.STATS
                per = stats.per_form_loaded() if not cache[1] and link.codecache_on() else per_form_compiled()
                spent[1] = link.PAYBACK * link.size(x) * per * (link.MARGIN if cache[2] else 1.0)
            if spent[0] < spent[1]:
                return None
        if link.session_namespace(unit.depth)['PROF'] is not None:
            return None
        if after is None and maker is not None and takes_over(maker, x, spent, not cache[1] and link.codecache_on()):
            spent[0] = 0.0      # (hot over many short runs: its lambda, compiled in its stead, runs the next)
            return None
        if not cache[1]:
            cache[1] = True
            if link.codecache_on():
                if cache[0] is None:
                    cache[0] = link.codecache().loop_key(x, dscope, unit) or ''
                loop = looked_up(x, dscope, span, unit, forget, cache[0])
                if loop is not None:
                    state.append(loop)
                    return hot(fr)
                if after is None:           # not in the cache: warm on until compiling pays
                    spent[1] = -1.0
                    cache[2] = bool(cache[0]) and (link.codecache().missed_before(cache[0]) or link.STATS.warm(unit))
                    spent[3], spent[4] = perf_counter(), tierup.elsewhere()   # (the look-up's time is not the loop's)
                    return None
        state.append(compiled(x, dscope, span, unit, forget, cache[0]))
        return hot(fr)

    def forget(loop):
        """A global the loop calls changed kind: warm up and lower it anew."""
        if state and state[0] is loop:
            del state[:]
            left[0] = after
            spent[0], spent[1], cache[1] = 0.0, -1.0, False
            link.STATS.deopts += 1
    return hot


def takes_over(maker, x, spent, loading) -> bool:
    """True if the lambda whose body holds hot `do` loop x (tierup's credit
    `maker`) is compiled, or is loaded or compiled now in the loop's stead
    (credit.takes_over, the loop's time its own too), and this run of the
    loop is short: the loop's evidence came from many runs, each ending
    soon, and the next runs inside the lambda's compiled code. A run long
    enough to pay for the loop alone goes on compiled mid-run: the lambda
    is not asked to compile (only to load, which costs little) and the
    loop is looked up or compiled itself."""
    short = spent[5] < spent[1]
    if not short and not loading:
        return False
    taken = maker.takes_over(link.size(x), spent[0])    # (asked on a long run too, where it may load)
    return taken and short


def per_form_compiled() -> float:
    """Compile seconds per form, to budget a loop the cache does not hold:
    link.STATS's estimate, but in a run that loaded code no less than a cold
    run starts from (PER_FORM): a cold run decides its first loops with that,
    and the compile times entries keep leave out their store, so a warm run
    estimating lower would compile what the cold run left on the reference."""
    stats = link.STATS
    per = stats.per_form()
    return max(per, link.PER_FORM) if stats.saved_forms else per


def makes_functions(forms) -> bool:
    """True if forms hold a lambda, a define of a function or a named let
    (whose loop might outlive it): a closure over the loop's frame."""
    todo = list(forms)
    while todo:
        x = todo.pop()
        if x.__class__ is List and x.__len__() > 0:
            head = x.car
            if head in MAKERS:
                return True
            if head in DEFINERS and len(x) > 1 and x.cdr.car.__class__ is List:
                return True
            if head is sym('def') and len(x) > 3:
                return True
            if head is sym('quote'):
                continue
            todo.extend(x)
    return False


def compiled(x, dscope, span, unit, forget, key=None):
    """The Loop continuing do form x, or None when it stays on the reference
    (with `key`: stored in the disk cache under that name)."""
    from .osr_lower import lowered_loop
    link._load_lower()
    t, cpu = perf_counter(), thread_time()
    got = lowered_loop(x, dscope, span, unit, key)
    t = perf_counter() - t
    stats = link.STATS
    stats.seconds += t
    stats.cost += thread_time() - cpu
    link._not_own_time(unit, t)
    if got is None:
        stats.refused += 1
        return None
    stats.loops += 1
    stats.forms += link.size(x)
    return Loop(got, unit, forget)


def looked_up(x, dscope, span, unit, forget, key):
    """The Loop continuing do form x from the disk cache's entry `key`, or
    None (the time taken counts as loading, as link's look_up does)."""
    t = perf_counter()
    got = link.codecache().load(key, (), None, x, dscope, span, unit) if key else None
    stats = link.STATS
    forms = link.size(x)
    loop = None
    if got is not None:
        fcode, consts, table, assumed, pyname, _, heads, seconds = got
        loop = Loop(link.Compiled(fcode, link.module_globals(consts, unit.depth, table, unit.genv), pyname,
                                  assumed, False, heads), unit, forget)
        stats.saved += seconds
        stats.loops_loaded += 1
        stats.saved_forms += forms
    t = perf_counter() - t
    stats.load_seconds += t
    stats.load_forms += forms
    link._not_own_time(unit, t)
    return loop


class Loop:
    """A compiled `do` loop: `resume(fr)` runs the rest of the loop the
    reference began in frame fr; its function's globals hold OK (the cells
    it assumes, watched) and a watcher of the globals it calls as no macro."""
    __slots__ = ('fn', 'ns', 'resume', '__weakref__')

    def __init__(self, c, unit, forget):
        g = dict(c.globals)
        g['SELF'] = None
        self.ns = g['__builtins__']
        fn = self.fn = g[c.name] = link._Function(c.code, g, c.name)
        ok = all(cell.current() is value for cell, value in c.assumed)
        g['OK'] = ok
        if ok:
            g['ASSUMING'] = watcher = link.Assuming(self)     # (clears OK: cleared; kept alive by the globals)
            mine = ref(watcher)
            for cell, _ in c.assumed:
                cell.watched_by(mine)
        if c.heads:
            g['DEOPT'] = watcher = Heads(self, forget)
            mine = ref(watcher)
            for cell in c.heads:
                cell.watched_by(mine)
        self.resume = resumer(fn, unit.depth)

    def cleared(self) -> None:
        """A cell the code assumes changed: OK false (link.Assuming)."""
        self.fn.__globals__['OK'] = False


def resumer(fn, D):
    """The rest of the loop on frame fr: fn on the frame around the loop
    and the loop's slots, at the reference's depth. A failure writes the
    values the compiled loop had back into fr (and the lets it failed in
    over fr, for the debugger), as support.enter does for a lambda."""
    def resume(fr):
        n = D.n
        try:
            r = fn(n, fr[0], *fr[2:])
        except BaseException as e:
            give_back_if_out_of_memory(e)
            D.n = n
            seen = e.__dict__.pop('rusty_frame', None)
            if seen is not None:
                view = frame_views.function_view(seen)
                if len(view.vals) == len(fr) - 2:
                    fr[2:] = view.vals
                    if seen is not view:
                        frame_views._reparent(seen, view, fr)
                    if D.tools is not None and not getattr(e, 'trace', True):
                        e.rusty_let = seen if seen is not view else fr
            raise
        D.n = n
        return r
    return resume


class Heads:
    """Watches a global the compiled loop calls as no macro (link.Deopt's
    part for a loop): when it becomes a macro (or stops being one), the
    loop's code runs its generic paths (OK false) and the next run of the
    loop is lowered anew."""
    __slots__ = ('loop', 'forget', '__weakref__')

    def __init__(self, loop, forget):
        self.loop, self.forget = ref(loop), forget

    def __call__(self, cell, new):
        if new is not MISSING and (new.__class__ is Macro) == cell.holds_macro():
            cell.watched_by(ref(self))
            return
        loop = self.loop()
        if loop is not None:
            loop.fn.__globals__['OK'] = False
            self.forget(loop)

