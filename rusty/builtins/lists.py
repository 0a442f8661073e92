"""List builtins. Lists are immutable cells; Nil counts as
the empty list wherever a list is expected, unless stated otherwise."""
from ..apply import EACH, FILTER, MAP
from ..cells import cars, count, skip
from ..errors import EvalError
from ..printer import display_form
from ..values import EMPTY, NIL, BuiltinTable, Hash, List, NilType, Py, Symbol, Vector, copy_onto, equal, make_list, reverse_onto
from ..values import cons as new_cell
from .args import expected, index_value, list_arg, out_of_range, proc_arg, seq_arg, with_value

TABLE = BuiltinTable()


@TABLE.fn('cons', 2, 2, doc='Prepend x to a list (a non-list makes a two-element list).', sig='(cons x lst)',
          examples=(("(cons 1 '(2 3))", '(1 2 3)'),))
def cons(x, lst):
    if lst.__class__ is not List:
        lst = EMPTY if lst is NIL else new_cell(lst, EMPTY)
    cell = List()           # filled in place: no constructor frame
    cell.car = x
    cell.cdr = lst
    return cell


def no_pair(who: str, x) -> EvalError:
    """The error of `car`, `cdr`, `first` or `rest` given x: Nil is an empty list, else not a pair."""
    return with_value(EvalError('%s: %s' % (who, 'empty list' if x is NIL else 'not a pair')), who, x)


def _part(who: str, slot: str):
    """car (slot 'car') or cdr (slot 'cdr') under the name `who`."""
    if slot == 'car':
        def part(x):
            if x.__class__ is List and x is not EMPTY:
                return x.car
            raise no_pair(who, x)
    else:
        def part(x):
            if x.__class__ is List and x is not EMPTY:
                return x.cdr
            raise no_pair(who, x)
    part.__name__ = who
    return part


car = TABLE.fn('car', 1, 1, doc='First element of a list.', sig='(car lst)',
               examples=(("(car '(1 2 3))", '1'), ("(car '())", 'error: car: not a pair')))(_part('car', 'car'))
cdr = TABLE.fn('cdr', 1, 1, doc='The list without its first element (shared, O(1)).', sig='(cdr lst)',
               examples=(("(cdr '(1 2 3))", '(2 3)'),))(_part('cdr', 'cdr'))
first = TABLE.fn('first', 1, 1, doc='The first element of a list (car).', sig='(first lst)',
                 examples=(("(first '(1 2 3))", '1'), ("(first '())", 'error: first: not a pair')),
                 )(_part('first', 'car'))
rest = TABLE.fn('rest', 1, 1, doc='The list without its first element (cdr).', sig='(rest lst)',
                examples=(("(rest '(1 2 3))", '(2 3)'), ("(rest '())", 'error: rest: not a pair')),
                )(_part('rest', 'cdr'))


@TABLE.fn('second', 1, 1, doc='The second element of a list (cadr).', sig='(second lst)',
          examples=(("(second '(1 2 3))", '2'), ("(second '(1))", 'error: second: index 1 out of range [0, 1)')))
def second(x):
    return element('second', x, 1)


@TABLE.fn('third', 1, 1, doc='The third element of a list (caddr).', sig='(third lst)',
          examples=(("(third '(1 2 3))", '3'),))
def third(x):
    return element('third', x, 2)


@TABLE.fn('fourth', 1, 1, doc='The fourth element of a list (cadddr).', sig='(fourth lst)',
          examples=(("(fourth '(1 2 3 4))", '4'),))
def fourth(x):
    return element('fourth', x, 3)


@TABLE.fn('fifth', 1, 1, doc='The fifth element of a list.', sig='(fifth lst)',
          examples=(("(fifth '(1 2 3 4 5))", '5'), ("(fifth '(1 2))", 'error: fifth: index 4 out of range [0, 2)')))
def fifth(x):
    return element('fifth', x, 4)


@TABLE.fn('empty?', 1, 1, doc='True for an empty list or Nil.', sig='(empty? x)',
          examples=(("(empty? '())", '#t'), ("(empty? '(1))", '#f'), ('(empty? 0)', '#f')))
def empty_p(x):
    return x is EMPTY or x is NIL


@TABLE.fn('list', 0, None, doc='Its arguments as a list.', sig='(list x ...)',
          examples=(('(list 1 "two" \'three)', '(1 "two" three)'),))
def list_(*args):
    return make_list(args)


