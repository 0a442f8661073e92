"""What compiled code calls besides itself: the slow paths of a call (any
procedure, a macro, the rest of a tail-call chain), the error handling that
makes a compiled function's failures the reference's (positions, backtrace
entries, the depth limit), and the adapters through which apply.run enters
a compiled function. (The builtins' loops that enter compiled lambdas
directly are builtin_loops.py.)

Compiled code keeps the depth of its run level in a local `d` (what the
reference's `D.n` would be); it writes `D.n = d` before entering reference
code (a builtin, `run`), and an adapter puts `D.n` back when control returns
to the reference. A compiled function leaves the backtrace entry of its run
level to whoever entered it (a compiled caller's `call_failed`, or `run`
through the adapter); an error that leaves a function after a tail call
within its run level carries that call (`rusty_tail`: site, name) for them.
"""

from ..apply import apply_procedure, call_builtin, located, make_frame, recursion_message, run
from ..errors import Abort, EvalError, Exit, RecursionLimit, RustyError, give_back_if_out_of_memory
from ..eval import expand_macro, undefined_error
from ..resolve import MISSING, UNBOUND, assign_by_name
from ..values import EMPTY, NIL, Lambda, List, cons
from .entry import Entry, entry_class
from .entry import make as make_entry
from .frame_views import FrameView, LazyEnv, _reparent, env_of, frame_of, function_view, on_view  # noqa: F401 (re-exported)
from .sites import call_failed, from_call


# ── Calls ────────────────────────────────────────────────────────────────

class _Ints:
    """INTS: the last argument of a function's call of itself from its
    integer copy, where every argument is an exact integer and OK holds (the
    callee enters its copy on that; kinds.py)."""
    __slots__ = ()

    def __repr__(self):
        return 'INTS'


INTS = _Ints()
SELF_CALL = 'pself_'    # the parameter of a function that calls itself: true in those calls (counting.py)


CALLED = [0]        # id of the procedure compiled code last called the reference way (tierup: a warm call's path)


def call_any(p, args, site, tail, d, D):
    """Apply any procedure the reference way (not a compiled lambda of the right arity)."""
    D.n = d
    CALLED[0] = id(p)       # (not p: no value is kept alive by it)
    return apply_procedure(p, args, site, tail, D)


def call_builtin_at(b, args, site, d, D):
    """An inlined builtin's fallback: the builtin itself, for its exact result or error."""
    D.n = d
    return call_builtin(b, args, site, D)


def finish_tail(r, p, site, d, D):
    """Continue the run level that compiled code entered at `site` (calling p)
    with the tail call `r` the callee returned, as apply.run would."""
    D.n = d
    try:
        return run(r[0], r[1], r[2], D)
    except RustyError as e:
        tr = e.trace
        if tr and len(tr[-1]) >= 3 and tr[-1][2] is r[2]:
            tr[-1] = tr[-1][:2] + (site,) + tr[-1][3:]   # the level was entered at site, not at the tail call
        raise


def expand_at(m, key, d, D, f, tail):
    """A call whose head turned out to be a macro at run time: expand it in
    frame chain f, holding the compiled locals' values (`key`: the call's
    static description)."""
    D.n = d
    arg_forms, scope, span, unit, cache = key
    return expand_macro(m, arg_forms, f, scope, tail, span, unit, cache)


def reference_site(key, f, d, D):
    """A call whose compiled code's assumptions no longer hold, run by the
    reference in frame chain f at depth d (`key`: [form, scope, tail, span,
    unit, its reference code once made]: exits.to_reference)."""
    code = key[5]
    if code is None:
        from ..eval import comp_call
        code = key[5] = comp_call(key[0], key[1], key[2], key[3], key[4])
    D.n = d
    return code(f)


# ── Failures ─────────────────────────────────────────────────────────────

def gated(p, args, site, d, D):
    """A direct call past the gate: the depth error, or (a tool watching
    calls) the call through run, which hands it to the tools."""
    if d >= D.limit:
        raise too_deep(site, D)
    D.n = d
    return run(p, make_frame(p, args, site), site, D)


def too_deep(site, D):
    """The depth-limit error of a call at site (run's own check)."""
    return RecursionLimit(recursion_message(D), site)


def unwound(e, levels, p, names, D):
    """An exception leaving a compiled function that had looped at a cons of
    a call of itself (compile/trmc.py), after its innermost level's handler
    (FAILED): for each level entered, outwards, what the level's call site
    (call_failed) and then its handler (failed_here, its frame from the
    values kept) would have made of it. `levels`: (call site, last self tail
    call, parameter values…) per level, or None."""
    if levels is None:
        return e
    labels = [n for n, _ in names]
    for level in reversed(levels):
        e = call_failed(e, p, level[0], D)
        if isinstance(e, (RustyError, KeyboardInterrupt)):
            if 'rusty_frame' not in e.__dict__:
                e.rusty_frame = FrameView(labels, list(level[2:]))
            if level[1] is not None and 'rusty_tail' not in e.__dict__:
                e.rusty_tail = (level[1], p.name)
        elif not isinstance(e, (Exit, Abort)):
            e.rusty_seen = True          # from deeper down, as every level's handler passes it on
        e.__traceback__ = None
    return e


