"""What compiled code calls besides itself: the slow paths of a call (any
procedure, a macro, the rest of a tail-call chain), the error handling that
makes a compiled function's failures the reference's (positions, backtrace
entries, the depth limit), and the adapters through which apply.run enters
a compiled function.

Compiled code keeps the depth of its run level in a local `d` (what the
reference's `D.n` would be); it writes `D.n = d` before entering reference
code (a builtin, `run`), and an adapter puts `D.n` back when control returns
to the reference. A compiled function leaves the backtrace entry of its run
level to whoever entered it (a compiled caller's `call_failed`, or `run`
through the adapter); an error that leaves a function after a tail call
within its run level carries that call (`rusty_tail`: site, name) for them.
"""
from _functools import cmp_to_key     # the C module: functools itself imports collections (start-up)
from _operator import add, mul

from ..apply import (FILTER, MAP, apply_procedure, call_builtin, located, make_frame, recursion_message, run,
                     walked)
from ..errors import Abort, Exit, RecursionLimit, RustyError, give_back_if_out_of_memory
from ..eval import expand_macro, undefined_error
from ..resolve import MISSING, UNBOUND, GlobalRef, assign_by_name, resolve
from ..values import EMPTY, NIL, Builtin, Lambda, List, Symbol, cons
from .entry import Entry, entry_class
from .entry import make as make_entry


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


def call_any(p, args, site, tail, d, D):
    """Apply any procedure the reference way (not a compiled lambda of the right arity)."""
    D.n = d
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


def cell_set(fn, py: str, value) -> None:
    """Write value into the closure cell of fn's free variable py (an
    expansion's write-back of an enclosing function's local: expansion.py)."""
    fn.__closure__[fn.__code__.co_freevars.index(py)].cell_contents = value


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


def call_failed(e, p, site, D):
    """What run does with an exception leaving lambda p's run level entered at site."""
    give_back_if_out_of_memory(e)
    if isinstance(e, RustyError):
        here, name = _tail(e, site, p)
        e.trace.append((here, name, site, e.__dict__.pop('rusty_frame', None)))
        e.__traceback__ = None
        return e
    if isinstance(e, KeyboardInterrupt):
        here, name = _tail(e, site, p)
        frame = e.__dict__.pop('rusty_frame', None)
        err = located(e, here, D)
        err.trace.append((here, name, None, frame))
        return err
    return e


class FrameView:
    """A compiled function's variables when it failed, as a backtrace entry's
    frame for ,frames and ,locals: its scope's Lisp names and their values."""
    __slots__ = ('names', 'vals')

    def __init__(self, names, vals):
        self.names, self.vals = names, vals

    def values(self):
        return self.vals


def frame_of(e, names, lets=None) -> None:
    """Record on `e` the variables of the compiled function whose handler
    caught it (the first frame of its traceback), once: `names` pairs each
    Lisp name of its scope with its Python local; `lets` maps the line it
    failed at to the lets around it (Lowering.let_frames), whose frames are
    built over the function's, as the reference's would be."""
    tb = e.__traceback__
    if tb is None or 'rusty_frame' in e.__dict__:
        return
    here = tb.tb_frame.f_locals
    frame = FrameView([n for n, _ in names], [here.get(py, UNBOUND) for _, py in names])
    chain = lets.get(tb.tb_lineno, ()) if lets else ()
    for scope, pairs in reversed(chain):
        frame = [frame, scope] + [here.get(py, UNBOUND) for _, py in pairs]
    e.rusty_frame = frame


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


def function_view(frame):
    """The compiled function's own FrameView under the let frames frame_of built."""
    while frame.__class__ is list:
        frame = frame[0]
    return frame


_ORDERS = {'<': False, 'lt': False, '>': True, 'gt': True}     # builtin -> sorting by it sorts in reverse?
_NUMBERS = frozenset((int, float))


def natural_order(less, items, genv):
    """Whether sorting the numbers `items` stably by `less` is sorting them by
    Python's `<` (False) or in reverse (True), or None. Yes when less is the
    builtin `<` or `>` (or `lt`, `gt`), or a lambda `(a b)` whose body is one
    call of a global holding one of them on a and b in either order. By `<`
    Python's sort makes the very comparisons `(less a b)` would, so even a
    NaN sorts as the lambda sorts it; in reverse it compares otherwise, which
    only a NaN (unordered) could show: a NaN keeps the comparisons."""
    cls = less.__class__
    if cls is Builtin:
        reverse = _ORDERS.get(less.name)
    elif cls is Lambda and less.fast == 2 and not less.extra:
        reverse = _applied_order(less, genv)
    else:
        return None
    if reverse is None or len(items) < 2:
        return reverse
    kinds = set(map(type, items))
    if not kinds <= _NUMBERS or (reverse and float in kinds and any(x != x for x in items)):
        return None
    return reverse


