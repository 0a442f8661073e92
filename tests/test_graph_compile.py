"""Compiled graphs (docs/reference.md §11 Tensors and graphs): graph-compile and graph-compile-grad at the
language level — examples, printing, every message, the generated source (pure,
no rustc), the matmul bridge, and the cache across processes."""
import os
import re
import subprocess
import sys
import threading
from array import array

import pytest

from helpers import err, ev, session
from rusty.graph.grad import grad_graph
from rusty.graph.optimize import optimize
from rusty.graph.shapes import infer
from rusty.graph.trace import build
from rusty.jit import grad_writer
from rusty.jit import graph_codegen as GC
from rusty.jit.matmul_bridge import make_bridge
from rusty.printer import display_form
from rusty.reader import read
from rusty.values import Lambda, Tensor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MLP = ('(lambda (x W b t nn) (tensor-sum (tensor-div (tensor-mul {d} {d}) nn)))'
       .format(d='(tensor-sub (relu (tensor-add (matmul x W) b)) t)'))

# Defines (val i off), (matrix rows cols off) and the MLP loss in a session.
PRELUDE = '''
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define loss %s)
(define x (matrix 8 16 0)) (define W (matrix 16 8 3)) (define t (matrix 8 8 5))
''' % MLP


def lam(src):
    form = read(src).car
    return Lambda(tuple(form.cdr.car), None, form.cdr.cdr, None, None)


def shape_of(x):
    return x.shape if x.__class__ is Tensor else None


def grad_kernel_source(src, *param_shapes):
    f = lam(src)
    forward, loss = build(f, display_form)
    g, outputs = grad_graph(forward, loss, len(f.params))
    shapes = infer(g, param_shapes)
    return GC.grad_source(g, outputs, shapes)


def scalar_kernel_source(src):
    f = lam(src)
    g, out = build(f, display_form)
    g, (out,) = optimize(g, [out])
    return GC.scalar_source(g, out, len(f.params))


# ── Errors raised before anything is compiled (no rustc needed) ──────────

def tensor_op(op):
    return ("graph-compile: '%s' is a tensor op — compiled graph kernels are scalar-only "
            "(tensor fusion is shape-specialized, see graph-grad)" % op)


LOSS = 'graph-compile-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)'


@pytest.mark.parametrize('src, msg', [
    ('(graph-compile (lambda (a b) (matmul a b)))', tensor_op('matmul')),
    ('(graph-compile (lambda (x t) (+ x (tensor-sum (transpose t)))))', tensor_op('transpose')),
    ('(graph-compile (lambda (x) (tensor-sum x)))', tensor_op('tensor-sum')),
    ('(graph-compile (lambda (x) (+ (* x 2) (tensor-add x 1))))', tensor_op('tensor-add')),
    ('(graph-compile (lambda (x) (tensor-div x 1)))', tensor_op('tensor-div')),
    ('(graph-compile (lambda (x) (sin x)))', "graph-ir: unsupported operator 'sin'"),
    ('(graph-compile 5)', 'graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda'),
    ('(graph-compile (lambda (x . r) x))', 'graph-ir: rest parameters are not supported'),
    ('(graph-compile)', 'graph-compile: expected 1 arg(s), got 0'),
    ('(graph-compile-grad (lambda (x y) (* x y)) 1)', 'graph-compile-grad: expected 2 arg(s), got 1'),
    ('(graph-compile-grad (lambda (x) x) "s")',
     'graph-compile-grad: arguments must be numbers or tensors, got "s"'),
    ('(graph-compile-grad (lambda (x) x) (list 1))',
     'graph-compile-grad: arguments must be numbers or tensors, got (1)'),
    ("(graph-compile-grad (lambda (t) (tensor-mul t 2)) (tensor '(1 2)))", LOSS),
    ("(graph-compile-grad (lambda (t) (relu t)) (tensor '((1 2) (3 4))))", LOSS),
    ("(graph-compile-grad (lambda (t) t) (tensor 1))", LOSS),
    ("(graph-compile-grad (lambda (x y) (+ x y)) 1 (tensor '(1 2)))",
     'graph-compile-grad: scalar op applied to a tensor (use tensor-add etc.)'),
    ("(graph-compile-grad (lambda (a b) (tensor-sum (matmul a b))) (tensor '((1 2))) (tensor '((1 2))))",
     'graph-compile-grad: matmul: inner dimensions differ (2 vs 1)'),
    ("(graph-compile-grad (lambda (a b) (tensor-sum (tensor-add a b))) (tensor '(1 2)) (tensor '(1 2 3)))",
     'graph-compile-grad: tensor-add: shape mismatch [2] vs [3]'),
    ("(graph-compile-grad (lambda (t) (matmul t t)) (tensor '((1 2) (3 4))))",
     'graph-compile-grad: matmul: both arguments must be rank-2 tensors'),
    ('(graph-compile-grad (lambda (x y) (if (< x y) x y)) 1 2)',
     "graph-grad: cannot differentiate through 'if' — comparisons and data-dependent `if` are not "
     "differentiable (a constant-condition if is pruned before this pass and is fine)"),
    ('(graph-compile-grad (lambda (x) (foo x)) 1)', "graph-ir: unsupported operator 'foo'"),
])
def test_errors_before_compiling(src, msg):
    assert err(src) == msg


