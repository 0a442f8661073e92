"""Compiled trainers (graph-compile-train): the forward+backward graph of a
grad kernel and an optimizer's update rule, rendered into one Rust function
that runs the whole step loop.

    compile_train(g, outputs, shapes, param_shapes, trained, rule) -> NativeTrainer

`outputs` are the loss then the gradient of each trained parameter (in the
order named, `trained` holding their parameter indices); `rule` is an
optimizer rule (rusty.graph.optimizers.Rule, handed over by the runtime as
data: this module never imports the graph package beyond its IR). The rule's
expressions are rendered operation for operation — no fused multiply-add,
no reordering — so a step gives the bits of the interpreted trainer
(rusty.graph.train), which evaluates the same data.

The function (ABI):

    rusty_train_kernel(inp, out, st, hyper, ctl, matmul, stop)

`inp` one pointer per lambda parameter (the trained ones are updated in
place), `out` one per output (loss cell, gradient buffers), `st` one per
state slot per trained parameter, `hyper` the hyperparameters in the rule's
order, `ctl` = [steps (0: the loss only, no update), steps done so far (t),
steps completed by this call, the last completed step's loss, matmul lanes],
`matmul` the native banded product (rusty_k_matmul_lanes of kernels.rs,
called directly: a trainer needs no Python during its loop). Before each
step and after its forward and backward pass the kernel polls the host's
interrupt flag; a stop request ends the loop there, before the update, so the
parameters are those of the last completed step. Nodes that depend on the
data alone (`invariants`: a transposed input, constants, a gradient of the
data alone) are computed once per call, before the loop.
"""
from __future__ import annotations

from rusty.graph.ir import Graph
from rusty.jit import build, kernels
from rusty.jit.grad_writer import SHAPE_ONLY_SECOND, grad_parts, size
from rusty.jit.graph_codegen import grad_prelude
from rusty.jit.node_exprs import rust_const
from rusty.jit.train_call import NativeTrainer

TRAIN_SYMBOL = 'rusty_train_kernel'

RUST_RULE = {
    'add': '(%s + %s)', 'sub': '(%s - %s)', 'mul': '(%s * %s)', 'div': '(%s / %s)',
    # the exponent behind a barrier: LLVM would turn pow(x, 0.5) into sqrt(x)
    'neg': '(-%s)', 'sqrt': '%s.sqrt()', 'pow': '%s.powf(std::hint::black_box(%s))',
}


def rule_expr(expr, local: frozenset) -> str:
    """The Rust expression of a rule expression: element names (`local`) are
    `e_NAME`, step names `h_NAME`."""
    if expr.__class__ is str:
        return ('e_' if expr in local else 'h_') + expr
    if expr.__class__ is float:
        return rust_const(expr)
    op, args = expr[0], [rule_expr(a, local) for a in expr[1:]]
    if op == 'first':
        return '(if h_first { %s } else { %s })' % (args[0], args[1])
    return RUST_RULE[op] % tuple(args)


def invariants(g: Graph, trained: tuple) -> frozenset:
    """The nodes that do not depend on a trained parameter: the same in
    every step of a call, so computed once before the loop. (The second
    argument of `expand` and `sum-to` gives only a shape.)"""
    varying: set = set()
    for i, op, args, attr in g.rows():
        read = args[:1] if op in SHAPE_ONLY_SECOND else args
        if (op == 'param' and attr in trained) or any(a in varying for a in read):
            varying.add(i)
    return frozenset(i for i in range(len(g)) if i not in varying)


def update_block(rule, param: int, grad_out: int, state_base: int, n: int) -> list:
    """Statements updating one trained parameter (n elements) in place."""
    local = frozenset(('p', 'g') + tuple(rule.state))
    lines = ['{ let s_p = std::slice::from_raw_parts_mut(*inp.add(%d) as *mut f64, %d);'
             % (param, n),
             '  let s_g = std::slice::from_raw_parts(*out.add(%d) as *const f64, %d);' % (grad_out, n)]
    for j, slot in enumerate(rule.state):
        lines.append('  let s_%s = std::slice::from_raw_parts_mut(*st.add(%d), %d);'
                     % (slot, state_base + j, n))
    loads = ['let e_p = s_p[j];', 'let e_g = s_g[j];'] + ['let e_%s = s_%s[j];' % (s, s)
                                                          for s in rule.state]
    lines.append('  for j in 0..%d { %s' % (n, ' '.join(loads)))
    for target, expr in rule.update:
        lines.append('    let e_%s = %s;' % (target, rule_expr(expr, local)))
    stores = ['s_p[j] = e_p;'] + ['s_%s[j] = e_%s;' % (s, s) for s in rule.state]
    lines.append('    %s } }' % ' '.join(stores))
    return lines


