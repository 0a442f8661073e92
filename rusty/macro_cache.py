"""When a macro's expansion may be cached at its call site.

Macros are late-bound and expanded each time their call is evaluated
. Re-expanding and recompiling in a hot loop is costly, so a
call site keeps its last expansion when doing so is unobservable: the macro is
the same object, no global has been (re)defined or assigned since (the epoch
in resolve.py), and the macro body is pure — it only computes with its
arguments through pure builtins and lambdas it creates itself, and has no side
effects (no output, gensym, assignment, eval, load or definition outside its
own frame). Everything else is expanded every time, as the language says.

Which special forms have effects, and how each one's items are read, comes
from the forms table (forms.py): an effectful form is impure without further
look, and a form whose syntax this check has no rule for is impure too.
"""
from .resolve import FORM_OF, MISSING
from .values import EMPTY, Builtin, List, Symbol, sym

PURE_BUILTINS = frozenset('''
    + - * / mod expt abs floor ceiling round sqrt exp log sin cos tan atan atan2 max min gcd
    = < > <= >= neq add sub mul div gt lt ge le zero? positive? negative? odd? even? number?
    string? boolean? symbol? tensor? macro? list? pair? nil? null? procedure? native? type-of
    eq? equal? eq not nil error
    cons car cdr list length append reverse nth member list-tail map filter foldl foldr apply sort
    string-length string-append string-append-list substring string-ref string=? number->string
    string->number symbol->string string->symbol string->list str string-split format
'''.split())

ELSE = sym('else')


class Impure(Exception):
    pass


def is_pure(macro, genv) -> bool:
    """True if expanding `macro` has no effects and depends only on its arguments
    and the current global definitions."""
    try:
        locals_ = set(macro.params) | ({macro.rest} if macro.rest else set())
        for form in macro.body:
            _check(form, locals_, genv)
        return True
    except Impure:
        return False


def _symbols(x):
    """Every symbol in a (pattern or parameter) form."""
    stack = [x]
    while stack:
        y = stack.pop()
        if y.__class__ is Symbol:
            yield y
        elif y.__class__ is List:
            stack.extend(y)


def _ref(s: Symbol, locals_: set, genv) -> None:
    if s in locals_:
        return
    v = genv.lookup(s)
    if v is MISSING or v.__class__ in (float, int, str, bool, List, Symbol) or v.__class__.__name__ == 'NilType':
        return      # unbound (an error every time) or plain data (covered by the epoch)
    if v.__class__ is Builtin and v.name in PURE_BUILTINS:
        return
    raise Impure(s.name)


def _check(x, locals_: set, genv) -> None:
    if x.__class__ is Symbol:
        _ref(x, locals_, genv)
        return
    if x.__class__ is not List or x is EMPTY:
        return
    head = x.car
    form = FORM_OF.get(head) if head.__class__ is Symbol else None
    if form is None or form.syntax == 'unquote':    # outside a template unquote is a call
        _call(x, locals_, genv)
        return
    if form.effectful:
        raise Impure(head.name)
    rule = CHECKS.get(form.syntax)
    if rule is None:
        raise Impure(head.name)
    rule(form.syntax, list(x.cdr), locals_, genv)


def _call(x, locals_, genv) -> None:
    """An application: the head and every argument are references."""
    for e in x:
        _check(e, locals_, genv)


def _each(syntax, args, locals_, genv) -> None:
    for e in args:
        _check(e, locals_, genv)


def _quasiquote(syntax, args, locals_, genv) -> None:
    _template(args[0] if args else None, locals_, genv)


def _lambda(syntax, args, locals_, genv) -> None:
    if args:
        inner = locals_ | set(_symbols(args[0]))
        for e in args[1:]:
            _check(e, inner, genv)


def _match(syntax, args, locals_, genv) -> None:
    if args:
        _check(args[0], locals_, genv)
    for clause in args[1:]:
        if clause.__class__ is List and clause is not EMPTY:
            inner = locals_ | set(_symbols(clause.car))
            for e in clause.cdr:
                _check(e, inner, genv)


def _try(syntax, args, locals_, genv) -> None:
    if len(args) >= 3:
        _check(args[0], locals_, genv)
        _check(args[2], locals_ | set(_symbols(args[1])), genv)


def _cond(syntax, args, locals_, genv) -> None:
    for clause in args:
        if clause.__class__ is List:
            for e in clause:
                if e is not ELSE:
                    _check(e, locals_, genv)


def _case(syntax, args, locals_, genv) -> None:
    """The key and the clause bodies; the data are never evaluated."""
    if args:
        _check(args[0], locals_, genv)
    for clause in args[1:]:
        if clause.__class__ is List and clause is not EMPTY:
            for e in clause.cdr:
                _check(e, locals_, genv)


def _definition(syntax, args, locals_, genv) -> None:
    """define/def bind in the macro's own frame: the name becomes local."""
    if not args:
        return
    target = args[0]
    if target.__class__ is List and target is not EMPTY:         # (define (f . params) body…)
        locals_.add(target.car)
        inner = locals_ | set(_symbols(target.cdr))
    elif syntax == 'def' and len(args) > 2:            # (def f params body…)
        locals_.add(target)
        inner = locals_ | set(_symbols(args[1]))
        args = args[1:]
    else:                                                # (define name value)
        locals_.add(target)
        inner = locals_
    for e in args[1:]:
        _check(e, inner, genv)


def _binding_form(syntax, args, locals_, genv) -> None:
    """let, let*, letrec(*), named let and do, each with its own init scope."""
    if not args:
        return
    named = syntax == 'let' and args[0].__class__ is Symbol
    bindings = (args[1] if len(args) > 1 else None) if named else args[0]
    body = args[2:] if named else args[1:]
    specs = [b for b in bindings if b.__class__ is List and b is not EMPTY] if bindings.__class__ is List else []
    names = [b.car for b in specs]
    inner = locals_ | set(names) | ({args[0]} if named else set())
    seen = set(locals_)
    for b in specs:
        init_scope = {'let*': seen, 'letrec': inner}.get(syntax, locals_)
        for k, e in enumerate(b.cdr):
            _check(e, inner if (syntax == 'do' and k > 0) else init_scope, genv)
        seen = seen | {b.car}
    for e in body:
        _check(e, inner, genv)


def _template(t, locals_, genv) -> None:
    stack = [t]
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x is EMPTY:
            continue
        if len(x) == 2 and x.car in UNQUOTES:
            _check(x.cdr.car, locals_, genv)
        else:
            stack.extend(x)


UNQUOTES = (sym('unquote'), sym('unquote-splicing'))

# syntax (forms.py) -> how the purity check reads such a form
CHECKS = {'quote': lambda *_: None, 'quasiquote': _quasiquote, 'sequence': _each,
          'cond': _cond, 'case': _case, 'try': _try, 'lambda': _lambda, 'let': _binding_form,
          'let*': _binding_form, 'letrec': _binding_form, 'do': _binding_form, 'match': _match,
          'define': _definition, 'def': _definition}
