"""Tiering up: when the values of a lambda leave the reference for compiled
code (the runtime's door, `door`'s compile_lambda; linking is link.py's).

A lambda is compiled once its values have spent PAYBACK (2) times its estimated compile cost
running the reference's body (their own time: less the calls they make of other lambdas,
warm or compiled). Compiled code runs some 3 to 10 times faster than the reference, and a
lambda that has spent T there is likely to spend about T again: compiling at cost C pays
once T is a small multiple of C, and a lambda compiled just before it stops being called
costs at most 1/PAYBACK of what it ran. The estimate is the body's size (link.size: a fixed
part and one per form, as measured compiles grow) times the compile seconds per weighted
form measured so far (link.Stats.per_form), or, before the cache is looked up, the seconds
per form loading takes (the cache first: loading costs next to nothing); the budget is
judged anew at each sample. Within an allowance (BANK seconds and SHARE of the process's
time, for all compiles so far), a lambda is compiled once it has spent EVIDENCE seconds on
the reference: a program hot early runs compiled early, at a bounded cost to one that is
not.

A lambda whose values its maker (the lambda whose body holds it) makes at each call counts
its time as its maker's too, and so do the links of those values once it is compiled:
compiled, the maker makes them compiled, with no link per value (a named let's loop, a
closure passed to `map`, made at each call of a function called often). A maker called once
is not charged: its one value runs compiled once its lambda is; each one it makes after
charges it with the lambda's time so far (it is likely to run as long each call), and the
maker is loaded, or compiled once over its budget (`hot_now`: one called rarely reaches no
sample; compiled alone, a loop reads the maker's locals through the reference's frames).
When such a lambda is hot (and not in the disk cache), its maker, if at most TAKEOVER times
as large and hot to 1/TAKEOVER of its compile budget (EVIDENCE within the allowance, as its
own; or its own maker so), is compiled in its stead, once: the lambda's forms are lowered
once, in the maker, not once alone and again in the maker later; the lambda's time so far is
forgotten (values it made before that run on earn it again). So is a lambda with a `do` loop
hot over many short runs (osr.py) once a call of it has returned: the loop's time is its own
too.

A lambda (or `do` loop, osr.py) that an earlier run looked up in the disk cache and left on
the reference (codecache.missed_before), or that the cache misses in a run that loaded code
or ran the same script before (Stats.warm), is compiled only once it has spent link.MARGIN
(6) times its budget, never ahead of it (within the allowance, or taking over): evidence
found marginal once, and again, compiles nothing; a second run loads what the first
compiled.

The warm-up costs next to nothing: a value not yet compiled runs `warm`, which counts the
session's warm calls down and runs the reference's body; a lambda's first FEW values made
while it warms get a `warm` of their own (linked as the lambda is compiled or loaded), the
rest share one (a function per value was an allocation and a cycle per closure; one still
running on the reference when the lambda is compiled stays there, short-lived). One warm
call in SAMPLE (at random gaps) is a sample, and so is each lambda's first call: timed, with
the calls it makes (warm ones through `due`, compiled ones through support.enter, which asks
WATCH) timed whole and taken out of its own time, up to CALLS of them (then its share of the
time it saw stands for the rest), as are compiles and collections, and scaled by the
thread's share of the processor; that own time and, for a call compiled code made the
reference's way (support.call_any, CALLED), CALL (what that way costs it over calling a
compiled lambda directly), times the calls it stands for (SAMPLE; 1 for a first call), is
added to its lambda's. Once a lambda is compiled, a value made after is linked to compiled
code as it is made (linking costs about what making a Python function does: link.Linker), or
at its first call where the code assumes the value is its own global's (a define binds it
after making it); a value made before, as the lambda is compiled (one with a `warm` of its
own), else at a sampled call. A named let's loop counts every iteration: each is a call of
its lambda.

RUSTY_COMPILE_CALLS=N instead compiles a lambda after N calls on the reference (0: at its
first call), counting every call.
"""
import gc
import os
from _weakref import ref
from time import perf_counter, process_time, thread_time

from . import link
from .evidence import Seen
from .link import Compiled, Refused, codecache_on
from .support import CALLED, WATCH

