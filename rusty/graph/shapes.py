"""Shape inference, mirroring evaluation exactly.

A shape is None for a scalar and a dims tuple for a tensor (`()` for rank 0).
Each parameter takes its example argument's shape. Errors carry the
`graph-compile-grad:` prefix (or the one given) and point at the construct of
the failing node, except the loss-not-scalar one, which is about the call.
"""
from __future__ import annotations

from .. import tensor as T
from ..errors import EvalError
from ..values import Tensor
from .ir import ARITH, COMPARE, TENSOR_ARITH, Graph

PREFIX = 'graph-compile-grad'


def shape_of(x):
    """The shape of a value: None for a number, the dims tuple for a tensor."""
    return x.shape if x.__class__ is Tensor else None


def infer(g: Graph, param_shapes, prefix: str = PREFIX) -> list:
    """The shape of every node, given the shape of each parameter."""
    def fail(msg, at=True):
        e = EvalError('%s: %s' % (prefix, msg))
        raise g.at_node(e, i) if at else e

    shapes: list = []
    push = shapes.append
    for i, op, args, attr in g.rows():
        s = [shapes[a] for a in args]
        if op == 'const':
            push(None)
        elif op == 'param':
            push(param_shapes[attr])
        elif op in ARITH or op in COMPARE:
            if s[0] is not None or s[1] is not None:
                fail('scalar op applied to a tensor (use tensor-add etc.)')
            push(None)
        elif op == 'if':
            if s[1] != s[2]:
                fail('if branches have different shapes')
            push(s[1])
        elif op in TENSOR_ARITH:
            a, b = s
            if a is not None and b is not None and a != b:
                fail('%s: shape mismatch %s vs %s' % (op, T.shape_text(a), T.shape_text(b)))
            push(a if a is not None else b)
        elif op == 'matmul':
            a, b = s
            if a is None or b is None or len(a) != 2 or len(b) != 2:
                fail('matmul: both arguments must be rank-2 tensors')
            if a[1] != b[0]:
                fail('matmul: inner dimensions differ (%d vs %d)' % (a[1], b[0]))
            push((a[0], b[1]))
        elif op == 'transpose':
            a = s[0]
            if a is None or len(a) != 2:
                fail('transpose: argument must be a rank-2 tensor')
            push((a[1], a[0]))
        elif op == 'tensor-sum':
            push(None)
        elif op in ('relu', 'step'):
            push(s[0])
        elif op == 'sum-to':
            gs, like = s
            if like is not None and gs is None:
                fail('the loss must evaluate to a scalar (use tensor-sum or a mean)', at=False)
            push(like if like is None else gs)
        elif op == 'expand':
            gs, like = s
            push(gs if gs is not None else like)
        else:
            raise AssertionError('unknown op %r' % op)
    return shapes