def test_builtins_are_documented():
    for name in ('graph-compile', 'graph-compile-grad'):
        assert ev('(type-of %s)' % name) == 'builtin'
        assert ev(name) == '#<builtin:%s>' % name
        assert ev('(procedure? %s)' % name) == '#t'


# ── The generated source (pure) ──────────────────────────────────────────

def test_scalar_source_is_straight_line_and_exact():
    src = scalar_kernel_source('(lambda (x y) (if (< x y) (/ x 0) (relu (- (/ 0 0) y))))')
    assert 'pub unsafe extern "C" fn rusty_graph_kernel(args: *const f64, len: usize) -> f64' in src
    body = src[src.index('fn rusty_graph_kernel'):]
    assert 'for ' not in body and 'while' not in body and 'loop' not in body
    assert 'if v2 != 0.0 {' in body                          # eager select
    assert 'f64::from_bits(0xfff8000000000000)' in body       # the folded 0/0: the hardware's NaN, exactly
    assert '.max(' not in body and '.sum' not in body


def test_grad_source_is_deterministic_address_free_and_literal():
    a = grad_kernel_source(MLP, (8, 16), (16, 8), None, (8, 8), None)
    b = grad_kernel_source(MLP, (8, 16), (16, 8), None, (8, 8), None)
    assert a == b
    assert 'pub unsafe extern "C" fn rusty_grad_kernel(inp: *const *const f64, out: *const *mut f64, ' \
           'mm: MmBridgeFn, stop: *const std::sync::atomic::AtomicI32)' in a
    # no addresses: the only hex numbers are constants' bit patterns
    assert len(re.findall(r'0x', a)) == len(re.findall(r'f64::from_bits\(0x[0-9a-f]{16}\)', a))
    # every bound is a literal, or a literal offset from an enclosing loop's variable
    loops = re.findall(r'for \w+ in ([^{]*)\{', a)
    literal = r'(\d+|[a-z]\d* \+ \d+|[a-z]\d*)\.\.(\d+|[a-z]\d* \+ \d+)'
    assert loops and all(re.fullmatch(r'\(?%s\)?(\.step_by\(\d+\))? ' % literal, bound)
                         for bound in loops if 'iter' not in bound), loops
    assert '.sum' not in a and '.max(' not in a
    assert 'mm(' not in a.split('fn rusty_grad_kernel')[1]            # SMALL: all inline


def test_medium_matmuls_go_through_the_bridge():
    src = grad_kernel_source(MLP, (64, 256), (256, 64), None, (64, 64), None)
    body = src.split('fn rusty_grad_kernel')[1]
    assert body.count('mm(') == 3          # forward, and both gradients of the matmul
    assert 'for p in' not in body
    # big intermediates live in the per-thread scratch vector, transposes go in blocks
    assert 'RUSTY_SCRATCH.with(|c| c.take())' in body and 'vec![' in body
    assert body.count('step_by(4)') == 4
    assert '= [0.0_f64;' not in body        # nothing that big on the stack


