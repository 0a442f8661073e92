"""Lowering of `do`: a `while` loop over Python locals, as let_forms.comp_do
runs it on one frame it updates in place (so a closure made in the body sees
the variables change, as it would the reference's frame).

A loop counting with an exact integer (a variable stepped by adding or
subtracting an integer literal), innermost and running no Lisp code but
its own (inlined builtins, global reads), runs each iteration in a copy
entered while OK holds and every such counter holds an exact integer,
tested at the top of each iteration (`integer_copy`): in the copy the
counters' guards and its OK tests are decided (kinds.py, guards.py), so no
exit, and no write-back it makes, comes between. The general iteration, as
before, is the copy's one way out: an iteration whose test fails (OK
cleared, a counter written a float by an exit's write-back or a `set!`, or
stepped from another value) runs it, and the next iteration tests again.
The loop's test, an `or` or `and` of forms, is lowered as a test of each
in turn (`breaks`)."""
from . import pyast as ast

from ..eval import sub_span
from ..resolve import Scope, body_defines
from ..values import EMPTY, List, sym
from . import kinds
from .guards import quiet_or_exit
from .nodes import Unsupported, assign, attr, const, is_, is_temp, name, walk_parts

COPIED_NODES = 800     # ast nodes (less contexts and operators): an iteration this large gets no integer copy
_STEPPERS = frozenset((sym('+'), sym('-')))


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
    loop = breaks(low, test_clause.car, dscope, sub_span(test_clause, span, low.unit), fn)
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
    stmts.append(ast.While(const(True), integer_copy(low, loop, counters(specs, names)), []))
    rs, re = low.body(test_clause.cdr, dscope, span, fn, False)
    stmts += rs
    if tail:
        return stmts + [ast.Return(re)]
    return stmts, re


def counters(specs, names) -> list:
    """The Python names of the variables of specs (`names`) stepped by
    adding an integer literal to themselves, or subtracting one: `(+ i 1)`,
    `(+ 2 i)`, `(- n 1)` (which `+` and `-` mean is decided when the loop
    runs: this only chooses the variables the copy tests)."""
    out = []
    for (s, _), n in zip(specs, names):
        if s.__class__ is not List or len(s) != 3:
            continue
        step = s.cdr.cdr.car
        if step.__class__ is not List or len(step) != 3 or step.car not in _STEPPERS:
            continue
        a, b = step.cdr.car, step.cdr.cdr.car
        if (a is s.car and b.__class__ is int) or (step.car is sym('+') and b is s.car and a.__class__ is int):
            out.append(n)
    return out


def integer_copy(low, loop: list, ints: list) -> list:
    """The statements of one iteration (`loop`), or, when some variables
    count with integers (`ints`), `if OK and i.__class__ is int …: <a copy>
    else: <loop>`: the copy (its temporaries renamed: kinds.twin) entered
    while its test holds (`holds`: guards.py takes OK as known at its entry,
    kinds.py the counters as exact integers); none for an iteration that
    makes functions (a nested function's code is lowered once), holds a
    loop (only the innermost loops are copied: copies of copies would grow
    with the nesting's depth), calls anything that may run Lisp code (its
    OK tests would come back after the call, and the call costs more than
    the guards the copy saves) or is larger than COPIED_NODES."""
    if not ints:
        return loop
    size, tests_ok = 0, False
    for x in walk_parts(ast.Module(loop, [])):
        cls = x.__class__
        if cls is ast.Name:
            tests_ok = tests_ok or x.id == 'OK'
        elif cls is ast.While or cls is ast.FunctionDef or cls is ast.Lambda:
            return loop
        elif cls is ast.Call and not quiet_or_exit(x.func):     # (an exit: the copy is left at the next iteration)
            return loop
        size += 1
        if size > COPIED_NODES:
            return loop
    tests = [is_(attr(name(n), '__class__'), name('int')) for n in ints]
    if tests_ok:
        tests.insert(0, name('OK'))
    copy = ast.If(tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests),
                  kinds.twin(loop, is_temp, low.fresh), loop)
    copy.holds = ast.BoolOp(ast.And(), [kinds.clone(t) for t in tests])    # (guards.py, kinds.py; never written out)
    copy.loop_copy = True           # (kinds.specialize gives the function around it no copy of its own)
    return [copy]


def breaks(low, x, scope, span, fn) -> list:
    """Statements leaving the loop (`break`) when form x, the loop's test,
    is not #f: an `or` as a test of each form in turn, an `and` as nested
    tests (their values are never needed: only whether the loop ends)."""
    kind = low.form_kind(x)
    if kind in ('or', 'and') and len(x) > 1:
        out = []
        target = out
        for c in x.cdr.cells():
            if kind == 'or':
                target += breaks(low, c.car, scope, low.span_of(c, span), fn)
            else:
                ts, te = low.test(c.car, scope, low.span_of(c, span), fn)
                inner = []
                target += ts + [ast.If(te, inner, [])]
                target = inner
        if kind == 'and':
            target.append(ast.Break())
        return out
    ts, te = low.test(x, scope, span, fn)
    return ts + [ast.If(te, [ast.Break()], [])]
