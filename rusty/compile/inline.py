"""The builtins compiled inline: name -> (arity, builder). A builder takes the
operands (ast expressions that may be repeated: names and constants) and
gives (guard, value): `value` is the result while `guard` holds; otherwise
the builtin itself is called (its exact result or error). Guards admit exact
integers (int, never bool) and floats only where Python computes what the
builtin does."""
import itertools

from . import pyast as ast



def _attr(x, name):
    return ast.Attribute(x, name, ast.Load())


def _is(a, b):
    """a is b; decided now when one is a constant (a literal is never one of
    the objects the code compares it with)."""
    ca, cb = a.__class__ is ast.Constant, b.__class__ is ast.Constant
    if ca and cb:
        return ast.Constant(a.value is b.value if type(a.value) in (bool, type(None)) else False)
    if (ca and type(a.value) not in (bool, type(None))) or (cb and type(b.value) not in (bool, type(None))):
        return ast.Constant(False)
    return ast.Compare(a, [ast.Is()], [b])


def _cls_is(x, kind: str):
    """x.__class__ is kind (decided now for a constant)."""
    if x.__class__ is ast.Constant:
        return ast.Constant(type(x.value).__name__ == kind)
    return _is(_cls(x), _g(kind))


def _is_not(a, b):
    same = _is(a, b)
    if same.__class__ is ast.Constant:
        return ast.Constant(not same.value)
    return ast.Compare(a, [ast.IsNot()], [b])


def _and(*xs):
    """xs all true (constants folded)."""
    if any(x.__class__ is ast.Constant and x.value is False for x in xs):
        return ast.Constant(False)
    xs = [x for x in xs if not (x.__class__ is ast.Constant and x.value is True)]
    return xs[0] if len(xs) == 1 else ast.BoolOp(ast.And(), xs) if xs else ast.Constant(True)


def _or(*xs):
    """any of xs true (constants folded)."""
    if any(x.__class__ is ast.Constant and x.value is True for x in xs):
        return ast.Constant(True)
    xs = [x for x in xs if not (x.__class__ is ast.Constant and x.value is False)]
    return xs[0] if len(xs) == 1 else ast.BoolOp(ast.Or(), xs) if xs else ast.Constant(False)


def _g(name):
    """A global of the generated code's namespace (see link.NAMESPACE)."""
    return ast.Name(name, ast.Load())


def _cls(x):
    return _attr(x, '__class__')


def _const(v):
    return ast.Constant(v)


def _binop(a, op, b):
    return ast.BinOp(a, op, b)


def _int2(x, y):
    return _and(_cls_is(x, 'int'), _cls_is(y, 'int'))


def _float2(x, y):
    return _and(_cls_is(x, 'float'), _cls_is(y, 'float'))


def _num(x):
    return _or(_cls_is(x, 'int'), _cls_is(x, 'float'))


def _arith(int_value, float_value):
    """An operator over two exact integers or two floats, or a float and an
    integer literal (the builtin's to_f64 of it: the float of its value,
    exact below 2**53, taken now)."""
    def build(x, y):
        out = [(_int2(x, y), int_value(x, y)), (_float2(x, y), float_value(x, y))]
        if _small_int(y):
            out.append((_cls_is(x, 'float'), float_value(x, _const(float(y.value)))))
        elif _small_int(x):
            out.append((_cls_is(y, 'float'), float_value(_const(float(x.value)), y)))
        return out
    return build


def _small_int(x) -> bool:
    """x is an exact integer literal whose float is exact."""
    return x.__class__ is ast.Constant and x.value.__class__ is int and -2 ** 53 <= x.value <= 2 ** 53


def _vector_ref(v, i):
    """An index in range, an exact integer or a float of integral value (args.index_value)."""
    items = _attr(v, 'items')
    size = ast.Call(_g('len'), [items], [])
    in_range = ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [i, size])
    vec = _cls_is(v, 'VECTOR')
    return [(_and(vec, _cls_is(i, 'int'), in_range), ast.Subscript(items, i, ast.Load())),
            (_and(vec, _cls_is(i, 'float'), in_range, ast.Call(_attr(i, 'is_integer'), [], [])),
             ast.Subscript(items, ast.Call(_g('int'), [i], []), ast.Load()))]


def _vector_set(v, i, x):
    """vector-set! at an exact integer index in range: the element stored,
    the value Nil (an Effect, not an expression: BuiltinCalls.inline)."""
    items = _attr(v, 'items')
    in_range = ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [i, ast.Call(_g('len'), [items], [])])
    return [(_and(_cls_is(v, 'VECTOR'), _cls_is(i, 'int'), in_range),
             Effect(ast.Subscript(items, i, ast.Store()), x, _g('NIL')))]


