"""The two optimisation passes of a traced graph: constant folding, then DCE.

Nothing else: no algebraic identities, no strength reduction, no tensor folding.
Each node of the result keeps the span of the first construct that made it.
"""
from __future__ import annotations

from ..tensor import SCALAR_OPS
from .ir import COMPARE, Graph

_COMPARE = {
    'lt': lambda a, b: a < b, 'gt': lambda a, b: a > b, 'le': lambda a, b: a <= b,
    'ge': lambda a, b: a >= b, 'eq': lambda a, b: a == b,
}


def optimize(g: Graph, outputs: list[int]) -> tuple[Graph, list[int]]:
    """Fold then DCE; returns the new graph and the outputs' new indices."""
    g, outputs = fold(g, outputs)
    return dce(g, outputs)


def fold(g: Graph, outputs: list[int]) -> tuple[Graph, list[int]]:
    """Re-create every node in order in a fresh table, folding constants.

    `add sub mul div` of two constants and comparisons of two constants become
    constants (IEEE: division by zero gives ±inf/NaN); an `if` with a constant
    condition becomes its chosen branch (non-zero is true).
    """
    new = Graph()
    where: list[int] = []          # old index -> new index
    ops, attrs = new.ops, new.attrs
    for i, op, args, attr in g.rows():
        new.span = g.spans[i]
        if op == 'const':
            where.append(new.const(attr))
            continue
        if op == 'param':
            where.append(new.param(attr))
            continue
        a = [where[x] for x in args]
        if op in SCALAR_OPS and ops[a[0]] == 'const' and ops[a[1]] == 'const':
            where.append(new.const(SCALAR_OPS[op](attrs[a[0]], attrs[a[1]])))
        elif op in COMPARE and ops[a[0]] == 'const' and ops[a[1]] == 'const':
            where.append(new.const(1.0 if _COMPARE[op](attrs[a[0]], attrs[a[1]]) else 0.0))
        elif op == 'if' and ops[a[0]] == 'const':
            where.append(a[1] if attrs[a[0]] != 0.0 else a[2])
        else:
            where.append(new.node(op, *a))
    new.span = None
    return new, [where[o] for o in outputs]


def dce(g: Graph, outputs: list[int]) -> tuple[Graph, list[int]]:
    """Keep only the nodes reachable from the outputs, renumbered in order."""
    live = [False] * len(g)
    for o in outputs:
        live[o] = True
    for i in range(len(g) - 1, -1, -1):
        if live[i]:
            for a in g.args[i]:
                live[a] = True
    new = Graph()
    where: dict[int, int] = {}
    for i, op, args, attr in g.rows():
        if not live[i]:
            continue
        new.span = g.spans[i]
        if op == 'const':
            where[i] = new.const(attr)
        elif op == 'param':
            where[i] = new.param(attr)
        else:
            where[i] = new.node(op, *[where[a] for a in args])
    new.span = None
    return new, [where[o] for o in outputs]
