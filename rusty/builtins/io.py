"""Output, errors and evaluation builtins."""
from ..errors import EvalError
from ..printer import display_form, print_form
from .args import string_arg
from ..values import NIL, BuiltinTable, Symbol, gensym

TABLE = BuiltinTable()


@TABLE.fn('print', 0, None, host=True, doc='Print forms joined by spaces, then a newline.', sig='(print x ...)',
          examples=(('(print "a" 1)', '()'),))
def print_(host, *args):
    host.out.write(' '.join(map(print_form, args)) + '\n')
    return NIL


TABLE.fn('println', 0, None, host=True, doc='Same as print.', sig='(println x ...)',
         examples=(('(println "a" 1)', '()'),))(print_)


@TABLE.fn('display', 0, None, host=True, doc='Write each argument (strings raw), no newline.',
          sig='(display x ...)', examples=(('(display "hi")', '()'),))
def display(host, *args):
    host.out.write(''.join(a if a.__class__ is str else display_form(a) for a in args))
    return NIL


@TABLE.fn('displayln', 0, None, host=True, doc='display, then a newline.',
          sig='(displayln x ...)', examples=(('(displayln "hi")', '()'),))
def displayln(host, *args):
    display(host, *args)
    host.out.write('\n')
    return NIL


@TABLE.fn('newline', 0, 0, host=True, doc='Write a newline.', sig='(newline)', examples=(('(newline)', '()'),))
def newline(host):
    host.out.write('\n')
    return NIL


@TABLE.fn('error', 0, None, doc='Raise an error whose message is the print forms joined by spaces.',
          sig='(error x ...)', examples=(('(error "bad value:" 42)', 'error: bad value: 42'),))
def error(*args):
    raise EvalError(' '.join(map(print_form, args)))


@TABLE.fn('eval-string', 1, 1, host=True, doc='Read and evaluate text in a fresh global environment.',
          sig='(eval-string text)', examples=(('(eval-string "(+ 1 2)")', '3'),))
def eval_string(host, text):
    return host.eval_string(string_arg('eval-string', text))


@TABLE.fn('gensym', 0, 1, doc='A fresh symbol PREFIX__N.', sig='(gensym [prefix])',
          examples=(('(symbol? (gensym))', '#t'),))
def gensym_(prefix='g'):
    if prefix.__class__ is Symbol:
        prefix = prefix.name
    elif prefix.__class__ is not str:
        raise EvalError('gensym: expected a string or symbol, got ' + display_form(prefix))
    return gensym(prefix)