SAMPLE = 64             # one warm call in SAMPLE is timed
CLOCK = perf_counter    # the samples' clock (tests give one of their own)
CALLS = 8               # a sample times this many of the warm calls it makes, at most
TAKEOVER = 2.0          # a maker at most this many times as large as a hot lambda it makes at each call is compiled instead
FEW = 16                # values made while warming, each with a `warm` of its own; the rest share one
CALL = 5e-7             # seconds a call of a warm lambda costs a compiled caller beyond its own (support.call_any)
INF = float('inf')
CPU = thread_time       # the thread's processor time (a sample's share of its time: the machine may be busy)
COLLECTING = [0.0, 0.0]     # seconds the garbage collector took, and when the collection running began


def collected(phase, info) -> None:
    """gc.callbacks' hook: add up the time collections take."""
    if phase == 'start':
        COLLECTING[1] = CLOCK()
    else:
        COLLECTING[0] += CLOCK() - COLLECTING[1]


def elsewhere() -> float:
    """Seconds this process has spent compiling, loading compiled code and
    collecting garbage: time no sample counts as its own (a collection is
    the whole program's, not the call's it happens in)."""
    return link.STATS.seconds + link.STATS.load_seconds + COLLECTING[0]


# The allowance: compiling ahead of PAYBACK while all compiles so far, this
# one included, cost at most BANK seconds and SHARE of the process's time
# (a script runs at most that much slower than on the reference, and a
# program whose lambdas are hot early runs compiled early); a lambda must
# still have spent EVIDENCE seconds on the reference (it does run again).
BANK = 0.015
SHARE = 0.05
EVIDENCE = 2e-3
ELAPSED = process_time    # the process's processor time so far (tests give a clock of their own)


def banked(cost: float) -> bool:
    """True if compiling at this estimated cost stays within the allowance
    (code loaded from the disk cache counts what compiling it took: a second
    run decides as the first did, and compiles nothing the first did not)."""
    stats = link.STATS
    return stats.cost + stats.saved + cost <= BANK + SHARE * ELAPSED()


def door_from_env():
    """The session's hook: `door`'s compile_lambda, tiering up by time spent
    (link.PAYBACK), or after RUSTY_COMPILE_CALLS calls on the reference when
    that is set (0: compile on the first call)."""
    try:
        return door(max(0, int(os.environ['RUSTY_COMPILE_CALLS'])))
    except (KeyError, ValueError):
        return door(None)


