"""Graph IR building, hash-consing, optimisation and printing (docs/reference.md §11 Tensors and graphs, §6.12 Graphs)."""
import math

import pytest

from rusty.errors import EvalError
from rusty.graph import builtins as GB
from rusty.graph.ir import Graph, float_bits
from rusty.graph.optimize import dce, fold, optimize
from rusty.graph.trace import build
from rusty.printer import display_form, print_form
from rusty.reader import read
from rusty.values import Lambda, sym


class Host:
    display = staticmethod(display_form)


def lam(src):
    """A Lambda value from `(lambda (params) body…)` source (rest after `.`)."""
    form = read(src).car
    params = list(form.cdr.car)
    rest = None
    if sym('.') in params:
        rest = params[params.index(sym('.')) + 1]
        params = params[:params.index(sym('.'))]
    return Lambda(tuple(params), rest, form.cdr.cdr, None, None)


def ir(src):
    return print_form(GB.graph_ir(Host(), lam(src)))


def count(src):
    return GB.graph_node_count(Host(), lam(src))


def ir_error(src, name='graph-ir'):
    with pytest.raises(EvalError) as e:
        {'graph-ir': GB.graph_ir, 'graph-node-count': GB.graph_node_count}[name](Host(), lam(src))
    return e.value.message


# ── Examples of building and printing graphs (docs/reference.md §11, §6.12) ──

@pytest.mark.parametrize('src, expected', [
    ('(lambda (x) (+ (* 2 3) x))', '(((0 const 6) (1 param 0) (2 add 0 1)) 2)'),
    ('(lambda (x) (* x x))', '(((0 param 0) (1 mul 0 0)) 1)'),
    ('(lambda (x) (- x))', '(((0 param 0) (1 const 0) (2 sub 1 0)) 2)'),
    ('(lambda (x y) (if (< x y) x y))', '(((0 param 0) (1 param 1) (2 lt 0 1) (3 if 2 0 1)) 3)'),
    # folds, left folds, one-operand forms
    ('(lambda (x) (+ x 1 2))', '(((0 param 0) (1 const 1) (2 add 0 1) (3 const 2) (4 add 2 3)) 4)'),
    ('(lambda (x) (+ 1 2 x))', '(((0 const 3) (1 param 0) (2 add 0 1)) 2)'),
    ('(lambda (x) (* x))', '(((0 param 0)) 0)'),
    ('(lambda (x) (/ x))', '(((0 param 0)) 0)'),
    ('(lambda (x) (+ x))', '(((0 param 0)) 0)'),
    ('(lambda (x) 5)', '(((0 const 5)) 0)'),
    ('(lambda (x y) y)', '(((0 param 1)) 0)'),
    ('(lambda (x) (- 3))', '(((0 const -3)) 0)'),
    ('(lambda (x) (/ 1 0))', '(((0 const inf)) 0)'),
    ('(lambda (x) (- (/ 0 0)))', '(((0 const NaN)) 0)'),
    # no commutativity normalisation
    ('(lambda (a b) (* (+ a b) (+ b a)))',
     '(((0 param 0) (1 param 1) (2 add 0 1) (3 add 1 0) (4 mul 2 3)) 4)'),
    # comparisons of constants fold; if-pruning picks a branch
    ('(lambda (x) (if (= 1 1) x 7))', '(((0 param 0)) 0)'),
    ('(lambda (x) (if (> 1 2) x 7))', '(((0 const 7)) 0)'),
    ('(lambda (x) (if (<= x 2) x 7))',
     '(((0 param 0) (1 const 2) (2 le 0 1) (3 const 7) (4 if 2 0 3)) 4)'),
    # the folded comparison's `const 1` comes first and is shared with the branch's 1
    ('(lambda (x) (if (>= 2 2) (+ x 1) 0))', '(((0 const 1) (1 param 0) (2 add 1 0)) 2)'),
    # tensor ops are never folded
    ('(lambda (x) (relu (tensor-add 1 2)))',
     '(((0 const 1) (1 const 2) (2 tensor-add 0 1) (3 relu 2)) 3)'),
    ('(lambda (x w) (tensor-sum (matmul (transpose x) w)))',
     '(((0 param 0) (1 transpose 0) (2 param 1) (3 matmul 1 2) (4 tensor-sum 3)) 4)'),
    ('(lambda (a b) (tensor-div (tensor-mul a b) (tensor-sub a b)))',
     '(((0 param 0) (1 param 1) (2 tensor-mul 0 1) (3 tensor-sub 0 1) (4 tensor-div 2 3)) 4)'),
    ('(lambda (x) (relu -2))', '(((0 const -2) (1 relu 0)) 1)'),
])
def test_graph_ir(src, expected):
    assert ir(src) == expected


@pytest.mark.parametrize('src, n', [
    ('(lambda (x) (+ (* x x) (* x x)))', 3),
    ('(lambda (x w) (tensor-add (matmul x w) (matmul x w)))', 4),
    ('(lambda (x) (if (< 1 2) x (/ x 0)))', 1),
    ('(lambda (x) (+ x 0 -0.0))', 5),           # 0 and -0 are different constants
    ('(lambda (x) (+ x 0 0))', 4),
])
def test_node_count(src, n):
    assert count(src) == n


def test_graph_ir_is_data():
    data = GB.graph_ir(Host(), lam('(lambda (x) (* x 2))'))
    nodes, out = list(data)
    assert out == 2 and out.__class__ is int        # indices are exact integers
    row = list(list(nodes)[0])
    assert row == [0, sym('param'), 0] and all(x.__class__ is int for x in (row[0], row[2]))
    const = list(list(nodes)[1])
    assert const[2] == 2.0 and const[2].__class__ is float     # a constant is an f64
    assert list(list(nodes)[1])[1] is sym('const')


