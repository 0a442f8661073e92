"""Specialised nodes for the hottest shapes: calls with a global head (here),
and the special forms' tests and frames (specialize_forms.py, built from the
operand and template machinery below).

The generic call node evaluates the head, then the arguments into a list, then
dispatches on the procedure's type. For a global head with up to three
arguments, a node generated from a template reads the head's cell directly,
builds the callee's frame in one list display and runs the callee's tail-call
loop inline. Calls to the arithmetic and comparison builtins get an inline
fast path guarded by the cell still holding that builtin, so redefining `+`
is seen at once (late binding), and takes the generic path then. The same
goes for `mod`, the list primitives car, cdr (and first, rest), cons, null?, pair?, not and nth
with an index 0-3, the type tests number?, symbol?, string?, equality
with a symbol, and number->string of an integer (INLINE); and the standard
library's cadr, cddr, caddr, caar and cdar while they are the library's
(LIBRARY_INLINE).

Arguments are inlined into the template when they are simple: constants,
local slots, globals (read from their cell), and arithmetic on those (one
level). Anything else is called
through its compiled closure. Templates are exec'd once per distinct source
text (compiled code cached on disk, diskcache.compiled), against the
namespace `template_namespace()` builds; the
session's depth state is bound into each node as `D`. The lambda application
they inline is `run`'s own body (apply.run_body), not a copy of it.

Every node here must behave exactly like the generic one eval.py would
compile (values, errors, error positions, backtraces): a unit without
`specialize_call` (RUSTY_SPECIALIZE=0) gets none of them, and the tests run
programs both ways and compare.
"""
from . import apply, diskcache, errors, resolve as resolve_mod, values
from .eval import SPECIALS, comp, comp_generic_call, sub_span
from .resolve import GlobalRef, LocalRef, resolve
from .values import Builtin, Lambda, List, Symbol

# Builtins computed inline: name -> (arity, fast-path test, value), over the
# argument expressions {x} and {y}. When the test fails (wrong types, a zero
# divisor, an empty list) the builtin itself is called, for its exact error.
# A value given as a tuple is statements that leave the result in {t} (cons
# fills a fresh cell's slots in place, with no constructor frame). A Kinds
# value is a numeric operator computed by kind (see _numeric).
_NUM = '((_c := {x}.__class__) is int or _c is float)'       # one class read
_PAIR = '{x}.__class__ is List and {x} is not EMPTY'


class Kinds:
    """A numeric operator of two operands, inlined by the kinds of its
    operands: `exact` over two exact integers (or, when `mixed`, an exact
    integer constant that is an exact f64 and a number of either kind), `float`
    over two floats, `compare` (a comparison: any two numbers, Python compares
    ints and floats exactly). `nonzero` guards a divisor."""
    __slots__ = ('exact', 'float', 'mixed', 'compare', 'nonzero')

    def __init__(self, exact, float_, mixed=True, compare=False, nonzero=False):
        self.exact, self.float, self.mixed = exact, float_, mixed
        self.compare, self.nonzero = compare, nonzero


def _cmp(op: str) -> Kinds:
    return Kinds('{x} %s {y}' % op, None, compare=True)


