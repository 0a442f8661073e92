"""Type predicates, type-of, equality, not and nil."""
from ..errors import EvalError
from ..values import (EMPTY, NIL, PROCEDURE_TYPES, Py, BuiltinTable, List, Macro, Native, NativeGrad,
                      Symbol, Tensor, equal, sym, type_name)

TABLE = BuiltinTable()


# Examples of the builtins registered in loops and helpers below: (expression, write form).
EXAMPLES = {
    'string?': (('(string? "hi")', '#t'),),
    'boolean?': (('(boolean? #f)', '#t'),),
    'symbol?': (("(symbol? 'a)", '#t'),),
    'tensor?': (("(tensor? (zeros '(2)))", '#t'),),
    'macro?': (('(macro? while)', '#t'),),
    'list?': (("(list? '(1 2))", '#t'), ('(list? 5)', '#f')),
    'pair?': (("(pair? '(1))", '#t'), ("(pair? '())", '#f')),
    'procedure?': (('(procedure? car)', '#t'),),
    'native?': (('(native? car)', '#f'),),
    'eq?': (("(eq? '(1 2) '(1 2))", '#t'),),
    'equal?': (("(equal? '(1 (2)) '(1 (2)))", '#t'), ('(equal? 1 "1")', '#f')),
    'eq': (("(eq 'a 'a)", '#t'),),
}


def _type_test(name, test, doc):
    TABLE.fn(name, 1, 1, doc=doc, sig='(%s x)' % name, examples=EXAMPLES[name])(test)


_type_test('string?', lambda x: x.__class__ is str, 'True for strings.')
_type_test('boolean?', lambda x: x.__class__ is bool, 'True for #t and #f.')
_type_test('symbol?', lambda x: x.__class__ is Symbol, 'True for symbols.')
_type_test('tensor?', lambda x: x.__class__ is Tensor, 'True for tensors.')
_type_test('macro?', lambda x: x.__class__ is Macro, 'True for macros.')
_type_test('list?', lambda x: x.__class__ is List or x is NIL, 'True for a list or Nil.')
_type_test('pair?', lambda x: x.__class__ is List and x is not EMPTY, 'True for a non-empty list.')
_type_test('procedure?', lambda x: isinstance(x, PROCEDURE_TYPES) or (x.__class__ is Py and callable(x.obj)),
           'True for builtins, lambdas, macros and natives.')
_type_test('native?', lambda x: x.__class__ is Native or x.__class__ is NativeGrad,
           'True for compiled functions.')


def _is_empty(x=NIL):
    return x is NIL or x is EMPTY       # (with no argument: true)


TABLE.fn('nil?', 0, 1, doc='True for Nil or an empty list (or no argument).', sig='(nil? x)',
         examples=(("(nil? '())", '#t'), ('(nil? 0)', '#f')))(_is_empty)
TABLE.fn('null?', 0, 1, doc='True for Nil or an empty list (or no argument).', sig='(null? x)',
         examples=(("(null? '())", '#t'),))(_is_empty)


@TABLE.fn('type-of', 0, 1, doc='The type of a value, as a symbol.', sig='(type-of x)',
          examples=(('(type-of 1)', 'number'), ('(type-of "a")', 'string')))
def type_of(*args):
    if not args:
        return sym('nil')
    return sym(type_name(args[0]))


_NO = object()      # an argument not given


def _equal(a=_NO, b=_NO, *more):
    if b is _NO or more:
        raise EvalError('eq?: 2 args')
    cls = a.__class__
    # Strings, numbers and symbols (the keys of association lists) answered
    # here, as values.equal would, without its walk; all else goes there.
    if cls is str or cls is float or cls is int:
        cb = b.__class__
        return (cls is cb or (cls is not str and (cb is int or cb is float))) and a == b
    if cls is Symbol:
        return a is b
    return equal(a, b)


for _name in ('eq?', 'equal?', 'eq'):
    TABLE.fn(_name, 0, None, doc='Structural equality (procedures are never equal).',
             sig='(%s a b)' % _name, shown='eq?', examples=EXAMPLES[_name])(_equal)


@TABLE.fn('not', 1, 1, doc='#t for #f, #f for everything else.', sig='(not x)',
          examples=(('(not #f)', '#t'), ('(not 0)', '#f')))
def not_(x):
    return x is False


@TABLE.fn('nil', 0, 0, doc='Returns Nil, the void value.', sig='(nil)', examples=(('(nil)', '()'),))
def nil():
    return NIL
