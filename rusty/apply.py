"""Application: the one home of applying a procedure to evaluated arguments.

A session's `Depth` counts the non-tail applications in progress against its
limit; every function here that can nest takes it as `D`.
`run` is the tail-call loop: a closure compiled in tail position may return
the tuple (lambda, frame, call site) instead of calling the lambda, and the
loop continues with it, so tail recursion runs in constant host stack. No
rusty value is a Python tuple. Its depth test is against the session's gate:
the limit, or -1 while a debugging tool is on, when `Depth.past` hands it the
tools' stand-in for the procedure (tools.py).
"""
from _functools import cmp_to_key     # the C module (functools imports collections)

from .errors import (Abort, EvalError, Exit, Interrupted, RecursionLimit, RustyError, give_back_if_out_of_memory,
                     is_out_of_memory, out_of_memory)
from .printer import display_form, lambda_params
from .resolve import UNBOUND
from .values import EMPTY, NIL, Builtin, Lambda, List, Native, NativeGrad, Py, make_list, to_f64


class Depth:
    """One session's depth state: applications in progress (`n`), the limit,
    and the gate `run` tests: the limit, or -1 while a tool (trace, profile)
    wants every application handed to `tools` (see `past`); `expanding`: the
    `n` at which the innermost tail-position macro expansion runs its code."""
    __slots__ = ('n', 'limit', 'gate', 'tools', 'watchers', 'host', 'expanding', 'tails', '__weakref__')

    def __init__(self, limit: int):
        self.host = None        # the session (for Python calls: its thread and its procedure caller)
        self.n = 0
        self.tails = 0          # compiled code's tail calls made directly, running now (compile/calls.py)
        self.expanding = -1
        self.limit = limit
        self.gate = limit
        self.tools = None
        self.watchers = []      # (gate, counting) -> None: fast paths that keep their own copy of the gate

    def set_gate(self, gate: int, counting=None) -> None:
        """Move the gate (the tools do), telling the watchers; `counting`: the
        profiler, when it alone is on (compiled code then counts its own
        calls and keeps the limit as its gate, tools.Tools.update_gate)."""
        self.gate = gate
        for watch in self.watchers:
            watch(gate, counting)

    def past(self, p, site):
        """`run` found n past the gate: the recursion error if n is past the
        limit, else the tools' stand-in, which applies `p` (called at `site`)
        for them."""
        tools = self.tools
        if self.n > self.limit or tools is None:
            self.n -= 1
            raise RecursionLimit(recursion_message(self), site)
        tools.p, tools.site = p, site
        return tools.stand_in


def recursion_message(D: Depth) -> str:
    """The recursion-limit message for going past D's limit."""
    return ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
            'rewrite with an accumulator / tail call' % D.limit)


# ── The run loop ─────────────────────────────────────────────────────────

def run(p, fr, site, D):
    """Apply lambda or macro `p` to the ready frame `fr`, looping on tail calls."""
    D.n += 1
    if D.n > D.gate:
        p = D.past(p, site)
    entry = site
    try:
        while True:
            r = p.code(fr)
            if r.__class__ is not tuple:
                D.n -= 1
                return r
            p, fr, site = r
    except RustyError as e:
        D.n -= 1
        if p.__class__ is Lambda:
            if D.tools is not None:
                fr = D.tools.failing_frame(e, fr)     # for the debugger: the let it failed (or called) in
            e.trace.append((site, p.name, entry, fr))
        e.__traceback__ = None       # 200,000 levels of traceback would make failing slow
        raise
    except KeyboardInterrupt as e:   # Ctrl-C: report where the loop was
        D.n -= 1
        raise interrupted_in(e, p, fr, site, D)
    except BaseException as e:
        D.n -= 1
        give_back_if_out_of_memory(e)
        raise


def interrupted_in(e: KeyboardInterrupt, p, fr, site, D):
    """The error for Ctrl-C while `p` ran in `fr` (called at `site`), with
    its frame. (Made here, not in a local of the loop's frame: the error's
    traceback reaches that frame, and the cycle would keep every frame of
    the evaluation alive until a collection.)"""
    err = located(e, site, D)
    if p.__class__ is Lambda:
        err.trace.append((site, p.name, None, fr))
    return err


# ── Frames ───────────────────────────────────────────────────────────────

