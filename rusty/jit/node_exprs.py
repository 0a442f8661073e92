"""The Rust expression of a graph node's value, shared by the scalar kernels
(graph_codegen) and the grad kernels' bodies (grad_writer): exact constants,
the scalar ops, the tensor ops' element operators."""
from __future__ import annotations

from rusty.graph.ir import float_bits
from rusty.jit.codegen import opaque

RUST_BINARY = {'add': '+', 'sub': '-', 'mul': '*'}
RUST_COMPARE = {'lt': '<', 'gt': '>', 'le': '<=', 'ge': '>=', 'eq': '=='}
RUST_TENSOR = {'tensor-add': '+', 'tensor-sub': '-', 'tensor-mul': '*', 'tensor-div': '/'}


def rust_const(x: float) -> str:
    """An exact f64 constant (its bits), with the value as a comment; -1.0
    and -0.0 behind a barrier, as codegen.opaque explains."""
    return opaque(x, 'f64::from_bits(0x%016x) /* %r */' % (float_bits(x), x))


def scalar_expr(op: str, v: list, attr) -> str:
    """The Rust expression of a scalar node (operands already named in `v`)."""
    if op == 'const':
        return rust_const(attr)
    if op in RUST_BINARY:
        return '%s %s %s' % (v[0], RUST_BINARY[op], v[1])
    if op == 'div':
        return '(%s / %s)' % (v[0], v[1])
    if op in RUST_COMPARE:
        return 'if %s %s %s { 1.0_f64 } else { 0.0_f64 }' % (v[0], RUST_COMPARE[op], v[1])
    if op == 'if':
        return 'if %s != 0.0 { %s } else { %s }' % (v[0], v[1], v[2])
    if op == 'relu':
        return 'if %s > 0.0 { %s } else { 0.0_f64 }' % (v[0], v[0])
    if op == 'step':
        return 'if %s > 0.0 { 1.0_f64 } else { 0.0_f64 }' % v[0]
    raise AssertionError('not a scalar op: %r' % op)

