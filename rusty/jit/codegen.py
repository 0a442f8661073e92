"""defrust / defrust*: the compiled numeric subset to Rust
source, and the entry point that builds and loads it.

    compile_defrust([(name, params, body_form), ...], who) -> [Native, ...]
    generate_source(defs) -> (rust_source, [exported symbol per def])

Generation is pure and deterministic: the same forms give byte-identical Rust,
hence the same cache key. The shapes follow seed/rust_jit.rs (`codegen_num`,
`codegen_bool`, `codegen_let`, `codegen_cond`, `generate_fn_source`), with these
corrections:

- constants are exact: finite values as shortest round-trip literals,
  NaN and ±inf as `f64::from_bits(0x…)`;
- every Rust identifier comes from one allocator per library, so distinct Lisp
  names never collide after sanitizing (`a-b` / `a_b` → `rusty_a_b` /
  `rusty_a_b_2`), nor with the `_impl` functions or each other's locals;
- a repeated parameter name resolves to the later one;
- `(cond (else e))` and a `let` whose value is the receiver of a method call
  produce valid Rust (every compound expression is parenthesised);
- `expt` calls glibc's `pow` through an opaque pointer: LLVM would otherwise
  rewrite `pow(x, 2.0)` as `x * x`, which differs from `pow` in the last bit;
- `+` folds from 0 and a two-operand `-` computes `a - (0 + b)`, as the
  interpreter does, so signed zeros agree too (`(+ -0 -0)` is 0);
- `min`/`max` keep the accumulator unless the operand is strictly
  greater/smaller (or the accumulator is NaN), as the interpreter's fold does,
  instead of `f64::max`, whose choice between -0 and +0 is unspecified;
- recursion is guarded: each `_impl` takes `guard: &RustyGuard` and,
  on entry, compares the stack pointer with a limit fixed at the exported
  entry point: the calling thread's real stack bottom (read once per thread
  with pthread_getattr_np) plus a 64 KiB margin (for libm, the trip path and
  the last frame), but no more than 16 MiB (~500,000 frames of a small
  function) below the entry; 2 MiB where the thread's stack bounds cannot be
  read. Past it the call returns NaN, every later call returns NaN
  immediately, and the entry point sets a thread-local flag that
  `rustyjit_take_tripped()` reads (see rusty.jit.ffi). Measuring the stack
  means no thread, however small its stack, can overflow. Because LLVM may
  turn non-tail recursion into a loop (`(+ 1 (f n))` then never grows the
  stack), each `_impl` also takes `depth`: a call in tail position passes it
  on, any other call passes `depth + 1`, and past RUSTYJIT_DEPTH_LIMIT
  (1,000,000) the guard trips too; tail calls, which LLVM turns into jumps,
  stay unlimited;
- every call also reads the host's interrupt flag (one relaxed atomic load;
  rustyjit_bind_stop, rusty.jit.ffi): once Ctrl-C raises it the call returns
  NaN at once and the trip flag says why (2), so the caller raises
  `interrupted`. Every loop in generated code is a recursive call, so this
  polls every back-edge;
- the shared Rust (the guard, the trip flag, pow/min/max) is
  defrust_prelude.rs, read on first use; exported symbols of very long names
  are cut and hashed (`symbol_name`) to keep file names within limits.
"""
from __future__ import annotations

import hashlib
import math
import os
import struct

from rusty.errors import CompileError
from rusty.jit import build, ffi
from rusty.values import EMPTY, List, Native, Symbol, to_f64

# ── Messages ──────────────────────────────────

BUILTINS_TEXT = 'sqrt expt abs mod floor ceiling round min max sin cos tan atan atan2 exp log'
M_REFERENCE = ("defrust: unsupported reference to '%s' — only params, let/let* locals, numbers, "
               "arithmetic and the numeric builtins are available in a defrust body")
M_CALL = ("defrust: unsupported call to '%s' — only self-recursion, functions in the same "
          "defrust* group, and the numeric builtins (" + BUILTINS_TEXT + ") are supported")
