"""Specialised call nodes for calls whose head is a global name.

The generic call node evaluates the head, then the arguments into a list, then
dispatches on the procedure's type. For the common shapes (a global head and
up to three arguments) a node generated from a template reads the head's cell
directly, inlines simple arguments (constants, local slots) and builds the
callee's frame in one list display. Calls to the arithmetic and comparison
builtins get an inline fast path guarded by the cell still holding that
builtin, so redefining `+` is still seen at once (late binding).

Templates are exec'd once per distinct source text and cached.
"""
from __future__ import annotations

from .resolve import GlobalRef, LocalRef, resolve
from .values import NIL, Builtin, List, Symbol

# Builtin name -> (Python expression over x and y, extra guard on y).
ARITH = {
    '+': ('0.0 + x + y', ''), 'add': ('0.0 + x + y', ''),
    '-': ('x - (0.0 + y)', ''), 'sub': ('x - (0.0 + y)', ''),
    '*': ('x * y', ''), 'mul': ('x * y', ''),
    '/': ('x / y', ' and y'), 'div': ('x / y', ' and y'),
    '<': ('x < y', ''), 'lt': ('x < y', ''),
    '>': ('x > y', ''), 'gt': ('x > y', ''),
    '<=': ('x <= y', ''), 'le': ('x <= y', ''),
    '>=': ('x >= y', ''), 'ge': ('x >= y', ''),
    '=': ('x == y', ''),
}

MAX_ARGS = 3
_factories: dict[str, tuple] = {}


def _instantiate(body: str, binds: dict):
    """Build `ev` from a template body, exec'ing each distinct source once.

    Templates run in the eval module's namespace, so they share its depth
    counter and helpers (run, TailCall, located, call_builtin, …).
    """
    names = tuple(sorted(binds))
    src = 'def factory(%s):\n%s    return ev\n' % (', '.join(names), body)
    entry = _factories.get(src)
    if entry is None:
        from . import eval as ev_mod
        ns = {}
        exec(compile(src, '<rusty-specialized>', 'exec'), ev_mod.__dict__, ns)
        entry = _factories[src] = ns['factory']
    return entry(*[binds[n] for n in names])


# The body of `run` (eval.py), inlined where a template applies a lambda.
RUN_INLINE = """\
{i}_depth += 1
{i}if _depth > _limit:
{i}    _depth -= 1
{i}    raise RecursionLimit(recursion_message(), SPAN)
{i}site = SPAN
{i}try:
{i}    while True:
{i}        r = p.code(fr)
{i}        if r.__class__ is not TailCall:
{i}            return r
{i}        p = r.proc
{i}        fr = r.frame
{i}        site = r.site
{i}except RustyError as e:
{i}    if p.__class__ is Lambda:
{i}        e.trace.append((site, p.name))
{i}    raise
{i}finally:
{i}    _depth -= 1
"""


def _operand(cell, k: int, code, scope, unit, binds: dict) -> str:
    """A Python expression computing argument k inside a template: constants
    and local slots inline, anything else through its compiled `code`."""
    x = cell.car
    cls = x.__class__
    if cls is float or cls is str or cls is bool:
        binds['K%d' % k] = x
        return 'K%d' % k
    if cls is Symbol:
        ref = resolve(scope, x, unit.genv)
        if ref.__class__ is LocalRef and ref.depth == 0 and not ref.maybe_unbound:
            return 'f[%d]' % ref.index
    binds['A%d' % k] = code
    return 'A%d(f)' % k