@TABLE.fn('length', 1, 1, doc='Number of elements of a list or a vector (Nil has 0).', sig='(length lst)',
          examples=(("(length '(a b c))", '3'), ('(length #(1 2))', '2')))
def length(x):
    if x.__class__ is Py:
        return _py_length(x.obj)
    if x.__class__ is List:
        return count(x)
    if x is NIL:
        return 0
    if x.__class__ is Vector:
        return len(x.items)
    raise with_value(EvalError('length: not a list'), 'length', x)


def _py_length(obj) -> int:
    """len() of a Python value, or the count of what iterating it gives."""
    try:
        return len(obj)
    except TypeError:
        pass
    try:
        it = iter(obj)
    except TypeError:
        raise with_value(EvalError('length: not a list'), 'length', Py(obj)) from None
    n = 0
    for _ in it:        # (a Python loop: Ctrl-C can stop an endless one)
        n += 1
    return n


def py_items(host, x):
    """A Python iterable given where a list is expected, as a list of its
    elements (each converted as a result is); anything else unchanged."""
    if x.__class__ is not Py or not hasattr(x.obj, '__iter__'):
        return x
    from ..interop import elements, from_py, run_python
    items = run_python(host.depth, lambda: elements(x.obj), None, 'iter')
    return make_list([from_py(e) for e in items])


@TABLE.fn('append', 0, None, doc='One list of all the elements of the lists given.', sig='(append lst ...)',
          examples=(("(append '(1 2) '(3) '())", '(1 2 3)'),))
def append(*args):
    for a in args:
        if a.__class__ is not List and a is not NIL:
            raise EvalError('append: not a list: ' + display_form(a))
    lists = [a for a in args if a.__class__ is List and a is not EMPTY]
    if not lists:
        return EMPTY
    out = lists[-1]
    for lst in reversed(lists[:-1]):
        out = copy_onto(lst, out)
    return out


@TABLE.fn('reverse', 1, 1, doc='The elements in reverse order (Nil stays Nil).', sig='(reverse lst)',
          examples=(("(reverse '(1 2 3))", '(3 2 1)'),))
def reverse(x):
    if x is NIL:
        return NIL
    return reverse_onto(list_arg('reverse', x), EMPTY)


def reversed_items(x):
    """The elements reverse's value would hold, in its order, as a fresh
    Python list; None unless x is a list ending in the empty list (then
    reverse itself decides). What compiled code hands a builtin reading its
    list once (its function's `of_items`) for `(f (reverse x))`, no cell made."""
    if x.__class__ is not List:
        return None
    items = cars(x)
    items.reverse()
    return items


reverse.items_of = reversed_items


@TABLE.fn('nth', 2, 2, doc='Element at index i (either argument order).', sig='(nth lst i)',
          examples=(("(nth '(a b c) 1)", 'b'), ("(nth 1 '(a b c))", 'b'),
                    ("(nth '(a b c) 3)", 'error: nth: index 3 out of range [0, 3)')))
def nth(a, b):
    if a.__class__ is float or a.__class__ is int:
        a, b = b, a
    return element('nth', a, b)


@TABLE.fn('list-ref', 2, 2, doc='Element at index i of a list, counting from 0.', sig='(list-ref lst i)',
          examples=(("(list-ref '(a b c) 2)", 'c'), ("(list-ref '(a b c) -1)", 'error: list-ref: index -1 out of range [0, 3)')))
def list_ref(lst, i):
    if lst.__class__ is List and i.__class__ is int and i >= 0:     # the common case: walked at once
        cell = skip(lst, i)[0]
        if cell is not EMPTY:
            return cell.car
    return element('list-ref', lst, i)      # (past the end: its message)


def element(who: str, lst, x):
    """The element at index x of lst, for builtin `who` (the index checks of every builtin)."""
    lst = list_arg(who, lst)
    k = index_value(who, x)
    cell = skip(lst, k)[0]
    if k < 0 or cell is EMPTY:
        raise with_value(out_of_range(who, x, len(lst)), who, lst)
    return cell.car


@TABLE.fn('member', 2, 2, doc='The tail starting at the first element equal? to x, else #f.', sig='(member x lst)',
          examples=(("(member 2 '(1 2 3))", '(2 3)'), ("(member 5 '(1 2 3))", '#f')))