def _applied_order(lam, genv):
    """natural_order's answer for lambda lam's body, `(op a b)` or `(op b a)`."""
    body = lam.body
    if body.__class__ is not List or body is EMPTY or body.cdr is not EMPTY:
        return None
    form = body.car
    if form.__class__ is not List or form is EMPTY or form.car.__class__ is not Symbol \
            or form.car.name not in _ORDERS:
        return None
    args = form.cdr
    if args is EMPTY or args.cdr is EMPTY or args.cdr.cdr is not EMPTY:
        return None
    a, b = lam.params
    if (args.car, args.cdr.car) == (a, b):
        flip = False
    elif (args.car, args.cdr.car) == (b, a):
        flip = True
    else:
        return None
    ref = resolve(lam.scope, form.car, genv)
    op = ref.cell.value if ref.__class__ is GlobalRef else None
    if op.__class__ is not Builtin or op.name not in _ORDERS:
        return None
    return _ORDERS[op.name] is not flip


def _tail(e, site, p):
    """(site, name) of the call the failing run level last made: a tail call's, else its entry."""
    t = e.__dict__.pop('rusty_tail', None)
    return (site, p.name) if t is None else t


def failed_here(e, table, D, tail, names=(), lets=None):
    """An exception leaving a compiled function: one its own code raised (an
    inlined builtin's host error, Ctrl-C) becomes the rusty error the builtin
    would have raised, at the position of the code (`table`: line -> span);
    `tail` is the (site, name) of the tail call the function's run level made,
    or None; `names` pairs its scope's Lisp names with its Python locals,
    `lets` gives the lets around each line (frame_of)."""
    give_back_if_out_of_memory(e)
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


def tailed(e, site, lam):
    """An exception leaving a tail call made directly (a named let's first
    call): the run level's last call was that one."""
    if (isinstance(e, RustyError) or isinstance(e, KeyboardInterrupt)) and 'rusty_tail' not in e.__dict__:
        e.rusty_tail = (site, lam.name)
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


def procedure_caller(D, ns):
    """apply.procedure_caller's `call(p, args)` (for map, sort, …), calling a
    compiled lambda's positional function directly, as run would (below the
    gate of the session's namespace ns, see Depth.gate, copied by link.session_namespace),
    and a builtin's function of the arity as apply.call_builtin does."""
    from ..apply import procedure_caller as reference
    slow = reference(D)

    def call(p, args):
        if p.__class__ is Lambda and p.fast == len(args) and isinstance(p.code, Entry) and D.n < ns['GATE']:
            n = D.n
            fn = p.code.direct
            try:
                r = fn(n + 1, args[0]) if len(args) == 1 else fn(n + 1, *args)
            except BaseException as e:
                D.n = n
                raise call_failed(e, p, None, D)
            D.n = n
            if r.__class__ is tuple:
                r = finish_tail(r, p, None, n, D)
            return r
        if p.__class__ is Builtin and p.lo <= len(args) <= p.hi:       # apply.call_builtin's call
            try:
                return p.fn(*args)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, None, D)
        return slow(p, args)
    return call


def sorter(D, ns, call, reference, genv):
    """apply.sorter's `sort_by(items, less)`: numbers sorted by `<` or `>`
    (the builtin, or a lambda that only applies it to its parameters: see
    natural_order) by Python's own comparisons, when nothing could tell;
    else a compiled two-parameter lambda's positional function called by the
    comparison itself, as procedure_caller `call` would call it (any other
    procedure sorted by `reference`)."""
    def sort_by(items, less):
        if ns['PROF'] is None and D.n < ns['GATE'] and D.tools is None:
            reverse = natural_order(less, items, genv)
            if reverse is not None:
                return sorted(items, reverse=reverse)
        if less.__class__ is not Lambda or less.fast != 2:
            return reference(items, less)
        n = D.n
        E2 = entry_class(2)

        def cmp(a, b):
            code = less.code
            if code.__class__ is E2 and n < ns['GATE']:
                fn = code.direct
                try:
                    r = fn(n + 1, a, b)
                except BaseException as e:
                    D.n = n
                    raise call_failed(e, less, None, D)
                if r.__class__ is tuple:
                    r = finish_tail(r, less, None, n, D)
            else:               # not compiled yet, or past the gate
                D.n = n
                r = call(less, [a, b])
            return -1 if r is not False else 0
        try:
            return sorted(items, key=cmp_to_key(cmp))
        finally:
            D.n = n             # the callee's code may have left its own depth there
    return sort_by


# The builtins a fold of exact integers computes by Python's own operator:
# `(+ x acc)` and `(* x acc)` are x + acc and x * acc on two of them.
_INTEGER_FOLDS = {'+': add, '*': mul}


