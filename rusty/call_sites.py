"""The reference evaluator's call sites: one closure maker per argument
count (CALLS; any other count: call_n), given by eval.comp_call the head's
global cell (or NO_CELL), the head's and the arguments' code, and `expand`
for a macro head.

Each closure evaluates the head (its cell's value, unless MISSING: then its
code), expands a macro, evaluates the arguments left to right, then calls a
builtin of the arity as apply.call_builtin does, builds the frame of a lambda
taking exactly these arguments (Lambda.fast) as apply.make_frame does (a tail
call returns it to apply.run's loop), or hands anything else to
apply.apply_procedure. So a call costs two host frames, not five.

A site with a global head also remembers the builtin it last called there
(`hit`, its function `hfn`): while the cell still holds that very builtin,
the call is its arguments and `hfn`, with no test of class or arity (a
builtin's function and arity never change). A two-argument call with a
literal argument (`(+ i 1)`, `(* 365 y)`) holds the literal's value rather
than its code (call2_k1, call2_k0).
"""
from .apply import apply_procedure, located, run
from .errors import give_back_if_out_of_memory
from .resolve import MISSING
from .values import Builtin, Lambda, Macro


class NoCell:
    """The stand-in for the global cell of a head that is none: its value is
    always MISSING, so the call evaluates the head's code."""
    __slots__ = ()
    value = MISSING


NO_CELL = NoCell()


def call0(cell, head_code, arg_codes, expand, span, tail, D):
    def call(f):
        p = cell.value
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Builtin and p.lo == 0:
            try:
                return p.fn()
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if cls is Lambda and p.fast == 0:
            fr = [p.env, p.scope]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        return apply_procedure(p, [], span, tail, D)
    return call


NOT_YET = object()       # a site's `hit` before it has called a builtin


def call1(cell, head_code, arg_codes, expand, span, tail, D):
    a0, = arg_codes
    hit = NOT_YET

    def call(f):
        nonlocal hit
        p = cell.value
        if p is hit:
            x0 = a0(f)
            try:
                return p.fn(x0)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Lambda and p.fast == 1:
            fr = [p.env, p.scope, a0(f)]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        x0 = a0(f)
        if cls is Builtin and p.lo <= 1 <= p.hi:
            hit = p
            try:
                return p.fn(x0)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        return apply_procedure(p, [x0], span, tail, D)
    return call


def call2(cell, head_code, arg_codes, expand, span, tail, D, literals=(NOT_YET, NOT_YET)):
    k0, k1 = literals
    if k1 is not NOT_YET and k0 is NOT_YET:
        return call2_k1(cell, head_code, arg_codes[0], k1, expand, span, tail, D)
    if k0 is not NOT_YET and k1 is NOT_YET:
        return call2_k0(cell, head_code, k0, arg_codes[1], expand, span, tail, D)
    a0, a1 = arg_codes
    hit = NOT_YET

    def call(f):
        nonlocal hit
        p = cell.value
        if p is hit:
            x0 = a0(f)
            x1 = a1(f)
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Lambda and p.fast == 2:
            fr = [p.env, p.scope, a0(f), a1(f)]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        x0 = a0(f)
        x1 = a1(f)
        if cls is Builtin and p.lo <= 2 <= p.hi:
            hit = p
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        return apply_procedure(p, [x0, x1], span, tail, D)
    return call


def call2_k1(cell, head_code, a0, x1, expand, span, tail, D):
    """call2 whose second argument is the literal x1."""
    hit = NOT_YET

    def call(f):
        nonlocal hit
        p = cell.value
        if p is hit:
            x0 = a0(f)
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Lambda and p.fast == 2:
            fr = [p.env, p.scope, a0(f), x1]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        x0 = a0(f)
        if cls is Builtin and p.lo <= 2 <= p.hi:
            hit = p
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        return apply_procedure(p, [x0, x1], span, tail, D)
    return call


def call2_k0(cell, head_code, x0, a1, expand, span, tail, D):
    """call2 whose first argument is the literal x0."""
    hit = NOT_YET

    def call(f):
        nonlocal hit
        p = cell.value
        if p is hit:
            x1 = a1(f)
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Lambda and p.fast == 2:
            fr = [p.env, p.scope, x0, a1(f)]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        x1 = a1(f)
        if cls is Builtin and p.lo <= 2 <= p.hi:
            hit = p
            try:
                return p.fn(x0, x1)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        return apply_procedure(p, [x0, x1], span, tail, D)
    return call


def call3(cell, head_code, arg_codes, expand, span, tail, D):
    a0, a1, a2 = arg_codes
    hit = NOT_YET

    def call(f):
        nonlocal hit
        p = cell.value
        if p is hit:
            x0 = a0(f)
            x1 = a1(f)
            x2 = a2(f)
            try:
                return p.fn(x0, x1, x2)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Lambda and p.fast == 3:
            fr = [p.env, p.scope, a0(f), a1(f), a2(f)]
            return (p, fr, span) if tail else run(p, fr, span, D)
        if cls is Macro:
            return expand(f, p)
        x0 = a0(f)
        x1 = a1(f)
        x2 = a2(f)
        if cls is Builtin and p.lo <= 3 <= p.hi:
            hit = p
            try:
                return p.fn(x0, x1, x2)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        return apply_procedure(p, [x0, x1, x2], span, tail, D)
    return call


def call_n(cell, head_code, arg_codes, expand, span, tail, D):
    n = len(arg_codes)

    def call(f):
        p = cell.value
        if p is MISSING:
            p = head_code(f)
        cls = p.__class__
        if cls is Macro:
            return expand(f, p)
        args = []
        for a in arg_codes:         # (a loop: a comprehension would be one more host frame)
            args.append(a(f))
        if cls is Builtin and p.lo <= n <= p.hi:
            try:
                return p.fn(*args)
            except BaseException as e:
                give_back_if_out_of_memory(e)
                raise located(e, span, D)
        if cls is Lambda and p.fast == n:
            fr = [p.env, p.scope]
            fr += args
            return (p, fr, span) if tail else run(p, fr, span, D)
        return apply_procedure(p, args, span, tail, D)
    return call


CALLS = {0: call0, 1: call1, 2: call2, 3: call3}
