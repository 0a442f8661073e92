"""The builtins' calls and loops over procedures (call, map, filter,
for-each, foldl, reduce, sort) as the compiler makes them for a session
(runtime.compiled_caller, runtime.builtin_loops): a compiled lambda's
positional function entered directly, as run would, inside the loop itself;
exact integers folded by Python's own operators; numbers sorted by Python's
own comparisons when nothing could tell. Each falls back to the reference's
(apply.py) for anything else."""
from _functools import cmp_to_key     # the C module: functools itself imports collections (start-up)
from _operator import add, mul
from math import prod

from ..apply import EACH, FILTER, MAP, located, walked
from ..cells import cars
from ..errors import give_back_if_out_of_memory
from ..resolve import GlobalRef, resolve
from ..values import EMPTY, NIL, Builtin, Lambda, List, Symbol, make_list
from .entry import Entry, entry_class
from .support import call_failed, finish_tail


_ORDERS = {'<': False, 'lt': False, '>': True, 'gt': True}     # builtin -> sorting by it sorts in reverse?
_NUMBERS = frozenset((int, float))
_INTS = frozenset((int,))


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
            if acc.__class__ is int and lst is not EMPTY:
                items = cars(lst)       # all exact integers (the usual case): folded at once, in C
                if _INTS.issuperset(map(type, items)):
                    return acc + sum(items) if op is add else acc * prod(items)
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
            if p.__class__ is Builtin and p.first_order and p.lo <= 1 <= p.hi:
                return builtin_walk(p.fn, lst, mode, D)
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


def builtin_walk(fn, lst, mode, D):
    """list_walker's walk of a builtin of one argument that runs no Lisp code
    (first_order), its function `fn`: called on each element in turn by
    Python's own map, as the reference's `call` would call it (a failure
    located as its call's); the same results, from one walk of the cells."""
    items = cars(lst)
    try:
        results = list(map(fn, items))
    except BaseException as e:
        give_back_if_out_of_memory(e)
        raise located(e, None, D)
    if mode is MAP:
        return make_list(results)
    if mode is EACH:
        return NIL
    return make_list([x for x, r in zip(items, results) if r is not False])