def make_frame(p, args: list, span=None) -> list:
    """The new frame for lambda or macro `p` applied to `args` (arity checked)."""
    nreq = len(p.params)
    n = len(args)
    if p.rest is None:
        if n != nreq:
            raise lambda_arity_error(p.name, p.params, p.rest, n, span)
        fr = [p.env, p.scope]
        fr += args
    else:
        if n < nreq:
            raise lambda_arity_error(p.name, p.params, p.rest, n, span)
        fr = [p.env, p.scope]
        fr += args[:nreq]
        fr.append(make_list(args[nreq:]))
    if p.extra:
        fr += [UNBOUND] * p.extra
    return fr


def lambda_arity_error(name: str, params, rest, n: int, span=None) -> EvalError | None:
    """The error applying lambda or macro `name` (parameter symbols `params`,
    rest parameter `rest` or None) to n args raises, hint included; None if n fits."""
    nreq = len(params)
    if rest is None:
        if n == nreq:
            return None
        message = '%s: expected %d args, got %d' % (name, nreq, n)
    else:
        if n >= nreq:
            return None
        message = '%s: expected at least %d args, got %d' % (name, nreq, n)
    err = EvalError(message, span)
    err.hints.append('%s takes %s' % (name, lambda_params(params, rest)))
    return err


# ── Builtins and natives ─────────────────────────────────────────────────

def builtin_arity_message(b: Builtin, n: int) -> str:
    """The arity error of builtin `b` called with n arguments."""
    if b.hi >= (1 << 30):
        return '%s: expected at least %d arg(s), got %d' % (b.name, b.lo, n)
    if b.lo == b.hi:
        return '%s: expected %d arg(s), got %d' % (b.name, b.lo, n)
    return '%s: expected %d to %d arg(s), got %d' % (b.name, b.lo, b.hi, n)


def call_builtin(b: Builtin, args: list, span, D: Depth):
    """Call a builtin with the arity check; errors get `span` (the call form)."""
    if not b.lo <= len(args) <= b.hi:
        raise EvalError(builtin_arity_message(b, len(args)), span)
    try:
        return b.fn(*args)
    except BaseException as e:
        give_back_if_out_of_memory(e)
        raise located(e, span, D)


def call_native(p, args: list, span, D: Depth):
    """Call a compiled function: argument checks first."""
    if p.__class__ is NativeGrad:
        try:
            return p.call(args)
        except BaseException as e:
            give_back_if_out_of_memory(e)
            raise native_error(e, p, span, D)
    if len(args) != p.arity:
        raise EvalError('%s: expected %d arg(s), got %d' % (p.name, p.arity, len(args)), span)
    for a in args:
        if a.__class__ is not float:
            args = native_args(p, args, span)
            break
    D.n += 1
    try:
        if D.n > D.limit:
            raise RecursionLimit(recursion_message(D), span)
        return p.call(args)
    except BaseException as e:
        give_back_if_out_of_memory(e)
        raise native_error(e, p, span, D)
    finally:
        D.n -= 1


def native_args(p, args: list, span) -> list:
    """The arguments of native `p` as f64s (an exact integer converted, ±inf
    beyond the range), or its error for a non-number."""
    for a in args:
        if a.__class__ is not float and a.__class__ is not int:
            raise EvalError('%s: expected a number, got %s' % (p.name, display_form(a)), span)
    return [to_f64(a) for a in args]


def native_error(e: BaseException, p, span, D: Depth):
    """The error to raise for `e` out of native `p` called at span: located,
    with the native's frame."""
    err = located(e, span, D)
    err.trace.append((span, p.name))
    return err


# ── Any procedure ────────────────────────────────────────────────────────

def apply_procedure(p, args: list, span, tail, D: Depth):
    """Apply any procedure value to evaluated arguments (a tail call if `tail`)."""
    cls = p.__class__
    if cls is Lambda:
        fr = make_frame(p, args, span)
        if tail:
            return (p, fr, span)
        return run(p, fr, span, D)
    if cls is Builtin:
        return call_builtin(p, args, span, D)
    if cls is Native or cls is NativeGrad:
        return call_native(p, args, span, D)
    if cls is Py:
        from .interop import call_python      # loaded with the first Python call
        return call_python(p, args, span, D)
    raise EvalError('Not callable: ' + display_form(p), span)


