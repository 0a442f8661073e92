"""Vectors: mutable, fixed-length sequences with O(1) access (`#(1 2 3)`).

A vector's elements are a Python list that never changes length. Indices are
checked by the one rule every index builtin follows (args.index_arg).
"""
from ..cells import cars
from ..values import NIL, BuiltinTable, Vector, make_list
from .args import count_arg, expected, index_arg, list_arg, proc_arg

TABLE = BuiltinTable()
MAX_VECTOR = 1 << 28          # longest vector make-vector builds (elements)


def vector_arg(name: str, v) -> Vector:
    if v.__class__ is not Vector:
        raise expected(name, 'vector', v)
    return v


# ── Making vectors ───────────────────────────────────────────────────────

@TABLE.fn('vector', 0, None, doc='A new vector of its arguments.', sig='(vector x ...)',
          examples=(('(vector 1 "a" \'b)', '#(1 "a" b)'), ('(vector)', '#()')))
def vector(*xs):
    return Vector(list(xs))


@TABLE.fn('make-vector', 1, 2, doc='A new vector of n elements, each fill (default 0).',
          sig='(make-vector n [fill])',
          examples=(('(make-vector 3)', '#(0 0 0)'), ('(make-vector 2 "x")', '#("x" "x")'),
                    ('(make-vector -1)', 'error: make-vector: expected an index, got -1')))
def make_vector(n, fill=0.0):
    n = count_arg('make-vector', n)
    if n > MAX_VECTOR:
        raise MemoryError       # reported as `out of memory`, never a host error
    return Vector([fill] * n)


@TABLE.fn('list->vector', 1, 1, doc='A new vector of the elements of a list.', sig='(list->vector lst)',
          examples=(("(list->vector '(1 2 3))", '#(1 2 3)'),))
def list_to_vector(lst):
    return Vector(cars(list_arg('list->vector', lst)))


list_to_vector.of_items = Vector        # (its value of a fresh Python list of the elements: lists.reversed_items)


@TABLE.fn('vector-copy', 1, 3, doc='A new vector of the elements from start (default 0) up to end (default the length).',
          sig='(vector-copy v [start [end]])',
          examples=(('(vector-copy #(1 2 3))', '#(1 2 3)'), ('(vector-copy #(1 2 3) 1)', '#(2 3)'),
                    ('(vector-copy #(1 2 3) 0 4)', 'error: vector-copy: index 4 out of range [0, 3]')))
def vector_copy(v, start=None, end=None):
    items = vector_arg('vector-copy', v).items
    n = len(items)
    lo = 0 if start is None else index_arg('vector-copy', start, n, end=True)
    hi = n if end is None else index_arg('vector-copy', end, n, end=True)
    return Vector(items[lo:hi] if lo < hi else [])


# ── Reading and writing elements ─────────────────────────────────────────

@TABLE.fn('vector?', 1, 1, doc='True for vectors.', sig='(vector? x)',
          examples=(('(vector? #(1))', '#t'), ("(vector? '(1))", '#f')))
def vector_p(x):
    return x.__class__ is Vector


@TABLE.fn('vector-length', 1, 1, doc='The number of elements, an exact integer (as `length` gives).',
          sig='(vector-length v)', examples=(('(vector-length #(a b c))', '3'), ('(exact? (vector-length #(a)))', '#t')))
def vector_length(v):
    return len(vector_arg('vector-length', v).items)


@TABLE.fn('vector-ref', 2, 2, doc='The element at index i, counting from 0.', sig='(vector-ref v i)',
          examples=(('(vector-ref #(a b c) 1)', 'b'),
                    ('(vector-ref #(a b c) 3)', 'error: vector-ref: index 3 out of range [0, 3)')))
def vector_ref(v, i):
    if v.__class__ is Vector and i.__class__ is int and 0 <= i < len(v.items):
        return v.items[i]               # the common case, checked in one go
    items = vector_arg('vector-ref', v).items
    return items[index_arg('vector-ref', i, len(items))]


@TABLE.fn('vector-set!', 3, 3, doc='Store x at index i of the vector; returns Nil.', sig='(vector-set! v i x)',
          examples=(('(let ((v (vector 1 2 3))) (vector-set! v 0 9) v)', '#(9 2 3)'),
                    ('(vector-set! (vector) 0 1)', 'error: vector-set!: index 0 out of range [0, 0)')))
def vector_set(v, i, x):
    if v.__class__ is Vector and i.__class__ is int and 0 <= i < len(v.items):
        v.items[i] = x                  # the common case, checked in one go
        return NIL
    items = vector_arg('vector-set!', v).items
    items[index_arg('vector-set!', i, len(items))] = x
    return NIL


@TABLE.fn('vector-fill!', 2, 2, doc='Store x in every element of the vector; returns Nil.', sig='(vector-fill! v x)',
          examples=(('(let ((v (make-vector 2))) (vector-fill! v 7) v)', '#(7 7)'),))
def vector_fill(v, x):
    items = vector_arg('vector-fill!', v).items
    items[:] = [x] * len(items)
    return NIL


@TABLE.fn('vector->list', 1, 1, doc='A list of the elements of a vector.', sig='(vector->list v)',
          examples=(('(vector->list #(1 2 3))', '(1 2 3)'),))
def vector_to_list(v):
    return make_list(vector_arg('vector->list', v).items)


# ── Walking vectors ──────────────────────────────────────────────────────

def _rows(who: str, vs):
    """The argument lists of a walk over vectors: i-th elements, to the shortest."""
    columns = [vector_arg(who, v).items[:] for v in vs]   # a snapshot: f may change them
    return zip(*columns)


@TABLE.fn('vector-map', 2, None, host=True, doc='A new vector of (f x …) over the elements of the vectors, to the shortest.',
          sig='(vector-map f v ...)',
          examples=(('(vector-map inc #(1 2 3))', '#(2 3 4)'), ('(vector-map + #(1 2) #(10 20 30))', '#(11 22)')))
def vector_map(host, f, *vs):
    proc_arg('vector-map', f)
    call = host.call
    return Vector([call(f, list(args)) for args in _rows('vector-map', vs)])


@TABLE.fn('vector-for-each', 2, None, host=True, doc='Call f on the elements of the vectors in turn (to the shortest); Nil.',
          sig='(vector-for-each f v ...)',
          examples=(('(vector-for-each display #(1 2))', '()'),))
def vector_for_each(host, f, *vs):
    proc_arg('vector-for-each', f)
    call = host.call
    for args in _rows('vector-for-each', vs):
        call(f, list(args))
    return NIL