def test_small_intermediates_are_stack_arrays():
    body = grad_kernel_source(MLP, (8, 16), (16, 8), None, (8, 8), None).split('fn rusty_grad_kernel')[1]
    assert 'RUSTY_SCRATCH' not in body and 'vec![' not in body
    sizes = [int(n) for n in re.findall(r'= \[0\.0_f64; (\d+)\];', body)]
    assert sizes and sum(sizes) <= grad_writer.STACK_ELEMENTS


def test_crossover_follows_section_13():
    assert grad_writer.crossover(2, 256, 128) and not grad_writer.crossover(1, 65536, 4)
    assert grad_writer.crossover(64, 32, 32) and not grad_writer.crossover(64, 32, 31)


def test_outputs_computed_in_place():
    src = grad_kernel_source(MLP, (8, 16), (16, 8), None, (8, 8), None)
    body = src.split('fn rusty_grad_kernel')[1]
    # gx and gW are computed in their result buffers, gt too (through its sum-to)
    for k in (1, 2, 4):
        assert 'from_raw_parts_mut(*out.add(%d)' % k in body
    assert 'copy_nonoverlapping' not in body


def test_elementwise_chains_are_fused_into_their_consumers_loop():
    body = grad_kernel_source(MLP, (8, 16), (16, 8), None, (8, 8), None).split('fn rusty_grad_kernel')[1]
    loops = re.findall(r'for j in 0\.\.\d+ \{ (o\[j\] = |acc \+= )(.*)', body)
    writes = [value for kind, value in loops if kind.startswith('o')]
    sums = [value for kind, value in loops if kind.startswith('acc')]
    # relu is computed inside the subtraction that reads it, once per element
    assert any('if x > 0.0 { x }' in v and ' - e_v' in v for v in writes)
    # the loss is summed straight from the squares, with no buffer for d*d/nn
    assert any(re.fullmatch(r'\(e_v\d+\[j\] / v\d+\); \} acc \};', v) for v in sums)
    # seven elementwise loops write a buffer, where one per node would be fifteen
    assert len(writes) == 7 and len(sums) == 3


def test_nodes_read_twice_or_returned_are_not_fused():
    g, out = build(lam('(lambda (a b) (tensor-sum (tensor-mul (relu a) (relu a))))'), display_form)
    g, _ = optimize(g, [out])
    # (relu a) is shared (hash-consed) and read twice by the product: it keeps its buffer
    shapes = infer(g, [(4, 4), (4, 4)])
    source = grad_writer._sources(g, shapes)
    relu = g.ops.index('relu')
    assert relu not in grad_writer._inline_nodes(g, set(), shapes, source)
    assert relu not in grad_writer._inline_nodes(g, {relu}, shapes, source)
    mul = g.ops.index('tensor-mul')
    assert mul in grad_writer._inline_nodes(g, set(), shapes, source)        # read once, by the sum
    assert mul not in grad_writer._inline_nodes(g, {mul}, shapes, source)    # an output has its own buffer


# ── Running compiled kernels ─────────────────────────────────────────────

rustc = pytest.mark.rustc


@rustc
def test_graph_compile_example_and_printing():
    s = session()
    s.run('(define k (graph-compile (lambda (x y) (+ (* (+ x y) (+ x y)) (/ x y)))))', '<t>')
    assert s.run('(k 3.0 2.0)', '<t>') == 26.5
    assert display_form(s.run('k', '<t>')) == '#<native:graph-kernel/2>'
    assert display_form(s.run('(type-of k)', '<t>')) == 'native'
    assert s.run('(native? k)', '<t>') is True
    assert display_form(s.run('(map (lambda (y) (k 1 y)) (list 1 4))', '<t>')) == '(5 25.25)'
    assert s.run('(apply k (list 3 2))', '<t>') == 26.5


@rustc
@pytest.mark.parametrize('src, msg', [
    ('(k 1)', 'graph-kernel: expected 2 arg(s), got 1'),
    ('(k 1 2 3)', 'graph-kernel: expected 2 arg(s), got 3'),
    ('(k 1 "a")', 'graph-kernel: expected a number, got "a"'),
    ("(k (tensor '(1 2)) 1)", 'graph-kernel: expected a number, got #<tensor 2 [1 2]>'),
])
def test_graph_kernel_call_errors(src, msg):
    assert err('(define k (graph-compile (lambda (x y) (+ x y)))) ' + src) == msg