_vector_set.stores = True      # (its value an Effect: small.py computes no such call in place)


def _hash_key(h, k):
    """h a hash and k a key that is its own image (a string, a symbol, an exact integer: hashes.hash_ref)."""
    return _and(_cls_is(h, 'HASH'), _or(_cls_is(k, 'str'), _cls_is(k, 'Symbol'), _cls_is(k, 'int')))


def _hash_ref(h, k, default=None):
    """hash-ref of such a key: its value if present, else the default (none given: the builtin's error)."""
    table = _attr(h, 'table')
    present = ast.Compare(k, [ast.In()], [table])
    value = ast.Subscript(ast.Subscript(table, k, ast.Load()), _const(1), ast.Load())
    if default is None:
        return [(_and(_hash_key(h, k), present), value)]
    return [(_hash_key(h, k), ast.IfExp(present, value, default))]


def _hash_set(h, k, v):
    """hash-set! of such a key: (key, value) stored, a key present kept (the value Nil)."""
    table = _attr(h, 'table')
    key = ast.IfExp(ast.Compare(k, [ast.In()], [table]),
                    ast.Subscript(ast.Subscript(table, k, ast.Load()), _const(0), ast.Load()), k)
    return [(_hash_key(h, k), Effect(ast.Subscript(_attr(h, 'table'), k, ast.Store()),
                                     ast.Tuple([key, v], ast.Load()), _g('NIL')))]


_hash_set.stores = True


class Effect:
    """An inlined builtin's effect: `target = value`, then `result` its value."""
    __slots__ = ('target', 'value', 'result')

    def __init__(self, target, value, result):
        self.target, self.value, self.result = target, value, result


def _div(x, y):
    """/ of two floats, the divisor not zero (the builtin divides by the
    product of the rest, 1.0 * y), or of a float by a non-zero integer
    literal (its float, exact below 2**53)."""
    out = [(_and(_float2(x, y), ast.Compare(y, [ast.NotEq()], [_const(0.0)])),
            _binop(x, ast.Div(), _binop(_const(1.0), ast.Mult(), y)))]
    if _small_int(y) and y.value != 0:
        out.append((_cls_is(x, 'float'), _binop(x, ast.Div(), _const(float(y.value)))))
    return out


def _int_positive(op):
    """An operator over a non-negative and a positive exact integer, where
    floor and truncation agree."""
    def build(x, y):
        return [(_and(_int2(x, y), ast.Compare(x, [ast.GtE()], [_const(0)]), ast.Compare(y, [ast.Gt()], [_const(0)])),
                 _binop(x, op(), y))]
    return build


def _string_ref(s, i):
    """A string and an exact integer index in range."""
    return [(_and(_cls_is(s, 'str'), _cls_is(i, 'int'), ast.Compare(_const(0), [ast.LtE(), ast.Lt()],
                                                                     [i, ast.Call(_g('len'), [s], [])])),
             ast.Subscript(s, i, ast.Load()))]


def _substring(s, start, end=None):
    """substring of a string between exact integer positions in order and in range."""
    positions = [start, ast.Call(_g('len'), [s], [])] if end is None else [start, end, ast.Call(_g('len'), [s], [])]
    in_range = ast.Compare(_const(0), [ast.LtE()] * len(positions), positions)
    return [(_and(_cls_is(s, 'str'), *[_cls_is(x, 'int') for x in positions[:-1]], in_range),
             ast.Subscript(s, ast.Slice(start, end, None), ast.Load()))]


def _joined(xs):
    """The strings xs joined: one of them itself; else an f-string of them, made
    in one allocation as the builtin's join makes it (`a + b + c` would copy
    a long first string twice), literals merged, no call."""
    if len(xs) == 1:
        return xs[0]
    parts = []
    for x in xs:
        if x.__class__ is ast.Constant and parts and parts[-1].__class__ is ast.Constant:
            parts[-1] = _const(parts[-1].value + x.value)
        elif x.__class__ is ast.Constant:
            parts.append(x)
        else:       # (an exact integer's str(y) is how an f-string writes y)
            shown = x.args[0] if x.__class__ is ast.Call and x.func.__class__ is ast.Name and x.func.id == 'str' else x
            parts.append(ast.FormattedValue(shown, -1, None))
    return ast.JoinedStr(parts)


def _concat(*xs):
    """string-append of strings (the builtin joins them); a literal of another kind: none."""
    if any(x.__class__ is ast.Constant and x.value.__class__ is not str for x in xs):
        return [(_const(False), _const(None))]
    return [(_and(*[_cls_is(x, 'str') for x in xs]), _joined(xs))]


