"""Lowering of `do`: a `while` loop over Python locals, as let_forms.comp_do
runs it on one frame it updates in place (so a closure made in the body sees
the variables change, as it would the reference's frame)."""
import ast

from ..eval import sub_span
from ..resolve import Scope, body_defines
from ..values import EMPTY, List
from .nodes import Unsupported, assign, const, is_not, name


def f_do(low, x, scope, span, fn, tail):
    """`(do ((var init [step])…) (test result…) body…)`: inits in the outer
    scope, then, while test gives #f, the body and every step (all steps
    computed before any is assigned); then the result forms (not in tail
    position: the reference runs them as a plain body)."""
    specs = [(c.car, c) for c in x.cdr.car.cells()]
    test_clause, body_forms = x.cdr.cdr.car, x.cdr.cdr.cdr
    if body_defines(body_forms):
        raise Unsupported('do with define')
    stmts, inits = [], []
    for s, c in specs:
        st, e = low.value(s.cdr.car, scope, sub_span(s.cdr, sub_span(c, span, low.unit), low.unit), fn)
        t = low.fresh('t')
        stmts += st + [assign(t, e)]
        inits.append(t)
    dscope = Scope([s.car for s, _ in specs], scope)
    names = low.bind(dscope, fn)
    stmts += [assign(n, name(t)) for n, t in zip(names, inits)]
    loop = do_loop(low, specs, names, test_clause, body_forms, dscope, span, fn, tail)
    if tail:
        return stmts + loop
    return stmts + loop[0], loop[1]


def do_loop(low, specs, names, test_clause, body_forms, dscope, span, fn, tail):
    """The loop of a `do` whose variables (specs) are the Python names
    `names` of dscope's slots, bound: while the test gives #f, the body and
    the steps; then the result forms (returned when tail, else the
    statements and the result's expression). compile/osr.py continues a
    loop the reference began with it."""
    low.stable.difference_update(names)         # (assigned at every step)
    stmts = []
    ts, te = low.value(test_clause.car, dscope, sub_span(test_clause, span, low.unit), fn)
    loop = ts + [ast.If(is_not(te, const(False)), [ast.Break()], [])]
    if body_forms is not EMPTY:
        bs, be = low.body(body_forms, dscope, span, fn, False)
        loop += bs + [ast.Expr(be)]
    steps = []
    for i, (s, c) in enumerate(specs):
        if s.__class__ is List and len(s) == 3:
            st, e = low.value(s.cdr.cdr.car, dscope, sub_span(s.cdr.cdr, sub_span(c, span, low.unit), low.unit), fn)
            t = low.fresh('t')
            loop += st + [assign(t, e)]
            steps.append((names[i], t))
    loop += [assign(n, name(t)) for n, t in steps]
    stmts.append(ast.While(const(True), loop, []))
    rs, re = low.body(test_clause.cdr, dscope, span, fn, False)
    stmts += rs
    if tail:
        return stmts + [ast.Return(re)]
    return stmts, re
