"""Runtime values: symbols, Nil, lists, vectors, procedures, tensors and natives.

Numbers are Python ints (exact integers) and floats, booleans Python bools
(tested by class, never isinstance, so #t is no number), strings Python strs.
Everything else is a class below. Values compare by identity; `equal?` lives in builtins.
"""
import sys

from .pyvalue import Py, py_text
from .tables import BuiltinTable
from .trainer_value import Trainer

REEXPORTED = (BuiltinTable, py_text)   # imported from here by the builtin modules and the printer


# ── Symbols ──────────────────────────────────────────────────────────────

class Symbol:
    """An interned name (the same object in every session)."""
    __slots__ = ('name',)
    _table: dict[str, 'Symbol'] = {}

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


def sym(name: str) -> Symbol:
    """The one symbol with this name."""
    s = Symbol._table.get(name)
    if s is None:
        s = Symbol._table[name] = Symbol(name)
    return s


# ── Nil and lists ────────────────────────────────────────────────────────

class NilType:
    """The void value: prints `()`, distinct from the empty list."""
    __slots__ = ()

    def __repr__(self) -> str:
        return 'NIL'


NIL = NilType()


class List:
    """An immutable list cell: `car` is the first element, `cdr` the rest.

    The empty list is the single cell EMPTY: test emptiness with `x is EMPTY`.
    A cell holds no length, so `len(lst)` walks the list (O(n)). `cdr` shares
    structure, so it is O(1), and `cons` allocates one cell: two slots, 48
    bytes with the collector's header. `span` is where the element `car` was
    read (None for data built at run time); programs never see it. Only the
    reader's cells have one, so it is kept beside the cells (_SPANS), not in
    them.

    A cell is made empty, `List()`, and filled in place before anyone sees
    it (`cons` and `spanned` do it for one cell): with no `__init__` of its
    own, making one costs no Python frame and no argument tuple, about a
    fifth less than `List.__new__(List)`.
    """
    __slots__ = ('car', 'cdr')

    @property
    def span(self):
        """Where the element `car` was read, or None."""
        return _SPANS.get(self)

    def __iter__(self):
        cell = self
        while cell is not EMPTY:
            yield cell.car
            cell = cell.cdr

    def __len__(self) -> int:
        n = 0
        cell = self
        while cell is not EMPTY:
            n += 1
            cell = cell.cdr
        return n

    def __bool__(self) -> bool:
        return True  # every list is a value; emptiness is `is EMPTY`

    def cells(self):
        """Yield the non-empty cells in order (element and its span)."""
        cell = self
        while cell is not EMPTY:
            yield cell
            cell = cell.cdr

    def __repr__(self) -> str:
        return 'List(%s)' % ', '.join(map(repr, self))


EMPTY = List()
EMPTY.car = None
EMPTY.cdr = EMPTY


# The spans of cells made with one: a cell (the key, compared by identity)
# maps to its span. A cell here is kept alive by this table, so when nothing
# else holds it any more its span can never be asked for again: each time the
# table has doubled, such cells are dropped. Newest first, because a cell only
# refers to cells older than itself: dropping a form's head frees it, and the
# cells it held are seen unheld in the same pass.
_SPANS: dict = {}
_purge_at = [8192]


def record_spans(pairs) -> None:
    """Remember the span of each (cell, span) pair; purge when the table has doubled."""
    _SPANS.update(pairs)
    if len(_SPANS) >= _purge_at[0]:
        _purge_spans()


def _purge_spans() -> None:
    """Forget the spans of cells that nothing but _SPANS holds."""
    refcount = sys.getrefcount
    probe = {List(): None}              # a key held only by its table, seen
    for cell in probe:                  # the way the loop below sees one
        unheld = refcount(cell)
    cells = list(_SPANS)
    while cells:
        cell = cells.pop()
        if refcount(cell) <= unheld:
            _SPANS.pop(cell, None)
    cell = probe = None
    _purge_at[0] = max(8192, 2 * len(_SPANS))


# The builders below make fresh cells with List() and fill their slots in
# place (they are not visible to anyone until returned): nothing is copied
# through a Python list. tests/test_list_builders.py compares them with
# cells made one at a time.

def cons(x, rest: List) -> List:
    """A fresh cell holding x in front of rest."""
    cell = List()
    cell.car = x
    cell.cdr = rest
    return cell


def spanned(x, rest: List, span) -> List:
    """cons, the cell remembering that x was read at span (if not None)."""
    cell = List()
    cell.car = x
    cell.cdr = rest
    if span is not None:
        record_spans(((cell, span),))
    return cell


def make_list(items, spans=None) -> List:
    """A list of the items of a Python sequence (optionally with their spans)."""
    out = EMPTY
    if spans is None:
        new = List
        for x in reversed(items):
            cell = new()
            cell.car = x
            cell.cdr = out
            out = cell
    else:
        for x, sp in zip(reversed(items), reversed(spans)):
            out = spanned(x, out, sp)
    return out


