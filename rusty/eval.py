"""The evaluator: each form is compiled once into a closure `ev(frame) -> value`.

Compiling resolves every name (resolve.py) and pre-dispatches every node, so
running a program is a walk over closures with no per-node type tests. Special
forms live in specials.py; this module holds the machinery they share: frames,
procedure application, proper tail calls, the depth limit, macro expansion,
and errors with spans and a Lisp backtrace.

Tail calls: a closure compiled in tail position may return a tail call — the
tuple (lambda, frame, call site) — instead of calling the lambda; the `run`
loop of the enclosing application then continues with it, so tail recursion
runs in constant host stack. No rusty value is a Python tuple.
"""
from __future__ import annotations

from .errors import Abort, EvalError, Interrupted, RecursionLimit, RustyError
from .printer import display_form
from .expansion import is_pure
from .resolve import (EPOCH, MISSING, UNBOUND, GlobalEnv, GlobalRef, lookup_by_name, resolve,
                      visible_names)
from .specialize import specialize_call
from .suggest import undefined_message
from .values import (EMPTY, NIL, Builtin, Lambda, List, Macro, Native, NativeGrad, Symbol,
                     make_list, sym)

SPECIAL_FORM_NAMES = (
    'define def lambda fn λ set! set let let* letrec letrec* do if cond when unless and or '
    'begin match try-catch quote quasiquote unquote unquote-splicing eval eval-when defmacro '
    'define-macro load load-relative defrust defrust*').split()

# Filled by specials.py, templates.py and patterns.py (imported by the
# runtime): head symbol -> compile function(x, scope, tail, span, unit).
SPECIALS: dict = {}


def special(*names):
    """Register a special form's compile function under its names."""
    def register(fn):
        for n in names:
            SPECIALS[sym(n)] = fn
        return fn
    return register


# ── Depth limit and the run loop ─────────────────────────────────────────

_depth = 0
_limit = 200_000


def set_depth_limit(limit: int) -> None:
    """Set the non-tail depth limit (LANGUAGE.md §5.5)."""
    global _limit
    _limit = limit


def reset_depth() -> None:
    """Forget any depth left over by an aborted evaluation."""
    global _depth
    _depth = 0


def recursion_message() -> str:
    return ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
            'rewrite with an accumulator / tail call' % _limit)


def run(p, fr, site):
    """Apply lambda or macro `p` to the ready frame `fr`, looping on tail calls."""
    global _depth
    _depth += 1
    if _depth > _limit:
        _depth -= 1
        raise RecursionLimit(recursion_message(), site)
    try:
        while True:
            r = p.code(fr)
            if r.__class__ is not tuple:
                return r
            p, fr, site = r
    except RustyError as e:
        if p.__class__ is Lambda:
            e.trace.append((site, p.name))
        raise e.with_traceback(None)
    except KeyboardInterrupt as e:   # Ctrl-C: report where the loop was
        err = located(e, site)
        if p.__class__ is Lambda:
            err.trace.append((site, p.name))
        raise err
    finally:
        _depth -= 1


# ── Applying procedures ──────────────────────────────────────────────────

def make_frame(p, args: list, span=None) -> list:
    """The new frame for lambda or macro `p` applied to `args` (arity checked)."""
    nreq = len(p.params)
    n = len(args)
    if p.rest is None:
        if n != nreq:
            raise EvalError('Arity error: expected %d args, got %d' % (nreq, n), span)
        fr = [p.env, p.scope]
        fr += args
    else:
        if n < nreq:
            raise EvalError('Arity error: expected at least %d args, got %d' % (nreq, n), span)
        fr = [p.env, p.scope]
        fr += args[:nreq]
        fr.append(make_list(args[nreq:]))
    if p.extra:
        fr += [UNBOUND] * p.extra
    return fr


