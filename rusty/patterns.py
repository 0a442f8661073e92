"""`match`: patterns compiled to matchers that bind
straight into the clause's frame slots."""
from .apply import apply_procedure
from .errors import EvalError
from .eval import Usage, comp, comp_body, special, sub_span
from .printer import display_form
from .resolve import UNBOUND, Scope, body_defines
from .specials import DOT, items
from .syntax import usage_message
from .syntax_shapes import ellipsis_problem
from .syntax_usage import ELLIPSIS, ELLIPSIS_ALONE
from .values import EMPTY, NIL, PROCEDURE_TYPES, Builtin, List, Macro, Py, Symbol, equal, make_list, sym


# ── match ────────────────────────────────────────────────────────────────

QUOTE = sym('quote')
QMARK = sym('?')
CONS = sym('cons')
UNDERSCORE = sym('_')

# The builtin type tests as the matcher runs them: the numeric ones are false
# for non-numbers (where the builtins would raise). Any other procedure is called.
_NUMBERS = (float, int)      # the classes of numbers (never bool)

PREDICATES = {
    'number?': lambda v: v.__class__ in _NUMBERS,
    'string?': lambda v: v.__class__ is str,
    'boolean?': lambda v: v.__class__ is bool,
    'list?': lambda v: v.__class__ is List or v is NIL,
    'symbol?': lambda v: v.__class__ is Symbol,
    'nil?': lambda v: v is NIL or v is EMPTY,
    'pair?': lambda v: v.__class__ is List and v is not EMPTY,
    'zero?': lambda v: v.__class__ in _NUMBERS and v == 0,
    'positive?': lambda v: v.__class__ in _NUMBERS and v > 0,
    'negative?': lambda v: v.__class__ in _NUMBERS and v < 0,
}


class Where:
    """What compiling a `(? pred)` needs: the scope, span and unit of the match form."""
    __slots__ = ('scope', 'span', 'unit')

    def __init__(self, scope, span, unit):
        self.scope = scope
        self.span = span
        self.unit = unit


def comp_pattern(p, slots: dict, where: Where):
    """A matcher m(value, frame) -> bool that stores bindings into frame slots."""
    cls = p.__class__
    if cls is Symbol:
        if p is ELLIPSIS:
            raise Usage(ELLIPSIS_ALONE)
        if p is UNDERSCORE:
            return lambda v, fr: True
        i = slots.setdefault(p, len(slots) + 2)

        def bind(v, fr):
            fr[i] = v
            return True
        return bind
    if cls is float or cls is int:      # equal?: 2 matches 2.0
        return lambda v, fr: (v.__class__ is float or v.__class__ is int) and v == p
    if cls is str:
        return lambda v, fr: v.__class__ is str and v == p
    if cls is bool:
        return lambda v, fr: v is p
    if cls is not List:
        return lambda v, fr: False
    if p is EMPTY:
        return lambda v, fr: v is EMPTY
    if p.car is QUOTE and len(p) == 2:
        datum = p.cdr.car
        return lambda v, fr: equal(v, datum)
    if p.car is QMARK and p.cdr is not EMPTY:
        return comp_predicate(p, slots, where)
    if p.car is CONS and len(p) == 3:
        mh = comp_pattern(p.cdr.car, slots, where)
        mt = comp_pattern(p.cdr.cdr.car, slots, where)
        return lambda v, fr: v.__class__ is List and v is not EMPTY and mh(v.car, fr) and mt(v.cdr, fr)
    elems = items(p)
    rest = None
    if DOT in elems:
        i = elems.index(DOT)
        after = elems[i + 1:]
        if len(after) != 1 or after[0].__class__ is not Symbol or after[0] is ELLIPSIS:
            raise Usage("match: malformed rest pattern after '.'")
        rest = comp_pattern(after[0], slots, where)
        elems = elems[:i]
    if ELLIPSIS in elems:
        return comp_ellipsis(elems, rest is not None, slots, where)
    subs = [comp_pattern(e, slots, where) for e in elems]
    k = len(subs)

    def match_list(v, fr):
        if v.__class__ is not List:
            return False
        if len(v) != k if rest is None else len(v) < k:
            return False
        for m in subs:
            if not m(v.car, fr):
                return False
            v = v.cdr
        return rest is None or rest(v, fr)
    return match_list


