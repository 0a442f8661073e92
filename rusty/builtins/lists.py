"""List builtins (LANGUAGE.md §8.5). Lists are immutable cells; Nil counts as
the empty list wherever a list is expected, unless stated otherwise."""
from __future__ import annotations

from ..errors import EvalError
from ..printer import display_form, format_number
from ..values import EMPTY, NIL, BuiltinTable, List, copy_onto, equal, make_list, reverse_onto
from .args import expected, index_arg, list_arg, proc_arg

TABLE = BuiltinTable()


@TABLE.fn('cons', 2, 2, doc='Prepend x to a list (a non-list makes a two-element list).', sig='(cons x lst)')
def cons(x, lst):
    if lst.__class__ is List:
        return List(x, lst)
    if lst is NIL:
        return List(x, EMPTY)
    return List(x, List(lst, EMPTY))


@TABLE.fn('car', 1, 1, doc='First element of a list.', sig='(car lst)')
def car(x):
    if x.__class__ is List and x.len:
        return x.car
    if x is NIL:
        raise EvalError('car: empty list')
    raise EvalError('car: not a pair')


@TABLE.fn('cdr', 1, 1, doc='The list without its first element (shared, O(1)).', sig='(cdr lst)')
def cdr(x):
    if x.__class__ is List and x.len:
        return x.cdr
    if x is NIL:
        raise EvalError('cdr: empty list')
    raise EvalError('cdr: not a pair')


@TABLE.fn('list', 0, None, doc='Its arguments as a list.', sig='(list x ...)')
def list_(*args):
    return make_list(args)


@TABLE.fn('length', 1, 1, doc='Number of elements (Nil has 0).', sig='(length lst)')
def length(x):
    if x.__class__ is List:
        return float(x.len)
    if x is NIL:
        return 0.0
    raise EvalError('length: not a list')


@TABLE.fn('append', 0, None, doc='One list of all the elements of the lists given.', sig='(append lst ...)')
def append(*args):
    for a in args:
        if a.__class__ is not List and a is not NIL:
            raise EvalError('append: not a list: ' + display_form(a))
    lists = [a for a in args if a.__class__ is List and a.len]
    if not lists:
        return EMPTY
    out = lists[-1]
    for lst in reversed(lists[:-1]):
        out = copy_onto(lst, out)
    return out


@TABLE.fn('reverse', 1, 1, doc='The elements in reverse order (Nil stays Nil).', sig='(reverse lst)')
def reverse(x):
    if x is NIL:
        return NIL
    return reverse_onto(list_arg('reverse', x), EMPTY)


@TABLE.fn('nth', 2, 2, doc='Element at index i (either argument order).', sig='(nth lst i)')
def nth(a, b):
    if a.__class__ is float:
        a, b = b, a
    lst = list_arg('nth', a)
    i = index_arg('nth', b)
    if i >= lst.len:
        raise EvalError('nth: index %s out of range' % format_number(i))
    while i:
        lst = lst.cdr
        i -= 1
    return lst.car


@TABLE.fn('member', 2, 2, doc='The tail starting at the first element equal? to x, else #f.', sig='(member x lst)')
def member(x, lst):
    lst = list_arg('member', lst)
    while lst.len:
        if equal(x, lst.car):
            return lst
        lst = lst.cdr
    return False


@TABLE.fn('list-tail', 2, 2, doc='The list without its first k elements.', sig='(list-tail lst k)')
def list_tail(lst, k):
    lst = list_arg('list-tail', lst)
    n = index_arg('list-tail', k)
    if n > lst.len:
        raise EvalError('list-tail: index %s out of range' % format_number(n))
    while n:
        lst = lst.cdr
        n -= 1
    return lst


@TABLE.fn('map', 2, 2, host=True, doc='A list of (f x) for each element.', sig='(map f lst)')
def map_(host, f, lst):
    proc_arg('map', f)
    call = host.call
    return make_list([call(f, [x]) for x in list_arg('map', lst)])


@TABLE.fn('filter', 2, 2, host=True, doc='The elements for which pred is not #f.', sig='(filter pred lst)')
def filter_(host, f, lst):
    proc_arg('filter', f)
    call = host.call
    return make_list([x for x in list_arg('filter', lst) if call(f, [x]) is not False])


@TABLE.fn('for-each', 2, 2, host=True, doc='Call f on each element; returns Nil.', sig='(for-each f lst)')
def for_each(host, f, lst):
    proc_arg('for-each', f)
    call = host.call
    for x in list_arg('for-each', lst):
        call(f, [x])
    return NIL


def _fold_list(lst, who):
    if lst.__class__ is not List:
        if lst is NIL:
            raise EvalError('%s: not a list' % who)
        raise expected(who, 'list', lst)
    return lst


@TABLE.fn('foldl', 3, 3, host=True, doc='acc <- (f element acc), left to right.', sig='(foldl f init lst)')
def foldl(host, f, init, lst):
    proc_arg('foldl', f)
    call = host.call
    acc = init
    for x in _fold_list(lst, 'foldl'):
        acc = call(f, [x, acc])
    return acc


@TABLE.fn('foldr', 3, 3, host=True, doc='acc <- (f element acc), right to left.', sig='(foldr f init lst)')
def foldr(host, f, init, lst):
    proc_arg('foldr', f)
    call = host.call
    acc = init
    for x in reversed(list(_fold_list(lst, 'foldr'))):
        acc = call(f, [x, acc])
    return acc


@TABLE.fn('apply', 2, None, host=True, doc='Call f with the arguments given, then the elements of the last.',
          sig='(apply f a ... lst)')
def apply_(host, f, *args):
    proc_arg('apply', f)
    last = args[-1]
    if last.__class__ is not List and last is not NIL:
        raise EvalError('apply: last argument must be a list')
    return host.call(f, list(args[:-1]) + (list(last) if last is not NIL else []))


# ── sort ─────────────────────────────────────────────────────────────────

def _kind(x):
    return 'number' if x.__class__ is float else 'string' if x.__class__ is str else None


class _Less:
    """Sort key calling a rusty less? procedure (stable: list.sort only uses <)."""
    __slots__ = ('v', 'call', 'less')

    def __init__(self, v, call, less):
        self.v = v
        self.call = call
        self.less = less

    def __lt__(self, other):
        return self.call(self.less, [self.v, other.v]) is not False


@TABLE.fn('sort', 1, 2, host=True, doc='A new stably sorted list (numbers, strings, or by less?).',
          sig='(sort lst [less?])')
def sort(host, lst, less=None):
    items = list(list_arg('sort', lst))
    if less is not None:
        proc_arg('sort', less)
        call = host.call
        return make_list([k.v for k in sorted((_Less(x, call, less) for x in items))])
    if len(items) > 1:
        first = _kind(items[0])
        other = items[1] if first is None else next((y for y in items if _kind(y) != first), None)
        if other is not None:
            raise EvalError('sort: cannot compare %s and %s' % (display_form(items[0]), display_form(other)))
    return make_list(sorted(items))