@rustc
def test_graph_compile_arities():
    assert ev('((graph-compile (lambda () (+ 1 2))))') == '3'
    assert ev('(graph-compile (lambda () 7))') == '#<native:graph-kernel/0>'
    assert ev('((graph-compile (lambda (a b c d e) (- (* a b) (/ c (- d e))))) 1 2 3 4 5)') == '5'
    assert ev('((graph-compile (lambda (x) (if (> x 0) x (- x)))) -3)') == '3'
    assert ev('((graph-compile (lambda (x) (relu x))) -0.0)') == '0'
    assert ev('((graph-compile (lambda (x) (/ x 0))) -1)') == '-inf'


@rustc
def test_grad_kernel_matches_graph_grad_and_prints_its_shapes():
    s = session()
    s.run(PRELUDE + '(define k (graph-compile-grad loss x W -0.125 t 64))', '<t>')
    assert display_form(s.run('k', '<t>')) == '#<native-grad:grad-kernel (8x16 16x8 scalar 8x8 scalar)>'
    assert display_form(s.run('(type-of k)', '<t>')) == 'native-grad'
    assert s.run('(native? k)', '<t>') is True and s.run('(procedure? k)', '<t>') is True
    assert s.run('(equal? (k x W -0.125 t 64) (graph-grad loss x W -0.125 t 64))', '<t>') is True
    assert s.run('(equal? (apply k (list x W 0.5 t 3)) (graph-grad loss x W 0.5 t 3))', '<t>') is True
    r = s.run('(k x W -0.125 t 64)', '<t>')
    assert display_form(r) == ('(1.2212867736816406 #<tensor 8x16> #<tensor 16x8> 1.04833984375 '
                               '#<tensor 8x8> -0.019082605838775635)')


@rustc
def test_grad_kernel_rank0_and_scalar_examples():
    assert ev('((graph-compile-grad (lambda (x) (* x x)) 1) 5)') == '(25 10)'
    assert ev('((graph-compile-grad (lambda (x) (relu x)) 1) -3)') == '(0 0)'
    assert ev('((graph-compile-grad (lambda (x y) (* x 3)) 1 1) 2 7)') == '(6 3 0)'
    assert ev("((graph-compile-grad (lambda (t s) (tensor-sum (tensor-mul t s))) (tensor 1) 2) "
              "(tensor 3) 2)") == '(6 #<tensor  [2]> 3)'
    assert ev('(graph-compile-grad (lambda () 4))') == '#<native-grad:grad-kernel ()>'
    assert ev('((graph-compile-grad (lambda () 4)))') == '(4)'
    assert ev("((graph-compile-grad (lambda (x t) (* x x)) 3 (tensor '((1 2 3) (4 5 6)))) "
              "3 (tensor '((0 0 0) (0 0 0))))") == '(9 6 #<tensor 2x3 [0 0 0 0 0 0]>)'


GRAD_CALL = (PRELUDE + '(define k (graph-compile-grad loss x W -0.125 t 64)) ')
SHAPE_HINT = ' — run graph-compile-grad again for new shapes'


@rustc
@pytest.mark.parametrize('call, msg', [
    ('(k x W -0.125 t)', 'grad-kernel: expected 5 arg(s), got 4'),
    ('(k)', 'grad-kernel: expected 5 arg(s), got 0'),
    ('(k x W -0.125 t 64 1)', 'grad-kernel: expected 5 arg(s), got 6'),
    ('(k (matrix 4 16 0) W -0.125 t 64)', 'grad-kernel: compiled for shape [8, 16], got [4, 16]' + SHAPE_HINT),
    ('(k x W -0.125 (tensor 1) 64)', 'grad-kernel: compiled for shape [8, 8], got []' + SHAPE_HINT),
    ('(k x W (tensor 1) t 64)', 'grad-kernel: expected a number, got #<tensor  [1]>'),
    ('(k x W -0.125 t "n")', 'grad-kernel: expected a number, got "n"'),
    ('(k x W -0.125 t x)', 'grad-kernel: expected a number, got #<tensor 8x16>'),
    ('(k 1 W -0.125 t 64)', 'grad-kernel: expected a tensor of shape [8, 16], got 1'),
    ("(k x '(1 2) -0.125 t 64)", 'grad-kernel: expected a tensor of shape [16, 8], got (1 2)'),
    ('(k x W -0.125 "t" 64)', 'grad-kernel: expected a tensor of shape [8, 8], got "t"'),
    # the first bad argument is reported
    ('(k 1 2 3 4 5)', 'grad-kernel: expected a tensor of shape [8, 16], got 1'),
])
def test_grad_kernel_call_errors(call, msg):
    assert err(GRAD_CALL + call) == msg


