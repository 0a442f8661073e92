"""The body of a grad kernel (graph-compile-grad, and a trainer's step): the
Rust statements computing every node of a shape-specialised forward+backward
graph, node by node. Identity nodes are the same variable as their argument,
elementwise chains are fused into their consumer's loop, tensor outputs are
computed in their result buffers, big products go through the matmul bridge,
and the interrupt flag is polled between nodes (POLL_WORK). graph_codegen
wraps the body into the kernel's function and library.
"""
from __future__ import annotations

import re

from rusty.graph.ir import Graph
from rusty.jit import bands
from rusty.jit.node_exprs import RUST_TENSOR, scalar_expr

# Intermediate tensors are stack arrays while their total stays within 16 KiB
# (distinct arrays let LLVM keep values in registers and drop dead stores:
# measured 0.7 µs against 1.2 µs with a Vec each for the MLP SMALL kernel);
# the rest are slices of one scratch vector per thread, kept between calls, so
# a call never needs much of the caller's stack and never maps fresh pages
# (a Vec each cost the MLP MEDIUM kernel ~300 µs of page faults per call).
STACK_ELEMENTS = 2048
# A grad kernel polls the interrupt flag before a node once the work since its
# last poll (elements written, multiply-adds) reaches this: a relaxed load per
# few thousand operations, none at all in small kernels.
POLL_WORK = 1 << 14
# An inlined matmul whose rows have at most this many columns accumulates each
# row in a local array (registers) rather than in the output, which LLVM must
# otherwise assume may alias the inputs.
ROW_IN_REGISTERS = 32


def size(shape) -> int:
    """Elements of a tensor shape (1 for rank 0)."""
    n = 1
    for d in shape:
        n *= d
    return n


crossover = bands.crossover     # (n, k, m) -> True when the product goes through the bridge


def _identity_of(op: str, sa: list) -> bool:
    """True for a node that returns its first argument unchanged."""
    if op == 'sum-to':
        return (sa[0] is None) == (sa[1] is None)     # same-shape tensor, or scalar to scalar
    if op == 'expand':
        return sa[0] is not None or sa[1] is None     # already a tensor, or scalar like
    if op == 'tensor-sum':
        return sa[0] is None                          # a number is its own sum
    return False


