"""Specialised nodes for special forms: `if`, `cond`, `when`/`unless` and
`and`/`or` with their comparison and type tests inlined, `let` building its
frame in one list display, and `set!` of a local slot up to two frames out.

They are built from the operand and template machinery of specialize.py and
follow its rule: each node behaves exactly like the closure eval.py and
specials.py would compile (values, errors, positions, backtraces), and a
unit without `specialize_call` (RUSTY_SPECIALIZE=0) gets none of them.
"""
from . import resolve as resolve_mod
from .eval import comp, comp_generic_call, sub_span
from .specialize import MAX_ARGS, PREDICATES, in_order, indent, inline_builtin, inline_lines, instantiate, operand
from .values import NIL


# ── if with an inlined test ──────────────────────────────────────────────

def specialize_if(x, scope, tail, span, unit, then_code, else_code):
    """A fast `(if test then [else])` with a comparison or type test inlined,
    or a global lambda's test applied in place, or None."""
    if unit.specialize_call is None:
        return None
    test_cell = x.cdr
    binds = {'D': unit.depth}
    test_lines = _test_lines(test_cell, 't', None, scope, span, unit, binds)
    if test_lines is None:
        return None
    branches = x.cdr.cdr
    st, then = operand(branches, 'T', then_code, scope, span, unit, binds, not tail)
    if else_code is None:
        binds['NIL'] = NIL
        se, other = [], 'NIL'
    else:
        se, other = operand(branches.cdr, 'E', else_code, scope, span, unit, binds, not tail)
    lines = test_lines + ['if t is not False:'] + ['    ' + s for s in st + ['return ' + then]]
    lines += se + ['return ' + other]
    return instantiate('    def ev(f):\n' + indent(lines, 8), binds)


# ── let ──────────────────────────────────────────────────────────────────

def specialize_let(init_cells, init_codes, lscope, nextra, body, scope, span, unit):
    """`(let ((n v)…) body…)`: the frame built in one list display."""
    if unit.specialize_call is None or len(init_codes) > MAX_ARGS + 1:
        return None
    binds = {'LSCOPE': lscope, 'BODY': body, 'UNBOUND': resolve_mod.UNBOUND, 'D': unit.depth}
    ops = [operand(c, str(k), code, scope, span, unit, binds, True)
           for k, (c, code) in enumerate(zip(init_cells, init_codes))]
    setup, args = in_order(ops, [str(k) for k in range(len(ops))])
    frame = ', '.join(['f', 'LSCOPE'] + args + ['UNBOUND'] * nextra)
    return instantiate('    def ev(f):\n' + indent(setup + ['return BODY([%s])' % frame], 8), binds)



# ── set! of a local slot ─────────────────────────────────────────────────

def specialize_set(ref, value_cell, value_code, by_name, scope, span, unit):
    """`(set! name value)` for a local slot up to two frames out, with the
    value's arithmetic inlined; `by_name(f, v)` is the reference assignment,
    taken when the name is dyn in this session. None for other shapes."""
    if unit.specialize_call is None or ref.depth > 2:
        return None
    binds = {'BYNAME': by_name, 'NIL': NIL, 'D': unit.depth}
    setup, value = operand(value_cell, 'V', value_code, scope, span, unit, binds, True)
    lines = setup + ['v = %s' % value]
    if ref.depth:
        binds['YS'] = unit.genv.cell(ref.name)
        lines += ['if YS.dyn:', '    return BYNAME(f, v)']
    lines += ['f%s[%d] = v' % ('[0]' * ref.depth, ref.index), 'return NIL']
    return instantiate('    def ev(f):\n' + indent(lines, 8), binds)


# ── cond ─────────────────────────────────────────────────────────────────