def builtin_arity_message(b: Builtin, n: int) -> str:
    if b.hi >= (1 << 30):
        return '%s: expected at least %d arg(s), got %d' % (b.name, b.lo, n)
    if b.lo == b.hi:
        return '%s: expected %d arg(s), got %d' % (b.name, b.lo, n)
    return '%s: expected %d to %d arg(s), got %d' % (b.name, b.lo, b.hi, n)


def call_builtin(b: Builtin, args: list, span):
    """Call a builtin with the arity check; errors get `span` (the call form)."""
    if not b.lo <= len(args) <= b.hi:
        raise EvalError(builtin_arity_message(b, len(args)), span)
    try:
        return b.fn(*args)
    except BaseException as e:
        raise located(e, span)


def call_native(p, args: list, span):
    """Call a compiled function: argument checks first (§12.4)."""
    if p.__class__ is NativeGrad:
        try:
            return p.call(args)
        except BaseException as e:
            raise native_error(e, p, span)
    if len(args) != p.arity:
        raise EvalError('%s: expected %d arg(s), got %d' % (p.name, p.arity, len(args)), span)
    for a in args:
        if a.__class__ is not float:
            raise EvalError('%s: expected a number, got %s' % (p.name, display_form(a)), span)
    global _depth
    _depth += 1
    try:
        if _depth > _limit:
            raise RecursionLimit(recursion_message(), span)
        return p.call(args)
    except BaseException as e:
        raise native_error(e, p, span)
    finally:
        _depth -= 1


def native_error(e: BaseException, p, span):
    """The error to raise for `e` out of native `p` called at span: located,
    with the native's frame."""
    err = located(e, span)
    err.trace.append((span, p.name))
    return err


def call_procedure(p, args: list):
    """Apply any procedure to evaluated arguments, non-tail, for builtins
    (map, filter, apply, sort…): a plain lambda takes the direct path."""
    if p.__class__ is Lambda and p.fast == len(args):
        fr = [p.env, p.scope]
        fr += args
        return run(p, fr, None)
    return apply_procedure(p, args)


def apply_procedure(p, args: list, span=None, tail=False):
    """Apply any procedure value to evaluated arguments."""
    cls = p.__class__
    if cls is Lambda:
        fr = make_frame(p, args, span)
        if tail:
            return (p, fr, span)
        return run(p, fr, span)
    if cls is Builtin:
        return call_builtin(p, args, span)
    if cls is Native or cls is NativeGrad:
        return call_native(p, args, span)
    raise EvalError('Not callable: ' + display_form(p), span)


# ── Errors ───────────────────────────────────────────────────────────────

def located(e: BaseException, span) -> RustyError:
    """`e` as a rusty error that knows where it happened.

    A host failure escaping a builtin becomes a catchable rusty error (§5.5).
    Backtrace entries of procedures a builtin called carry no call site yet;
    they get this (the builtin call's) position.
    """
    if not isinstance(e, RustyError):
        if isinstance(e, Abort):
            raise e
        if isinstance(e, RecursionError):
            err = RecursionLimit(recursion_message())
        elif isinstance(e, MemoryError):
            err = EvalError('out of memory')
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
        tr[i] = (span, tr[i][1])
        i -= 1
    return e


def undefined_error(s: Symbol, frame, genv: GlobalEnv, span) -> EvalError:
    names = SPECIAL_FORM_NAMES + visible_names(frame, genv)
    return EvalError(undefined_message(s.name, names), span)


# ── Compile units ────────────────────────────────────────────────────────

class Unit:
    """What a compilation needs besides the form: the globals, the host
    interpreter, and whether the code came from source (with spans) or from
    data (macro expansions and eval, whose errors point at the enclosing form)."""
    __slots__ = ('genv', 'interp', 'use_spans')

    def __init__(self, genv: GlobalEnv, interp, use_spans=True):
        self.genv = genv
        self.interp = interp
        self.use_spans = use_spans

    def from_data(self) -> 'Unit':
        return self if not self.use_spans else Unit(self.genv, self.interp, False)


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
        if x.len == 0:
            return const(NIL)
        head = x.car
        if head.__class__ is Symbol:
            special = SPECIALS.get(head)
            if special is not None:
                try:
                    return special(x, scope, tail, span, unit)
                except Usage as u:
                    return raiser(u.message, span)
        return comp_call(x, scope, tail, span, unit)
    if cls is float or cls is str or cls is bool:
        return const(x)
    return const(NIL)   # data -> code: any other value is the form ()