def consed_onto(v, head: List, last: List) -> List:
    """A looped cons's value (compile/trmc.py): the innermost level's value
    v hung on the last cell as `(cons x v)` would hang it; the first cell."""
    if v.__class__ is not List:
        v = EMPTY if v is NIL else cons(v, EMPTY)
    last.cdr = v
    return head


def failed_here(e, table, D, tail, names=(), lets=None, sites=None):
    """An exception leaving a compiled function: one its own code raised (an
    inlined builtin's host error, Ctrl-C) becomes the rusty error the builtin
    would have raised, at the position of the code (`table`: line -> span);
    one from a call made directly is first the callee level's (`sites`:
    compile/sites.py's table, from_call); `tail` is
    the (site, name) of the tail call the function's run level made, or
    None; `names` pairs its scope's Lisp names with its Python locals,
    `lets` gives the lets around each line (frame_of)."""
    give_back_if_out_of_memory(e)
    if sites is not None:
        e = from_call(e, sites, table, D)
    if D.tools is None:
        lets = None         # as run: the lets' frames only for the debugger (apply.run, Tools.failing_frame)
    if isinstance(e, (RustyError, KeyboardInterrupt)):
        frame_of(e, names, lets)
    elif not isinstance(e, (Exit, Abort)):
        tb = e.__traceback__
        if tb is not None and tb.tb_next is None and 'rusty_seen' not in e.__dict__:
            frame_of(e, names, lets)
            view = e.__dict__.pop('rusty_frame', None)
            e = located(e, table.get(tb.tb_lineno), D)
            if view is not None:
                e.rusty_frame = view
        else:
            e.rusty_seen = True          # from deeper down: passed on as the reference does
    e.__traceback__ = None
    if tail is not None and (isinstance(e, RustyError) or isinstance(e, KeyboardInterrupt)):
        if 'rusty_tail' not in e.__dict__:
            e.rusty_tail = tail
    return e


def thrown(e, fr):
    """The adapter's answer to a failure: raise it, or, when the run level made
    a tail call before failing, a tail call that raises it there (so `run`
    records that call, as it would have)."""
    t = e.__dict__.pop('rusty_tail', None)
    if t is None:
        raise e
    site, name = t

    def fail(_):
        raise e
    return (Lambda((), None, NIL, fail, None, name), fr, site)


# ── Lambdas made by compiled code ────────────────────────────────────────

def LambdaMaker(params, rest, body, scope, name, D, extra=0, counts=False, layout=None):
    """The maker of the Lambda values of one lambda expression in compiled
    code, `make(fn, frames)`: its positional function `fn(d, *args)` as
    `direct`, a frame adapter as the `code` run calls, and as `env` the
    reference frames of the locals it sees (for a body made from it: grad;
    a failure's frame): those the code built as they were when it was made,
    or, given their `layout` (when fn names every local of it: its exits
    see them), `make(fn)` and one LazyEnv shared by all the values, which
    reads them from fn's cells when asked (no frames built per value, and
    no objects for the collector to free with it). A function, not an
    object: compiled code calls it for every value, and a plain function's
    call costs less than an instance's __call__; its slots are filled one
    by one, in place."""
    fast = Lambda(params, rest, body, None, None, name, scope, extra).fast   # as Lambda reckons it
    end = 2 + len(params) + (rest is not None)     # (the frame's slots past its parameters: enter)
    go = enter_counted if counts else enter         # (code that counts its own calls: profiled.py)
    entry = entry_class(len(params)) if rest is None else Entry   # (made once: a value's Entry costs a call less)
    lazy = None if layout is None else LazyEnv(layout)

    def make(fn, frames=lazy):
        lam = _new_lambda(Lambda)       # Lambda's slots filled in place: no __init__ frame
        lam.params = params
        lam.rest = rest
        lam.body = body
        lam.env = frames
        lam.name = name
        lam.scope = scope
        lam.code = code = entry(go, fn, D, end)
        code.direct = fn
        code.leaf = None
        lam.extra = extra
        lam.fast = fast
        return lam
    return make


_new_lambda = Lambda.__new__


def maker_of(spec, D, counts=False):
    """The LambdaMaker of a lowering's _MakerSpec (special_forms.py)."""
    return LambdaMaker(spec.params, spec.rest, spec.body, spec.scope, spec.name, D, spec.extra, counts, spec.layout)


def made_in(r, names) -> bool:
    """True if r is a pending tail call of a value made by compiled code
    whose function is one of `names` (the functions defined in a loop's or
    a local function's: such a value's function holds that one's variable's
    cell, which its count of references does not see)."""
    if r.__class__ is not tuple:
        return False
    code = r[0].code
    return isinstance(code, Entry) and code.direct.__name__ in names