def door(after=None):
    """A session's compile_lambda (specials.lambda_maker's hook): by time
    spent (after None), or after `after` calls on the reference. The
    session's warm calls share one countdown (`tick`) and one record of the
    sample running (`inner`: [seconds its warm calls took], else None)."""
    every = SAMPLE
    seed = 12345
    tick = every
    inner = None
    making = None           # the lambda whose reference body is being made (`first`): its `credit`
    if collected not in gc.callbacks:
        gc.callbacks.append(collected)

    def gap() -> int:
        """Warm calls to the next sample: from 1 to 2*SAMPLE-1, SAMPLE on average
        (not always SAMPLE: calls in a loop would be sampled at the same places)."""
        nonlocal seed
        seed = (seed * 1103515245 + 12345) & 0x7fffffff      # (a fixed sequence: runs alike)
        return 1 + (seed >> 8) % (2 * every - 1)

    def made(call, *args):
        """call(*args), a call (warm or compiled) the sample running makes:
        timed whole, out of the sample's own time; past CALLS of them, no
        more are timed and the sample's own share of the time it saw stands
        for the rest."""
        nonlocal inner, tick
        acc = inner
        inner, tick, WATCH[0] = None, gap(), None
        if acc[1] == CALLS:
            acc[2], acc[3] = CLOCK(), elsewhere()
            return call(*args)
        acc[1] += 1
        t, c = CLOCK(), elsewhere()
        try:
            return call(*args)
        finally:
            acc[0] += CLOCK() - t - (elsewhere() - c)
            inner, tick, WATCH[0] = acc, 1, made

    def compile_lambda(make, code, params, rest, body, lscope, extra, span, unit, name):
        """lambda_maker's `make`, wrapped: its values run the reference's
        body `code()` until the lambda is hot, then compiled code, or the
        reference's when lowering refuses. A value whose compiled code a
        redefinition makes wrong (link.Deopt) is armed again: back on the
        reference, compiled anew later."""
        state = []                  # [] not tried; [None] the reference; [Compiled]; [Refused]
        seen = Seen(len(params))    # the arguments of calls on the reference (evidence.py)
        left = after                # calls on the reference still to go (RUSTY_COMPILE_CALLS)
        spent = 0.0                 # estimated own seconds of its values on the reference
        ended = False               # a sampled call of it has returned
        budget = INF                # what spent must reach (judge)
        forms = 0.0                 # its size for the estimates (link.size; 0: not yet counted)
        looked = False              # looked up in the disk cache since armed
        key = None                  # its disk cache key ('': none; None: not yet made)
        maker = making              # the lambda whose body holds this one (its `credit`), or None
        values = 0                  # values made while warming up
        many = False                # more than one value made: the maker makes one at each call
        doubted = False             # an earlier run left it on the reference (codecache.missed_before)
        anonymous = None            # the code of its values made once FEW were (`warming`), once made
        deferred = False            # its maker was asked to take over (ready)
        firsts = []                 # weak references to the values given a `warm` of their own, while warming

        def first(fr):
            """The lambda's first call: make the reference's body and run this
            call on it, as a sample standing for itself unless one runs."""
            nonlocal run, making
            outer, making = making, credit      # (the lambdas of its body are made now: this is their maker)
            try:
                run = code()
            finally:
                making = outer
            if inner is None:
                return sampled(fr, 1)
            return run(fr)
        run = first                 # (the reference's body, once made)

        def due(lam, fr):
            """A warm call of lam the countdown stopped at: one the sample
            running makes, or a new sample."""
            nonlocal tick
            if inner is not None:
                return made(entered, lam, fr)
            tick = gap()
            if state or spent >= budget:
                return entered(lam, fr)
            return sampled(fr, every, CALL if CALLED[0] == id(lam) else 0.0)     # (called by compiled code: its path)

        def sampled(fr, weight, call=0.0):
            """Run this call on the reference, timing its own time (and `call`), which stands for `weight` calls."""
            nonlocal inner, tick
            if seen.looks:
                seen.observe(fr)
            acc = inner = [0.0, 0, 0.0, 0.0]    # its calls' seconds, how many; when it stopped timing them, elsewhere then
            tick = 1                # (the warm calls it makes come to `due`, the compiled ones to `made`)
            WATCH[0] = made
            cpu, t, c = CPU(), CLOCK(), elsewhere()
            try:
                return run(fr)
            finally:
                now, cpu = CLOCK(), CPU() - cpu
                inner, tick, WATCH[0] = None, gap(), None
                took(weight, now - t, cpu, acc, t, c, call)

        def took(weight, t, cpu, acc, start, c, call=0.0) -> None:
            """Add the own time of a sample (t seconds, cpu on the processor) to the lambda's, weighted."""
            nonlocal spent, ended
            ended = True
            if t <= 0.0:
                return
            own = t - (elsewhere() - c)
            if acc[2]:          # its share of the time it saw
                seen_t = acc[2] - start - (acc[3] - c)
                own = own * (seen_t - acc[0]) / seen_t if seen_t > 0.0 else 0.0
            else:
                own -= acc[0]
            own = weight * (max(0.0, own) * min(1.0, cpu / t) + call)     # (off the processor: its share)
            spent += own
            judge()
            if many and maker is not None:
                maker(own)

        def credit(seconds) -> None:
            """Count the time of a lambda of its body whose values it makes at each
            call as its own: compiling it makes them compiled, and unlinked."""
            nonlocal spent
            if state:
                return
            spent += seconds
            judge()
            if many and maker is not None:
                maker(seconds)

        def takes_over(n, seconds=0.0) -> bool:
            """A lambda of its body of size n, whose values it makes at each call (or a
            `do` loop of it, osr.py, that ran `seconds`, its own time too, once a call of
            it has returned), is hot: True if this one is compiled, or (at most TAKEOVER
            times as large, hot to 1/TAKEOVER of its budget) is compiled or loaded now
            instead, or its own maker so: their forms lowered once, in it."""
            nonlocal forms, spent
            if state:                   # (compiled already: its code makes them)
                return state[0].__class__ is Compiled
            forms = forms or link.size(body)
            if forms > TAKEOVER * n:
                return False
            if seconds and not ended:   # (a loop hot in the one call running: no reason to compile, only to load)
                return not looked and codecache_on() and tier_up() and state[0].__class__ is Compiled
            spent = max(spent, seconds)
            if many and maker is not None and maker.takes_over(n):
                return True
            per = link.STATS.per_form_loaded() if not looked and codecache_on() else link.STATS.per_form()
            if spent * (1.0 if doubted else TAKEOVER) < paying(per):     # (doubted: never ahead; the cache first)
                return False
            if not tier_up():           # (a miss in the disk cache: compiled if its evidence is still enough)
                if spent * (1.0 if doubted else TAKEOVER) < budget:
                    return False
                tier_up()
            return state[0].__class__ is Compiled
        credit.takes_over = takes_over

        def hot_now() -> None:
            """Load it from the disk cache, else tier up once its time reaches its budget."""
            if state or (not looked and codecache_on() and tier_up()) or spent < budget:
                return
            if not ready() and not state and spent >= budget:      # (a miss: judged again)
                tier_up()
        credit.hot_now = hot_now

        def ready() -> bool:
            """The lambda is hot: load it, else lower it, unless then its maker takes
            over (asked once: its values made from then on are the maker's, and the
            time counted so far is forgotten; if those made before run on, they earn
            it again)."""
            nonlocal spent, deferred
            if many and maker is not None and not deferred and (looked or not codecache_on()):
                deferred = True
                if maker.takes_over(forms or link.size(body)):
                    spent = 0.0
                    return False
            return tier_up()

        def judge() -> None:
            """The time the lambda must spend on the reference to pay for the next
            step (loading, else compiling), with the estimates as they are now."""
            nonlocal forms, budget
            if not forms:
                forms = link.size(body)
            budget = paying(link.STATS.per_form_loaded() if not looked and codecache_on() else link.STATS.per_form())

        def paying(per) -> float:
            """The time on the reference that pays for a step costing `per` a form (EVIDENCE within the allowance)."""
            cost = link.PAYBACK * forms * per
            return cost * link.MARGIN if doubted else EVIDENCE if cost > EVIDENCE and banked(forms * per) else cost

        def entered(lam, fr):
            """Run this call of lam: linked once the lambda is compiled (or now, if
            hot and not a cache miss), else on the reference."""
            if not state and not (spent >= budget and ready()):
                return run(fr)
            return linked(lam, fr)

        def tier_up() -> bool:
            """Link the lambda from the disk cache, else lower it; False after a
            miss when tiering up by time (warm on until compiling pays)."""
            nonlocal looked, forms
            if not looked:
                looked = True
                if codecache_on():
                    if look_up():
                        return True
                    if after is None:
                        judge()             # (now the cost of compiling)
                        return False
            link._load_lower()           # first: its import is no compile cost per form
            t, cpu = perf_counter(), thread_time()
            state.append(link.lowered(params, rest, body, lscope, span, unit, name, retry, key, seen=seen))
            t = perf_counter() - t
            link.STATS.seconds += t
            link.STATS.cost += thread_time() - cpu
            link._not_own_time(unit, t)
            if state[0].__class__ is Compiled:
                link.STATS.compiled += 1
                forms = forms or link.size(body)
                link.STATS.forms += forms
                link_firsts()
            else:
                link.STATS.refused += 1
            return True

        def look_up() -> bool:
            """Link the lambda from the disk cache if it holds it (the time taken counts as loading)."""
            nonlocal key, doubted
            t = perf_counter()
            n = link.size(body)
            if key is None:
                key = link.codecache().lambda_key(params, rest, body, lscope, unit, name) or ''
            got = link.from_cache(key, params, rest, body, lscope, span, unit, name, seen) if key else None
            if got is not None:
                state.append(got)
                link_firsts()
                link.STATS.loaded += 1
                link.STATS.saved_forms += n
            elif key and after is None:
                doubted = link.codecache().missed_before(key) or link.STATS.warm(unit)
            t = perf_counter() - t
            link.STATS.load_seconds += t
            link.STATS.load_forms += n
            link._not_own_time(unit, t)
            return got is not None

        def linked(lam, fr):
            """Run this call of lam as the lambda's state says: compiled (linking lam), or the
            reference (lam None: one of the values `warming` gives its code, not linked)."""
            c = state[0]
            if lam is None:
                return code()(fr)
            if c is None:
                lam.code = code()
            elif c.__class__ is Refused:
                return code()(fr)       # (until the macro it calls changes: Refused)
            else:
                link_value(c, lam)
            if link.session_namespace(unit.depth)['PROF'] is not None:
                return code()(fr)       # a profiler's stand-in counts this call: compiled code would count it again
            return lam.code(fr)

        def link_firsts() -> None:
            """Link the values given a `warm` of their own that are alive and still warm
            (a global function, a maker's running value: else linked at a sampled call,
            one in SAMPLE of all the warm calls)."""
            for r, warm in firsts:
                lam = r()
                if lam is not None and getattr(lam.code, '__code__', None) is warm:
                    arm(lam)
            del firsts[:]

        def link_value(c, lam) -> None:
            """Link lam to c; a value its maker made on the reference charges the
            maker with the link: compiling the maker saves it."""
            if many and maker is not None:
                t = CLOCK()
                link.link(c, lam, lam.env, unit, disarm)
                maker(CLOCK() - t)
            else:
                link.link(c, lam, lam.env, unit, disarm)

        def arm(lam):
            """Give lam the code that runs the reference until the lambda is hot, then links it.
            A value made once it is compiled is linked now, or at its first call where the code
            assumes its global holds it (link.Compiled.itself)."""
            if state and state[0].__class__ is Compiled and not state[0].itself:
                link_value(state[0], lam)
            elif state and after is None and state[0].__class__ is Compiled:
                def linking(fr):
                    if state:
                        return linked(lam, fr)
                    arm(lam)            # (warming up again: a redefinition)
                    return lam.code(fr)
                lam.code = linking
            elif after is None and values > FEW:
                lam.code = anonymous or warming()
            elif after is None:
                lam.code = warm_of(lam)
                firsts.append((ref(lam), lam.code.__code__))
            else:
                def counted(fr):
                    nonlocal left
                    if not state:
                        if seen.looks:
                            seen.observe(fr)
                        if left > 0:
                            left -= 1
                            return code()(fr)
                        tier_up()
                    return linked(lam, fr)
                lam.code = counted

        def warm_of(lam):
            """The code of value lam warming up (None: of any value made once FEW
            were, `warming`): counts the warm calls down, and the one it stops at is `due`."""
            def warm(fr):
                nonlocal tick
                tick -= 1
                if tick:
                    return run(fr)
                return due(lam, fr)
            return warm

        def warming():
            """The code of the lambda's values made once its maker has made FEW while it
            warms (made once: a function per value is an allocation per value, and
            a cycle the collector must free): as `warm`, but one such value still on
            the reference once the lambda is compiled stays there (made at each call
            of its maker, it is short-lived; those made after are linked as made)."""
            nonlocal anonymous
            anonymous = warm_of(None)
            return anonymous

        def again() -> None:
            """Back to the start: warm up anew."""
            nonlocal left, spent, budget, looked, key
            del state[:]
            left, spent, budget, looked, key = after, 0.0, INF, False, None

        def disarm(lam, compiled):
            """lam's compiled code is wrong from now on: forget it (if still the lambda's) and arm lam again."""
            if state and state[0] is compiled:
                again()
                link.STATS.deopts += 1
            arm(lam)

        def retry(refusal):
            """The macro that kept the lambda on the reference changed: lower it again when next hot."""
            if state and state[0] is refusal:
                again()

        def make_compiled(f):
            nonlocal values, many
            if not state:
                values += 1         # (counted while warming up: the calls are too)
            elif values:
                many = True         # (made again once compiled: its maker makes one at each call)
                if values == 1 and maker is not None and after is None and state[0].__class__ is Compiled:
                    maker(spent)    # (compiled in its maker's first call: each value's time as the first's is the maker's too)
                    maker.hot_now()
            if values > 1:
                many = True
            lam = make(f)
            if not (state and state[0] is None):
                arm(lam)
            return lam
        return make_compiled
    compile_lambda.making = lambda: making      # (osr.py: the lambda a `do` loop's body is made in)
    return compile_lambda