INLINE = {
    # + folds from 0 and - subtracts 0 + y: 0.0 + keeps (+ -0.0 -0.0) at 0
    '+': (2, None, Kinds('{x} + {y}', '0.0 + {x} + {y}')),
    '-': (2, None, Kinds('{x} - {y}', '{x} - (0.0 + {y})')),
    '*': (2, None, Kinds('{x} * {y}', '{x} * {y}')),
    # exact integers divide exactly or not: the builtin decides
    '/': (2, None, Kinds(None, '{x} / {y}', nonzero=True)),
    '<': (2, None, _cmp('<')),
    '>': (2, None, _cmp('>')),
    '<=': (2, None, _cmp('<=')),
    '>=': (2, None, _cmp('>=')),
    '=': (2, None, _cmp('==')),
    'car': (1, _PAIR, '{x}.car'),
    'cdr': (1, _PAIR, '{x}.cdr'),
    'first': (1, _PAIR, '{x}.car'),
    'rest': (1, _PAIR, '{x}.cdr'),
    'cons': (2, '{y}.__class__ is List',
             ('{t} = NEW(List)', '{t}.car = {x}', '{t}.cdr = {y}')),
    'null?': (1, 'True', '{x} is NIL or {x} is EMPTY'),
    'pair?': (1, 'True', '{x}.__class__ is List and {x} is not EMPTY'),
    'not': (1, 'True', '{x} is False'),
    'zero?': (1, _NUM, '{x} == 0'),
    # equality with a symbol is identity; other operands take the builtin
    'eq?': (2, '{x}.__class__ is Symbol', '{x} is {y}'),
    'number?': (1, 'True', '{x}.__class__ is float or {x}.__class__ is int'),
    'symbol?': (1, 'True', '{x}.__class__ is Symbol'),
    'string?': (1, 'True', '{x}.__class__ is str'),
    # integers below 1e15 print plainly (-0 as 0); other numbers take the builtin
    'number->string': (1, _NUM + ' and -1e15 < {x} < 1e15 and {x} % 1 == 0', 'str(int({x}))'),
    # C fmod (an exact remainder for exact integers); a zero divisor, a negative
    # exact operand or a non-finite dividend (the errors and the NaN) take the builtin
    'mod': (2, '({x}.__class__ is int and {y}.__class__ is int and {x} >= 0 and {y} > 0) '
               'or ({x}.__class__ is float and {y}.__class__ is float and {y} and -INF < {x} < INF)',
            '{x} % {y} if {x}.__class__ is int else _fmod({x}, {y})'),
    # the first four elements; other indices (and the errors) take the builtin
    'nth': (2, '{x}.__class__ is List and ({y}.__class__ is int or {y}.__class__ is float) and '
               '({x} is not EMPTY if {y} == 0 '
               'else {x}.cdr is not EMPTY if {y} == 1 else {x}.cdr.cdr is not EMPTY if {y} == 2 '
               'else {y} == 3 and {x}.cdr.cdr.cdr is not EMPTY)',
            '({x}.car if {y} == 0 else {x}.cdr.car if {y} == 1 else {x}.cdr.cdr.car '
            'if {y} == 2 else {x}.cdr.cdr.cdr.car)'),
}
for _alias, _op in (('add', '+'), ('sub', '-'), ('mul', '*'), ('div', '/'), ('lt', '<'),
                    ('gt', '>'), ('le', '<='), ('ge', '>='), ('nil?', 'null?'), ('equal?', 'eq?'),
                    ('eq', 'eq?')):
    INLINE[_alias] = INLINE[_op]
# Inline builtins whose value is always a boolean: usable directly as an `if` test.
PREDICATES = frozenset('< > <= >= = lt gt le ge null? nil? pair? not zero? eq? equal? eq number? symbol? '
                       'string?'.split())
# Standard-library lambdas computed the same way, while the name still holds
# the library's own procedure and the depth gate has room for the call they
# stand for (no room while a debugging tool is on, so it sees the call);
# otherwise the lambda is applied (its errors and backtraces).
_LIST = '{x}.__class__ is List and {x} is not EMPTY'
_CDR2 = _LIST + ' and {x}.cdr is not EMPTY'
_CAR2 = _LIST + ' and {x}.car.__class__ is List and {x}.car is not EMPTY'
LIBRARY_INLINE = {
    'cadr': (1, _CDR2, '{x}.cdr.car'),
    'cddr': (1, _CDR2, '{x}.cdr.cdr'),
    'caddr': (1, _CDR2 + ' and {x}.cdr.cdr is not EMPTY', '{x}.cdr.cdr.car'),
    'caar': (1, _CAR2, '{x}.car.car'),
    'cdar': (1, _CAR2, '{x}.car.cdr'),
}
MAX_ARGS = 6
MAX_HOPS = 3