def specialize_call(head_cell, x, scope, tail, span, unit, generic, arg_codes):
    """A fast node for `(global-name arg…)`, or None for other shapes."""
    nargs = x.len - 1
    if nargs > MAX_ARGS:
        return None
    binds = {'CELL': head_cell, 'SPAN': span, 'generic': generic}
    args = [_operand(c, k, code, scope, unit, binds)
            for k, (c, code) in enumerate(zip(x.cdr.cells(), arg_codes))]
    current = head_cell.value
    if (nargs == 2 and current.__class__ is Builtin and current.name in ARITH):
        expr, guard = ARITH[current.name]
        binds['B'] = current
        body = ('    def ev(f):\n'
                '        if CELL.value is B:\n'
                '            x = %s\n'
                '            y = %s\n'
                '            if x.__class__ is float and y.__class__ is float%s:\n'
                '                return %s\n'
                '            return call_builtin(B, [x, y], SPAN)\n'
                '        return generic(f, CELL.value)\n') % (args[0], args[1], guard, expr)
        return _instantiate(body, binds)
    locals_ = ['a%d' % k for k in range(nargs)]
    arglist = ', '.join(locals_)
    assign = ''.join('            a%d = %s\n' % (k, a) for k, a in enumerate(args))
    frame = ', '.join(['p.env', 'p.scope'] + args)
    if tail:
        apply = '                return TailCall(p, [%s], SPAN)\n' % frame
    else:
        apply = '                fr = [%s]\n%s' % (frame, RUN_INLINE.format(i=' ' * 16))
    body = ('    def ev(f):\n'
            '        global _depth\n'
            '        p = CELL.value\n'
            '        cls = p.__class__\n'
            '        if cls is Lambda:\n'
            '            if p.fast == %(n)d:\n'
            '%(apply)s'
            '        elif cls is Builtin:\n'
            '%(assign)s'
            '            if p.lo <= %(n)d <= p.hi:\n'
            '                try:\n'
            '                    return p.fn(%(arglist)s)\n'
            '                except BaseException as e:\n'
            '                    raise located(e, SPAN)\n'
            '            return call_builtin(p, [%(arglist)s], SPAN)\n'
            '        return generic(f, p)\n') % dict(
                n=nargs, apply=apply, assign=assign, arglist=arglist)
    return _instantiate(body, binds)




COMPARISONS = frozenset(('<', '>', '<=', '>=', '=', 'lt', 'gt', 'le', 'ge'))


def specialize_if(x, scope, tail, span, unit, then_code, else_code):
    """A fast `(if (cmp a b) then [else])` with the comparison inlined, or None."""
    from .eval import comp_generic_call, sub_span
    test_cell = x.cdr
    test = test_cell.car
    if test.__class__ is not List or test.len != 3 or test.car.__class__ is not Symbol:
        return None
    ref = resolve(scope, test.car, unit.genv)
    if ref.__class__ is not GlobalRef:
        return None
    current = ref.cell.value
    if current.__class__ is not Builtin or current.name not in COMPARISONS:
        return None
    tspan = sub_span(test_cell, span, unit)
    generic, arg_codes = comp_generic_call(test, scope, False, tspan, unit)
    binds = {'CELL': ref.cell, 'B': current, 'SPAN': tspan, 'TEST': generic}
    a, b = [_operand(c, k, code, scope, unit, binds)
            for k, (c, code) in enumerate(zip(test.cdr.cells(), arg_codes))]
    branches = x.cdr.cdr
    then = _operand(branches, 5, then_code, scope, unit, binds)
    if else_code is None:
        binds['NIL'] = NIL
        other = 'NIL'
    else:
        other = _operand(branches.cdr, 6, else_code, scope, unit, binds)
    expr = ARITH[current.name][0]
    body = ('    def ev(f):\n'
            '        if CELL.value is B:\n'
            '            x = %s\n'
            '            y = %s\n'
            '            if x.__class__ is float and y.__class__ is float:\n'
            '                t = %s\n'
            '            else:\n'
            '                t = call_builtin(B, [x, y], SPAN)\n'
            '        else:\n'
            '            t = TEST(f)\n'
            '        if t is not False:\n'
            '            return %s\n'
            '        return %s\n') % (a, b, expr, then, other)
    return _instantiate(body, binds)
