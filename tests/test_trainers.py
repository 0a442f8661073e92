"""Trainers (the manual's "Training in one native call"): graph-compile-train
against its interpreted reference graph-train, bit for bit, for every
optimizer; the MLP SMALL workload's exact loss; every message; data
replacement; trainer-reset!; Ctrl-C between steps; and PyTorch float64 to
1e-12 relative (skipped without torch). The rule data alone is checked
without rustc."""
import math
import threading
import time

import pytest

from helpers import MLP_DEFS, err, session
from rusty.errors import RustyError
from rusty.graph import optimizers as O
from rusty.jit import train_codegen as TC
from rusty.printer import display_form
from rusty.values import Tensor

PRELUDE = MLP_DEFS + '''(define (mlp m k n)
  (list (matrix m k 0) (matrix k n 3) (val 1 0) (matrix m n 5) (* m n)))
(define small (mlp 8 16 8))
(define (make maker opt) (apply maker (append (list loss '(W b) opt) small)))
'''

OPTIMIZERS = ['(sgd 0.01)', "(sgd 0.002 'momentum 0.9)", '(adam 0.01)', '(adam 0.05 0.8 0.99 1e-6)']


def bits(v):
    """A value's exact bits, for comparisons that must not round."""
    if v.__class__ is Tensor:
        return (v.shape, v.data.tobytes())
    if v.__class__ is float:
        return v.hex()
    return [bits(x) for x in v]


def params(s, name):
    return bits(list(s.run('(trainer-params %s)' % name, '<test>')))


@pytest.fixture
def s():
    sess = session()
    sess.run(PRELUDE, '<test>')
    return sess


# ── Without rustc: the rules as data and as Rust ─────────────────────────

def test_every_rule_uses_only_its_names_and_known_ops():
    for rule in (O.SGD, O.SGD_MOMENTUM, O.ADAM):
        known = set(rule.hyper) | {'t'}
        for name, expr in rule.scalars:
            assert _names(expr) <= known
            known.add(name)
        element = known | {'p', 'g'} | set(rule.state)
        for target, expr in rule.update:
            assert target in ('p',) + rule.state
            assert _names(expr) <= element


def _names(expr):
    if expr.__class__ is str:
        return {expr}
    if expr.__class__ is float:
        return set()
    assert expr[0] in O.RULE_OPS
    return set().union(*[_names(a) for a in expr[1:]])


def test_rules_render_operation_for_operation():
    local = frozenset(('p', 'g', 'm', 'v'))
    assert TC.rule_expr(('add', 'p', ('mul', 'nlr', 'g')), local) == '(e_p + (h_nlr * e_g))'
    assert TC.rule_expr(('first', 'g', 'm'), local) == '(if h_first { e_g } else { e_m })'
    assert 'black_box' in TC.rule_expr(('pow', 'b2', 0.5), local)


def test_the_interpreted_rule_is_pytorch_sgd_and_adam_on_scalars():
    env = O.step_scalars(O.SGD, (0.5,), 1.0)
    assert O.update(O.SGD, env, 1.0, 3.0, [])[0] == 1.0 + (-0.5) * 3.0
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
    env = O.step_scalars(O.ADAM, (lr, b1, b2, eps), 2.0)
    p, (m, v) = O.update(O.ADAM, env, 1.0, 0.5, [0.1, 0.2])
    m_want = 0.1 + (1 - b1) * (0.5 - 0.1)
    v_want = 0.2 * b2 + (1 - b2) * 0.5 * 0.5
    denom = math.sqrt(v_want) / (1 - b2 ** 2.0) ** 0.5 + eps
    assert (m, v) == (m_want, v_want)
    assert p == 1.0 + (-(lr / (1 - b1 ** 2.0))) * m_want / denom


def test_optimizer_values_are_lists_and_integers_become_floats():
    assert display_form(O.make_sgd((1,), display_form)) == '(sgd 1)'
    assert O.make_sgd((1,), display_form).cdr.car.__class__ is float
    made = O.make_adam((1, 0, 0, 0), display_form)
    assert [x.__class__ for x in list(made)[1:]] == [float] * 4
    rule, hyper = O.read_optimizer(O.make_sgd((0.1, O.MOMENTUM, 0), display_form), 'p', display_form)
    assert rule is O.SGD and hyper == (0.1,)       # momentum 0 is PyTorch's plain SGD


