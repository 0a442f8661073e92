"""`grad`: symbolic derivative of a one-expression lambda.

The derivative is built exactly as the table prescribes — its shape fixes the
floating-point result — by one rule per operator.
"""
from ..errors import EvalError
from ..printer import display_form
from ..values import EMPTY, BuiltinTable, Lambda, List, Symbol, make_list, sym

TABLE = BuiltinTable()
S = {n: sym(n) for n in '+ - * / expt sqrt exp log sin cos tan atan if'.split()}
ZERO, ONE, TWO = 0, 1, 2


def L(*xs) -> List:
    return make_list(xs)


def is_zero(d) -> bool:
    return (d.__class__ is int or d.__class__ is float) and d == 0


def _sum(ops, v):
    terms = [d for d in (D(a, v) for a in ops) if not is_zero(d)]
    return L(S['+'], *terms) if terms else ZERO


def _diff(ops, v):
    return L(S['-'], *[D(a, v) for a in ops])


def _product(ops, v):
    terms = []
    for i, a in enumerate(ops):
        d = D(a, v)
        if not is_zero(d):
            terms.append(L(S['*'], *ops[:i], d, *ops[i + 1:]))
    return L(S['+'], *terms) if terms else ZERO


def _quotient(ops, v):
    if len(ops) == 1:
        a = ops[0]
        return L(S['-'], L(S['/'], D(a, v), L(S['*'], a, a)))
    if len(ops) == 2:
        a, b = ops
        return L(S['/'], L(S['-'], L(S['*'], D(a, v), b), L(S['*'], a, D(b, v))), L(S['*'], b, b))
    return D(L(S['/'], ops[0], L(S['*'], *ops[1:])), v)


def _expt(ops, v):
    if len(ops) != 2 or (ops[1].__class__ is not float and ops[1].__class__ is not int):
        raise EvalError('grad: expt only supports a constant numeric exponent')
    a, n = ops
    return L(S['*'], n, L(S['expt'], a, n - 1), D(a, v))


def _if(ops, v):
    c, t = ops[0], ops[1]
    e = D(ops[2], v) if len(ops) > 2 else ZERO
    return L(S['if'], c, D(t, v), e)


def _unary(build):
    def rule(ops, v):
        return build(ops[0], D(ops[0], v))
    return rule


RULES = {
    '+': _sum,
    '-': _diff,
    '*': _product,
    '/': _quotient,
    'expt': _expt,
    'sqrt': _unary(lambda a, d: L(S['/'], d, L(S['*'], TWO, L(S['sqrt'], a)))),
    'exp': _unary(lambda a, d: L(S['*'], L(S['exp'], a), d)),
    'log': _unary(lambda a, d: L(S['/'], d, a)),
    'sin': _unary(lambda a, d: L(S['*'], L(S['cos'], a), d)),
    'cos': _unary(lambda a, d: L(S['*'], L(S['-'], L(S['sin'], a)), d)),
    'tan': _unary(lambda a, d: L(S['/'], d, L(S['*'], L(S['cos'], a), L(S['cos'], a)))),
    'atan': _unary(lambda a, d: L(S['/'], d, L(S['+'], ONE, L(S['*'], a, a)))),
    'if': _if,
}


def D(e, v: Symbol):
    """The derivative of expression e with respect to v."""
    if e.__class__ is not List or e is EMPTY:
        return ONE if e is v else ZERO
    head = e.car
    rule = RULES.get(head.name) if head.__class__ is Symbol else None
    ops = list(e.cdr)
    if rule is None or (head.name == '/' and not ops) or (head.name in ('sqrt', 'exp', 'log', 'sin', 'cos', 'tan', 'atan') and len(ops) != 1) \
            or (head.name == 'if' and len(ops) < 2):
        raise EvalError("grad: unsupported operator '%s' in body" % display_form(head))
    if head.name == '-' and len(ops) == 1:
        return L(S['-'], D(ops[0], v))
    return rule(ops, v)


@TABLE.fn('grad', 1, 1, host=True, doc='The derivative of a one-expression lambda in its first parameter.',
          sig='(grad f)', examples=(('((grad (lambda (x) (* x x))) 3)', '6'),))
def grad(host, f):
    if f.__class__ is not Lambda:
        raise EvalError('grad: argument must be a lambda')
    if not f.params:
        raise EvalError('grad: lambda must have at least one parameter')
    if len(f.body) != 1:
        raise EvalError('grad: lambda body must be a single expression')
    return host.make_lambda(f, L(D(f.body.car, f.params[0])))