_factories: dict[str, object] = {}
_namespace: dict | None = None


def template_namespace() -> dict:
    """The globals every template runs against: the classes, markers and
    application helpers it names, and nothing else."""
    global _namespace
    if _namespace is None:
        import math     # for the mod template: start-up can do without it
        _namespace = {
            'Lambda': values.Lambda, 'Builtin': values.Builtin, 'Native': values.Native,
            'NativeGrad': values.NativeGrad, 'List': values.List, 'NIL': values.NIL, 'Symbol': values.Symbol,
            'EMPTY': values.EMPTY, 'NEW': values.List.__new__, 'apply_procedure': apply.apply_procedure,
            'MISSING': resolve_mod.MISSING,
            'RustyError': errors.RustyError, 'RecursionLimit': errors.RecursionLimit,
            'give_back_if_out_of_memory': errors.give_back_if_out_of_memory,
            'recursion_message': apply.recursion_message, 'located': apply.located,
            'interrupted_in': apply.interrupted_in,
            'call_builtin': apply.call_builtin, 'call_native': apply.call_native,
            'native_error': apply.native_error,
            '_fmod': math.fmod, 'INF': math.inf, 'BIG': 1 << 1023,
        }
    return _namespace


def instantiate(body: str, binds: dict):
    """Build `ev` from a template body, exec'ing each distinct source once."""
    names = tuple(sorted(binds))
    src = 'def factory(%s):\n%s    return ev\n' % (', '.join(names), body)
    factory = _factories.get(src)
    if factory is None:
        ns = {}
        exec(diskcache.compiled(src, '<rusty-specialized>'), template_namespace(), ns)
        factory = _factories[src] = ns['factory']
    return factory(*[binds[n] for n in names])


def indent(lines, n: int) -> str:
    pad = ' ' * n
    return ''.join(pad + line + '\n' for line in lines)


# ── Operands ─────────────────────────────────────────────────────────────

def inline_builtin(x, scope, unit):
    """(cell, procedure) if form x calls an INLINE builtin or a LIBRARY_INLINE
    lambda, through a global name, with its arity."""
    if x.__class__ is not List or x.car.__class__ is not Symbol:
        return None
    ref = resolve(scope, x.car, unit.genv)
    if ref.__class__ is not GlobalRef:
        return None
    b = ref.cell.current()
    spec = _inline_spec(b)
    if spec is None or spec[0] != len(x) - 1:
        return None
    if b.__class__ is Lambda and _library_procedure(unit, b.name) is not b:
        return None     # a lambda of the program's that has the name
    return ref.cell, b


def _library_procedure(unit, name: str):
    """The standard library's own value for name, if the host has a library."""
    find = getattr(unit.interp, 'library_procedure', None)
    return None if find is None else find(name)


def _inline_spec(b):
    """The (arity, test, value) template of an inlinable procedure, else None."""
    if b.__class__ is Builtin:
        return INLINE.get(b.name)
    if b.__class__ is Lambda:
        return LIBRARY_INLINE.get(b.name)
    return None


def _local(ref, key: str, fallback: str, binds: dict, genv):
    """Expression text reading a local slot up to MAX_HOPS frames out, else None."""
    if ref.__class__ is not LocalRef or ref.maybe_unbound or ref.depth > MAX_HOPS:
        return None
    if ref.depth == 0:
        return 'f[%d]' % ref.index
    binds['Y' + key] = genv.cell(ref.name)     # a name dyn in this session takes the by-name path
    return '(%s if Y%s.dyn else f%s[%d])' % (fallback, key, '[0]' * ref.depth, ref.index)