@rustc
def test_grad_kernel_errors_are_catchable_and_located():
    assert ev(GRAD_CALL + '(try-catch (k x) (e) e)') == 'grad-kernel: expected 5 arg(s), got 1'
    s = session()
    s.run(GRAD_CALL, '<t>')
    from rusty.errors import EvalError
    with pytest.raises(EvalError) as e:
        s.run('(define (f) (k x W 1 t))\n(f)', 'file.lisp')
    assert e.value.span is not None and e.value.span.file == 'file.lisp'


# ── Training: both paths give the exact final losses (benchmarks/README.md) ──

TRAIN = '''
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define loss %s)
(define m %d) (define k %d) (define n %d)
(define x (matrix m k 0)) (define t (matrix m n 5)) (define nn (* m n))
(define (train step W b steps)
  (if (= steps 0)
      (car (step x W b t nn))
      (let ((r (step x W b t nn)))
        (train step (tensor-sub W (tensor-mul (caddr r) 0.01)) (- b (* (cadddr r) 0.01)) (- steps 1)))))
(define kernel (graph-compile-grad loss x (matrix k n 3) (val 1 0) t nn))
(list (train (lambda (x W b t nn) (graph-grad loss x W b t nn)) (matrix k n 3) (val 1 0) %d)
      (train kernel (matrix k n 3) (val 1 0) %d))
'''


@rustc
def test_mlp_small_final_loss_on_both_paths():
    r = session().run(TRAIN % (MLP, 8, 16, 8, 1000, 1000), '<t>')
    assert list(r) == [0.35312804084655014, 0.35312804084655014]


@rustc
def test_mlp_medium_final_loss_on_both_paths():
    """MEDIUM crosses into the bridge (three 1M-multiply-add matmuls per step)."""
    r = session().run(TRAIN % (MLP, 64, 256, 64, 100, 100), '<t>')
    assert list(r) == [30.44164216781179, 30.44164216781179]
    assert abs(r.car - 30.441642167811) < 1e-11


# ── The bridge ───────────────────────────────────────────────────────────

MEDIUM_SHAPES = [(64, 256), (256, 64), None, (64, 64), None]


def _medium_kernel(bridge):
    forward, loss = build(lam(MLP), display_form)
    g, outputs = grad_graph(forward, loss, 5)
    shapes = infer(g, MEDIUM_SHAPES)
    return GC.compile_grad(g, outputs, shapes, MEDIUM_SHAPES, bridge, display_form)


def _medium_args():
    def mat(r, c, off):
        return Tensor(array('d', [(((7 * i + off) % 17) - 8) / 8 for i in range(r * c)]), (r, c))
    return [mat(64, 256, 0), mat(256, 64, 3), -0.125, mat(64, 64, 5), 4096.0]


@rustc
def test_bridge_errors_reach_the_caller():
    from rusty.errors import EvalError

    def broken(a, b, out, n, k, m):
        raise EvalError('boom %dx%dx%d' % (n, k, m))
    k = _medium_kernel(make_bridge(broken))
    with pytest.raises(EvalError) as e:
        k.call(_medium_args())
    assert e.value.message == 'boom 64x256x64'
    # the failure is not left behind for the next call
    calls = []
    ok = _medium_kernel(make_bridge(lambda *a: calls.append(a[3:])))
    ok.call(_medium_args())
    assert calls == [(64, 256, 64), (64, 64, 256), (256, 64, 64)]


