"""`case`: choose a clause by comparing one value with
literal data.

`(case key ((datum…) body…)… (else body…))`: the key is evaluated once, the
data are not evaluated and are compared with `equal?`; the first clause
listing an equal datum runs its body (the last form in tail position), an
`else` clause (last only) always runs, and with no match the result is Nil.
No frame is created: the bodies run in the current one.
"""
from .eval import Usage, comp, comp_body, const, special, sub_span
from .syntax import usage_message
from .values import EMPTY, NIL, List, Symbol, Unhashable, equal, hash_key, sym

ELSE = sym('else')


def clause_parts(x, clause, last: bool):
    """(data as a tuple, or None for else; the body) of a well-formed clause
    of case form x; raises Usage for a malformed one."""
    if clause.__class__ is List and clause is not EMPTY:
        head = clause.car
        if head is ELSE and last:
            return None, clause.cdr
        if head.__class__ is List:
            return tuple(head), clause.cdr
    raise Usage(usage_message(x))


@special('case')
def comp_case(x, scope, tail, span, unit):
    if len(x) < 2:
        raise Usage(usage_message(x))
    key = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    cells = list(x.cdr.cdr.cells())
    clauses = []
    for i, c in enumerate(cells):
        data, body = clause_parts(x, c.car, i == len(cells) - 1)
        clauses.append((data, comp_body(body, scope, tail, sub_span(c, span, unit), unit)))

    def walk(v, f):
        for data, body in clauses:
            if data is None:
                return body(f)
            for d in data:
                if equal(v, d):
                    return body(f)
        return NIL
    table = case_table(clauses)
    if table is None:
        return lambda f: walk(key(f), f)
    otherwise = clauses[-1][1] if clauses and clauses[-1][0] is None else const(NIL)

    def ev(f):
        v = key(f)
        cls = v.__class__
        if cls is Symbol or cls is str or cls is int:       # its own hash key (values.hash_key)
            return table.get(v, otherwise)(f)
        return walk(v, f)
    return ev


def case_table(clauses):
    """{hash key of a datum: the body of the first clause listing it}, keys
    being equal exactly when the data are `equal?` (values.hash_key); None
    when some datum has no key (a vector, NaN)."""
    table = {}
    for data, body in clauses:
        for d in data or ():
            try:
                table.setdefault(hash_key(d), body)
            except Unhashable:
                return None
    return table