def _simple(cell, key: str, scope, unit, binds: dict, code=None):
    """Expression text for a constant or a local slot, else None; also for a
    global when its compiled `code` is given (taken when the cell is empty)."""
    x = cell.car
    cls = x.__class__
    if cls is float or cls is int or cls is str or cls is bool:
        binds['K' + key] = x
        return 'K' + key
    if cls is Symbol:
        ref = resolve(scope, x, unit.genv)
        if ref.__class__ is LocalRef and (ref.depth == 0 or code is not None):
            if ref.depth:
                binds['A' + key] = code
            return _local(ref, key, 'A%s(f)' % key, binds, unit.genv)
        if ref.__class__ is GlobalRef and code is not None:
            binds['A' + key] = code
            binds['G' + key] = ref.cell
            return '(G{0}.value if G{0}.value is not MISSING else A{0}(f))'.format(key)
    return None


def inline_lines(target: str, key: str, cell_, builtin, args: list, fallback: str, span, binds):
    """Statements computing an INLINE builtin's call into target, guarded by
    the head's cell still holding that builtin (else `fallback`); `binds`
    holds the depth state as D."""
    binds['C' + key] = cell_
    return (['if C%s.value is B%s:' % (key, key)]
            + ['    ' + line for line in _compute(target, key, builtin, args, span, binds)]
            + ['else:', '    %s = %s' % (target, fallback)])


def _compute(target: str, key: str, builtin, args: list, span, binds):
    """Statements computing an inlinable call into target (its head already
    checked): inline when the fast-path test holds, else the procedure."""
    _, test, expr = _inline_spec(builtin)
    call = 'call_builtin(B%s, [%s], S%s, D)'
    if builtin.__class__ is Lambda:
        test = 'D.n < D.gate and ' + test     # a tool on: the call itself, for it to see
        call = 'apply_procedure(B%s, [%s], S%s, False, D)'
    names = dict(zip('xy', ('x' + key, 'y' + key)))
    binds['B' + key] = builtin
    binds['S' + key] = span
    lines = ['%s = %s' % (names[v], a) for v, a in zip('xy', args)]
    if expr.__class__ is Kinds:
        cases = _numeric(expr, [binds.get(a) if a[:1] == 'K' else None for a in args])
    elif expr.__class__ is tuple:
        cases = [(test, list(expr))]
    else:
        cases = [(test, ['{t} = ' + expr])]
    for k, (test, value) in enumerate(cases):
        lines.append('%s %s:' % ('elif' if k else 'if', test.format(**names)))
        lines += ['    ' + line.format(t=target, **names) for line in value]
    fallback = '%s = %s' % (target, call % (key, ', '.join(names[v] for v in 'xy'[:len(args)]), key))
    return lines + (['else:', '    ' + fallback] if cases else [fallback])


_EXACT_F64 = 1 << 53


def _numeric(op: Kinds, consts: list) -> list:
    """The (test, value lines) cases of a Kinds operator, given the operands
    that are constants (their values; None for the others)."""
    kinds = ['int' if c.__class__ is int else 'float' if c.__class__ is float else None for c in consts]
    nz = (' and {y}' if kinds[1] is None else '') if op.nonzero else ''
    if op.nonzero and consts[1] is not None and consts[1] == 0:
        return []                       # a constant zero divisor: the builtin's error every time
    if op.compare:
        tests = [_NUM.format(x='{%s}' % v) for v, k in zip('xy', kinds) if k is None]
        return [(' and '.join(tests) or 'True', ['{t} = ' + op.exact])]
    if None in kinds and kinds != [None, None]:         # one constant, one operand
        v, k, c = ('y', kinds[0], consts[0]) if kinds[1] is None else ('x', kinds[1], consts[1])
        if k == 'int' and op.mixed and -_EXACT_F64 <= c <= _EXACT_F64:
            if op.exact is None:        # exact operands: the builtin
                return [('{%s}.__class__ is float%s' % (v, nz), ['{t} = ' + op.float])]
            return [('({%s}.__class__ is int or {%s}.__class__ is float)%s' % (v, v, nz), ['{t} = ' + op.exact])]
        if k == 'float':
            return [(_F64.format(x='{%s}' % v) + nz, ['{t} = ' + op.float])]
        return []
    cases = []
    if op.exact is not None:        # {x}'s class read once for both tests
        cases.append(('(_c := {x}.__class__) is int and {y}.__class__ is int', ['{t} = ' + op.exact]))
        cases.append(('_c is float and {y}.__class__ is float' + nz, ['{t} = ' + op.float]))
    else:
        cases.append(('{x}.__class__ is float and {y}.__class__ is float' + nz, ['{t} = ' + op.float]))
    # mixed kinds: Python converts the integer to the nearest f64 as the builtin does
    cases.append(('({x}.__class__ is float and %s or {y}.__class__ is float and %s)%s'
                  % (_INT_F64.format(x='{y}'), _INT_F64.format(x='{x}'), nz), ['{t} = ' + op.float]))
    return cases


