"""Host primitives the standard library's functions are built on.

These are bound only in the library's own globals (as `%name`), never in the
program's: a library function such as `string-join` stays a lambda with its
documentation, and calls its primitive for the loop. Each primitive gives
the results, messages and hints the library's former rusty definition gave,
including for bad input: where that definition failed inside `car`, `cdr`,
`string-append` or `string-length`, the primitive raises through the same
builtin.
"""
import _operator

from ..values import EMPTY, NIL, BuiltinTable, List, NilType, Symbol, equal, make_list
from .args import list_arg
from .lists import car, cdr, tail
from .numbers import _compare, add
from .strings import string_append, string_eq, string_length

TABLE = BuiltinTable()

# Key classes whose `==` is exactly `equal?` (same class assumed).
_PLAIN_KEYS = (str, bool, Symbol, NilType)


# ── Association lists ────────────────────────────────────────────────────

@TABLE.fn('%assoc', 2, 2)
def assoc(k, alist):
    """The first non-empty list in alist whose first element is equal? to k, else #f."""
    if alist is NIL:
        return False
    if alist.__class__ is not List:
        car(alist)          # the error the walk met first
    kc = k.__class__
    if kc is int or kc is float:        # an exact integer equals the float of its value
        return _assoc_number(k, alist)
    if kc in _PLAIN_KEYS:
        return _assoc_plain(k, kc, alist)
    cell = alist
    while cell is not EMPTY:
        entry = cell.car
        if entry.__class__ is List and entry is not EMPTY:
            x = entry.car
            if x.__class__ is kc and equal(x, k):
                return entry
        cell = cell.cdr
    return False


def _assoc_plain(k, kc, alist):
    """assoc of a key whose `==` is equal? on its own class: compared first
    (no value has an `==` of its own, so any other is unequal or of another
    class; the empty list's car is None, which equals no key)."""
    cell = alist
    while cell is not EMPTY:
        entry = cell.car
        if entry.__class__ is List:
            x = entry.car
            if x == k and x.__class__ is kc:
                return entry
        cell = cell.cdr
    return False


def _assoc_number(k, alist):
    """assoc of a number: an exact integer equals the float of its value (compared first, as _assoc_plain)."""
    cell = alist
    while cell is not EMPTY:
        entry = cell.car
        if entry.__class__ is List:
            x = entry.car
            if x == k and (x.__class__ is int or x.__class__ is float):     # (#t == 1 in the host)
                return entry
        cell = cell.cdr
    return False
# ── Building and slicing lists ───────────────────────────────────────────

_less = _compare('<', _operator.lt)     # the `<` builtin's function: its results and messages


@TABLE.fn('%range', 2, 2)
def range_(a, b):
    """a, a+1, ... while below b, counted by `<` and `+` (exact integers at once)."""
    if a.__class__ is int and b.__class__ is int:
        return make_list(range(a, b))
    out = []
    i = a
    while _less(i, b):
        out.append(i)
        i = add(i, 1)
    return make_list(out)


@TABLE.fn('%last', 1, 1)
def last(lst):
    """The last element of a non-empty list (the first cdr raises for anything else)."""
    rest = cdr(lst)
    while rest is not EMPTY:        # (a cell's cdr is a list)
        lst = rest
        rest = rest.cdr
    return lst.car



@TABLE.fn('%take', 2, 2)
def take(n, lst):
    """The first n elements of lst, n an end position (0 to the length)."""
    rest = tail('take', lst, n)         # checks the list and the count
    out = []
    cell = list_arg('take', lst)
    while cell is not rest:
        out.append(cell.car)
        cell = cell.cdr
    return make_list(out)


@TABLE.fn('%drop', 2, 2)
def drop(n, lst):
    """lst without its first n elements, n an end position (0 to the length)."""
    return tail('drop', lst, n)


# ── Strings ──────────────────────────────────────────────────────────────

@TABLE.fn('%string-join', 2, 2)
def string_join(lst, sep):
    """The strings of lst with sep between them; one element is returned as it is."""
    if lst is NIL or lst is EMPTY:
        return ''
    if lst.__class__ is not List:
        cdr(lst)            # the error the walk met first
    if lst.cdr is EMPTY:
        return lst.car
    items = []
    add = items.append
    cell = lst
    while cell is not EMPTY:
        add(cell.car)
        cell = cell.cdr
    if sep.__class__ is str:
        try:
            return sep.join(items)
        except TypeError:       # a non-string element: reported below
            pass
    parts = [items[0]]
    for x in items[1:]:
        parts.append(sep)
        parts.append(x)
    return string_append(*parts)    # raises its error for the first non-string


@TABLE.fn('%string-first-index', 2, 2)
def string_first_index(s, sub):
    """The index of the first occurrence of sub in s, else #f."""
    string_length(s)
    string_length(sub)
    i = s.find(sub)
    return False if i < 0 else i


@TABLE.fn('%string-contains?', 2, 2)
def string_contains(s, sub):
    """#t if sub occurs in s."""
    return string_first_index(s, sub) is not False


@TABLE.fn('%string-starts-with?', 2, 2)
def string_starts_with(s, p):
    """#t if s begins with p (the lengths checked, p's first)."""
    string_length(p)
    string_length(s)
    return s.startswith(p)


@TABLE.fn('%string-repeat', 2, 2)
def string_repeat(s, k):
    """s repeated k times, k an exact count already checked against the limits."""
    return s * k


@TABLE.fn('%string<?', 2, 2)
def string_less(a, b):
    """#t if a sorts before b by code point (string=?'s messages for a non-string)."""
    string_eq(a, b)
    return a < b


@TABLE.fn('%string-last-index', 2, 2)
def string_last_index(s, sub):
    """The index of the last occurrence of sub in s, else #f."""
    string_length(sub)
    string_length(s)
    i = s.rfind(sub)
    return False if i < 0 else i