def _text_of(x, kind):
    """(guard, text) of str's part x taken as a `kind` ('str' or 'int'): an exact
    integer below 10**15 in magnitude prints as str() writes it."""
    if kind == 'str':
        return _cls_is(x, 'str'), x
    small = ast.Compare(_const(-10 ** 15), [ast.Lt(), ast.Lt()], [x, _const(10 ** 15)])
    return _and(_cls_is(x, 'int'), small), ast.Call(_g('str'), [x], [])


def _literal_text(v):
    """(guard, text) of a literal part of str: a string, or an exact integer's digits (below 10**15)."""
    if v.__class__ is str:
        return _const(True), _const(v)
    return _const(-10 ** 15 < v < 10 ** 15), _const(str(v))


def _str(*xs):
    """str of strings and exact integers (their texts joined), at most two of
    them not literals: a case for each mix, exact integers first."""
    if any(x.__class__ is ast.Constant and x.value.__class__ not in (str, int) for x in xs):
        return [(_const(False), _const(None))]
    variable = [i for i, x in enumerate(xs) if x.__class__ is not ast.Constant]
    if len(variable) > 2:
        return [(_const(False), _const(None))]
    cases = []
    for kinds in itertools.product(('int', 'str'), repeat=len(variable)):
        chosen = dict(zip(variable, kinds))
        parts = [_text_of(x, chosen[i]) if i in chosen else _literal_text(x.value) for i, x in enumerate(xs)]
        cases.append((_and(*[guard for guard, _ in parts]), _joined([text for _, text in parts])))
    return cases


def _parity(rest: int):
    """even? (rest 0) or odd? (rest 1) of an exact integer."""
    return lambda x: [(_cls_is(x, 'int'), ast.Compare(_binop(x, ast.Mod(), _const(2)), [ast.Eq()], [_const(rest)]))]


def _compare(op):
    def build(x, y):
        return [(_and(_num(x), _num(y)), ast.Compare(x, [op], [y]))]
    return build


def _pair(x):
    return _and(_cls_is(x, 'List'), _is_not(x, _g('EMPTY')))


def _identity(x, y):
    """x or y a symbol or a boolean: compared by identity."""
    return _or(_cls_is(x, 'Symbol'), _cls_is(x, 'bool'), _cls_is(y, 'Symbol'), _cls_is(y, 'bool'))


def _always(value):
    def build(*xs):
        return [(None, value(*xs))]
    return build


