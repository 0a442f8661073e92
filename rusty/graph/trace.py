"""Lambda body -> graph.

The builder walks the body recursively, building operands left to right before
the node that uses them, so the creation order (and with hash-consing, the
indices) is fixed by the source. Every error carries the `graph-ir:` prefix,
and an error about a construct of the body points at that construct (the span
of its list cell, when it was read from source).
"""
from __future__ import annotations

from ..errors import EvalError
from ..values import EMPTY, Lambda, List, Symbol, sym, to_f64
from .ir import Graph

NOT_A_LAMBDA = 'graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda'
REST = 'graph-ir: rest parameters are not supported'
BODY = 'graph-ir: lambda body must be a single expression'
IF_ARITY = 'graph-ir: if needs exactly 3 operands (if cond then else)'
IF_COND = 'graph-ir: an `if` condition must be a comparison (< > <= >= =)'

# Variadic arithmetic: source symbol -> binary op.
FOLDS = {sym('+'): 'add', sym('-'): 'sub', sym('*'): 'mul', sym('/'): 'div'}
# Comparisons, allowed only as an `if` condition.
COMPARISONS = {sym('<'): 'lt', sym('>'): 'gt', sym('<='): 'le', sym('>='): 'ge', sym('='): 'eq'}
# Fixed-arity tensor ops: source symbol -> (op, operand count).
FIXED = {sym(name): (name, n) for name, n in (
    ('tensor-add', 2), ('tensor-sub', 2), ('tensor-mul', 2), ('tensor-div', 2),
    ('matmul', 2), ('transpose', 1), ('relu', 1), ('tensor-sum', 1))}
IF = sym('if')


def check_lambda(f) -> None:
    """Raise the "cannot trace" error if f cannot be traced."""
    if f.__class__ is not Lambda:
        raise EvalError(NOT_A_LAMBDA)
    if f.rest is not None:
        raise EvalError(REST)
    if len(f.body) != 1:
        raise EvalError(BODY)


def build(f, show) -> tuple[Graph, int]:
    """The (unoptimised) graph of lambda f and its output node.

    `show` renders a value in display form (for messages).
    """
    check_lambda(f)
    params = {}
    for i, p in enumerate(f.params):
        params.setdefault(p, i)
    g = Graph()
    out = _Builder(g, params, show).sub(f.body)
    return g, out


def at_construct(e: EvalError, cell) -> None:
    """Give error e the span of the element of list cell `cell`, if it has none yet."""
    if e.span is None:
        e.span = cell.span


class _Builder:
    def __init__(self, graph: Graph, params: dict, show):
        self.g = graph
        self.params = params
        self.show = show

    def sub(self, cell) -> int:
        """The node of the element of list cell `cell` (errors inside, and
        the nodes it makes, point at it)."""
        g = self.g
        outer, g.span = g.span, cell.span
        try:
            return self.expr(cell.car)
        except EvalError as e:
            at_construct(e, cell)
            raise
        finally:
            g.span = outer

    def expr(self, x) -> int:
        cls = x.__class__
        if cls is float or cls is int:
            return self.g.const(to_f64(x))
        if cls is Symbol:
            i = self.params.get(x)
            if i is None:
                raise EvalError("graph-ir: unsupported reference to '%s' — only params, numbers, "
                                "+ - * /, if, and the tensor ops are supported" % x.name)
            return self.g.param(i)
        if cls is not List or x is EMPTY:
            raise EvalError('graph-ir: unsupported expression %s' % self.show(x))
        head = x.car
        operands = list(x.cdr.cells())
        op = FOLDS.get(head)
        if op is not None:
            return self.fold(head, op, operands)
        fixed = FIXED.get(head)
        if fixed is not None:
            name, n = fixed
            if len(operands) != n:
                raise EvalError("graph-ir: '%s' expects %d operand(s), got %d"
                                % (name, n, len(operands)))
            return self.g.node(name, *[self.sub(a) for a in operands])
        if head is IF:
            return self.if_(operands)
        name = head.name if head.__class__ is Symbol else self.show(head)
        raise EvalError("graph-ir: unsupported operator '%s'" % name)

    def fold(self, head: Symbol, op: str, operands: list) -> int:
        """`((a ⊕ b) ⊕ c) …`; one operand is itself, except `(- x)` = 0 - x.
        `operands` are the list cells holding them."""
        if not operands:
            raise EvalError("graph-ir: '%s' expects at least 1 operand(s), got 0" % head.name)
        acc = self.sub(operands[0])
        if len(operands) == 1:
            if op == 'sub':
                return self.g.node('sub', self.g.const(0.0), acc)
            return acc
        for b in operands[1:]:
            acc = self.g.node(op, acc, self.sub(b))
        return acc

    def if_(self, operands: list) -> int:
        """a, b, the comparison, then, else, and finally the `if` node
        (`operands`: the list cells holding them)."""
        if len(operands) != 3:
            raise EvalError(IF_ARITY)
        cond_cell, then, other = operands
        cond = cond_cell.car
        cmp = COMPARISONS.get(cond.car) if cond.__class__ is List and len(cond) == 3 else None
        if cmp is None:
            e = EvalError(IF_COND)
            at_construct(e, cond_cell)
            raise e
        g = self.g
        outer, g.span = g.span, cond_cell.span
        try:
            c = g.node(cmp, self.sub(cond.cdr), self.sub(cond.cdr.cdr))
        except EvalError as e:
            at_construct(e, cond_cell)
            raise
        finally:
            g.span = outer
        t = self.sub(then)
        e = self.sub(other)
        return self.g.node('if', c, t, e)