# ── Compiled against interpreted, bit for bit ────────────────────────────

@pytest.mark.rustc
@pytest.mark.parametrize('opt', OPTIMIZERS)
def test_compiled_and_interpreted_trainers_agree_bit_for_bit(s, opt):
    s.run('(define c (make graph-compile-train %s)) (define i (make graph-train %s))' % (opt, opt),
          '<test>')
    for steps in (1, 2, 0, 37, 5):
        a = s.run('(train! c %d)' % steps, '<test>')
        b = s.run('(train! i %d)' % steps, '<test>')
        assert bits(a) == bits(b)
        assert params(s, 'c') == params(s, 'i')
    assert params(s, 'c') != bits(list(s.run("(list (nth small 1) (nth small 2))", '<test>')))


@pytest.mark.rustc
def test_the_small_workload_gives_its_exact_final_loss(s):
    s.run('(define c (make graph-compile-train (sgd 0.01)))', '<test>')
    assert s.run('(train! c 1000)', '<test>') == 0.3531348049950783     # the 1000th step's loss
    assert s.run('(train! c 0)', '<test>') == 0.35312804084655014       # at the final weights
    assert s.run('(train! c 0)', '<test>') == 0.35312804084655014       # 0 steps change nothing


@pytest.mark.rustc
def test_a_scalar_parameter_alone_and_an_unused_one(s):
    s.run("(define f (lambda (w u x) (* (- w x) (- w x))))"
          "(define c (graph-compile-train f '(w u) (adam 0.1) 0 5 3))"
          "(define i (graph-train f '(w u) (adam 0.1) 0 5 3))", '<test>')
    assert s.run('(train! c 50)', '<test>') == s.run('(train! i 50)', '<test>')
    assert params(s, 'c') == params(s, 'i')
    assert s.run('(nth (trainer-params c) 1)', '<test>') == 5.0    # no gradient, no move


@pytest.mark.rustc
def test_printing_and_type(s):
    s.run('(define c (make graph-compile-train (adam 0.01))) (define i (make graph-train (sgd 1)))',
          '<test>')
    assert display_form(s.run('c', '<test>')) == '#<native-train:loss (16x8 scalar) adam>'
    assert display_form(s.run('i', '<test>')) == '#<train:loss (16x8 scalar) sgd>'
    assert s.run('(type-of c)', '<test>').name == 'trainer'


@pytest.mark.rustc
@pytest.mark.parametrize('maker', ['graph-compile-train', 'graph-train'])
def test_reset_starts_over_with_the_same_losses(s, maker):
    s.run('(define c (make %s (adam 0.01)))' % maker, '<test>')
    first = [s.run('(train! c 7)', '<test>') for _ in range(3)]
    start = params(s, 'c')
    s.run('(trainer-reset! c)', '<test>')
    assert params(s, 'c') == bits(list(s.run("(list (nth small 1) (nth small 2))", '<test>')))
    assert [s.run('(train! c 7)', '<test>') for _ in range(3)] == first
    assert params(s, 'c') == start


@pytest.mark.rustc
def test_new_data_replaces_the_old_in_both_trainers(s):
    s.run('(define c (make graph-compile-train (sgd 0.05))) (define i (make graph-train (sgd 0.05)))'
          '(define x2 (matrix 8 16 4)) (define t2 (matrix 8 8 9))', '<test>')
    for args in ('x2 t2 64', '(nth small 0) t2 32', ''):
        assert bits(s.run('(train! c 3 %s)' % args, '<test>')) == bits(
            s.run('(train! i 3 %s)' % args, '<test>'))
        assert params(s, 'c') == params(s, 'i')
    # (the last round gives no data: both keep the data given last)


# ── Messages ─────────────────────────────────────────────────────────────