def specialize_cond(clauses, scope, span, unit):
    """`cond` as one chain of tests, comparisons and type tests inlined, or
    None. `clauses` holds (test cell or None for else, compiled test or
    None, compiled body or None, the clause's span) as cond compiled them."""
    if unit.specialize_call is None:
        return None
    binds = {'D': unit.depth, 'NIL': NIL}
    lines = []
    for k, (cell, test, body, cspan) in enumerate(clauses):
        if body is not None:
            binds['BODY%d' % k] = body
        then = 'return BODY%d(f)' % k if body is not None else None
        if cell is None:
            lines.append(then or 'return NIL')
            return instantiate('    def ev(f):\n' + indent(lines, 8), binds)
        binds['TEST%d' % k] = test
        lines += _test_lines(cell, 'c%d' % k, 'TEST%d(f)' % k, scope, cspan, unit, binds)
        lines += ['if t is not False:', '    ' + (then or 'return t')]
    lines.append('return NIL')
    return instantiate('    def ev(f):\n' + indent(lines, 8), binds)


def _test_lines(cell, key: str, fallback, scope, span, unit, binds):
    """Statements setting t to the value of the test form in cell: inlined
    when it calls a predicate of INLINE, applied in place when it calls a
    global lambda, else by `fallback` (text calling the compiled test; when
    None, the test is compiled here and None returned if nothing inlines)."""
    x = cell.car
    found = inline_builtin(x, scope, unit)
    tspan = sub_span(cell, span, unit)
    if found is None or found[1].name not in PREDICATES:
        # the compiled test: the code the fallback text `NAME(f)` calls, or compiled here
        code = comp(x, scope, False, tspan, unit) if fallback is None else binds[fallback[:-3]]
        setup, expr = operand(cell, key + 'q', code, scope, span, unit, binds, True)
        if not setup:
            return None if fallback is None else ['t = ' + fallback]
        return setup + ['t = ' + expr]
    generic, arg_codes, _ = comp_generic_call(x, scope, False, tspan, unit)
    if fallback is None:
        binds['TEST' + key] = generic
        fallback = 'TEST%s(f)' % key
    ops = [operand(c, '%st%d' % (key, k), code, scope, tspan, unit, binds, True)
           for k, (c, code) in enumerate(zip(x.cdr.cells(), arg_codes))]
    setup, args = in_order(ops, ['%st%d' % (key, k) for k in range(len(ops))])
    lines = inline_lines('t', key, found[0], found[1], args, fallback, tspan, binds)
    return lines[:1] + ['    ' + s for s in setup] + lines[1:]


# ── when, unless, and, or ────────────────────────────────────────────────

def specialize_when(x, scope, span, unit, test, body, want: bool):
    """`(when test body…)` (or `unless`, want False) with its test inlined, or None."""
    if unit.specialize_call is None:
        return None
    binds = {'D': unit.depth, 'NIL': NIL, 'TEST': test, 'BODY': body}
    lines = _test_lines(x.cdr, 'w', 'TEST(f)', scope, span, unit, binds)
    if len(lines) == 1:
        return None         # nothing inlined: the closure is as fast
    lines += ['if t is %s False:' % ('not' if want else ''), '    return BODY(f)', 'return NIL']
    return instantiate('    def ev(f):\n' + indent(lines, 8), binds)


def specialize_and_or(x, scope, span, unit, init, last, is_and: bool):
    """`(and a…)` / `(or a…)` with its comparison and type tests inlined, or None.
    `init` are the compiled operands but the last, `last` the last (in tail position)."""
    if unit.specialize_call is None:
        return None
    binds = {'D': unit.depth, 'LAST': last}
    lines, inlined = [], 0
    for k, (cell, code) in enumerate(zip(x.cdr.cells(), init)):
        binds['I%d' % k] = code
        found = _test_lines(cell, 'a%d' % k, 'I%d(f)' % k, scope, span, unit, binds)
        inlined += len(found) > 1
        lines += found
        lines += ['if t is False:', '    return False'] if is_and else ['if t is not False:', '    return t']
    if not inlined:
        return None
    lines.append('return LAST(f)')
    return instantiate('    def ev(f):\n' + indent(lines, 8), binds)