def adapter(fn, D, slots, counts=False, fast=-1, leaf=None):
    """run's entry `code(frame)` into positional function fn (the frame's
    first `slots` slots, its parameters: the body's define slots after them,
    if the frame has them, are left out, the function makes its own); a partial
    application of `enter`, cheaper to make than a closure (LambdaMaker makes
    one for every lambda value compiled code makes). Only compiled code's
    lambdas have an Entry (a partial: compile/entry.py, carrying fn as
    `direct` for the arity `fast`, and `leaf`) as their code; `counts`: fn
    counts its own calls (the profiler's variant), and the partial's function
    is enter_counted, by which the profiler's stand-in tells so
    (Profiler.counts_itself)."""
    return make_entry(enter_counted if counts else enter, fn, D, slots + 2, fast, leaf)


def install(fn, lam, c, D) -> None:
    """Make fn, linked for Compiled c (link.py), lam's code (its Entry, with its direct and leaf functions)."""
    n = arity(lam)
    lam.code = adapter(fn, D, len(lam.params) + (lam.rest is not None), c.counts, n,
                       fn if n >= 0 and c.leaf else None)


def arity(lam) -> int:
    """The number of arguments lam's compiled function takes after the depth
    (its Entry's class: entry.py), or -1 for a rest parameter. Unlike
    Lambda.fast, a body's defines do not count: the function makes their
    slots itself, so compiled callers call it directly all the same."""
    return len(lam.params) if lam.rest is None else -1


WATCH = [None]      # while a tier-up sample runs: what times the calls it makes (tierup.py)


def enter(fn, D, end, fr):
    """An adapter's call: fn on the parameters in frame fr (its slots 2 to end)."""
    if WATCH[0] is not None:
        return WATCH[0](enter, fn, D, end, fr)
    n = D.n
    try:
        r = fn(n, *fr[2:end])
    except BaseException as e:
        give_back_if_out_of_memory(e)
        D.n = n
        seen = e.__dict__.pop('rusty_frame', None)
        owner = e.__dict__.pop('rusty_owner', None)
        if fr[0].__class__ is LazyEnv:
            fr[0] = fr[0].frames_of(fn)     # (the frame run records: its parents as the reference's)
        if seen is not None:
            view = function_view(seen)
            if owner is not None and len(view.vals) == len(owner.scope.names):
                fr = [env_of(owner), owner.scope] + view.vals    # the level's last function, called directly: its frame
                on_view(e, view, fr)
                if seen is not view:
                    _reparent(seen, view, fr)
                    e.rusty_let = seen
            elif owner is None and len(view.vals) == len(fr) - 2:
                fr[2:] = view.vals           # run records this frame: the values the function had
                on_view(e, view, fr)
                if seen is not view:         # and the lets it failed in, over it (tools.failing_frame)
                    _reparent(seen, view, fr)
                    e.rusty_let = seen
        return thrown(e, fr)
    D.n = n
    return r


enter_counted = type(enter)(enter.__code__, enter.__globals__, 'enter_counted')   # enter, for code that counts its calls


def named(v, s):
    """define's naming of the lambda it binds (specials._named)."""
    if v.__class__ is Lambda and v.name == 'lambda':
        v.name = s.name


# ── Variables ────────────────────────────────────────────────────────────

def global_missing(cell, s, env, scope, levels, span, genv):
    """A global read that found no value: by name (a dyn binding, a pending
    value), else the Undefined error with the names visible at the read."""
    v = _by_name(env, s, genv)
    if v is MISSING:
        raise undefined_error(s, visible_frames(env, scope, levels), genv, span)
    return v


def _by_name(env, s, genv):
    from ..resolve import lookup_by_name
    return lookup_by_name(env, s, genv)


def visible_frames(env, scope, levels):
    """A frame chain standing for `levels` compiled scopes (innermost `scope`)
    over env, every slot bound: what visible_names walks."""
    scopes = []
    for _ in range(levels):
        scopes.append(scope)
        scope = scope.parent
    f = env
    for sc in reversed(scopes):
        f = [f, sc] + [True] * len(sc.names)
    return f


def env_read(env, hops, i, cell, s, maybe_unbound, span, genv, scope, levels):
    """A local of the enclosing reference frames, read as eval.comp_ref does."""
    if not cell.dyn:
        fr = env
        for _ in range(hops):
            fr = fr[0]
        v = fr[i]
        if not maybe_unbound or v is not UNBOUND:
            return v
    return global_missing(cell, s, env, scope, levels, span, genv)


def env_write(env, hops, i, cell, s, v, by_slot, span, genv):
    """set! of a local of the enclosing reference frames, as specials.comp_set_bang does."""
    if by_slot and not cell.dyn:
        fr = env
        for _ in range(hops):
            fr = fr[0]
        fr[i] = v
        return NIL
    return global_write(env, s, v, span, genv)


def global_write(env, s, v, span, genv):
    """set! by name (a global, or a name no slot is known for)."""
    if not assign_by_name(env, s, v, genv):
        raise EvalError("set!: undefined variable '%s'" % s.name, span)
    return NIL


def form_count(x, limit: int = 4000) -> int:
    """The number of forms in x, counted up to limit."""
    n, todo = 0, [x]
    while todo and n < limit:
        y = todo.pop()
        n += 1
        if y.__class__ is List and y is not EMPTY:
            todo.extend(y)
    return n


ITSELF = object()       # what lower's `ok` assumes of the root's own global: the lambda value being linked