M_ARITY = "defrust: '%s' called with %d arg(s), expected %d"
M_SHADOWED = "defrust: '%s' is shadowed by a local/param here and cannot be called"
M_HEAD = 'defrust: unsupported expression in body'
M_ATOM = ('defrust: only numbers, params, locals, arithmetic, numeric builtins, '
          'if/cond and let/let* are supported in the body')
M_CONDITION = ('defrust: an `if`/`cond` condition must be a comparison (< > <= >= =) '
               'or and/or/not of comparisons')
M_LET = ('defrust: let/let* takes exactly (let ((name init)...) body) — one body expression '
         '(the subset is pure, earlier ones would be dead code); named let is not supported, '
         'use self-recursion')
M_LET_LIST = 'defrust: let bindings must be a list of (name init) pairs'
M_LET_PAIR = 'defrust: let bindings must be (name init) pairs'
M_LET_NAME = 'defrust: let binding name must be a symbol'
M_COND_LIST = 'defrust: cond clauses must be (test expr) lists'
M_COND_ONE = 'defrust: cond clauses must have exactly one result expression'
M_COND_ELSE_LAST = 'defrust: cond `else` must be the last clause'
M_COND_NO_ELSE = ('defrust: cond must end with an `else` clause — a compiled function always '
                  'returns an f64, so every path needs a value')
M_GROUP_EMPTY = 'defrust*: at least one function required'
M_GROUP_DUPLICATE = "defrust*: duplicate function name '%s'"

# ── Operator tables: Lisp head -> Rust template ─────────────────────────

ARITHMETIC = ('+', '-', '*', '/')                     # 1+ operands, left fold
UNARY = {                                             # exactly 1 operand
    'sqrt': '{0}.sqrt()', 'abs': '{0}.abs()', 'floor': '{0}.floor()',
    'ceiling': '{0}.ceil()', 'round': '{0}.round()', 'sin': '{0}.sin()',
    'cos': '{0}.cos()', 'tan': '{0}.tan()', 'atan': '{0}.atan()',
    'exp': '{0}.exp()', 'log': '{0}.ln()',
}
BINARY = {                                            # exactly 2 operands
    'expt': 'rustyjit_pow({0}, {1})', 'atan2': '{0}.atan2({1})', 'mod': '({0} % {1})',
}
FOLDS = {'min': 'rustyjit_min', 'max': 'rustyjit_max'}   # 1+ operands
COMPARISONS = {'<': '<', '>': '>', '<=': '<=', '>=': '>=', '=': '=='}

ZERO = '0.0_f64'
PRELUDE_FILE = 'defrust_prelude.rs'
_prelude: list = []


def prelude_source() -> str:
    """The Rust every defrust library starts with (defrust_prelude.rs: the
    recursion guard, the trip flag, pow/min/max), read once on first use."""
    if not _prelude:
        path = os.path.join(os.path.dirname(__file__), PRELUDE_FILE)
        with open(path, encoding='utf-8', newline='') as f:
            _prelude.append(f.read())
    return _prelude[0]


# ── Identifiers and constants ───────────────────────────────────────────

def sanitize_ident(name: str) -> str:
    """`rusty_` + the name with every character outside [A-Za-z0-9_] as `_`."""
    return 'rusty_' + ''.join(c if (c.isascii() and (c.isalnum() or c == '_')) else '_'
                              for c in name)


MAX_SYMBOL = 64           # longer exported names are cut and hashed


def symbol_name(name: str) -> str:
    """The exported symbol for a Lisp name: `sanitize_ident`, or for a long
    name its first characters and a hash of the whole name, so the library's
    file name (`SYMBOL_KEY.so`) stays within file-system limits."""
    ident = sanitize_ident(name)
    if len(ident) <= MAX_SYMBOL:
        return ident
    digest = hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:16]
    return '%s_%s' % (ident[:MAX_SYMBOL - 17], digest)


def _claim(base: str, used: set) -> str:
    """`base`, or `base_2`, `base_3`, … — the first not in `used` (then used)."""
    name, i = base, 1
    while name in used:
        i += 1
        name = '%s_%d' % (base, i)
    used.add(name)
    return name


