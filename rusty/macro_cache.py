"""When a macro's expansion may be cached at its call site.

Macros are late-bound and expanded each time their call is evaluated
(LANGUAGE.md §6.9). Re-expanding and recompiling in a hot loop is costly, so a
call site keeps its last expansion when doing so is unobservable: the macro is
the same object, no global has been (re)defined or assigned since (the epoch
in resolve.py), and the macro body is pure — it only computes with its
arguments through pure builtins and lambdas it creates itself, and has no side
effects (no output, gensym, assignment, eval, load or definition outside its
own frame). Everything else is expanded every time, as the language says.
"""
from __future__ import annotations

from .resolve import MISSING
from .values import Builtin, List, Symbol, sym

PURE_BUILTINS = frozenset('''
    + - * / mod expt abs floor ceiling round sqrt exp log sin cos tan atan atan2 max min gcd
    = < > <= >= neq add sub mul div gt lt ge le zero? positive? negative? odd? even? number?
    string? boolean? symbol? tensor? macro? list? pair? nil? null? procedure? native? type-of
    eq? equal? eq not nil error
    cons car cdr list length append reverse nth member list-tail map filter foldl foldr apply sort
    string-length string-append string-append-list substring string-ref string=? number->string
    string->number symbol->string string->symbol string->list str string-split format
'''.split())

_S = {n: sym(n) for n in '''quote quasiquote unquote unquote-splicing lambda fn λ let let* letrec
    letrec* do define def if cond when unless and or begin match try-catch'''.split()}
IMPURE_FORMS = frozenset(map(sym, '''set! set eval eval-when load load-relative defmacro
    define-macro defrust defrust*'''.split()))
LAMBDAS = (_S['lambda'], _S['fn'], _S['λ'])
LETS = (_S['let'], _S['let*'], _S['letrec'], _S['letrec*'])


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
    if v is MISSING or v.__class__ in (float, str, bool, List, Symbol) or v.__class__.__name__ == 'NilType':
        return      # unbound (an error every time) or plain data (covered by the epoch)
    if v.__class__ is Builtin and v.name in PURE_BUILTINS:
        return
    raise Impure(s.name)


def _check(x, locals_: set, genv) -> None:
    if x.__class__ is Symbol:
        _ref(x, locals_, genv)
        return
    if x.__class__ is not List or x.len == 0:
        return
    head = x.car
    args = list(x.cdr)
    if head.__class__ is not Symbol:
        for e in x:
            _check(e, locals_, genv)
        return
    if head in IMPURE_FORMS:
        raise Impure(head.name)
    if head is _S['quote']:
        return
    if head is _S['quasiquote']:
        _template(args[0] if args else None, locals_, genv)
        return
    if head in LAMBDAS and args:
        inner = locals_ | set(_symbols(args[0]))
        for e in args[1:]:
            _check(e, inner, genv)
        return
    if head in LETS or head is _S['do']:
        _binding_form(head, args, locals_, genv)
        return
    if head in (_S['define'], _S['def']) and args:
        _definition(head, args, locals_, genv)
        return
    if head is _S['match']:
        if args:
            _check(args[0], locals_, genv)
        for clause in args[1:]:
            if clause.__class__ is List and clause.len:
                inner = locals_ | set(_symbols(clause.car))
                for e in clause.cdr:
                    _check(e, inner, genv)
        return
    if head is _S['try-catch']:
        if len(args) >= 3:
            _check(args[0], locals_, genv)
            _check(args[2], locals_ | set(_symbols(args[1])), genv)
        return
    if head is _S['cond']:
        for clause in args:
            if clause.__class__ is List:
                for e in clause:
                    if e is not sym('else'):
                        _check(e, locals_, genv)
        return
    if head in (_S['if'], _S['when'], _S['unless'], _S['and'], _S['or'], _S['begin']):
        for e in args:
            _check(e, locals_, genv)
        return
    _ref(head, locals_, genv)
    for e in args:
        _check(e, locals_, genv)


def _definition(head, args, locals_, genv) -> None:
    """define/def bind in the macro's own frame: the name becomes local."""
    target = args[0]
    if target.__class__ is List and target.len:         # (define (f . params) body…)
        locals_.add(target.car)
        inner = locals_ | set(_symbols(target.cdr))
    elif head is _S['def'] and len(args) > 2:            # (def f params body…)
        locals_.add(target)
        inner = locals_ | set(_symbols(args[1]))
        args = args[1:]
    else:                                                # (define name value)
        locals_.add(target)
        inner = locals_
    for e in args[1:]:
        _check(e, inner, genv)


def _binding_form(head, args, locals_, genv) -> None:
    """let, let*, letrec(*), named let and do, each with its own init scope."""
    if not args:
        return
    named = head is _S['let'] and args[0].__class__ is Symbol
    bindings = (args[1] if len(args) > 1 else None) if named else args[0]
    body = args[2:] if named else args[1:]
    specs = [b for b in bindings if b.__class__ is List and b.len] if bindings.__class__ is List else []
    names = [b.car for b in specs]
    inner = locals_ | set(names) | ({args[0]} if named else set())
    seen = set(locals_)
    for b in specs:
        init_scope = {LETS[1]: seen, LETS[2]: inner, LETS[3]: inner}.get(head, locals_)
        for k, e in enumerate(b.cdr):
            _check(e, inner if (head is _S['do'] and k > 0) else init_scope, genv)
        seen = seen | {b.car}
    for e in body:
        _check(e, inner, genv)


def _template(t, locals_, genv) -> None:
    stack = [t]
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x.len == 0:
            continue
        if x.len == 2 and (x.car is _S['unquote'] or x.car is _S['unquote-splicing']):
            _check(x.cdr.car, locals_, genv)
        else:
            stack.extend(x)