def comp_ellipsis(elems: list, dotted: bool, slots: dict, where: Where):
    """`(p1 … q ... r1 … rm)`: the pi match the first elements, the ri the last
    m, and q each element in between (none or more); every variable of q is
    bound to the list of what it matched there, in order (as in Racket's
    `match` and syntax-rules)."""
    problem = ellipsis_problem(elems, dotted)
    if problem is not None:
        raise Usage(problem)
    e = elems.index(ELLIPSIS)
    before = [comp_pattern(x, slots, where) for x in elems[:e - 1]]
    repeated = comp_pattern(elems[e - 1], slots, where)
    names = binders(elems[e - 1])
    after = [comp_pattern(x, slots, where) for x in elems[e + 1:]]
    k, m = len(before), len(after)
    where_bound = [slots[n] for n in dict.fromkeys(names)]

    def match_ellipsis(v, fr):
        if v.__class__ is not List:
            return False
        n = len(v)
        if n < k + m:
            return False
        for sub in before:
            if not sub(v.car, fr):
                return False
            v = v.cdr
        found = [[] for _ in where_bound]
        for _ in range(n - k - m):
            if not repeated(v.car, fr):
                return False
            for got, i in zip(found, where_bound):
                got.append(fr[i])
            v = v.cdr
        for got, i in zip(found, where_bound):
            fr[i] = make_list(got)
        for sub in after:
            if not sub(v.car, fr):
                return False
            v = v.cdr
        return True
    return match_ellipsis


def binders(p) -> list:
    """The variables pattern p binds, as comp_pattern reads it."""
    cls = p.__class__
    if cls is Symbol:
        return [] if p is UNDERSCORE or p is ELLIPSIS or p is DOT else [p]
    if cls is not List or p is EMPTY or (p.car is QUOTE and len(p) == 2):
        return []
    if p.car is QMARK and p.cdr is not EMPTY:
        parts = list(p.cdr.cdr)
    elif p.car is CONS and len(p) == 3:
        parts = list(p.cdr)
    else:
        parts = list(p)
    return [name for q in parts for name in binders(q)]


def comp_predicate(p: List, slots: dict, where: Where):
    """`(? pred p …)`: pred is any expression, evaluated (in the match's own
    scope) each time the pattern is tried; it must give a procedure, which the
    value must satisfy; then the patterns p … must match the same value."""
    pred_code = comp(p.cdr.car, where.scope, False, where.span, where.unit)
    subs = [comp_pattern(e, slots, where) for e in p.cdr.cdr]
    span, depth = where.span, where.unit.depth
    shown = display_form(p.cdr.car)

    def holds(v, fr):
        pred = pred_code(fr[0])
        if pred.__class__ is Builtin and pred.name in PREDICATES:
            ok = PREDICATES[pred.name](v)
        elif (isinstance(pred, PROCEDURE_TYPES) and pred.__class__ is not Macro) or \
                (pred.__class__ is Py and callable(pred.obj)):
            ok = apply_procedure(pred, [v], span, False, depth) is not False
        else:
            raise EvalError('match: (? %s) needs a procedure' % shown, span)
        if not ok:
            return False
        for m in subs:
            if not m(v, fr):
                return False
        return True
    return holds


@special('match')
def comp_match(x, scope, tail, span, unit):
    if len(x) < 3:
        raise Usage(usage_message(x))
    subject = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    clauses = []
    for c in x.cdr.cdr.cells():
        clause = c.car
        if clause.__class__ is not List or clause is EMPTY:
            raise Usage(usage_message(x))
        slots: dict = {}
        matcher = comp_pattern(clause.car, slots, Where(scope, sub_span(c, span, unit), unit))
        mscope = Scope(sorted(slots, key=slots.get), scope)
        for d in body_defines(clause.cdr):
            mscope.add(d, maybe_unbound=True)
        size = len(mscope.names)
        body = comp_body(clause.cdr, mscope, tail, sub_span(c, span, unit), unit)
        clauses.append((matcher, mscope, size, body))

    def ev(f):
        v = subject(f)
        for matcher, mscope, size, body in clauses:
            fr = [f, mscope] + [UNBOUND] * size
            if matcher(v, fr):
                return body(fr)
        raise EvalError('match: no clause matched ' + display_form(v), span)
    return ev