# An exact integer Python converts to f64 without an OverflowError (BIG is
# 2**1023, an int: comparing ints is cheaper); or that, or a float.
_INT_F64 = '{x}.__class__ is int and -BIG < {x} < BIG'
_F64 = '((_c := {x}.__class__) is float or _c is int and -BIG < {x} < BIG)'


def _name_code(cell, scope, span, unit):
    """The compiled reference when cell holds a name (what the generic call
    would run for that argument), else None."""
    if cell.car.__class__ is not Symbol:
        return None
    return comp(cell.car, scope, False, sub_span(cell, span, unit), unit)


def operand(cell, key: str, code, scope, span, unit, binds: dict, calls: bool = False):
    """(setup statements, expression) computing one argument inside a template.

    Constants and local slots are inlined; a call of an INLINE builtin is
    computed by inline statements when its own arguments are constants,
    variables or (one level) such calls again; anything else calls its
    compiled `code`. The heads of all the calls inlined are checked first:
    if one no longer holds its builtin, `code` computes the whole argument.
    With `calls` (a non-tail operand), a call of a global lambda is applied
    in place too (see _lambda_call).
    """
    text = _simple(cell, key, scope, unit, binds, code)
    if text is not None:
        return [], text
    binds['A' + key] = code
    found = _inline_call(cell, key, scope, span, unit, binds, 1)
    if found is None and calls:
        lines = _lambda_call(cell, key, scope, span, unit, binds)
        if lines is not None:
            return lines, 'v' + key
    if found is None:
        return [], 'A%s(f)' % key
    lines, target, guards = found
    return (['if %s:' % ' and '.join(guards)] + ['    ' + line for line in lines]
            + ['else:', '    %s = A%s(f)' % (target, key)]), target


def _inline_call(cell, key: str, scope, span, unit, binds: dict, nest: int):
    """(statements, expression, head checks) computing the INLINE builtin
    call in `cell` in place once the checks hold, or None."""
    x = cell.car
    found = inline_builtin(x, scope, unit)
    if found is None:
        return None
    xspan = sub_span(cell, span, unit)
    subs = []
    for k, c in zip('ab', x.cdr.cells()):
        sub = _argument(c, key + k, scope, xspan, unit, binds, nest)
        if sub is None:
            return None
        subs.append(sub)
    setup, args = in_order([sub[:2] for sub in subs], [key + k for k in 'ab'[:len(subs)]])
    binds['C' + key] = found[0]
    guards = ['C%s.value is B%s' % (key, key)] + [g for sub in subs for g in sub[2]]
    return setup + _compute('v' + key, key, found[1], args, xspan, binds), 'v' + key, guards