class _GradWriter:
    """Emits the body of a grad kernel, node by node."""

    def __init__(self, g: Graph, outputs: list, shapes: list):
        self.g = g
        self.shapes = shapes
        self.name: list[str] = []          # node -> Rust variable
        self.lines: list[str] = []
        # A tensor output that a loop or bridged matmul computes is written in
        # place into its result buffer: the first output slot naming it.
        self.home: dict[int, int] = {}
        for k, o in enumerate(outputs):
            self.home.setdefault(o, k)
        self.placed: set = set()
        self.inline: set = set()           # nodes computed in their consumer's loop
        self.expr: dict[int, str] = {}     # inline node -> its element expression
        self.source: dict[int, int] = {}   # identity node -> the node it passes through
        self.stack = 0                     # elements of the buffers on the stack
        self.scratch = 0                   # elements of the buffers in the scratch vector
        self.unpolled = 0                  # work emitted since the last interrupt poll
        self.polls = 0
        # Nodes computed once, before a trainer's step loop (see grad_parts):
        # their statements go to `pre`, their big buffers to `pre_scratch`.
        self.hoist: frozenset = frozenset()
        self.hoisting = False
        self.pre: list[str] = []
        self.pre_scratch = 0

    def poll(self, work: int) -> None:
        """Before a node doing `work` operations: poll the interrupt flag if
        the work since the last poll, this node's included, reaches POLL_WORK."""
        if self.hoisting:
            return
        self.unpolled += work
        if self.unpolled >= POLL_WORK:
            self.emit("if rusty_stopped(stop) { break 'kernel; }")
            self.unpolled = 0
            self.polls += 1

    def emit(self, text: str) -> None:
        (self.pre if self.hoisting else self.lines).append('    ' + text)

    def buffer(self, i: int, n: int) -> str:
        """Declare node i's result buffer of n elements; returns the variable."""
        v = 'v%d' % i
        slot = self.home.get(i)
        if slot is not None and i not in self.placed:
            self.placed.add(i)
            self.emit('let %s: &mut [f64] = std::slice::from_raw_parts_mut(*out.add(%d), %d);'
                      % (v, slot, n))
        elif self.stack + n <= STACK_ELEMENTS:
            self.emit('let mut %s = [0.0_f64; %d];' % (v, n))
            self.stack += n
        elif self.hoisting:
            self.emit('let (%s, pre_scratch) = pre_scratch.split_at_mut(%d);' % (v, n))
            self.pre_scratch += n
        else:
            self.emit('let (%s, scratch) = scratch.split_at_mut(%d);' % (v, n))
            self.scratch += n
        return v

    def node(self, i: int, op: str, args: tuple, attr) -> None:
        self.hoisting = i in self.hoist
        s = self.shapes[i]
        sa = [self.shapes[a] for a in args]
        v = [self.name[a] for a in args]
        if _identity_of(op, sa):
            self.name.append(v[0])
            return
        self.name.append('v%d' % i)
        if i in self.inline:
            self.expr[i] = self.element(op, args)
        elif op == 'param':
            if s is None:
                self.emit('let v%d: f64 = **inp.add(%d);' % (i, attr))
            else:
                self.emit('let v%d: &[f64] = std::slice::from_raw_parts(*inp.add(%d), %d);'
                          % (i, attr, size(s)))
        elif s is None:
            self.scalar(i, op, v, sa, attr, args)
        elif op == 'if':
            self.emit('let v%d: &[f64] = if %s != 0.0 { &%s[..] } else { &%s[..] };'
                      % (i, v[0], v[1], v[2]))
        elif op in ELEMENTWISE:
            n = size(s)
            self.poll(n)
            o = self.buffer(i, n)
            binds, value = self.bind(self.element(op, args), n)
            self.emit('{ %slet o = &mut %s[..%d];' % (binds, o, n))
            self.emit('  for j in 0..%d { o[j] = %s; } }' % (n, value))
        elif op == 'matmul':
            (n, k), m = sa[0], sa[1][1]
            self.poll(n * k * m)
            self.matmul(i, v, n, k, m)
        elif op == 'transpose':
            n, m = sa[0]
            self.poll(n * m)
            self.transpose(v[0], self.buffer(i, n * m), n, m)
        else:
            raise AssertionError('no tensor code for %r' % op)

    def transpose(self, a: str, o: str, n: int, m: int) -> None:
        """o (m×n) ← a (n×m) in 4×4 blocks, as rusty_k_transpose (kernels.rs)
        does: four rows of four read, four rows of four written, so both sides
        move whole vectors; leftovers element by element."""
        n4, m4 = n - n % 4, m - m % 4
        self.emit('{ let a = &%s[..%d]; let o = &mut %s[..%d];' % (a, n * m, o, n * m))
        self.emit('  for i0 in (0..%d).step_by(4) {' % n4)
        self.emit('    for j0 in (0..%d).step_by(4) { let r: [[f64; 4]; 4] = core::array::from_fn(|r| {'
                  ' let s = (i0 + r) * %d + j0; [a[s], a[s + 1], a[s + 2], a[s + 3]] });' % (m4, m))
        self.emit('      for c in 0..4 { let s = (j0 + c) * %d + i0;'
                  ' o[s..s + 4].copy_from_slice(&[r[0][c], r[1][c], r[2][c], r[3][c]]); } }' % n)
        if m4 < m:
            self.emit('    for i in i0..i0 + 4 { for j in %d..%d { o[j * %d + i] = a[i * %d + j]; } }'
                      % (m4, m, n, m))
        self.emit('  }')
        if n4 < n:
            self.emit('  for i in %d..%d { for j in 0..%d { o[j * %d + i] = a[i * %d + j]; } }'
                      % (n4, n, m, n, m))
        self.emit('}')

    # Elementwise nodes are written as expressions of one element, index `j`.
    # A node computed inside its consumer's loop (`inline`) is its expression;
    # a tensor in a buffer is `@name@` until `bind` gives it a checked slice.

    def element(self, op: str, args) -> str:
        """Element j of an elementwise node over these arguments."""
        e = [self.operand(a) for a in args]
        if op in RUST_TENSOR:
            return '%s %s %s' % (e[0], RUST_TENSOR[op], e[1])
        if op == 'relu':
            return '{ let x = %s; if x > 0.0 { x } else { 0.0_f64 } }' % e[0]
        if op == 'step':
            return 'if %s > 0.0 { 1.0_f64 } else { 0.0_f64 }' % e[0]
        if op == 'expand':           # a scalar spread over a tensor's shape
            return e[0]
        raise AssertionError('no element code for %r' % op)

    def operand(self, a: int) -> str:
        a = self.source.get(a, a)
        if a in self.expr:
            return '(%s)' % self.expr[a]
        if self.shapes[a] is None:
            return self.name[a]
        return '@%s@' % self.name[a]

    @staticmethod
    def bind(value: str, n: int) -> tuple:
        """(`let` statements binding each buffer `value` reads as an n-element
        slice, `value` reading element j of those slices)."""
        names = list(dict.fromkeys(re.findall(r'@(v\d+)@', value)))
        binds = ''.join('let e_%s = &%s[..%d]; ' % (name, name, n) for name in names)
        return binds, re.sub(r'@(v\d+)@', r'e_\1[j]', value)

    def scalar(self, i, op, v, sa, attr, args) -> None:
        if op == 'tensor-sum' or op == 'sum-to':          # a tensor summed to a scalar
            n = size(sa[0])
            self.poll(n)
            binds, value = self.bind(self.operand(args[0]), n)
            self.emit('let v%d: f64 = { %slet mut acc = 0.0_f64;'
                      ' for j in 0..%d { acc += %s; } acc };' % (i, binds, n, value))
        elif op in RUST_TENSOR:                            # number ⊕ number
            base = {'tensor-add': 'add', 'tensor-sub': 'sub',
                    'tensor-mul': 'mul', 'tensor-div': 'div'}[op]
            self.emit('let v%d: f64 = %s;' % (i, scalar_expr(base, v, None)))
        else:
            self.emit('let v%d: f64 = %s;' % (i, scalar_expr(op, v, attr)))

    def matmul(self, i, v, n, k, m) -> None:
        o = self.buffer(i, n * m)
        if crossover(n, k, m):          # the bridge writes every element of o
            self.emit('mm(%s.as_ptr(), %d, %s.as_ptr(), %d, %s.as_mut_ptr(), %d, %d, %d);'
                      % (v[0], n * k, v[1], k * m, o, n, k, m))
            return
        self.emit('{ let a = &%s[..%d]; let b = &%s[..%d]; let o = &mut %s[..%d];'
                  % (v[0], n * k, v[1], k * m, o, n * m))
        poll = self.inner_poll(n * k * m, m)
        if m <= ROW_IN_REGISTERS:
            # each output row accumulates in a local array (registers), then is stored
            self.emit('  for i in 0..%d { let mut acc = [0.0_f64; %d];' % (n, m))
            self.emit('    for p in 0..%d {%s let x = a[i * %d + p]; let b_row = &b[p * %d..p * %d + %d];'
                      % (k, poll, k, m, m, m))
            self.emit('      for j in 0..%d { acc[j] += x * b_row[j]; } }' % m)
            self.emit('    o[i * %d..i * %d + %d].copy_from_slice(&acc); } }' % (m, m, m))
            return
        self.emit('  for x in o.iter_mut() { *x = 0.0; }')
        self.emit('  for i in 0..%d { let o_row = &mut o[i * %d..i * %d + %d];' % (n, m, m, m))
        self.emit('    for p in 0..%d {%s let x = a[i * %d + p]; let b_row = &b[p * %d..p * %d + %d];'
                  % (k, poll, k, m, m, m))
        self.emit('      for j in 0..%d { o_row[j] += x * b_row[j]; } } } }' % m)

    def inner_poll(self, work: int, per_step: int) -> str:
        """A poll for the inner loop of an inlined matmul doing `work`
        multiply-adds, `per_step` each step (every POLL_WORK of them), or ''
        when the polls between nodes are often enough. A single-row product
        never reaches the bridge however large, so without it one node could
        run for seconds deaf to Ctrl-C."""
        if work <= POLL_WORK:
            return ''
        self.polls += 1
        every = max(1, POLL_WORK // max(per_step, 1))
        return " if p %% %d == 0 && rusty_stopped(stop) { break 'kernel; }" % every

    def store(self, k: int, o: int) -> None:
        """Hand output k (node o) to its result buffer, unless computed there."""
        s = self.shapes[o]
        if s is None:
            self.emit('**out.add(%d) = %s;' % (k, self.name[o]))
            return
        base = self.name[o]
        if base == 'v%d' % o and self.home.get(o) == k and o in self.placed:
            return
        self.emit('std::ptr::copy_nonoverlapping(%s.as_ptr(), *out.add(%d), %d);'
                  % (base, k, size(s)))


ELEMENTWISE = frozenset(RUST_TENSOR) | {'relu', 'step', 'expand'}
SHAPE_ONLY_SECOND = ('expand', 'sum-to')     # the second argument only gives a shape


def _takes_elements(g: Graph, c: int, shapes: list) -> bool:
    """True when node c (not an identity) reads its tensor arguments element
    by element in one loop (an elementwise op, or a sum to a scalar)."""
    op = g.ops[c]
    if shapes[c] is None:
        return op in ('tensor-sum', 'sum-to')
    return op in ELEMENTWISE and op != 'expand'


def _sources(g: Graph, shapes: list) -> dict:
    """Identity node -> the node whose value it passes through."""
    source: dict = {}
    for i, op, args, _ in g.rows():
        if _identity_of(op, [shapes[a] for a in args]):
            source[i] = source.get(args[0], args[0])
    return source


def _inline_nodes(g: Graph, outputs: set, shapes: list, source: dict) -> set:
    """Elementwise tensor nodes to compute inside their consumer's loop rather
    than in a buffer of their own: those read once, by a loop that reads
    elements, and spread scalars (`expand`) read only by such loops. Every
    element still gets the same operations in the same order, so fusing
    changes memory traffic, not bits."""
    consumers: list = [[] for _ in g.ops]
    for i, op, args, _ in g.rows():
        if i not in source:
            for a in (args[:1] if op in SHAPE_ONLY_SECOND else args):
                consumers[source.get(a, a)].append(i)
    inline = set()
    for i, op, args, _ in g.rows():
        if shapes[i] is None or op not in ELEMENTWISE or i in outputs or i in source:
            continue
        if not consumers[i]:
            continue
        if ((len(consumers[i]) == 1 or op == 'expand')
                and all(_takes_elements(g, c, shapes) for c in consumers[i])):
            inline.add(i)
    return inline


def _resolve_homes(g: Graph, outputs: list, shapes: list) -> list:
    """Outputs with identity nodes replaced by the node they pass through, so a
    gradient that is a `sum-to` of a computed tensor is computed in place too."""
    resolved = []
    for o in outputs:
        while True:
            args = g.args[o]
            if not args or not _identity_of(g.ops[o], [shapes[a] for a in args]):
                break
            o = args[0]
        resolved.append(o)
    return resolved


def grad_body(g: Graph, outputs: list, shapes: list) -> tuple:
    """(statements, scratch elements, polls) of a forward+backward kernel: the
    statements compute every node and store output k through `out.add(k)`,
    reading the arguments through `inp`, the bridge `mm`, the flag `stop` and,
    when scratch elements are needed, a `scratch` slice of that many; a poll
    that sees a stop request does `break 'kernel`."""
    w = grad_parts(g, outputs, shapes)
    return w.lines, w.scratch, w.polls


def grad_parts(g: Graph, outputs: list, shapes: list, hoist: frozenset = frozenset()):
    """The writer after writing a forward+backward kernel (grad_body): its
    `lines`, `scratch` and `polls`; and for a trainer, the nodes in `hoist`
    (nodes whose arguments are all in it too: loop invariants) written apart
    into `pre`, with big buffers from a `pre_scratch` slice of `pre_scratch`
    elements and no polls, to run once before the step loop."""
    resolved = _resolve_homes(g, outputs, shapes)
    w = _GradWriter(g, resolved, shapes)
    w.hoist = hoist
    # Only nodes computed by a loop or the bridge can live in a result buffer.
    for o in list(w.home):
        if g.ops[o] in ('param', 'if', 'const') or shapes[o] is None:
            del w.home[o]
    w.source = _sources(g, shapes)
    w.inline = _inline_nodes(g, set(resolved), shapes, w.source)
    for i, op, args, attr in g.rows():
        w.node(i, op, args, attr)
    w.hoisting = False
    for k, o in enumerate(resolved):
        w.store(k, o)
    return w