def member(x, lst):
    lst = list_arg('member', lst)
    kc = x.__class__
    if kc in _PLAIN:                # `==` is equal? on its own class: compared first, the class after
        while lst is not EMPTY:
            y = lst.car
            if y == x and y.__class__ is kc:
                return lst
            lst = lst.cdr
        return False
    if kc is int or kc is float:    # an exact integer equals the float of its value (#t == 1 in the host)
        while lst is not EMPTY:
            y = lst.car
            if y == x and (y.__class__ is int or y.__class__ is float):
                return lst
            lst = lst.cdr
        return False
    while lst is not EMPTY:
        if equal(x, lst.car):
            return lst
        lst = lst.cdr
    return False


_PLAIN = frozenset((str, bool, Symbol, NilType))     # classes whose `==` on two of them is equal?


@TABLE.fn('list-tail', 2, 2, doc='The list without its first k elements.', sig='(list-tail lst k)',
          examples=(("(list-tail '(1 2 3 4) 2)", '(3 4)'),
                    ("(list-tail '(1 2) 3)", 'error: list-tail: index 3 out of range [0, 2]')))
def list_tail(lst, k):
    return tail('list-tail', lst, k)


def tail(who: str, lst, x) -> List:
    """lst without its first x elements, x an end position (0 to the length)."""
    lst = list_arg(who, lst)
    k = index_value(who, x)
    rest, i = skip(lst, k)
    if k < 0 or i > 0:
        raise with_value(out_of_range(who, x, len(lst), end=True), who, lst)
    return rest


@TABLE.fn('map', 2, None, host=True,
          doc='A list of (f x …) over the elements of the lists (or vectors), to the shortest.',
          sig='(map f lst ...)',
          examples=(("(map inc '(1 2 3))", '(2 3 4)'), ("(map + '(1 2 3) '(10 20))", '(11 22)'),
                    ('(map inc #(1 2))', '(2 3)')))
def map_(host, f, lst, *more):
    proc_arg('map', f)
    lst = py_items(host, lst)
    if more:
        call = host.call
        return make_list([call(f, args) for args in _columns('map', lst, more)])
    return host.walk(f, seq_arg('map', lst), MAP)


def _columns(who: str, lst, more):
    """The argument lists (i-th elements of every list), stopping at the shortest."""
    columns = [cars(seq_arg(who, lst))] + [cars(seq_arg(who, m)) for m in more]
    for args in zip(*columns):
        yield list(args)


@TABLE.fn('filter', 2, 2, host=True, doc='The elements for which pred is not #f.', sig='(filter pred lst)',
          examples=(("(filter even? '(1 2 3 4))", '(2 4)'),))
def filter_(host, f, lst):
    proc_arg('filter', f)
    lst = py_items(host, lst)
    return host.walk(f, list_arg('filter', lst), FILTER)


@TABLE.fn('filter-map', 2, None, host=True, doc='The results of (f x …) over the lists that are not #f.',
          sig='(filter-map f lst ...)',
          examples=(("(filter-map (lambda (x) (and (even? x) (* x x))) '(1 2 3 4))", '(4 16)'),))
def filter_map(host, f, lst, *more):
    proc_arg('filter-map', f)
    call = host.call
    out = []
    for args in _columns('filter-map', lst, more):
        v = call(f, args)
        if v is not False:
            out.append(v)
    return make_list(out)


@TABLE.fn('append-map', 2, None, host=True, doc='The lists (f x …) returns over the lists, appended.',
          sig='(append-map f lst ...)',
          examples=(("(append-map (lambda (x) (list x x)) '(1 2))", '(1 1 2 2)'),))
def append_map(host, f, lst, *more):
    proc_arg('append-map', f)
    call = host.call
    parts = []
    for args in _columns('append-map', lst, more):
        v = call(f, args)
        if v.__class__ is not List and v is not NIL:
            raise EvalError('append-map: expected a list, got %s' % display_form(v))
        parts.append(v)
    return append(*parts)


@TABLE.fn('for-each', 2, None, host=True,
          doc='Call f on the elements of the lists (or vectors) in turn (to the shortest); Nil.',
          sig='(for-each f lst ...)',
          examples=(("(for-each display '(1 2))", '()'), ("(for-each (lambda (a b) (display (+ a b))) '(1 2) '(3 4))", '()')))
def for_each(host, f, lst, *more):
    proc_arg('for-each', f)
    lst = py_items(host, lst)
    call = host.call
    if more:
        for args in _columns('for-each', lst, more):
            call(f, args)
        return NIL
    return host.walk(f, seq_arg('for-each', lst), EACH)


