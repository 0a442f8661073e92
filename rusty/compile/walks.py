"""`map`, `filter` and `for-each` of a literal one-parameter lambda over one
list, as a loop in the caller's own code.

`(filter (lambda (x) (< x n)) xs)` costs a call of the lambda's function per
element through the builtin's walk (builtin_loops.list_walker). When the body
can run no Lisp code (its calls are all of first-order builtins: see `runs_no_lisp`),
the loop is written where the call is: the parameter is a local of the
caller, bound to each element in turn, and the body computes in place.

The loop is taken only where the walk would call the lambda's function
directly and nothing could tell the difference: the global still holds the
builtin, OK holds (so it holds throughout: the body runs no Lisp code), no
profiler counts the lambda's calls, no tool watches calls and the depth
limit has room for one more level (`d < GATE`, as the walk tests), and the
list is a list (Nil and vectors take the builtin). Anything else calls the
builtin with the lambda value, as the reference does. A failure in the body
is reported as from the lambda called by the builtin: the lambda's frame
and backtrace entry (support.call_failed with a stand-in for its value, of
its name), then the builtin call's position (apply.located).
"""
from . import pyast as ast

from ..resolve import GlobalRef, Scope, body_defines, resolve
from ..values import EMPTY, Builtin, List, Symbol, sym
from . import kinds
from .frame_views import _Lambda
from .nodes import L, assign, attr, attr_store, call, const, is_, is_not, is_temp, name
from .expansion import expansion

WALKS = ('map', 'filter', 'for-each')
LAMBDAS = (sym('lambda'), sym('fn'), sym('λ'))
CHOOSING = frozenset(map(sym, ('if', 'and', 'or', 'when', 'unless', 'begin', 'cond')))    # (they only choose)
QUOTE, COND, IF, ELSE, ARROW = sym('quote'), sym('cond'), sym('if'), sym('else'), sym('=>')


def literal_lambda(x):
    """The parameter symbol and body of x when x is `(lambda (p) body…)` (or fn, λ)."""
    if x.__class__ is not List or x is EMPTY or x.car not in LAMBDAS or len(x) < 3:
        return None
    params = x.cdr.car
    if params.__class__ is not List or len(params) != 1 or params.car.__class__ is not Symbol \
            or params.car.name.startswith('&') or params.car.name == '.':
        return None
    body = x.cdr.cdr
    if body_defines(body):
        return None
    return params.car, body


def runs_no_lisp(forms, scope, genv, may_call) -> bool:
    """True if evaluating the forms runs no Lisp code: variables, constants,
    quote, the special forms that only choose (CHOOSING), and calls of
    globals for which may_call(cell, head, nargs) is true, on such forms."""
    todo = list(forms)
    while todo:
        x = todo.pop()
        cls = x.__class__
        if cls is Symbol:
            ref = resolve(scope, x, genv)
            if x in CHOOSING or x in LAMBDAS or (ref.__class__ is GlobalRef and ref.cell.holds_macro()):
                return False
            continue
        if cls is not List:
            if cls not in (int, float, str, bool):
                return False
            continue
        if x is EMPTY or x.car.__class__ is not Symbol:
            return False
        head, args = x.car, list(x.cdr)
        if head is QUOTE:
            continue
        if head in CHOOSING:
            if head is COND:
                for clause in args:
                    if clause.__class__ is not List or clause is EMPTY or ARROW in clause:
                        return False
                    todo += list(clause.cdr) if clause.car is ELSE else list(clause)
            elif not args or (head is IF and len(args) not in (2, 3)):
                return False
            else:
                todo += args
            continue
        ref = resolve(scope, head, genv)
        if ref.__class__ is not GlobalRef or ref.cell.holds_macro() or not may_call(ref.cell, head, len(args)):
            return False
        todo += args
    return True


def first_order(builtins: list):
    """runs_no_lisp's may_call for a call of a first-order builtin (Builtin.first_order:
    it runs no Lisp code), each such (cell, builtin) added to `builtins`."""
    def may_call(cell, head, nargs):
        b = cell.current()
        if b.__class__ is not Builtin or not b.first_order:
            return False
        builtins.append((cell, b))
        return True
    return may_call