# ── Building errors ──────────────────────────────────────────────────────

UNSUPPORTED_REF = ("graph-ir: unsupported reference to 'y' — only params, numbers, "
                   "+ - * /, if, and the tensor ops are supported")


@pytest.mark.parametrize('src, msg', [
    ('(lambda (x . r) x)', 'graph-ir: rest parameters are not supported'),
    ('(lambda (x) x x)', 'graph-ir: lambda body must be a single expression'),
    ('(lambda (x))', 'graph-ir: lambda body must be a single expression'),
    ('(lambda (x) (+ x y))', UNSUPPORTED_REF),
    ('(lambda (x) (sin x))', "graph-ir: unsupported operator 'sin'"),
    ('(lambda (x) (< x 1))', "graph-ir: unsupported operator '<'"),
    ('(lambda (x) (+ x (= x 1)))', "graph-ir: unsupported operator '='"),
    ('(lambda (x) (step x))', "graph-ir: unsupported operator 'step'"),
    ('(lambda (x) ((f) x))', "graph-ir: unsupported operator '(f)'"),
    ('(lambda (x) (+ x "s"))', 'graph-ir: unsupported expression "s"'),
    ('(lambda (x) (+ x #t))', 'graph-ir: unsupported expression #t'),
    ('(lambda (x) ())', 'graph-ir: unsupported expression ()'),
    ('(lambda (x) (if (< x 1) x))', 'graph-ir: if needs exactly 3 operands (if cond then else)'),
    ('(lambda (x) (if (< x 1) x x x))', 'graph-ir: if needs exactly 3 operands (if cond then else)'),
    ('(lambda (x) (if x 1 2))', 'graph-ir: an `if` condition must be a comparison (< > <= >= =)'),
    ('(lambda (x) (if (< x) 1 2))', 'graph-ir: an `if` condition must be a comparison (< > <= >= =)'),
    ('(lambda (x) (if (+ x 1) 1 2))', 'graph-ir: an `if` condition must be a comparison (< > <= >= =)'),
    ('(lambda (x) (+))', "graph-ir: '+' expects at least 1 operand(s), got 0"),
    ('(lambda (x) (-))', "graph-ir: '-' expects at least 1 operand(s), got 0"),
    ('(lambda (x) (/))', "graph-ir: '/' expects at least 1 operand(s), got 0"),
    ('(lambda (x) (matmul x))', "graph-ir: 'matmul' expects 2 operand(s), got 1"),
    ('(lambda (x) (tensor-add x x x))', "graph-ir: 'tensor-add' expects 2 operand(s), got 3"),
    ('(lambda (x) (relu))', "graph-ir: 'relu' expects 1 operand(s), got 0"),
    ('(lambda (x) (transpose x x))', "graph-ir: 'transpose' expects 1 operand(s), got 2"),
    ('(lambda (x) (tensor-sum))', "graph-ir: 'tensor-sum' expects 1 operand(s), got 0"),
])
def test_building_errors(src, msg):
    assert ir_error(src) == msg
    assert ir_error(src, 'graph-node-count') == msg


def test_not_a_lambda():
    for f in (1.0, 'f', sym('f')):
        with pytest.raises(EvalError) as e:
            GB.graph_ir(Host(), f)
        assert e.value.message == ('graph-ir: (graph-ir (lambda (params...) expr)) — '
                                   'argument must be a lambda')


def test_errors_come_in_build_order():
    # The first operand is built (and fails) before the second is looked at.
    assert ir_error('(lambda (x) (+ (sin x) y))') == "graph-ir: unsupported operator 'sin'"
    assert ir_error('(lambda (x) (+ y (sin x)))') == UNSUPPORTED_REF


# ── Hash-consing and the passes ──────────────────────────────────────────

def test_hash_consing_keys_constants_by_bits():
    g = Graph()
    assert g.const(0.0) != g.const(-0.0)
    assert g.const(1.5) == g.const(1.5)
    assert g.const(math.nan) == g.const(math.nan)
    p = g.param(0)
    assert g.node('add', p, p) == g.node('add', p, p)
    assert g.node('add', p, 0) != g.node('add', 0, p)
    assert float_bits(-0.0) == 1 << 63


def test_build_order_of_if_and_negation():
    g, out = build(lam('(lambda (x y) (if (> (- x) y) (* x y) (+ y 1)))'), display_form)
    assert g.ops == ['param', 'const', 'sub', 'param', 'gt', 'mul', 'const', 'add', 'if']
    assert out == 8 and g.args[8] == (4, 5, 7)


def test_fold_and_dce_separately():
    g, out = build(lam('(lambda (x) (+ (* 2 3) x))'), display_form)
    f, (fo,) = fold(g, [out])
    assert f.ops == ['const', 'const', 'const', 'param', 'add'] and f.attrs[2] == 6.0
    d, (do,) = dce(f, [fo])
    assert d.ops == ['const', 'param', 'add'] and do == 2


def test_fold_ieee_and_comparisons_with_nan():
    g, out = build(lam('(lambda (x) (if (< (/ 0 0) 1) x (+ x 1)))'), display_form)
    o, (oo,) = optimize(g, [out])
    assert o.ops == ['const', 'param', 'add']          # NaN < 1 is false
    assert o.args[2] == (1, 0)
    g, out = build(lam('(lambda (x) (if (= 0 -0.0) x 2))'), display_form)
    o, (oo,) = optimize(g, [out])
    assert o.ops == ['param']                           # 0 = -0 is true