def _lambda_call(cell, key: str, scope, span, unit, binds: dict):
    """Statements applying the global lambda that the call in `cell` names
    into v<key>, `run`'s body inlined (one host frame less per nested call),
    or None for other shapes. They do what the call's own node does: the
    head read first, then the operands, the frame, the depth check and the
    tail-call loop; a head holding anything but a lambda of that arity sends
    the whole call to its compiled code A<key>."""
    x = cell.car
    if x.__class__ is not List or x.car.__class__ is not Symbol or x.car in SPECIALS:
        return None
    nargs = len(x) - 1
    ref = resolve(scope, x.car, unit.genv)
    if nargs > MAX_ARGS or ref.__class__ is not GlobalRef:
        return None
    now = ref.cell.current()
    if now is not resolve_mod.MISSING and now.__class__ is not Lambda:
        return None         # a builtin, macro or native now: its own node is the fast one
    xspan = sub_span(cell, span, unit)
    _, arg_codes, _ = comp_generic_call(x, scope, False, xspan, unit)
    keys = [key + 'L%d' % k for k in range(nargs)]
    ops = [operand(c, k, code, scope, xspan, unit, binds)
           for k, c, code in zip(keys, x.cdr.cells(), arg_codes)]
    setup, args = in_order(ops, keys)
    binds['C' + key] = ref.cell
    binds['S' + key] = xspan
    names = {n: n + key for n in ('p', 'fr', 'site', 'entry', 'r')}
    body = [_rename(line, names) for line in apply.run_body()]
    body = [line.replace('return ', 'break  # ') if line.strip() == 'return ' + names['r'] else line
            for line in body]
    q = names['p']
    return (['%s = C%s.value' % (q, key),
             'if %s.__class__ is Lambda and %s.fast == %d:' % (q, q, nargs)]
            + ['    ' + line for line in setup
               + ['%s = [%s]' % (names['fr'], ', '.join(['%s.env' % q, '%s.scope' % q] + args)),
                  '%s = S%s' % (names['site'], key)]
               + body + ['v%s = %s' % (key, names['r'])]]
            + ['else:', '    v%s = A%s(f)' % (key, key)])


def _rename(line: str, names: dict) -> str:
    """`line` with every whole word that is a key of `names` replaced by its
    value (Python's identifier characters make up words)."""
    out, i, n = [], 0, len(line)
    while i < n:
        j = i
        while j < n and (line[j].isalnum() or line[j] == '_'):
            j += 1
        if j > i:
            word = line[i:j]
            out.append(names.get(word, word))
            i = j
        else:
            out.append(line[i])
            i += 1
    return ''.join(out)


def _argument(cell, key: str, scope, span, unit, binds: dict, nest: int):
    """(statements, expression, head checks) for an argument of an inlined
    builtin call, or None: a constant, a variable (its compiled code the
    fallback for a global or an outer local), or while `nest` allows, an
    inlined call itself."""
    x = cell.car
    if x.__class__ is Symbol:
        text = _simple(cell, key, scope, unit, binds, _name_code(cell, scope, span, unit))
        return None if text is None else ([], text, [])
    text = _simple(cell, key, scope, unit, binds)
    if text is not None:
        return [], text, []
    if nest <= 0:
        return None
    return _inline_call(cell, key, scope, span, unit, binds, nest - 1)


def in_order(ops, keys):
    """(setup statements, expressions) for operands evaluated left to right,
    as the generic node does: an operand read that can fail (a global, a
    dynamic local) is taken into `o<key>` before a later operand's setup runs."""
    setup, exprs = [], []
    for k, (lines, expr) in enumerate(ops):
        setup += lines
        if any(later for later, _ in ops[k + 1:]) and not _pure_read(expr):
            setup.append('o%s = %s' % (keys[k], expr))
            expr = 'o%s' % keys[k]
        exprs.append(expr)
    return setup, exprs