def rust_f64(x: float) -> str:
    """An exact Rust f64 expression for x (NaN payloads and ±inf included; an
    exact integer as its nearest f64)."""
    x = to_f64(x)
    if math.isfinite(x):
        text = repr(x) + '_f64'
        text = '(%s)' % text if text.startswith('-') else text
    else:
        text = 'f64::from_bits(0x%016x)' % struct.unpack('<Q', struct.pack('<d', x))[0]
    return opaque(x, text)


def opaque(x: float, text: str) -> str:
    """Hide -1.0 and -0.0 from the optimiser. LLVM turns `v * -1.0`, `v / -1.0`
    and `-0.0 - v` into a negation, which flips a NaN's sign bit where the
    interpreter's real multiply keeps it; behind black_box the operation stays
    the one the program wrote."""
    if x == -1.0 or (x == 0.0 and math.copysign(1.0, x) < 0):
        return 'std::hint::black_box(%s)' % text
    return text


def _is_number(x) -> bool:
    t = type(x)
    return t is float or t is int


# ── Function bodies ──────────────────────────────────────────────────────

class _Scope:
    """Codegen state for one function: its names and the group it can call."""

    def __init__(self, params, rust_params, fns, used):
        self.params = list(zip(params, rust_params))
        self.fns = fns              # Lisp name -> (impl name, arity)
        self.locals = []            # innermost last: (Lisp name, Rust name)
        self.used = used            # every Rust identifier visible here
        self.counter = 0
        self.tail = True            # whether the expression being generated is in tail position

    def fresh_local(self, lisp_name: str) -> str:
        base = sanitize_ident(lisp_name)
        while True:
            rn = '%s_l%d' % (base, self.counter)
            self.counter += 1
            if rn not in self.used:
                break
        self.used.add(rn)
        self.locals.append((lisp_name, rn))
        return rn

    def lookup(self, name: str):
        for ln, rn in reversed(self.locals):
            if ln == name:
                return rn
        for ln, rn in reversed(self.params):   # duplicate params: the later wins
            if ln == name:
                return rn
        return None

    # codegen_num
    def num(self, e) -> str:
        if _is_number(e):
            return rust_f64(e)
        if type(e) is Symbol:
            rn = self.lookup(e.name)
            if rn is None:
                raise CompileError(M_REFERENCE % e.name)
            return rn
        if type(e) is List and e is not EMPTY:
            head = e.car
            if type(head) is not Symbol:
                raise CompileError(M_HEAD)
            return self.application(head.name, list(e.cdr.cells()))
        raise CompileError(M_ATOM)

    def at(self, cell, gen=None) -> str:
        """gen (num by default) of the element of list cell `cell`; an error
        inside points at that element when it was read from source."""
        try:
            return (gen or self.num)(cell.car)
        except CompileError as e:
            if e.span is None:
                e.span = cell.span
            raise

    def application(self, h: str, args: list) -> str:
        """An application (`args`: the list cells of its operands); its
        operands are never in tail position."""
        tail = self.tail
        self.tail = False
        try:
            return self.operation(h, args, tail)
        finally:
            self.tail = tail

    def operation(self, h: str, args: list, tail: bool) -> str:
        n = len(args)
        if h in ARITHMETIC and n >= 1:
            return self.arithmetic(h, args)
        if h in UNARY and n == 1:
            return UNARY[h].format(self.at(args[0]))
        if h in BINARY and n == 2:
            a = self.at(args[0])
            return BINARY[h].format(a, self.at(args[1]))
        if h in FOLDS and n >= 1:
            acc = self.at(args[0])
            for a in args[1:]:
                acc = '%s(%s, %s)' % (FOLDS[h], acc, self.at(a))
            return acc
        if h == 'if' and n == 3:
            c = self.at(args[0], self.cond)
            self.tail = tail
            t = self.at(args[1])
            return '(if %s { %s } else { %s })' % (c, t, self.at(args[2]))
        if h == 'cond' and n >= 1:
            return self.cond_form(args, tail)
        if h in ('let', 'let*'):
            if n != 2:
                raise CompileError(M_LET)
            return self.let_form(h == 'let*', args[0], args[1], tail)
        if h in self.fns:
            if self.lookup(h) is not None:
                raise CompileError(M_SHADOWED % h)
            impl, arity = self.fns[h]
            if n != arity:
                raise CompileError(M_ARITY % (h, n, arity))
            depth = 'depth' if tail else 'depth + 1'
            return '%s(%s)' % (impl, ', '.join(['guard', depth] + [self.at(a) for a in args]))
        raise CompileError(M_CALL % h)

    def arithmetic(self, h: str, args: list) -> str:
        """`+ - * /`, bit for bit with the interpreter where the language
        promises it: `+` folds from 0 (`(+ -0 -0)` is 0), and a two-operand
        `-` subtracts `0 + b`; n-ary `-` and `/` fold left (documented)."""
        if h == '+':
            if _is_number(args[0].car):    # 0 + c folded here, exactly
                parts = [rust_f64(0.0 + to_f64(args[0].car))]
            else:
                parts = [ZERO, self.at(args[0])]
            parts += [self.at(a) for a in args[1:]]
        elif h == '-' and len(args) == 1:
            return '(-%s)' % self.at(args[0])
        elif h == '-' and len(args) == 2:
            a = self.at(args[0])
            b = args[1].car
            if _is_number(b):
                return '(%s - %s)' % (a, rust_f64(0.0 + to_f64(b)))
            return '(%s - (%s + %s))' % (a, ZERO, self.at(args[1]))
        else:
            parts = [self.at(a) for a in args]
        return '(%s)' % (' %s ' % h).join(parts)

    # codegen_let
    def let_form(self, sequential: bool, bindings_cell, body_cell, tail: bool) -> str:
        """`(let ((n v)…) body)` from the list cells of its bindings and body."""
        bindings = bindings_cell.car
        if type(bindings) is not List:
            raise self.pointing(CompileError(M_LET_LIST), bindings_cell)
        pairs = []
        for c in bindings.cells():
            b = c.car
            if type(b) is not List or len(b) != 2:
                raise self.pointing(CompileError(M_LET_PAIR), c)
            if type(b.car) is not Symbol:
                raise self.pointing(CompileError(M_LET_NAME), c)
            pairs.append((b.car.name, b.cdr))
        saved = len(self.locals)
        code = []
        if sequential:
            for name, init in pairs:
                init_code = self.at(init)       # sees the earlier bindings
                code.append('let %s = %s; ' % (self.fresh_local(name), init_code))
        else:
            inits = [self.at(init) for _, init in pairs]   # all in the outer scope
            names = [self.fresh_local(name) for name, _ in pairs]
            if len(names) == 1:
                code.append('let %s = %s; ' % (names[0], inits[0]))
            elif names:
                code.append('let (%s) = (%s); ' % (', '.join(names), ', '.join(inits)))
        self.tail = tail
        body_code = self.at(body_cell)
        del self.locals[saved:]
        return '({ %s%s })' % (''.join(code), body_code)

    # codegen_cond
    def cond_form(self, clauses: list, tail: bool) -> str:
        """`(cond (test expr)…)` from the list cells of its clauses."""
        arms = []
        last = len(clauses) - 1
        for i, cell in enumerate(clauses):
            clause = cell.car
            if type(clause) is not List:
                raise self.pointing(CompileError(M_COND_LIST), cell)
            if len(clause) != 2:
                raise self.pointing(CompileError(M_COND_ONE), cell)
            test = clause.car
            if type(test) is Symbol and test.name == 'else':
                if i != last:
                    raise self.pointing(CompileError(M_COND_ELSE_LAST), cell)
                self.tail = tail
                arms.append((None, self.at(clause.cdr)))
            else:
                self.tail = False
                c = self.at(clause, self.cond)
                self.tail = tail
                arms.append((c, self.at(clause.cdr)))
        if arms[-1][0] is not None:
            raise CompileError(M_COND_NO_ELSE)
        if len(arms) == 1:
            return arms[0][1]
        code = []
        for i, (c, v) in enumerate(arms):
            if c is None:
                code.append(' else { %s }' % v)
            elif i == 0:
                code.append('if %s { %s }' % (c, v))
            else:
                code.append(' else if %s { %s }' % (c, v))
        return '(%s)' % ''.join(code)

    # codegen_bool
    def cond(self, e) -> str:
        if type(e) is List and e is not EMPTY and type(e.car) is Symbol:
            h = e.car.name
            args = list(e.cdr.cells())
            n = len(args)
            if h in COMPARISONS and n == 2:
                a = self.at(args[0])
                return '(%s %s %s)' % (a, COMPARISONS[h], self.at(args[1]))
            if h in ('and', 'or') and n >= 1:
                op = ' && ' if h == 'and' else ' || '
                return '(%s)' % op.join([self.at(a, self.cond) for a in args])
            if h == 'not' and n == 1:
                return '(!%s)' % self.at(args[0], self.cond)
        raise CompileError(M_CONDITION)

    @staticmethod
    def pointing(e: CompileError, cell) -> CompileError:
        """e, pointing at the element of list cell `cell` (when it has a span)."""
        e.span = cell.span
        return e