def comp_body(forms: List, scope, tail, span, unit):
    """Forms in order, the last in tail position; empty body => Nil."""
    codes = [comp(c.car, scope, False, sub_span(c, span, unit), unit) for c in forms.cells()]
    if not codes:
        return const(NIL)
    if tail and forms.len:
        last = forms
        while last.cdr.len:
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
    if ref.maybe_unbound:
        def ev(f):
            fr = f
            for _ in range(depth):
                fr = fr[0]
            v = fr[i]
            if v is UNBOUND or (depth and s.dyn):
                return lookup_or_raise(f, s, genv, span)
            return v
        return ev
    if depth == 0:
        def ev(f):
            return f[i]
        return ev
    if depth == 1:
        def ev(f):
            if s.dyn:
                return lookup_or_raise(f, s, genv, span)
            return f[0][i]
        return ev
    if depth == 2:
        def ev(f):
            if s.dyn:
                return lookup_or_raise(f, s, genv, span)
            return f[0][0][i]
        return ev

    def ev(f):
        if s.dyn:
            return lookup_or_raise(f, s, genv, span)
        fr = f
        for _ in range(depth):
            fr = fr[0]
        return fr[i]
    return ev


# ── Data to code ─────────────────────────────────────────────────────────

_DATA_ATOMS = (float, str, bool, Symbol)


def to_code(x):
    """Data as code (§6.9): Nil and non-data values become the form ()."""
    cls = x.__class__
    if cls is List:
        if x.len == 0:
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
    is reused while neither the macro nor any global has changed (expansion.py).
    """
    if cache[0] is m and cache[1] == EPOCH[0]:
        code = cache[2]
    else:
        epoch = EPOCH[0]
        fr = make_frame(m, list(arg_forms), span)
        expansion = run(m, fr, span)
        code = comp(to_code(expansion), scope, tail, span, unit.from_data())
        if is_pure(m, unit.genv):
            cache[:] = [m, epoch, code]
    if tail:
        return code(f)
    # A non-tail expansion stays active while its code runs (§5.5 depth).
    global _depth
    _depth += 1
    try:
        if _depth > _limit:
            raise RecursionLimit(recursion_message(), span)
        return code(f)
    finally:
        _depth -= 1


def comp_generic_call(x: List, scope, tail, span, unit):
    """The general call node `generic(f, p)` (p: the head's value, or MISSING
    to evaluate it), the compiled arguments, and the compiled head."""
    head = x.car
    head_code = comp(head, scope, False, sub_span(x, span, unit), unit)
    arg_forms = x.cdr
    arg_codes = [comp(c.car, scope, False, sub_span(c, span, unit), unit) for c in arg_forms.cells()]
    sym_head = head.__class__ is Symbol
    cache = [None, -1, None]

    def generic(f, p=MISSING):
        if p is MISSING:
            p = head_code(f)
        if p.__class__ is Macro:
            if sym_head:
                return expand_macro(p, arg_forms, f, scope, tail, span, unit, cache)
            raise EvalError('Not callable: ' + display_form(p), span)
        args = [a(f) for a in arg_codes]
        return apply_procedure(p, args, span, tail)
    return generic, arg_codes, head_code


def comp_call(x: List, scope, tail, span, unit):
    generic, arg_codes, head_code = comp_generic_call(x, scope, tail, span, unit)
    fast = specialize_call(x, scope, tail, span, unit, generic, arg_codes, head_code)
    return generic if fast is None else fast