ERRORS = [
    ("(make graph-compile-train (sgd 0.1)) (graph-compile-train loss '(W c) (sgd 0.1) 1 2 3 4 5)",
     'graph-compile-train: c is not a parameter of loss (x W b t nn)'),
    ("(graph-train loss '(w) (sgd 0.1) 1 2 3 4 5)",
     'graph-train: w is not a parameter of loss (x W b t nn)'),
    ("(graph-compile-train loss '(W W) (sgd 0.1) 1 2 3 4 5)", 'graph-compile-train: W is named twice'),
    ("(graph-compile-train loss '() (sgd 0.1) 1 2 3 4 5)",
     'graph-compile-train: the trained parameters must be a non-empty list of parameter names, got ()'),
    ("(graph-compile-train loss '(W) '(rmsprop 1) 1 2 3 4 5)",
     "graph-compile-train: the optimizer must be (sgd lr), (sgd lr 'momentum m), (adam lr) or "
     "(adam lr b1 b2 eps), got (rmsprop 1)"),
    ("(graph-compile-train loss '(W) '(adam 0.1 2 0.9 0) 1 2 3 4 5)",
     'graph-compile-train: bad optimizer (adam 0.1 2 0.9 0): beta1 must be in [0, 1), got 2'),
    ('(sgd -1)', 'sgd: the learning rate must be a non-negative number, got -1'),
    ('(sgd "a")', 'sgd: the learning rate must be a number, got "a"'),
    ("(sgd 0.1 'nesterov 0.9)", "sgd: expected (sgd lr) or (sgd lr 'momentum m)"),
    ('(adam 0.1 0.9)', 'adam: expected (adam lr) or (adam lr b1 b2 eps)'),
    ('(adam 0.1 0.9 1 0)', 'adam: beta2 must be in [0, 1), got 1'),
    ("(graph-compile-train 5 '(W) (sgd 0.1))", 'graph-compile-train: the loss must be a lambda, got 5'),
    ("(graph-compile-train loss '(W) (sgd 0.1) 1 2)", 'graph-compile-train: expected 5 arg(s), got 2'),
    ("(graph-compile-train loss '(W) (sgd 0.1) (nth small 0) (nth small 0) 1 (nth small 3) 64)",
     'graph-compile-train: matmul: inner dimensions differ (16 vs 8)'),
    ("(graph-compile-train (lambda (w) (tensor-mul w w)) '(w) (sgd 0.1) (tensor '(1 2)))",
     'graph-compile-train: the loss must evaluate to a scalar (use tensor-sum or a mean)'),
    ('(train! 5 1)', 'train!: expected a trainer, got 5'),
    ('(trainer-params 5)', 'trainer-params: expected a trainer, got 5'),
    ('(trainer-reset! "t")', 'trainer-reset!: expected a trainer, got "t"'),
]

TRAIN_ERRORS = [
    ('(train! c -1)', 'train!: steps must be a non-negative integer, got -1'),
    ('(train! c 1.5)', 'train!: steps must be a non-negative integer, got 1.5'),
    ("(train! c 'a)", 'train!: steps must be a non-negative integer, got a'),
    ('(train! c 1 (nth small 0))', 'train!: expected 3 data arg(s) (x t nn), got 1'),
    ('(train! c 1 (matrix 4 16 0) (nth small 3) 64)',
     'train!: compiled for shape [8, 16], got [4, 16] — run MAKER again for new shapes'),
    ('(train! c 1 5 (nth small 3) 64)', 'train!: expected a tensor of shape [8, 16], got 5'),
    ('(train! c 1 (nth small 0) (nth small 3) (tensor 64))',
     'train!: expected a number, got #<tensor  [64]>'),
]


@pytest.mark.parametrize('src,message', ERRORS)
def test_errors(src, message):
    assert err(PRELUDE + src) == message


