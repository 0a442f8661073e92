"""The Graph IR: ops, interned nodes, printing as data.

A graph is a list of nodes in creation order; node i's arguments are indices
smaller than i. Creating a node whose key already exists returns the existing
index (hash-consing — the only common-subexpression elimination). Keys are
`(op, args)`; a constant is keyed by its bit pattern (so 0.0 and -0.0 differ),
a parameter by its position.

Each node also records the source span of the construct that first made it
(`spans[i]`, None when unknown) so errors found after building can point at
it. Spans are not part of a key and never reach code generation.
"""
from __future__ import annotations

import struct

from ..values import make_list, sym

# ── Ops ──────────────────────────────────────────────────────────────────
# name -> number of node arguments (const and param carry a value instead).

OPS = {
    'const': 0, 'param': 0,
    'add': 2, 'sub': 2, 'mul': 2, 'div': 2,
    'lt': 2, 'gt': 2, 'le': 2, 'ge': 2, 'eq': 2,
    'if': 3,
    'tensor-add': 2, 'tensor-sub': 2, 'tensor-mul': 2, 'tensor-div': 2,
    'matmul': 2, 'transpose': 1, 'tensor-sum': 1, 'relu': 1,
    'step': 1, 'sum-to': 2, 'expand': 2,
}

ARITH = ('add', 'sub', 'mul', 'div')
COMPARE = ('lt', 'gt', 'le', 'ge', 'eq')
TENSOR_ARITH = ('tensor-add', 'tensor-sub', 'tensor-mul', 'tensor-div')

# The source operator each scalar op comes from (for messages).
SOURCE_NAME = {'add': '+', 'sub': '-', 'mul': '*', 'div': '/',
               'lt': '<', 'gt': '>', 'le': '<=', 'ge': '>=', 'eq': '='}

_pack = struct.Struct('<d').pack
_unpack_bits = struct.Struct('<Q').unpack


def float_bits(x: float) -> int:
    """The IEEE-754 bit pattern of x."""
    return _unpack_bits(_pack(x))[0]


# ── Graphs ───────────────────────────────────────────────────────────────

class Graph:
    """Hash-consed nodes: `ops[i]` the op name, `args[i]` the argument indices,
    `attrs[i]` the constant's value or the parameter's index (else None),
    `spans[i]` the span of the construct that first made the node. A new node
    takes the current `span`, which the builder and the passes set."""
    __slots__ = ('ops', 'args', 'attrs', 'keys', 'spans', 'span')

    def __init__(self):
        self.ops: list[str] = []
        self.args: list[tuple] = []
        self.attrs: list = []
        self.keys: dict = {}
        self.spans: list = []
        self.span = None

    def __len__(self) -> int:
        return len(self.ops)

    def _intern(self, key, op, args, attr) -> int:
        i = self.keys.get(key)
        if i is None:
            i = self.keys[key] = len(self.ops)
            self.ops.append(op)
            self.args.append(args)
            self.attrs.append(attr)
            self.spans.append(self.span)
        return i

    def const(self, x: float) -> int:
        """The node of constant x (keyed by its bits)."""
        return self._intern(('const', float_bits(x)), 'const', (), x)

    def param(self, i: int) -> int:
        """The node of parameter i."""
        return self._intern(('param', i), 'param', (), i)

    def node(self, op: str, *args: int) -> int:
        """The node op(args…)."""
        return self._intern((op, args), op, args, None)

    def find_param(self, i: int):
        """The index of parameter i's node, or None if the graph has none."""
        return self.keys.get(('param', i))

    def at_node(self, e, i: int):
        """Error e, given node i's construct span if it has no span yet."""
        if e.span is None:
            e.span = self.spans[i]
        return e

    def rows(self):
        """(index, op, args, attr) for every node, in order."""
        return zip(range(len(self.ops)), self.ops, self.args, self.attrs)

    def to_data(self, output: int):
        """`(NODES OUTPUT-INDEX)` as rusty data."""
        rows = []
        for i, op, args, attr in self.rows():
            items = [i, sym(op)]        # indices exact; a constant's value an f64
            if op == 'const':
                items.append(attr)
            elif op == 'param':
                items.append(attr)
            else:
                items.extend(args)
            rows.append(make_list(items))
        return make_list([make_list(rows), output])

    def __repr__(self) -> str:
        lines = []
        for i, op, args, attr in self.rows():
            extra = [repr(attr)] if op in ('const', 'param') else [str(a) for a in args]
            lines.append('%d %s %s' % (i, op, ' '.join(extra)))
        return '<Graph\n  %s>' % '\n  '.join(lines)