# + folds from 0 (0.0 + x + y keeps (+ -0.0 -0.0) at 0.0); - subtracts 0 + y
INLINE = {
    '+': (2, _arith(lambda x, y: _binop(x, ast.Add(), y),
                    lambda x, y: _binop(_binop(_const(0.0), ast.Add(), x), ast.Add(), y))),
    '-': (2, _arith(lambda x, y: _binop(x, ast.Sub(), y),
                    lambda x, y: _binop(x, ast.Sub(), _binop(_const(0.0), ast.Add(), y)))),
    '*': (2, _arith(lambda x, y: _binop(x, ast.Mult(), y), lambda x, y: _binop(x, ast.Mult(), y))),
    '<': (2, _compare(ast.Lt())),
    '>': (2, _compare(ast.Gt())),
    '<=': (2, _compare(ast.LtE())),
    '>=': (2, _compare(ast.GtE())),
    '=': (2, _compare(ast.Eq())),
    'car': (1, lambda x: [(_pair(x), _attr(x, 'car'))]),
    'cdr': (1, lambda x: [(_pair(x), _attr(x, 'cdr'))]),
    'cons': (2, lambda x, y: [(_is(_cls(y), _g('List')), ast.Call(_g('CONS'), [x, y], []))]),
    'null?': (1, _always(lambda x: _or(_is(x, _g('NIL')), _is(x, _g('EMPTY'))))),
    'pair?': (1, _always(lambda x: _pair(x))),
    'not': (1, _always(lambda x: _is(x, _const(False)))),
    # eq? and equal? of a symbol or a boolean (either side) are identity (values._equal_atom)
    'eq?': (2, lambda x, y: [(_identity(x, y), _is(x, y))]),
    # equal? also compares exact integers and strings of one class by value (the rest: the builtin)
    'equal?': (2, lambda x, y: [(_identity(x, y), _is(x, y)),
                                (_and(_or(_cls_is(x, 'int'), _cls_is(x, 'str')), _is(_cls(y), _cls(x))),
                                 ast.Compare(x, [ast.Eq()], [y]))]),
    'zero?': (1, lambda x: [(_num(x), ast.Compare(x, [ast.Eq()], [_const(0)]))]),
    # an exact remainder of non-negative over positive exact integers (the rest: the builtin)
    'mod': (2, lambda x, y: [(_and(_int2(x, y), ast.Compare(x, [ast.GtE()], [_const(0)]),
                                   ast.Compare(y, [ast.Gt()], [_const(0)])), _binop(x, ast.Mod(), y))]),
    # an exact integer below 1e15 prints as str does, and so does a float with an integral value (-0 as 0)
    'number->string': (1, lambda x: [(_and(_cls_is(x, 'int'), ast.Compare(_const(-10 ** 15), [ast.Lt(), ast.Lt()],
                                                                          [x, _const(10 ** 15)])),
                                      ast.Call(_g('str'), [x], [])),
                                     (_and(_num(x), ast.Compare(_const(-1e15), [ast.Lt(), ast.Lt()], [x, _const(1e15)]),
                                           ast.Compare(_binop(x, ast.Mod(), _const(1)), [ast.Eq()], [_const(0)])),
                                      ast.Call(_g('str'), [ast.Call(_g('int'), [x], [])], []))]),
    'vector-ref': (2, _vector_ref),
    'vector-set!': (3, _vector_set),
    'vector-length': (1, lambda v: [(_cls_is(v, 'VECTOR'), ast.Call(_g('len'), [_attr(v, 'items')], []))]),
    '/': (2, _div),
    # floor modulo of exact integers, the divisor not zero (Python's %)
    'modulo': (2, lambda x, y: [(_and(_int2(x, y), ast.Compare(y, [ast.NotEq()], [_const(0)])),
                                 _binop(x, ast.Mod(), y))]),
    'remainder': (2, _int_positive(ast.Mod)),
    'quotient': (2, _int_positive(ast.FloorDiv)),
    'even?': (1, _parity(0)),
    'odd?': (1, _parity(1)),
    'positive?': (1, lambda x: [(_num(x), ast.Compare(x, [ast.Gt()], [_const(0)]))]),
    'negative?': (1, lambda x: [(_num(x), ast.Compare(x, [ast.Lt()], [_const(0)]))]),
    'string-length': (1, lambda s: [(_cls_is(s, 'str'), ast.Call(_g('len'), [s], []))]),
    'string-ref': (2, _string_ref),
    'substring': (3, _substring),
    'hash-ref': (3, _hash_ref),
    'hash-set!': (3, _hash_set),
    'string=?': (2, lambda x, y: [(_and(_cls_is(x, 'str'), _cls_is(y, 'str')), ast.Compare(x, [ast.Eq()], [y]))]),
    'number?': (1, _always(lambda x: _num(x))),
    'symbol?': (1, _always(lambda x: _is(_cls(x), _g('Symbol')))),
    'string?': (1, _always(lambda x: _is(_cls(x), _g('str')))),
    'boolean?': (1, _always(lambda x: _is(_cls(x), _g('bool')))),
    'vector?': (1, _always(lambda x: _is(_cls(x), _g('VECTOR')))),
    'list?': (1, _always(lambda x: _or(_is(_cls(x), _g('List')), _is(x, _g('NIL'))))),
    # a float's is_integer is false for infinities and NaN (the builtin's isfinite)
    'integer?': (1, _always(lambda x: _or(_cls_is(x, 'int'), _and(_cls_is(x, 'float'),
                                                                  ast.Call(_attr(x, 'is_integer'), [], []))))),
    'exact?': (1, lambda x: [(_cls_is(x, 'int'), _const(True)), (_cls_is(x, 'float'), _const(False))]),
    'inexact?': (1, lambda x: [(_cls_is(x, 'float'), _const(True)), (_cls_is(x, 'int'), _const(False))]),
}
for _alias, _op in (('add', '+'), ('sub', '-'), ('mul', '*'), ('lt', '<'), ('gt', '>'), ('le', '<='),
                    ('ge', '>='), ('first', 'car'), ('rest', 'cdr'), ('nil?', 'null?'),
                    ('eq', 'eq?'), ('div', '/')):
    INLINE[_alias] = INLINE[_op]

# The inlined builtins whose result on exact integers is an exact integer
# (or an error): what kinds.py knows of a call of one the guards refused.
INT_CLOSED = frozenset(('+', '-', '*', 'mod', 'add', 'sub', 'mul', 'modulo', 'remainder', 'quotient'))