@rustc
def test_bridge_runs_the_banded_product_with_the_same_bits(monkeypatch):
    from rusty import compile_graph
    from rusty.graph import builtins as GB
    k = _medium_kernel(compile_graph.bridge())
    args = _medium_args()
    reference = list(GB.gradient(lam(MLP), args, display_form))
    for lanes in ('1', '2', '3', '7'):
        monkeypatch.setenv('RUSTY_MM_THREADS', lanes)
        got = list(k.call(args))
        assert [_bits(x) for x in got] == [_bits(x) for x in reference]


def _bits(x):
    return bytes(x.data) if x.__class__ is Tensor else array('d', [x]).tobytes()


@rustc
def test_concurrent_calls_get_their_own_buffers():
    s = session()
    s.run(PRELUDE + '(define k (graph-compile-grad loss x W -0.125 t 64))', '<t>')
    k, x, W, t = (s.run(n, '<t>') for n in ('k', 'x', 'W', 't'))
    from rusty.graph import builtins as GB
    want = {b: [_bits(v) for v in GB.gradient(lam(MLP), [x, W, b, t, 64.0], display_form)]
            for b in (-0.5, 0.0, 0.25, 1.0)}
    bad = []

    def worker(b):
        for _ in range(300):
            if [_bits(v) for v in k.call([x, W, b, t, 64.0])] != want[b]:
                bad.append(b)
    threads = [threading.Thread(target=worker, args=(b,)) for b in want]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not bad


@rustc
def test_results_are_fresh_tensors():
    s = session()
    s.run(PRELUDE + '(define k (graph-compile-grad loss x W -0.125 t 64))', '<t>')
    r1 = s.run('(k x W -0.125 t 64)', '<t>')
    r2 = s.run('(k x W -0.125 t 64)', '<t>')
    g1, g2 = list(r1)[1], list(r2)[1]
    assert g1.data is not g2.data and g1.data == g2.data
    assert g1.data.buffer_info()[0] != s.run('x', '<t>').data.buffer_info()[0]


# ── The cache, across processes ──────────────────────────────────────────

CHILD = r'''
import sys
from rusty.jit import build
from rusty.runtime import Session
from rusty.printer import display_form
runs = []
build.add_compile_listener(lambda what: runs.append(what), lambda what: None)
s = Session()
r = s.run(sys.argv[1], '<child>')
print(display_form(r))
print(','.join(runs))
'''


@rustc
def test_grad_kernel_cache_hit_in_a_new_process(tmp_path):
    cache = tmp_path / 'cache'
    env = dict(os.environ, RUSTY_CACHE_DIR=str(cache), PYTHONPATH=ROOT)
    prog = PRELUDE + '(list (graph-compile-grad loss x W -0.125 t 64) (car ((graph-compile-grad loss x W -0.125 t 64) x W 0.5 t 3)))'

    def child():
        r = subprocess.run([sys.executable, '-c', CHILD, prog], capture_output=True, text=True,
                           env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()
    first = child()
    second = child()
    assert first[0] == second[0]
    assert first[0].startswith('(#<native-grad:grad-kernel (8x16 16x8 scalar 8x8 scalar)> ')
    assert 'rusty_grad_kernel' in first[1].split(',')
    assert 'rusty_grad_kernel' not in second[1].split(',')       # no rustc run: a hit
    libs = sorted(p.name for p in cache.iterdir() if p.name.startswith('rusty_grad_kernel_'))
    assert [os.path.splitext(n)[1] for n in libs] == ['.rs', '.sha256', '.so']   # source, digest, library


def test_without_rustc_the_section_12_5_message(tmp_path):
    """Without rustc both builtins fail with the shared pipeline's message (and
    graph-grad still works)."""
    code = ('from rusty.runtime import Session\n'
            's = Session()\n'
            'print(s.run(\'(try-catch (graph-compile (lambda (x) x)) (e) e)\'))\n'
            'print(s.run(\'(try-catch (graph-compile-grad (lambda (x) (* x x)) 1) (e) e)\'))\n'
            'print(s.run(\'(car (graph-grad (lambda (x) (* x x)) 3))\'))\n')
    env = dict(os.environ, PATH=str(tmp_path), PYTHONPATH=ROOT,
               RUSTY_CACHE_DIR=str(tmp_path / 'cache'))
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert all(line.startswith('defrust: failed to run rustc (is it on PATH?): ') for line in lines[:2])
    assert lines[2] == '9.0'          # (Python's print of the float)
