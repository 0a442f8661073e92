"""Reverse mode: a rule table and one walk.

Each rule sits beside its op's forward meaning, as in micrograd. A rule is a
generator yielding `(argument, contribution)` pairs; the walk accumulates each
pair before asking for the next, so node creation follows the specified order:
contributions are built inner first (Python's argument order), the one for the
first argument before the second, each accumulated as soon as it exists. New
nodes go into the forward graph's own table, sharing with it by hash-consing;
a new adjoint node takes the span of the forward node whose rule made it.
"""
from __future__ import annotations

from ..errors import EvalError
from .ir import Graph
from .optimize import optimize

# ── Rules: forward meaning, then the contributions for adjoint g ─────────


def _add(G: Graph, a, b, g):
    """add(a, b) = a + b"""
    yield a, g
    yield b, g


def _sub(G, a, b, g):
    """sub(a, b) = a - b"""
    yield a, g
    yield b, G.node('sub', G.const(0.0), g)


def _mul(G, a, b, g):
    """mul(a, b) = a * b"""
    yield a, G.node('mul', g, b)
    yield b, G.node('mul', g, a)


def _div(G, a, b, g):
    """div(a, b) = a / b"""
    yield a, G.node('div', g, b)
    yield b, G.node('sub', G.const(0.0),
                    G.node('div', G.node('mul', g, a), G.node('mul', b, b)))


def _tensor_add(G, a, b, g):
    """tensor-add(a, b) = a + b elementwise (a scalar side broadcasts)"""
    yield a, G.node('sum-to', g, a)
    yield b, G.node('sum-to', g, b)


def _tensor_sub(G, a, b, g):
    """tensor-sub(a, b) = a - b elementwise"""
    yield a, G.node('sum-to', g, a)
    yield b, G.node('sum-to', G.node('tensor-mul', g, G.const(-1.0)), b)


def _tensor_mul(G, a, b, g):
    """tensor-mul(a, b) = a * b elementwise"""
    yield a, G.node('sum-to', G.node('tensor-mul', g, b), a)
    yield b, G.node('sum-to', G.node('tensor-mul', g, a), b)


def _tensor_div(G, a, b, g):
    """tensor-div(a, b) = a / b elementwise"""
    yield a, G.node('sum-to', G.node('tensor-div', g, b), a)
    yield b, G.node('sum-to',
                    G.node('tensor-mul',
                           G.node('tensor-div', G.node('tensor-mul', g, a),
                                  G.node('tensor-mul', b, b)),
                           G.const(-1.0)),
                    b)


def _matmul(G, a, b, g):
    """matmul(a, b) = a · b (the tensor matmul)"""
    yield a, G.node('matmul', g, G.node('transpose', b))
    yield b, G.node('matmul', G.node('transpose', a), g)


def _transpose(G, a, g):
    """transpose(a) = aᵀ"""
    yield a, G.node('transpose', g)


def _tensor_sum(G, a, g):
    """tensor-sum(a) = Σ a, sequentially"""
    yield a, G.node('expand', g, a)


def _relu(G, a, g):
    """relu(a) = a if a > 0 else 0, elementwise"""
    yield a, G.node('tensor-mul', g, G.node('step', a))


RULES = {
    'add': _add, 'sub': _sub, 'mul': _mul, 'div': _div,
    'tensor-add': _tensor_add, 'tensor-sub': _tensor_sub,
    'tensor-mul': _tensor_mul, 'tensor-div': _tensor_div,
    'matmul': _matmul, 'transpose': _transpose, 'tensor-sum': _tensor_sum, 'relu': _relu,
}
LEAVES = ('const', 'param')


def not_differentiable(op: str) -> EvalError:
    return EvalError("graph-grad: cannot differentiate through '%s' — comparisons and "
                     "data-dependent `if` are not differentiable (a constant-condition if is "
                     "pruned before this pass and is fine)" % op)


# ── The walk ─────────────────────────────────────────────────────────────

def backward(G: Graph, loss: int, nparams: int) -> list[int]:
    """Add the adjoint nodes of an optimised forward graph to it, in place.

    Returns the outputs: the loss, then each parameter's gradient node (a zero
    of the parameter's shape when the loss does not use it).
    """
    forward = len(G)
    adjoint: dict[int, int] = {loss: G.const(1.0)}
    for i in range(forward - 1, -1, -1):
        g = adjoint.get(i)
        op = G.ops[i]
        if g is None or op in LEAVES:
            continue
        rule = RULES.get(op)
        if rule is None:
            raise G.at_node(not_differentiable(op), i)
        G.span = G.spans[i]
        for arg, contribution in rule(G, *G.args[i], g):
            prev = adjoint.get(arg)
            adjoint[arg] = (contribution if prev is None
                            else G.node('tensor-add', prev, contribution))
    G.span = None
    outputs = [loss]
    for p in range(nparams):
        node = G.find_param(p)
        grad = adjoint.get(node) if node is not None else None
        if grad is None:
            grad = G.node('expand', G.const(0.0), G.param(p))
        outputs.append(grad)
    return outputs


def grad_graph(forward: Graph, loss: int, nparams: int) -> tuple[Graph, list[int]]:
    """graph-grad up to evaluation (trace, differentiate, fold, DCE): the folded, DCE'd combined graph."""
    G, (loss,) = optimize(forward, [loss])
    outputs = backward(G, loss, nparams)
    return optimize(G, outputs)