def copy_onto(lst: List, tail: List) -> List:
    """Fresh cells holding lst's elements, in order, followed by tail (shared)."""
    if lst is EMPTY:
        return tail
    new = List
    head = cell = new()
    while True:
        cell.car = lst.car
        lst = lst.cdr
        if lst is EMPTY:
            cell.cdr = tail
            return head
        nxt = new()
        cell.cdr = nxt
        cell = nxt


def reverse_onto(lst: List, tail: List) -> List:
    """Fresh cells holding lst's elements in reverse order, followed by tail."""
    new = List
    while lst is not EMPTY:
        cell = new()
        cell.car = lst.car
        cell.cdr = tail
        tail = cell
        lst = lst.cdr
    return tail


def is_list(x) -> bool:
    """True for a list (empty included), false for Nil and everything else."""
    return x.__class__ is List


# ── Procedures ───────────────────────────────────────────────────────────

ANY_ARITY = 1 << 30

class Builtin:
    """A procedure implemented in Python: `fn(*args)`, arity lo..hi (hi None =
    any, stored as ANY_ARITY). `shown` is the name it prints as (aliases show
    their operator). `examples` are (expression text, expected write form)
    pairs that the documentation shows and the tests run. `first_order`:
    made from a table without the evaluator's host, so calling it runs no
    Lisp code (a builtin made any other way might)."""
    __slots__ = ('name', 'fn', 'lo', 'hi', 'shown', 'doc', 'sig', 'examples', 'first_order')

    def __init__(self, name, fn, lo=0, hi=None, shown=None, doc='', sig='', examples=(), first_order=False):
        self.first_order = first_order
        self.name = name
        self.fn = fn
        self.lo = lo
        self.hi = ANY_ARITY if hi is None else hi
        self.shown = shown or name
        self.doc = doc
        self.sig = sig
        self.examples = examples

    def __repr__(self) -> str:
        return '#<builtin:%s>' % self.shown


class Closure:
    """What lambdas and macros share. `params` are the required parameter
    symbols, `rest` the rest symbol or None; `body` is the list of source body
    forms (data, for grad, graph-ir and defrust); `code` is what the evaluator
    runs; `env` the frame it closes over; `name` is set by define/def/named
    let; `extra` counts slots beyond the parameters (body defines, UNBOUND at
    entry); `fast` is the parameter count when a call can build the frame
    directly, else -1. Code tests the exact class, never this base. Weakly
    referable: the compiler finds the values linked to a lambda's code."""
    __slots__ = ('params', 'rest', 'body', 'code', 'env', 'name', 'scope', 'extra', 'fast', '__weakref__')

    def __init__(self, params, rest, body, code, env, name='lambda', scope=None, extra=0):
        self.params = params
        self.rest = rest
        self.body = body
        self.code = code
        self.env = env
        self.name = name
        self.scope = scope
        self.extra = extra
        self.fast = len(params) if rest is None and extra == 0 else -1


class Lambda(Closure):
    """A closure: a procedure written in rusty."""
    __slots__ = ()


class Macro(Closure):
    """A macro: like a lambda, but receives its arguments as data."""
    __slots__ = ()


class Native:
    """A compiled function `NAME/ARITY`; `call(args)` takes a list of floats
    (already checked) and returns a float. `source` is its own generated Rust;
    `handle` the loaded library (its `.rs`, with any shared prelude, beside it)."""
    __slots__ = ('name', 'arity', 'call', 'source', 'handle')

    def __init__(self, name, arity, call, source='', handle=None):
        self.name = name
        self.arity = arity
        self.call = call
        self.source = source
        self.handle = handle


class NativeGrad:
    """A compiled forward+backward kernel; `shapes` holds one entry per
    parameter (a dims tuple, or None for a scalar); `call(args)` returns the
    `(loss grad…)` list."""
    __slots__ = ('name', 'shapes', 'call', 'source', 'handle')

    def __init__(self, name, shapes, call, source='', handle=None):
        self.name = name
        self.shapes = shapes
        self.call = call
        self.source = source
        self.handle = handle


PROCEDURE_TYPES = (Builtin, Lambda, Macro, Native, NativeGrad)


# ── Tensors ──────────────────────────────────────────────────────────────

class Tensor:
    """An immutable row-major f64 buffer (`array('d')`) with a shape tuple.
    Python sees its memory without a copy: NumPy through the array interface,
    memoryview through the buffer protocol (Python 3.12+; earlier, `view()`)."""
    __slots__ = ('data', 'shape')

    def __init__(self, data, shape: tuple):      # data: an array('d')
        self.data = data
        self.shape = shape

    @property
    def __array_interface__(self) -> dict:
        return {'shape': self.shape, 'typestr': '<f8', 'data': (self.data.buffer_info()[0], True), 'version': 3}

    def view(self) -> memoryview:
        """A read-only memoryview of the elements: format d, the shape, C order."""
        return memoryview(self.data).toreadonly().cast('B').cast('d', self.shape)

    def __buffer__(self, flags: int) -> memoryview:
        return self.view()


# ── Vectors ──────────────────────────────────────────────────────────────