# ── Whole libraries ──────────────────────────────────────────────────────

def _function_source(symbol: str, impl: str, rust_params: list, body: str) -> str:
    unpack = ''.join('    let %s = unsafe { *args.add(%d) };\n' % (p, i)
                     for i, p in enumerate(rust_params))
    call_args = ', '.join(['&guard', '0'] + rust_params)
    typed = ', '.join(['guard: &RustyGuard', 'depth: u32'] + ['%s: f64' % p for p in rust_params])
    return (
        '#[no_mangle]\n'
        'pub extern "C" fn %(sym)s(args: *const f64, len: usize) -> f64 {\n'
        '    debug_assert_eq!(len, %(arity)d);\n'
        '%(unpack)s'
        '    let guard = RustyGuard::new();\n'
        '    guard.finish(%(impl)s(%(call_args)s))\n'
        '}\n'
        '\n'
        'fn %(impl)s(%(typed)s) -> f64 {\n'
        '    if guard.exhausted(depth) { return guard.trip(); }\n'
        '    %(body)s\n'
        '}\n'
    ) % {'sym': symbol, 'impl': impl, 'arity': len(rust_params), 'unpack': unpack,
         'call_args': call_args, 'typed': typed, 'body': body}


def generate_source(defs) -> tuple[str, list]:
    """Rust source for a group of `(name, params, body)` and the exported
    symbol of each, in order. Raises CompileError with the defrust messages."""
    prelude, functions, symbols = generate_parts(defs)
    return '\n'.join([prelude] + functions), symbols