def train_function(g: Graph, outputs: list, shapes: list, trained: tuple, rule,
                   symbol: str = TRAIN_SYMBOL) -> str:
    """The Rust function of a trainer: the step loop around the grad kernel's
    statements and the update of every trained parameter."""
    w = grad_parts(g, outputs, shapes, invariants(g, trained))
    body, scratch, pre, pre_scratch = w.lines, w.scratch, w.pre, w.pre_scratch
    L = ['/// The step loop of a trainer (see rusty.jit.train_codegen).',
         '#[no_mangle]',
         'pub unsafe extern "C" fn %s(inp: *const *const f64, out: *const *mut f64, '
         'st: *const *mut f64, hyper: *const f64, ctl: *mut f64, matmul: RustyLanesFn, '
         'stop: *const std::sync::atomic::AtomicI32) {' % symbol,
         '    let stop = &*stop;',
         '    let lanes = *ctl.add(4) as usize;',
         '    // a product over the crossover: row bands on the lanes (the split rule of',
         '    // rusty.jit.bands), by the native kernel itself, with no Python in between',
         '    let mm = |a: *const f64, _: usize, b: *const f64, _: usize, o: *mut f64, n: usize,'
         ' k: usize, m: usize| {',
         '        let rows = (n + lanes.min(n).max(1) - 1) / lanes.min(n).max(1);',
         '        matmul(a, b, o, n, k, m, rows, lanes);',
         '    };',
         '    let steps = *ctl as u64;',
         '    let mut t = *ctl.add(1);',
         '    let mut loss = *ctl.add(3);',
         '    let mut done = 0u64;']
    L += ['    let h_%s = *hyper.add(%d);' % (name, j) for j, name in enumerate(rule.hyper)]
    if scratch or pre_scratch:
        total = scratch + pre_scratch
        L += ['    let mut rusty_buf = RUSTY_SCRATCH.with(|c| c.take());',
              '    if rusty_buf.len() < %d { rusty_buf = vec![0.0_f64; %d]; }' % (total, total),
              '    let (pre_scratch, loop_scratch) = rusty_buf.split_at_mut(%d);' % pre_scratch]
    L.append('    // loop invariants: what depends on the data alone, once per call')
    L += pre
    L += ["    'train: loop {",
          "        if rusty_stopped(stop) { break 'train; }",
          '        {']
    if scratch:
        L.append('        let scratch = &mut loop_scratch[..%d];' % scratch)
    L.append("        'kernel: {")
    L += ['        ' + line for line in body]
    L += ['        }',
          '        }',
          "        if rusty_stopped(stop) { break 'train; }",
          '        let step_loss = **out;',
          "        if steps == 0 { loss = step_loss; break 'train; }",
          '        t += 1.0;',
          '        let h_t = t;',
          '        let h_first = t == 1.0;']
    L += ['        let h_%s = %s;' % (name, rule_expr(expr, frozenset()))
          for name, expr in rule.scalars]
    state_base = 0
    for k, p in enumerate(trained):
        n = size(shapes[outputs[1 + k]] or ())
        L += ['        ' + line for line in update_block(rule, p, 1 + k, state_base, n)]
        state_base += len(rule.state)
    L += ['        loss = step_loss;',
          '        done += 1;',
          "        if done >= steps { break 'train; }",
          '    }']
    if scratch or pre_scratch:
        L.append('    RUSTY_SCRATCH.with(|c| c.set(rusty_buf));')
    L += ['    *ctl.add(1) = t;',
          '    *ctl.add(2) = done as f64;',
          '    *ctl.add(3) = loss;',
          '}']
    return '\n'.join(L) + '\n'


LANES_TYPE = (
    '/// rusty_k_matmul_lanes (kernels.rs): (a, b, out, n, k, m, rows per band, lanes).\n'
    'pub type RustyLanesFn = unsafe extern "C" fn(*const f64, *const f64, *mut f64, usize, '
    'usize, usize, usize, usize) -> i32;\n\n')


def train_source(g: Graph, outputs: list, shapes: list, trained: tuple, rule) -> str:
    """The whole library source of a graph-compile-train kernel."""
    return grad_prelude() + LANES_TYPE + train_function(g, outputs, shapes, trained, rule)


def compile_train(g: Graph, outputs: list, shapes: list, param_shapes: tuple, trained: tuple,
                  rule) -> NativeTrainer:
    """graph-compile-train: build (or find) the step loop and wrap it."""
    source = train_source(g, outputs, shapes, trained, rule)
    lib = build.build_and_load(source, TRAIN_SYMBOL)
    fn = lib.symbol(TRAIN_SYMBOL)
    fn.restype = None
    fn.argtypes = None
    return NativeTrainer(fn, lib, source, kernels.matmul_lanes_address(), param_shapes, trained,
                         len(rule.state))
