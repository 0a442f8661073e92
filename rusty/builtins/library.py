"""Host primitives the standard library's functions are built on.

These are bound only in the library's own globals (as `%name`), never in the
program's: a library function such as `string-join` stays a lambda with its
documentation, and calls its primitive for the loop. Each primitive gives
the results, messages and hints the library's former rusty definition gave,
including for bad input: where that definition failed inside `car`, `cdr`,
`<`, `+` or `string-append`, the primitive raises through the same builtin,
and where it failed in `string-length` or `string=?`, with its message (their
table is not loaded for a check).
"""
import math

from ..errors import EvalError
from ..printer import print_form
from ..cells import cars
from ..values import EMPTY, NIL, BuiltinTable, List, NilType, Symbol, equal, make_list
from .args import expected, list_arg, not_number
from .lists import _fold_list, car, cdr, py_items, tail

TABLE = BuiltinTable()
MAX_REPEAT = 268435456      # longest string string-repeat makes (2^28 characters)

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
def _length(s) -> None:
    """string-length's check of s (its message for a non-string)."""
    if s.__class__ is not str:
        raise expected('string-length', 'string', s)


# ── car/cdr compositions: car and cdr themselves, so their messages and hints ──

@TABLE.fn('%caar', 1, 1)
def caar(x):
    return car(car(x))


@TABLE.fn('%cadr', 1, 1)
def cadr(x):
    if x.__class__ is List and x is not EMPTY and x.cdr is not EMPTY:
        return x.cdr.car
    return car(cdr(x))


@TABLE.fn('%cdar', 1, 1)
def cdar(x):
    return cdr(car(x))


@TABLE.fn('%cddr', 1, 1)
def cddr(x):
    return cdr(cdr(x))


@TABLE.fn('%caddr', 1, 1)
def caddr(x):
    return car(cdr(cdr(x)))


@TABLE.fn('%cadddr', 1, 1)
def cadddr(x):
    return car(cdr(cdr(cdr(x))))


# ── Searches and counts: p called through the host (a macro never reaches
# these: the library's definitions keep their rusty loop for one)

def _first(host, p, lst, holds: bool):
    """The first cell of lst whose element p holds for (`holds`) or fails
    (not `holds`), walking with car until null?; None if there is none."""
    call = host.call
    while lst is not EMPTY and lst is not NIL:
        if (call(p, [car(lst)]) is not False) is holds:
            return lst
        lst = lst.cdr           # (car took it: a non-empty list)
    return None


@TABLE.fn('%any?', 2, 2, host=True)
def any_(host, p, lst):
    """#t if p holds for some element, walking with car until null?."""
    return _first(host, p, lst, True) is not None


@TABLE.fn('%all?', 2, 2, host=True)
def all_(host, p, lst):
    """#t if p holds for every element, walking with car until null?."""
    return _first(host, p, lst, False) is None


@TABLE.fn('%find', 2, 2, host=True)
def find(host, p, lst):
    """The first element p holds for, else #f, walking with car until null?."""
    cell = _first(host, p, lst, True)
    return False if cell is None else cell.car


@TABLE.fn('%count', 2, 2, host=True)
def count(host, p, lst):
    """How many elements p holds for (the list checked as foldl checks it)."""
    lst = _fold_list(py_items(host, lst), 'foldl')
    call = host.call
    n = 0
    while lst is not EMPTY:
        if call(p, [lst.car]) is not False:
            n += 1
        lst = lst.cdr
    return n


@TABLE.fn('%take-while', 2, 2, host=True)
def take_while(host, p, lst):
    """The longest prefix whose elements satisfy p (a non-list: empty)."""
    call = host.call
    out = []
    while lst.__class__ is List and lst is not EMPTY and call(p, [lst.car]) is not False:
        out.append(lst.car)
        lst = lst.cdr
    return make_list(out)


@TABLE.fn('%drop-while', 2, 2, host=True)
def drop_while(host, p, lst):
    """The list from the first element that fails p, walking with car until null?."""
    cell = _first(host, p, lst, False)
    return EMPTY if cell is None else cell


@TABLE.fn('%zip-with', 3, 3, host=True)
def zip_with(host, f, a, b):
    """(f x y) for corresponding elements, as long as the shorter list (a non-list: empty)."""
    call = host.call
    out = []
    while a.__class__ is List and a is not EMPTY and b.__class__ is List and b is not EMPTY:
        out.append(call(f, [a.car, b.car]))
        a = a.cdr
        b = b.cdr
    return make_list(out)


# ── Building and slicing lists ───────────────────────────────────────────

@TABLE.fn('%range', 2, 2)
def range_(a, b):
    """a, a+1, ... while below b, counted by `<` and `+` (exact integers at once)."""
    if a.__class__ is int and b.__class__ is int:
        return make_list(range(a, b))
    from .numbers import add, less     # (their table is loaded when a range needs it)
    out = []
    i = a
    while less(i, b):
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
    items = cars(lst)
    if sep.__class__ is str:
        try:
            return sep.join(items)
        except TypeError:       # a non-string element: reported below
            pass
    parts = [items[0]]
    for x in items[1:]:
        parts.append(sep)
        parts.append(x)
    from .strings import string_append     # (its table is loaded for the message)
    return string_append(*parts)    # raises its error for the first non-string


@TABLE.fn('%string-first-index', 2, 2)
def string_first_index(s, sub):
    """The index of the first occurrence of sub in s, else #f."""
    _length(s)
    _length(sub)
    i = s.find(sub)
    return False if i < 0 else i


@TABLE.fn('%string-contains?', 2, 2)
def string_contains(s, sub):
    """#t if sub occurs in s."""
    return string_first_index(s, sub) is not False


@TABLE.fn('%string-starts-with?', 2, 2)
def string_starts_with(s, p):
    """#t if s begins with p (the lengths checked, p's first)."""
    _length(p)
    _length(s)
    return s.startswith(p)


@TABLE.fn('%string-repeat', 2, 2)
def string_repeat(s, n):
    """s repeated n times (n truncated; NaN or below 1: none): a count from 2^53
    or a result past 2^28 characters refused first, with the former definition's
    messages (>='s for a non-number count)."""
    if n.__class__ is not int and n.__class__ is not float:
        raise not_number('>=', n)
    if n >= 9007199254740992:
        raise EvalError('string-repeat: count too large: ' + print_form(n))
    if not n >= 1:
        return ''
    _length(s)
    k = n if n.__class__ is int else math.trunc(n)
    if len(s) * k > MAX_REPEAT:
        raise EvalError('string-repeat: result too large')
    return s * k


@TABLE.fn('%string<?', 2, 2)
def string_less(a, b):
    """#t if a sorts before b by code point (string=?'s messages for a non-string)."""
    if a.__class__ is not str:
        raise expected('string=?', 'string', a)
    if b.__class__ is not str:
        raise expected('string=?', 'string', b)
    return a < b


@TABLE.fn('%string-last-index', 2, 2)
def string_last_index(s, sub):
    """The index of the last occurrence of sub in s, else #f."""
    _length(sub)
    _length(s)
    i = s.rfind(sub)
    return False if i < 0 else i