def procedure_caller(D: Depth):
    """`call(p, args)`: apply any procedure non-tail, for builtins (map, filter,
    apply, sort…); a plain lambda takes the direct path to `run`, a builtin
    of the arity call_builtin's."""
    def call(p, args: list):
        cls = p.__class__
        if cls is Lambda and p.fast == len(args):
            fr = [p.env, p.scope]
            fr += args
            return run(p, fr, None, D)
        if cls is Builtin and p.lo <= len(args) <= p.hi:
            try:
                return p.fn(*args)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, None, D)
        return apply_procedure(p, args, None, False, D)
    return call


def bounded_call(inner, capacity: int):
    """`inner` (the session's procedure caller), allowing at most `capacity`
    nested calls from builtins (each costs C stack), past which comes the
    recursion error."""
    nested = [0]
    bound = Depth(capacity)        # only for the message: the limit met is this one

    def call(p, args):
        if nested[0] >= capacity:
            raise RecursionLimit(recursion_message(bound))
        nested[0] += 1
        try:
            return inner(p, args)
        finally:
            nested[0] -= 1
    return call


# What `walk` makes of the results (see list_walker).
MAP, FILTER, EACH = 'map', 'filter', 'for-each'


def sorter(call):
    """`sort_by(items, less)`: the Python list items sorted stably by the
    procedure `less` (called through `call`; sorting only asks "less than?",
    as a comparison of -1 or 0). (The reference; compile/builtin_loops.sorter is the
    compiler's.)"""
    def sort_by(items, less):
        return sorted(items, key=cmp_to_key(lambda a, b: -1 if call(less, [a, b]) is not False else 0))
    return sort_by


def list_walker(call):
    """`walk(p, lst, mode)`: p applied to each element of list lst in turn
    by `call` (map, filter and for-each over one list): mode MAP gives the
    list of the results, FILTER the list of the elements whose result is not
    #f, EACH Nil. (The reference; compile/builtin_loops.list_walker is the compiler's.)"""
    def walk(p, lst, mode):
        head = last = List()        # one pass: fresh cells hung on the last (a scratch head)
        while lst is not EMPTY:
            x = lst.car
            r = call(p, [x])
            if mode is MAP or (mode is FILTER and r is not False):
                last = keep(last, r if mode is MAP else x)
            lst = lst.cdr
        return walked(head, last, mode)
    return walk


def folder(call):
    """`fold(f, acc, lst)`: foldl's loop, acc <- (f element acc) for each
    element of list lst in turn, called by `call`; the last acc. (The
    reference; compile/builtin_loops.folder is the compiler's.)"""
    def fold(f, acc, lst):
        while lst is not EMPTY:
            acc = call(f, [lst.car, acc])
            lst = lst.cdr
        return acc
    return fold


def keep(last: List, x) -> List:
    """A fresh cell holding x hung on last (not yet seen by anyone): the new last."""
    cell = List()
    cell.car = x
    last.cdr = cell
    return cell


def walked(head: List, last: List, mode):
    """A walk's value: the cells after the scratch head, or Nil for EACH."""
    if mode is EACH:
        return NIL
    last.cdr = EMPTY
    return head.cdr


# ── Errors ───────────────────────────────────────────────────────────────

def located(e: BaseException, span, D: Depth) -> RustyError:
    """`e` as a rusty error that knows where it happened.

    A host failure escaping a builtin becomes a catchable rusty error.
    Backtrace entries of procedures a builtin called carry no call site yet;
    they get this (the builtin call's) position.
    """
    if not isinstance(e, RustyError):
        if isinstance(e, (Abort, Exit)):
            raise e
        if isinstance(e, BrokenPipeError):
            raise Exit(141, broken_pipe=True) from None
        if isinstance(e, RecursionError):
            err = RecursionLimit(recursion_message(D))
        elif is_out_of_memory(e):
            err = out_of_memory()
        elif isinstance(e, KeyboardInterrupt):
            err = Interrupted()
        else:
            err = EvalError('internal error: %s: %s' % (type(e).__name__, e))
        err.__cause__ = e
        e = err
    if e.span is None:
        e.span = span
    tr = e.trace
    i = len(tr) - 1
    while i >= 0 and tr[i][0] is None:
        tr[i] = (span,) + tr[i][1:]
        i -= 1
    return e