def folder(D, ns, reference):
    """apply.folder's `fold(f, acc, lst)` (foldl, reduce). The builtin `+`
    or `*` over exact integers is Python's own operator on them, while no
    profiler counts the builtin's calls and no tool watches calls, up to the
    first element (or acc) that is not one; a failure of it (out of memory,
    an interrupt) is reported as the builtin call's would be. The rest is
    the reference's (whose `call` enters a compiled lambda directly)."""
    def fold(f, acc, lst):
        op = _INTEGER_FOLDS.get(f.name) if f.__class__ is Builtin else None
        if op is None or ns['PROF'] is not None or D.tools is not None:
            return reference(f, acc, lst)
        try:
            while lst is not EMPTY and acc.__class__ is int:
                x = lst.car
                if x.__class__ is not int:
                    break
                acc = op(x, acc)
                lst = lst.cdr
        except BaseException as e:
            give_back_if_out_of_memory(e)
            raise located(e, None, D)
        return reference(f, acc, lst)
    return fold


def list_walker(D, ns, call, reference):
    """apply.list_walker's `walk(p, lst, mode)` (map, filter, for-each over
    one list): a compiled one-parameter lambda's positional function called
    in the loop itself, as procedure_caller `call` would call it per element
    (no argument list, no arity tests, no function between); any other
    procedure walked by `reference`."""
    def walk(p, lst, mode):
        if p.__class__ is not Lambda or p.fast != 1:
            return reference(p, lst, mode)
        head = last = List()
        results, select = mode is MAP, mode is FILTER
        new, gate = List, ns
        n = D.n
        E1 = entry_class(1)
        try:
            while lst is not EMPTY:
                x = lst.car
                code = p.code
                if code.__class__ is E1 and n < gate['GATE']:
                    fn = code.direct
                    try:
                        r = fn(n + 1, x)
                    except BaseException as e:
                        D.n = n
                        raise call_failed(e, p, None, D)
                    if r.__class__ is tuple:
                        r = finish_tail(r, p, None, n, D)
                else:           # not compiled yet, or past the gate
                    D.n = n
                    r = call(p, [x])
                if results or (select and r is not False):
                    cell = new()            # keep()'s work, without its call
                    cell.car = r if results else x
                    last.cdr = cell
                    last = cell
                lst = lst.cdr
        except BaseException as e:
            give_back_if_out_of_memory(e)       # first, as every handler on the evaluation path
            D.n = n
            raise
        D.n = n                 # the callee's code may have left its own depth there
        return walked(head, last, mode)
    return walk


# ── Lambdas made by compiled code ────────────────────────────────────────

class LambdaMaker:
    """Makes the Lambda values of one lambda expression in compiled code: its
    positional function `fn(d, *args)` as `direct`, a frame adapter as the
    `code` run calls, and as `env` the reference frames of the locals it
    sees, as they were when it was made (for a body made from it: grad)."""
    __slots__ = ('params', 'rest', 'body', 'scope', 'name', 'D', 'extra', 'fast', 'end')

    def __init__(self, params, rest, body, scope, name, D, extra=0):
        self.params, self.rest, self.body, self.scope, self.name, self.D = params, rest, body, scope, name, D
        self.extra = extra
        self.fast = Lambda(params, rest, body, None, None, name, scope, extra).fast    # as Lambda reckons it
        self.end = -extra or None

    def __call__(self, fn, frames):
        lam = _new_lambda(Lambda)       # Lambda's slots filled in place: no __init__ frame
        lam.params, lam.rest, lam.body, lam.env, lam.name, lam.scope = (self.params, self.rest, self.body, frames,
                                                                        self.name, self.scope)
        lam.code = make_entry(enter, fn, self.D, self.end, self.fast)
        lam.extra = self.extra
        lam.fast = self.fast
        return lam


_new_lambda = Lambda.__new__


def adapter(fn, D, extra=0, fast=-1, leaf=None):
    """run's entry `code(frame)` into positional function fn (the frame's
    `extra` define slots left out: the function makes its own); a partial
    application of `enter`, cheaper to make than a closure (LambdaMaker makes
    one for every lambda value compiled code makes). Only compiled code's
    lambdas have a partial as their code: the profiler's stand-in
    (tools.profiled_apply) tells by it that fn counts its own calls."""
    return make_entry(enter, fn, D, -extra or None, fast, leaf)


def enter(fn, D, end, fr):
    """An adapter's call: fn on the parameters in frame fr (up to end)."""
    n = D.n
    try:
        r = fn(n, *fr[2:end])
    except BaseException as e:
        give_back_if_out_of_memory(e)
        D.n = n
        seen = e.__dict__.pop('rusty_frame', None)
        if seen is not None:
            view = function_view(seen)
            if len(view.vals) == len(fr) - 2:
                fr[2:] = view.vals           # run records this frame: the values the function had
                if seen is not view:         # and the lets it failed in, over it (tools.failing_frame)
                    _reparent(seen, view, fr)
                    e.rusty_let = seen
        return thrown(e, fr)
    D.n = n
    return r


def _reparent(frame, view, fr) -> None:
    """The let frames above `view` made to sit on the reference frame fr."""
    while frame[0] is not view:
        frame = frame[0]
    frame[0] = fr


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
    from ..errors import EvalError
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