class Vector:
    """A mutable, fixed-length sequence with O(1) access: `items` is a Python
    list whose length never changes."""
    __slots__ = ('items',)

    def __init__(self, items: list):
        self.items = items

    def __repr__(self) -> str:
        return 'Vector(%s)' % ', '.join(map(repr, self.items))


# ── Hash tables ──────────────────────────────────────────────────────────

class Hash:
    """A mutable table in insertion order: `table` maps a
    key's hashable image (see hash_key) to its (key, value) entry, so `equal?`
    keys share one entry and an update keeps the entry's position."""
    __slots__ = ('table',)

    def __init__(self):
        self.table: dict = {}


class Unhashable(Exception):
    """A value that cannot be a hash key; `value` is the culprit."""

    def __init__(self, value):
        super().__init__()
        self.value = value


_TRUE_KEY, _FALSE_KEY, _PY_KEY = object(), object(), object()     # True == 1.0 in Python: keep them apart


def hash_key(x):
    """The hashable image of a key, equal exactly when the keys are `equal?`."""
    cls = x.__class__
    if cls is int:
        return x                      # 2 and 2.0 are equal, hash alike: one key
    if cls is float:
        if x != x:
            raise Unhashable(x)
        return x if x else 0.0        # 0 and -0 are one key
    if cls is str or cls is Symbol or cls is NilType:
        return x
    if cls is bool:
        return _TRUE_KEY if x else _FALSE_KEY
    if cls is List:
        return tuple([hash_key(e) for e in x])
    if cls is Py and x.obj.__hash__ is not None:
        return (_PY_KEY, x.obj)       # equal? on Python values is Python's ==
    raise Unhashable(x)


def to_f64(x) -> float:
    """A number as an f64: an exact integer becomes the nearest float, and one
    beyond the f64 range ±inf (never a host error); a float stays itself."""
    if x.__class__ is float:
        return x
    try:
        return float(x)
    except OverflowError:
        return INF if x > 0 else -INF


INF = float('inf')


# ── Type names ───────────────────────────────────────────────────────────

_TYPE_NAMES = {
    float: 'number', int: 'number', bool: 'boolean', str: 'string', Symbol: 'symbol',
    List: 'list', NilType: 'nil', Lambda: 'lambda', Macro: 'macro',
    Builtin: 'builtin', Tensor: 'tensor', Native: 'native', NativeGrad: 'native-grad',
    Hash: 'hash', Vector: 'vector', Trainer: 'trainer', Py: 'py',
}


def type_name(x) -> str:
    """The `type-of` name of a value."""
    return _TYPE_NAMES[x.__class__]


# ── Gensym ───────────────────────────────────────────────────────────────

_gensym_counter = [0]


def gensym(prefix: str = 'g') -> Symbol:
    """A fresh symbol PREFIX__N from the one process-wide counter."""
    _gensym_counter[0] += 1
    return sym('%s__%d' % (prefix, _gensym_counter[0]))


# ── Structural equality ──────────────────────────────────────────────────

def equal(a, b) -> bool:
    """`equal?`, walking lists without host recursion."""
    stack = [(a, b)]
    while stack:
        a, b = stack.pop()
        ca = a.__class__
        if ca is not b.__class__:
            if not _equal_atom(a, b):       # 2 and 2.0 are equal
                return False
        elif ca is List:
            while a is not EMPTY:
                if b is EMPTY:
                    return False
                x, y = a.car, b.car
                if x.__class__ is List or x.__class__ is Vector:
                    stack.append((x, y))
                elif not _equal_atom(x, y):
                    return False
                a, b = a.cdr, b.cdr
            if b is not EMPTY:
                return False
        elif ca is Vector:
            if len(a.items) != len(b.items):
                return False
            stack.extend(zip(a.items, b.items))
        elif not _equal_atom(a, b):
            return False
    return True


def _equal_atom(a, b) -> bool:
    ca = a.__class__
    if ca is not b.__class__:       # an exact integer and a float: equal values are equal
        cb = b.__class__
        return (ca is int or ca is float) and (cb is int or cb is float) and a == b
    if ca is float or ca is str or ca is int:
        return a == b
    if ca is bool or ca is Symbol or ca is NilType:
        return a is b
    if ca is Tensor:
        return a.shape == b.shape and all(x == y for x, y in zip(a.data, b.data))
    if ca is Hash:
        return _equal_hash(a, b)
    if ca is Vector:
        return equal(a, b)
    if ca is Py:
        return py_equal(a.obj, b.obj)
    return False   # procedures, macros, natives: never equal, even to themselves


def _equal_hash(a: Hash, b: Hash) -> bool:
    """The same keys, with `equal?` values, in any order."""
    if len(a.table) != len(b.table):
        return False
    for hk, (_k, v) in a.table.items():
        other = b.table.get(hk)
        if other is None or not equal(v, other[1]):
            return False
    return True


def py_equal(a, b) -> bool:
    """Python's `==` of two held Python objects, as a boolean (an error or an
    answer with no truth value, such as NumPy's elementwise one, is #f)."""
    try:
        return bool(a == b)
    except Exception:
        return False