@pytest.mark.rustc
@pytest.mark.parametrize('maker', ['graph-compile-train', 'graph-train'])
@pytest.mark.parametrize('src,message', TRAIN_ERRORS)
def test_train_errors_leave_the_trainer_as_it_was(s, maker, src, message):
    s.run('(define c (make %s (sgd 0.01)))' % maker, '<test>')
    s.run('(train! c 3)', '<test>')
    before = params(s, 'c')
    with pytest.raises(RustyError) as e:
        s.run(src, '<test>')
    assert e.value.message == message.replace('MAKER', maker)
    assert params(s, 'c') == before


# ── Ctrl-C between steps ─────────────────────────────────────────────────

def steps_done(trainer) -> int:
    """How many steps a trainer has completed since its start or reset."""
    run = trainer.run
    return int(run.ctl[1] if hasattr(run, 'ctl') else run.now[2])


@pytest.mark.rustc
@pytest.mark.parametrize('maker,opt', [('graph-compile-train', '(sgd 0.001)'),
                                       ('graph-compile-train', '(adam 0.001)'),
                                       ('graph-train', '(adam 0.001)')])
def test_interrupt_keeps_the_last_completed_step(s, maker, opt):
    """A long run (MEDIUM-sized steps, matmuls over the crossover) stopped
    by Ctrl-C holds exactly the parameters of some number of whole steps:
    a fresh trainer run for that many steps gives the same bits."""
    s.run('(define medium (mlp 64 256 64))'
          "(define (mk) (apply %s (append (list loss '(W b) %s) medium)))"
          '(define c (mk)) (define kept 41)' % (maker, opt), '<test>')
    s.run('(train! c 1)', '<test>')

    def fire():
        deadline = time.monotonic() + 30
        while not s.worker.running and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.3)
        s.worker.interrupt()
    th = threading.Thread(target=fire, daemon=True)
    th.start()
    started = time.monotonic()
    with pytest.raises(RustyError) as e:
        s.run('(train! c 100000000)', '<test>')
    th.join()
    assert e.value.message == 'interrupted'
    assert time.monotonic() - started < 10
    done = steps_done(s.run('c', '<test>'))
    assert done > 1
    assert s.run('(+ kept 1)', '<test>') == 42.0
    s.run('(define d (mk))', '<test>')
    s.run('(train! d %d)' % done, '<test>')
    assert params(s, 'c') == params(s, 'd')
    # and it trains on from there, as an uninterrupted one would
    assert s.run('(train! c 2)', '<test>') == s.run('(train! d 2)', '<test>')


# ── PyTorch float64 ──────────────────────────────────────────────────────

def torch_run(opt_name, kwargs, steps, m=8, k=16, n=8):
    """Per-step losses and final (W, b) of PyTorch's own optimizer on the MLP."""
    torch = pytest.importorskip('torch')

    def val(i, off):
        return (((7 * i + off) % 17) - 8) / 8

    def mat(r, c, off):
        return torch.tensor([val(i, off) for i in range(r * c)], dtype=torch.float64).reshape(r, c)
    x, t, W = mat(m, k, 0), mat(m, n, 5), mat(k, n, 3).requires_grad_(True)
    b = torch.tensor(val(1, 0), dtype=torch.float64, requires_grad=True)
    opt = getattr(torch.optim, opt_name)([W, b], **kwargs)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        d = torch.relu(x @ W + b) - t
        loss = (d * d / float(m * n)).sum()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, W.detach().reshape(-1).tolist(), b.item()


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


@pytest.mark.rustc
@pytest.mark.parametrize('opt,torch_opt', [
    ('(sgd 0.01)', ('SGD', {'lr': 0.01})),
    ("(sgd 0.002 'momentum 0.9)", ('SGD', {'lr': 0.002, 'momentum': 0.9})),
    ('(adam 0.01)', ('Adam', {'lr': 0.01})),
    ('(adam 0.02 0.8 0.99 1e-6)', ('Adam', {'lr': 0.02, 'betas': (0.8, 0.99), 'eps': 1e-6})),
])
def test_pytorch_float64_agrees_to_1e_12(s, opt, torch_opt):
    steps = 200
    losses, W, b = torch_run(torch_opt[0], torch_opt[1], steps)
    s.run('(define c (make graph-compile-train %s))' % opt, '<test>')
    ours = [s.run('(train! c 1)', '<test>') for _ in range(steps)]
    assert all(close(a, b_) for a, b_ in zip(ours, losses)), [
        (i, a, b_) for i, (a, b_) in enumerate(zip(ours, losses)) if not close(a, b_)][:3]
    Wr, br = s.run('(trainer-params c)', '<test>')
    assert all(close(a, b_) for a, b_ in zip(Wr.data, W))
    assert close(br, b)