def generate_parts(defs) -> tuple[str, list, list]:
    """(shared prelude, each function's own source, each exported symbol)."""
    used: set = set()
    symbols = [_claim(symbol_name(name), used) for name, _, _ in defs]
    impls = [_claim(s + '_impl', used) for s in symbols]
    fns = {}
    for (name, params, _), impl in zip(defs, impls):
        fns.setdefault(name, (impl, len(params)))
    prelude = prelude_source()
    functions = []
    for (name, params, body), symbol, impl in zip(defs, symbols, impls):
        scope_used = set(used)
        rust_params = [_claim(sanitize_ident(p), scope_used) for p in params]
        scope = _Scope(params, rust_params, fns, scope_used)
        body_code = scope.num(body)
        functions.append(_function_source(symbol, impl, rust_params, body_code))
    return prelude, functions, symbols


def check_group(names, who: str) -> None:
    """The defrust* group checks: non-empty, no duplicate names."""
    if who != 'defrust*':
        return
    if not names:
        raise CompileError(M_GROUP_EMPTY)
    seen = set()
    for name in names:
        if name in seen:
            raise CompileError(M_GROUP_DUPLICATE % name)
        seen.add(name)


def compile_defrust(defs, who: str = 'defrust') -> list:
    """Compile, build (or hit the cache), load and wrap a defrust/defrust*
    group: one Native per `(name: str, params: list[str], body_form)`."""
    defs = [(name, list(params), body) for name, params, body in defs]
    check_group([d[0] for d in defs], who)
    prelude, functions, symbols = generate_parts(defs)
    lib = build.build_and_load('\n'.join([prelude] + functions), symbols[0])
    ffi.bind_stop(lib)
    natives = []
    for (name, params, _), symbol, own in zip(defs, symbols, functions):
        call = ffi.scalar_caller(lib, symbol, len(params), name)
        natives.append(Native(name, len(params), call, own, lib))
    return natives