# The inlined builtins that fail unless their argument is a pair: once a
# call of one has a value, its argument is known to be a cell (kinds.py).
PAIR_ONLY = frozenset(('car', 'cdr'))


def _list(*xs):
    """`list` of a few values: the cells built in place, innermost first."""
    value = _g('EMPTY')
    for x in reversed(xs):
        value = ast.Call(_g('CONS'), [x, value], [])
    return [(None, value)]


def _sum(op, start):
    """+ or * of three or more: all exact integers, or all floats (the builtin
    folds floats from `start`, 0.0 + a + b… and 1.0 * a…, which is a * b…)."""
    def build(*xs):
        ints, floats = xs[0], xs[0] if start is None else _binop(_const(start), op(), xs[0])
        for x in xs[1:]:
            ints, floats = _binop(ints, op(), x), _binop(floats, op(), x)
        return [(_and(*[_cls_is(x, 'int') for x in xs]), ints), (_and(*[_cls_is(x, 'float') for x in xs]), floats)]
    return build


def _difference(*xs):
    """- of three or more: all exact integers, or all floats (the builtin
    subtracts the sum of the rest, which it folds from 0.0 for floats)."""
    ints, floats = xs[1], _binop(_const(0.0), ast.Add(), xs[1])
    for x in xs[2:]:
        ints, floats = _binop(ints, ast.Add(), x), _binop(floats, ast.Add(), x)
    return [(_and(*[_cls_is(x, 'int') for x in xs]), _binop(xs[0], ast.Sub(), ints)),
            (_and(*[_cls_is(x, 'float') for x in xs]), _binop(xs[0], ast.Sub(), floats))]


# The builtins of any arity from 1 (the smallest: INLINE's, when it has
# one) to the largest inlined: name -> (largest, builder).
VARIADIC = {'list': (4, _list), '+': (4, _sum(ast.Add, 0.0)), '*': (4, _sum(ast.Mult, None)), '-': (4, _difference)}
VARIADIC['add'], VARIADIC['mul'], VARIADIC['sub'] = VARIADIC['+'], VARIADIC['*'], VARIADIC['-']
VARIADIC['string-append'] = (4, _concat)
VARIADIC['str'] = (4, _str)

# The builtins inlined with one argument besides INLINE's: (- x), its negation.
UNARY = {'-': lambda x: [(_num(x), ast.UnaryOp(ast.USub(), x))]}
UNARY['sub'] = UNARY['-']
BINARY = {'substring': _substring, 'hash-ref': _hash_ref}     # with two arguments besides INLINE's


def inline_spec(b, nargs: int):
    """The builder of builtin b called with nargs arguments, if it is inlined."""
    spec = INLINE.get(b.name)
    if spec is not None and spec[0] == nargs:
        return spec[1]
    if nargs == 1 and b.name in UNARY:
        return UNARY[b.name]
    if nargs == 2 and b.name in BINARY:
        return BINARY[b.name]
    least = 1 if spec is None else spec[0] + 1
    spec = VARIADIC.get(b.name)
    return spec[1] if spec is not None and least <= nargs <= spec[0] else None


def _cdr_pair(x):
    return _and(_pair(x), _is_not(_attr(x, 'cdr'), _g('EMPTY')))


def _car_pair(x):
    return _and(_pair(x), _cls_is(_attr(x, 'car'), 'List'), _is_not(_attr(x, 'car'), _g('EMPTY')))


# The standard library's car/cdr compositions, computed in place while the
# name holds the library's own lambda: name -> builder(x) -> (guard, value).
LIBRARY = {
    'cadr': lambda x: (_cdr_pair(x), _attr(_attr(x, 'cdr'), 'car')),
    'cddr': lambda x: (_cdr_pair(x), _attr(_attr(x, 'cdr'), 'cdr')),
    'caddr': lambda x: (_and(_cdr_pair(x), _is_not(_attr(_attr(x, 'cdr'), 'cdr'), _g('EMPTY'))),
                        _attr(_attr(_attr(x, 'cdr'), 'cdr'), 'car')),
    'caar': lambda x: (_car_pair(x), _attr(_attr(x, 'car'), 'car')),
    'cdar': lambda x: (_car_pair(x), _attr(_attr(x, 'car'), 'cdr')),
}


def library_spec(unit, lam, name: str, nargs: int):
    """The builder of library lambda `lam` called as `name` with nargs
    arguments, if it is the library's own and computed in place."""
    spec = LIBRARY.get(lam.name)
    if spec is None or nargs != 1 or lam.fast != 1:
        return None
    find = getattr(unit.interp, 'library_procedure', None)
    return spec if find is not None and find(lam.name) is lam else None