def test_exact_integer_arguments_become_floats():
    from rusty.training import _numbers
    t = Tensor(None, (2,))
    assert _numbers([3, 2.5, t, True, 'a']) == [3.0, 2.5, t, True, 'a']
    assert [x.__class__ for x in _numbers([3, -7])] == [float, float]
    assert _numbers([10 ** 400, -10 ** 400]) == [math.inf, -math.inf]
    assert display_form(O.make_adam((1,), display_form)) == '(adam 1 0.9 0.999 0.00000001)'
    with pytest.raises(RustyError) as e:
        O.make_sgd((10 ** 400, O.MOMENTUM, -1.0), display_form)
    assert e.value.message == 'sgd: the momentum must be a non-negative number, got -1'


@pytest.mark.rustc
def test_no_host_error_escapes_from_odd_arguments(s):
    s.run('(define c (make graph-compile-train (sgd 0.01)))', '<test>')
    odd = ['5', '"s"', "'a", "'()", "'(1 2)", '(tensor 1)', 'c', '(lambda (x) x)', '-1', '1e400',
           '(/ 0.0 0.0)']
    for a in odd:
        for src in ('(train! c %s)' % a, '(train! c 1 %s (nth small 3) 64)' % a,
                    '(train! %s 1)' % a, '(trainer-params %s)' % a, '(sgd %s)' % a,
                    "(sgd 0.1 'momentum %s)" % a, '(adam 0.1 %s 0.9 0)' % a,
                    "(graph-compile-train loss %s (sgd 0.1) 1 2 3 4 5)" % a,
                    "(graph-compile-train loss '(W) %s 1 2 3 4 5)" % a,
                    "(graph-train %s '(w) (sgd 0.1) 1)" % a):
            try:
                s.run(src, '<test>')
            except RustyError as e:
                assert 'internal error' not in e.message, (src, e.message)


@pytest.mark.rustc
def test_gradients_that_do_not_change_between_steps_are_hoisted_and_still_right(s):
    """A loss linear in W has a gradient of the data alone (computed once per
    call, before the loop), and U is unused (a zero gradient): both trainers
    still agree bit for bit, with new data too."""
    s.run("(define f (lambda (x W U) (tensor-sum (matmul x W))))"
          "(define args (list (matrix 8 16 0) (matrix 16 8 3) (matrix 2 2 1)))"
          "(define c (apply graph-compile-train (append (list f '(W U) (adam 0.01)) args)))"
          "(define i (apply graph-train (append (list f '(W U) (adam 0.01)) args)))", '<test>')
    source = s.run('c', '<test>').run.source
    assert source.index('*out.add(1)') < source.index("'train: loop")     # W's gradient
    for data in ('', '(matrix 8 16 5)', ''):
        assert bits(s.run('(train! c 4 %s)' % data, '<test>')) == bits(
            s.run('(train! i 4 %s)' % data, '<test>'))
        assert params(s, 'c') == params(s, 'i')
    assert s.run("(equal? (cadr (trainer-params c)) (matrix 2 2 1))", '<test>') is True


@pytest.mark.rustc
def test_hyperparameters_are_arguments_so_a_new_rate_reuses_the_library(s):
    s.run('(define a (make graph-compile-train (adam 0.01))) '
          '(define b (make graph-compile-train (adam 0.5 0.8 0.9 0.1)))'
          '(define c (make graph-compile-train (sgd 0.01)))', '<test>')
    a, b, c = (s.run(n, '<test>').run for n in 'abc')
    assert a.source == b.source and a.lib.path == b.lib.path
    assert a.source != c.source