def walk_call(low, x, cells, cell, b, scope, span, fn, tail):
    """The statements (and value, unless tail) of call x of global `cell`,
    now holding walking builtin b, with a literal lambda of one parameter
    whose body runs no Lisp code while the first-order builtins it calls
    are their globals' (OK assumes them); None for any other call."""
    if len(cells) != 2:
        return None
    found = literal_lambda(cells[0].car)
    if found is None:
        return None
    param, body = found
    lscope = Scope([param], scope)
    called = []
    if not runs_no_lisp(body, lscope, low.genv, first_order(called)):
        return None
    for bcell, builtin in called:
        low.ok(bcell, builtin)
    p, lst, r = low.fresh('p'), low.fresh('t'), low.fresh('r')
    site = low.k(span)
    head = [assign(p, attr(low.k(cell), 'value')), low.missing(p, cell, x, scope, span)]
    l_stmts, l_value = low.value(cells[1].car, scope, low.span_of(cells[1], span), fn)
    lam_stmts, lam_value = low.value(cells[0].car, scope, low.span_of(cells[0], span), fn)
    generic = call(name('CALL_ANY'), name(p), ast.List([lam_value, name(lst)], L), site, const(tail),
                   name('d'), name('D'))
    generic = lam_stmts + ([ast.Return(generic)] if tail else [assign(r, generic)])
    fast = _loop(low, b.name, lscope, body, lst, r, site, span, fn)
    if tail:
        fast.append(ast.Return(name(r)))
    taken = ast.BoolOp(ast.And(), [is_(name(p), low.k(b)), name('OK')] + low.unprofiled() + [
                                   ast.Compare(name('d'), [ast.Lt()], [name('GATE')]),
                                   is_(attr(name(lst), '__class__'), name('List'))])
    stmts = head + [ast.If(is_(attr(name(p), '__class__'), name('Macro')),
                           expansion(low, p, x, scope, span, fn, tail, r),
                           l_stmts + [assign(lst, l_value), ast.If(taken, fast, generic)])]
    return stmts if tail else (stmts, name(r))


def _loop(low, mode, lscope, body, lst, r, site, span, fn) -> list:
    """The loop over list `lst` binding the lambda's parameter (scope
    lscope) and keeping what `mode` (the builtin's name) keeps, its value in r."""
    (v,) = low.bind(lscope, fn)
    first = len(low.table) + 1
    b_stmts, value = low.body(body, lscope, span, fn, False)
    lines = range(first, len(low.table) + 1)
    w, hd, last, c = low.fresh(), low.fresh(), low.fresh(), low.fresh()     # (temporaries: nodes.is_temp)
    def hang(x):        # a fresh cell holding x hung on the last
        return [assign(c, call(name('NEW'))), ast.Assign([attr_store(name(c), 'car')], x),
                ast.Assign([attr_store(name(last), 'cdr')], name(c)), assign(last, name(c))]
    if mode == 'map':
        keep = hang(value)
    elif mode == 'filter':
        keep = [ast.If(is_not(value, const(False)), hang(name(v)), [])]
    else:
        keep = [] if value.__class__ in (ast.Name, ast.Constant) else [ast.Expr(value)]
    mine = (w, hd, last)        # (the walk's own: an element's integer copy keeps their names)
    # (the enclosing locals are tested at each element: the body runs no Lisp code, so no
    # other function's write-back into a closure cell (unchanged_by_others) can change them in it)
    each = kinds.specialize(b_stmts + keep, [v], low.stable, lambda n: is_temp(n) and n not in mine, low.fresh)
    loop = ast.While(is_not(name(w), name('EMPTY')),
                     [assign(v, attr(name(w), 'car'))] + each + [assign(w, attr(name(w), 'cdr'))], [])
    loop.holds = name('OK')         # the body runs no Lisp code: OK holds throughout (guards.py)
    loop.runs_no_lisp = True        # nor can another function change a local in it (kinds.simplify)
    failed = call(name('FAILED'), name('e'), name('TABLE'), name('D'), const(None), low.frame_names(fn, lscope),
                  low.k(low.let_frames(fn, lscope, lines)))
    called = call(name('CALL_FAILED'), failed, low.k(_Lambda(lscope)), const(None), name('D'))
    handler = ast.ExceptHandler(name('BaseException'), 'e',
                                [ast.Raise(call(name('LOCATED'), called, site, name('D')), None)])
    out = [assign(hd, call(name('NEW'))), assign(last, name(hd)), assign(w, name(lst)),
           ast.Try([loop], [handler], [], [])]
    if mode == 'for-each':
        return out + [assign(r, name('NIL'))]
    return out + [ast.Assign([attr_store(name(last), 'cdr')], name('EMPTY')), assign(r, attr(name(hd), 'cdr'))]