def _pure_read(expr: str) -> bool:
    """True if `expr` is a constant (K…), a local slot (f[n]) or a computed value (v…)."""
    if expr[:1] in ('K', 'v') and expr[1:]:
        return expr[1:].replace('_', 'a').isalnum()
    return expr[:2] == 'f[' and expr[-1:] == ']' and expr[2:-1].isdecimal()


# ── Calls with a global head ─────────────────────────────────────────────

def specialize_call(x, scope, tail, span, unit, generic, arg_codes, head_code):
    """A fast node for `(name arg…)` with a global or near local head, or None."""
    nargs = len(x) - 1
    if nargs > MAX_ARGS or x.car.__class__ is not Symbol:
        return None
    ref = resolve(scope, x.car, unit.genv)
    binds = {'SPAN': span, 'generic': generic, 'HEAD': head_code, 'D': unit.depth}
    if ref.__class__ is GlobalRef:
        head_cell = ref.cell
        binds['CELL'] = head_cell
        read_head = 'CELL.value'
    else:
        read_head = _local(ref, 'H', 'HEAD(f)', binds, unit.genv)
        if read_head is None:
            return None
        head_cell = None
    keys = [str(k) for k in range(nargs)]
    setup_c, args_c = in_order([operand(c, k, code, scope, span, unit, binds, True)
                                for k, c, code in zip(keys, x.cdr.cells(), arg_codes)], keys)
    # natives take the plain operands (less code, same values)
    setup, args = in_order([operand(c, k, code, scope, span, unit, binds)
                            for k, c, code in zip(keys, x.cdr.cells(), arg_codes)], keys)
    found = inline_builtin(x, scope, unit) if head_cell is not None else None
    if found is not None and tail and found[1].__class__ is Lambda:
        found = None        # its fallback would not be a tail call
    if found is not None:
        lines = inline_lines('r', '', head_cell, found[1], args_c, 'generic(f, CELL.value)', span, binds)
        lines = lines[:1] + ['    ' + s for s in setup_c] + lines[1:] + ['return r']
        return instantiate('    def ev(f):\n' + indent(lines, 8), binds)
    arglist = ', '.join('a%d' % k for k in range(nargs))
    frame = ', '.join(['p.env', 'p.scope'] + args_c)
    if tail:
        apply_text = indent(setup_c + ['return (p, [%s], SPAN)' % frame], 16)
    else:
        apply_text = indent(setup_c + ['fr = [%s]' % frame, 'site = SPAN'] + apply.run_body(), 16)
    assign_c = indent(setup_c + ['a%d = %s' % (k, a) for k, a in enumerate(args_c)], 12)
    assign = indent(setup + ['a%d = %s' % (k, a) for k, a in enumerate(args)], 12)
    body = ('    def ev(f):\n'
                '        p = %(read_head)s\n'
            '        cls = p.__class__\n'
            '        if cls is Lambda:\n'
            '            if p.fast == %(n)d:\n'
            '%(apply)s'
            '        elif cls is Builtin:\n'
            '%(assign_c)s'
            '            if p.lo <= %(n)d <= p.hi:\n'
            '                try:\n'
            '                    return p.fn(%(arglist)s)\n'
            '                except BaseException as e:\n'
            '                    give_back_if_out_of_memory(e)\n'
            '                    raise located(e, SPAN, D)\n'
            '            return call_builtin(p, [%(arglist)s], SPAN, D)\n'
            '        elif cls is NativeGrad:\n'
            '%(assign)s'
            '            try:\n'
            '                return p.call([%(arglist)s])\n'
            '            except BaseException as e:\n'
            '                give_back_if_out_of_memory(e)\n'
            '                raise native_error(e, p, SPAN, D)\n'
            '        elif cls is Native:\n'
            '%(assign)s'
            '            return call_native(p, [%(arglist)s], SPAN, D)\n'
            '        return generic(f, p)\n') % dict(n=nargs, apply=apply_text, assign=assign, assign_c=assign_c,
                                                arglist=arglist, read_head=read_head)
    return instantiate(body, binds)
