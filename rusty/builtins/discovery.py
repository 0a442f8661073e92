"""help, apropos, describe and doc: they read the global environment."""
from ..errors import EvalError
from ..printer import display_form
from .args import expected
from ..values import NIL, BuiltinTable, Py, Symbol

TABLE = BuiltinTable()

OVERVIEW = """rusty — a Lisp you can live in.
  (apropos "text")   list every special form and global whose name contains text
  (describe 'name)   say what a name is bound to
  (doc 'name)        the documentation of a name, as a string
  (help 'name)       describe, then the documentation; (help "text") same as apropos
Special forms: define lambda let let* letrec do if cond when unless and or begin
match try-catch quote quasiquote eval defmacro load defrust defrust*
"""


def _text(x, who: str, kinds='string or symbol') -> str:
    if x.__class__ is str:
        return x
    if x.__class__ is Symbol:
        return x.name
    raise expected(who, kinds, x)


def apropos_names(host, text: str) -> list[str]:
    """Special forms and bound globals whose names contain text, sorted."""
    return sorted(set(n for n in host.special_names + host.global_names() if text in n))


def describe_line(host, name: str) -> str:
    if name in host.special_names:
        return '%s: special form' % name
    v = host.global_value(name)
    if v is None:
        return '%s: undefined' % name
    return '%s: %s' % (name, display_form(v))


@TABLE.fn('apropos', 1, 1, host=True, doc='Print every special form and global whose name contains text.',
          sig='(apropos text)', examples=(('(apropos "string-app")', '()'),))
def apropos(host, text):
    for n in apropos_names(host, _text(text, 'apropos')):
        host.out.write('  %s\n' % n)
    return NIL


@TABLE.fn('describe', 1, 1, host=True, doc='Print what a name is bound to.', sig="(describe 'name)",
          examples=(("(describe 'car)", '()'),))
def describe(host, name):
    host.out.write(describe_line(host, _text(name, 'describe')) + '\n')
    return NIL


@TABLE.fn('doc', 1, 1, host=True, sig="(doc 'name)",
          doc='The documentation of a special form, builtin or library function, as a string (else #f).',
          examples=(("(doc 'no-such-name)", '#f'), ("(string? (doc 'car))", '#t')))
def doc(host, name):
    if name.__class__ is Py:             # (doc math.sqrt): a Python value's own documentation
        from ..interop import python_doc
        text = python_doc(name.obj)
    else:
        text = host.documentation(_text(name, 'doc'))
    return False if text is None else text


@TABLE.fn('help', 0, 1, host=True, sig='(help [name-or-text])',
          doc='An overview; (help \'name) describes a name and shows its documentation; (help "text") searches.',
          examples=(("(help 'car)", '()'),))
def help_(host, *args):
    if not args:
        host.out.write(OVERVIEW)
        return NIL
    x = args[0]
    if x.__class__ is Symbol:
        describe(host, x)
        text = host.documentation(x.name)
        if text:
            host.out.write(text + '\n')
        return NIL
    if x.__class__ is str:
        return apropos(host, x)
    raise EvalError('help: expected a string or symbol, got ' + display_form(x))