def _fold_list(lst, who):
    if lst.__class__ is not List:
        if lst is NIL:
            raise with_value(EvalError('%s: not a list' % who), who, lst)
        raise expected(who, 'list', lst)
    return lst


def _left_fold(who: str):
    """foldl under the name `who` (its messages name it)."""
    def fold(host, f, init, lst):
        proc_arg(who, f)
        return host.fold(f, init, _fold_list(py_items(host, lst), who))
    fold.__name__ = who
    return fold


foldl = TABLE.fn('foldl', 3, 3, host=True, doc='acc <- (f element acc), left to right.', sig='(foldl f init lst)',
                 examples=(("(foldl cons '() '(1 2 3))", '(3 2 1)'), ("(foldl + 0 '(1 2 3))", '6')),
                 )(_left_fold('foldl'))
reduce = TABLE.fn('reduce', 3, 3, host=True, doc='The left fold foldl: acc <- (f element acc), left to right.',
                  sig='(reduce f init lst)',
                  examples=(("(reduce + 0 '(1 2 3))", '6'), ("(reduce cons '() '(1 2 3))", '(3 2 1)')),
                  )(_left_fold('reduce'))


@TABLE.fn('foldr', 3, 3, host=True, doc='acc <- (f element acc), right to left.', sig='(foldr f init lst)',
          examples=(("(foldr cons '() '(1 2 3))", '(1 2 3)'),))
def foldr(host, f, init, lst):
    proc_arg('foldr', f)
    call = host.call
    acc = init
    for x in reversed(cars(_fold_list(lst, 'foldr'))):
        acc = call(f, [x, acc])
    return acc


@TABLE.fn('apply', 2, None, host=True, doc='Call f with the arguments given, then the elements of the last.',
          sig='(apply f a ... lst)', examples=(("(apply + 1 2 '(3 4))", '10'),))
def apply_(host, f, *args):
    proc_arg('apply', f)
    last = args[-1]
    if last.__class__ is Hash and f.__class__ is Py and len(args) >= 2:    # (apply f args kwargs-hash)
        from ..interop import call_python
        pos = args[-2]
        if pos.__class__ is not List and pos is not NIL:
            raise with_value(EvalError('apply: the arguments before a keyword hash must be a list'), 'apply', pos)
        kw = [(_keyword_name(k), v) for k, v in last.table.values()]
        return call_python(f, list(args[:-2]) + (cars(pos) if pos is not NIL else []), None, host.depth, kw)
    if last.__class__ is not List and last is not NIL:
        raise with_value(EvalError('apply: last argument must be a list'), 'apply', last)
    items = cars(last) if last is not NIL else []
    if len(args) > 1:
        items[:0] = args[:-1]
    return host.call(f, items)


def _keyword_name(k) -> str:
    """A keyword hash's key as a Python keyword: a string, or a symbol (`:name` or `name`)."""
    if k.__class__ is Symbol:
        k = k.name[1:] if k.name.startswith(':') else k.name
    if k.__class__ is not str:
        raise with_value(EvalError('apply: keyword names are strings or symbols'), 'apply', k)
    return k.replace('-', '_')


# ── sort ─────────────────────────────────────────────────────────────────

_NUMBERS = frozenset((int, float))
_STRINGS = frozenset((str,))


def _kind(x):
    return 'number' if x.__class__ is float or x.__class__ is int else 'string' if x.__class__ is str else None


@TABLE.fn('sort', 1, 2, host=True, doc='A new stably sorted list (numbers, strings, or by less?).',
          sig='(sort lst [less?])', examples=(("(sort '(3 1 2))", '(1 2 3)'), ("(sort '(3 1 2) >)", '(3 2 1)')))
def sort(host, lst, less=None):
    items = cars(list_arg('sort', lst))
    if less is not None:
        proc_arg('sort', less)
        return make_list(host.sort_by(items, less))
    if len(items) > 1:
        classes = set(map(type, items))      # one pass in C; the mixed case is the rare one
        if not (classes <= _NUMBERS or classes == _STRINGS):
            first = _kind(items[0])
            other = items[1] if first is None else next(y for y in items if _kind(y) != first)
            raise EvalError('sort: cannot compare %s and %s' % (display_form(items[0]), display_form(other)))
    return make_list(sorted(items))
