"""Native code under Ctrl-C and runaway recursion (docs/reference.md §10 Native code, §8 The REPL):
a running defrust stops with `interrupted` and the session keeps every
definition; recursion that LLVM turned into a loop still ends in the §10
error; an interrupted grad kernel returns nothing rather than a wrong result.

The interrupt is delivered the three ways a user sends it: in-process (what
the REPL's main thread does on SIGINT: Worker.interrupt), to the REPL as a
real SIGINT, and to a batch run as SIGINT. tests/stress_interrupts.py repeats
these cases hundreds of times."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers import MLP_DEFS
from rusty.errors import RustyError
from rusty.jit import build, codegen
from rusty.runtime import Session

REPO = Path(__file__).resolve().parents[1]
NATIVE_LIMIT = ("recursion limit exceeded in native code '%s': non-tail recursion too deep"
                " — rewrite with an accumulator / tail call")

pytestmark = pytest.mark.rustc

# A 256×256 training step through graph-compile-grad (its matmuls go through
# the bridge), and a loop that compares every result with the first one:
# `bad` counts wrong results, `runs` the results the loop saw.
GRAD_PROGRAM = MLP_DEFS + '''(define x (matrix 256 256 0))
(define t (matrix 256 256 5))
(define W0 (matrix 256 256 3))
(define nn (* 256 256))
(define kernel (graph-compile-grad loss x W0 -0.125 t nn))
(define r0 (kernel x W0 -0.125 t nn))
(define bad 0)
(define runs 0)
(define (check-loop i)
  (if (= i 0) 'done
      (begin (set! runs (+ runs 1))
             (if (equal? (kernel x W0 -0.125 t nn) r0) #t (set! bad (+ bad 1)))
             (check-loop (- i 1)))))
'''


@pytest.fixture(scope='module')
def cache(tmp_path_factory):
    """One private JIT cache for the module (compiles once)."""
    d = tmp_path_factory.mktemp('cache')
    saved = os.environ.get('RUSTY_CACHE_DIR')
    os.environ['RUSTY_CACHE_DIR'] = str(d)
    build.reset_process_state()
    yield d
    if saved is None:
        os.environ.pop('RUSTY_CACHE_DIR', None)
    else:
        os.environ['RUSTY_CACHE_DIR'] = saved
    build.reset_process_state()


def error_of(s: Session, src: str) -> str:
    try:
        s.run(src, '<test>')
    except RustyError as e:
        return e.message
    raise AssertionError('no error from %r' % src)


def interrupt_after(s: Session, seconds: float) -> threading.Thread:
    """Interrupt the session's evaluation after `seconds`, as Ctrl-C would."""
    def fire():
        deadline = time.monotonic() + 30
        while not s.worker.running and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(seconds)
        s.worker.interrupt()
    th = threading.Thread(target=fire, daemon=True)
    th.start()
    return th


# ── Runaway recursion ─────────────────────────────────────────────────────

@pytest.mark.parametrize('src,name', [
    ('(defrust f (n) (+ 1 (f n)))', 'f'),
    ('(defrust f (n) (* 2 (f n)))', 'f'),
    ('(defrust f (n) (if (< n 0) 0 (- (f n) 1)))', 'f'),
    ('(defrust* (f (n) (+ 1 (g n))) (g (n) (+ 2 (f n))))', 'f'),
])
def test_runaway_recursion_turned_into_a_loop_gives_the_native_error(cache, src, name):
    s = Session()
    s.run(src, '<test>')
    assert error_of(s, '(%s 1)' % name) == NATIVE_LIMIT % name
    assert s.run('(+ 1 2)', '<test>') == 3.0


def test_deep_tail_calls_and_legal_depth_still_work(cache):
    s = Session()
    s.run('(defrust loop (n a) (if (= n 0) a (loop (- n 1) (+ a 1))))', '<test>')
    s.run('(defrust down (n) (if (= n 0) 0 (+ 1 (down (- n 1)))))', '<test>')
    assert s.run('(loop 20000000 0)', '<test>') == 20_000_000.0
    assert s.run('(down 10000)', '<test>') == 10_000.0


def test_codegen_counts_depth_only_for_non_tail_calls():
    src, _ = codegen.generate_source([
        ('f', ['n'], _read('(if (< n 1) (f (+ n 1)) (let ((m (f (- n 1)))) (cond ((< m 0) (f m)) (else (+ 1 (f m))))))'))])
    body = src.split('fn rusty_f_impl(')[1]
    # tail: the `if` branch, the `cond` result; not tail: the let init, under `+`
    assert body.count('rusty_f_impl(guard, depth, ') == 2
    assert body.count('rusty_f_impl(guard, depth + 1, ') == 2


def _read(text):
    from rusty.reader import read
    return read(text, '<test>').car


# ── Ctrl-C during a native: in-process (the REPL's path) ─────────────────

@pytest.mark.parametrize('src,call', [
    ('(defrust spin (n) (spin n))', '(spin 1)'),
    ('(defrust* (ping (n) (pong n)) (pong (n) (ping n)))', '(ping 1)'),
    ('(defrust spin (n) (if (< n 0) 0 (spin (+ n 1))))', '(spin 1)'),
])
def test_interrupt_stops_a_running_native_and_keeps_the_session(cache, src, call):
    s = Session()
    s.run('(define kept 41)', '<test>')
    s.run(src, '<test>')
    for _ in range(3):
        interrupt_after(s, 0.2)
        assert error_of(s, call) == 'interrupted'
        assert s.run('(+ kept 1)', '<test>') == 42.0
    # a later call runs normally (the request was consumed)
    s.run('(defrust sq (x) (* x x))', '<test>')
    assert s.run('(sq 7)', '<test>') == 49.0


def test_interrupt_caught_by_try_catch_then_natives_run_again(cache):
    s = Session()
    s.run('(defrust spin (n) (spin n)) (defrust sq (x) (* x x))', '<test>')
    interrupt_after(s, 0.2)
    assert s.run('(list (try-catch (spin 1) (e) e) (sq 3))', '<test>').car == 'interrupted'


@pytest.mark.slow
def test_interrupted_grad_kernel_never_returns_a_wrong_result(cache, monkeypatch):
    lost = []
    monkeypatch.setattr(sys, 'unraisablehook', lost.append)   # "Exception ignored on calling ctypes callback"
    s = Session()
    s.run(GRAD_PROGRAM, '<test>')
    for i in range(12):
        interrupt_after(s, 0.05 + 0.037 * i)
        assert error_of(s, '(check-loop 1000000)') == 'interrupted'
        assert s.run('bad', '<test>') == 0.0
        assert lost == []
    assert s.run('runs', '<test>') > 0
    assert s.run('(equal? (kernel x W0 -0.125 t nn) r0)', '<test>') is True


# ── Ctrl-C during a long matmul or a long grad kernel ────────────────────
# Each product below takes seconds (27e9 multiply-adds); interrupted 0.2 s in,
# it must stop within STOP_BOUND (about 10 ms measured; generous for a loaded
# machine), where before it ran to the end of the product.

STOP_BOUND = 1.0
BIG = "(define big (ones '(3000 3000))) (matmul (ones '(8 8)) (ones '(8 8)))"   # kernels built


def stop_time(s: Session, src: str, after: float = 0.2) -> tuple:
    """(error message, seconds from the interrupt to the end of the call)."""
    fired = []

    def fire():
        deadline = time.monotonic() + 30
        while not s.worker.running and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(after)
        fired.append(time.monotonic())
        s.worker.interrupt()
    th = threading.Thread(target=fire, daemon=True)
    th.start()
    message = error_of(s, src)
    end = time.monotonic()
    th.join()
    return message, end - fired[0]


def test_interrupt_stops_a_long_tensor_matmul(cache):
    s = Session()
    s.run(BIG + " (define kept 41) (define small (tensor '((1 2) (3 4))))", '<test>')
    for _ in range(2):
        message, took = stop_time(s, '(define r (matmul big big))')
        assert message == 'interrupted'
        assert took < STOP_BOUND
        assert s.run("(equal? (list (+ kept 1) (tensor->list (matmul small small)))"
                     " '(42 ((7 10) (15 22))))", '<test>') is True
    assert error_of(s, 'r').startswith("Undefined: 'r'")      # nothing was defined


def test_interrupted_matmul_inside_try_catch_then_matmuls_are_whole(cache):
    s = Session()
    s.run(BIG + " (define m (ones '(40 1000))) (define n (ones '(1000 40)))", '<test>')
    fired = interrupt_after(s, 0.2)
    got = s.run('(list (try-catch (matmul big big) (e) e) (tensor-sum (matmul m n)))', '<test>')
    fired.join()
    assert got.car == 'interrupted' and got.cdr.car == 1_600_000.0


# A loop of element-wise kernels, sums, relus and transposes over 2^24
# elements (each kernel call takes milliseconds, so the interrupt mostly lands
# inside one), every result checked: `bad` counts wrong sums.
ELEMENTWISE_LOOP = """
(define h (ones '(4096 4096)))
(define h-total (* 4096 4096 3))
(define (ew-loop i)
  (if (= i 0) 'done
      (begin (set! runs (+ runs 1))
             (if (= (tensor-sum (relu (transpose (tensor-add (tensor-mul h 2) h)))) h-total) #t
                 (set! bad (+ bad 1)))
             (ew-loop (- i 1)))))
"""


def test_interrupt_stops_a_loop_of_long_elementwise_kernels(cache):
    s = Session()
    s.run(BIG + ' (define kept 41) (define bad 0) (define runs 0)' + ELEMENTWISE_LOOP, '<test>')
    for after in (0.2, 0.35):
        message, took = stop_time(s, '(ew-loop 1000000)', after)
        assert message == 'interrupted'
        assert took < STOP_BOUND
        assert s.run("(equal? (list (+ kept 1) bad (tensor->list (tensor-add (tensor '(1 2)) 1)))"
                     " '(42 0 (2 3)))", '<test>') is True
    assert s.run('(= (tensor-sum (tensor-add h h)) (* 2 4096 4096))', '<test>') is True


@pytest.mark.parametrize('call', [
    lambda k, a: k['add_tt'](a, a), lambda k, a: k['sub_ts'](a, 1.0), lambda k, a: k['div_st'](2.0, a),
    lambda k, a: k['relu'](a), lambda k, a: k['step'](a), lambda k, a: k['sum'](a),
    lambda k, a: k['transpose'](a, 3, len(a) // 3)])
def test_every_elementwise_kernel_answers_a_stop_and_returns_nothing(cache, call):
    """A pending stop request makes the kernel stop at its first poll: it
    raises KeyboardInterrupt and marks the request raised; with no request the
    same call gives the pure-Python kernels' bits."""
    from array import array
    from rusty import tensor
    from rusty.jit import ffi, kernels
    table = kernels.load()
    a = array('d', [float(i % 7) - 3.0 for i in range(3 * 70_000)])
    ffi.request_stop()
    try:
        with pytest.raises(KeyboardInterrupt):
            call(table, a)
        assert ffi.stop_flag().value == ffi.STOP_RAISED
    finally:
        ffi.clear_stop()
    got, want = call(table, a), call(tensor.PY_KERNELS, a)
    assert (got.tobytes() if isinstance(got, array) else got) == (
        want.tobytes() if isinstance(want, array) else want)


CHUNK = 1 << 16      # elements between two polls in kernels.rs


@pytest.mark.parametrize('n', [CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7])
def test_polling_kernels_keep_the_reference_bits_across_chunks(cache, n):
    from array import array
    from rusty import tensor
    from rusty.jit import kernels
    table = kernels.load()
    vals = [1.5, -0.0, 0.0, float('inf'), -2.25, float('nan'), 5e-324, 3.0, -7.0]
    a = array('d', [vals[i % 9] * (1 + i % 5) for i in range(n)])
    b = array('d', [vals[(i * 7) % 9] for i in range(n)])

    def same(name, *args):
        got, want = table[name](*args), tensor.PY_KERNELS[name](*args)
        assert (got.tobytes() if isinstance(got, array) else repr(got)) == (
            want.tobytes() if isinstance(want, array) else repr(want)), name
    for op in ('add', 'sub', 'mul', 'div'):
        same(op + '_tt', a, b)
        same(op + '_ts', a, -1.5)
        same(op + '_st', 0.5, b)
    for name in ('relu', 'step', 'sum'):
        same(name, a)
    same('sum', b)


@pytest.mark.parametrize('n,m', [(1, 3 * CHUNK + 5), (3 * CHUNK + 5, 1), (4, CHUNK // 4 + 3), (9, CHUNK // 4),
                                 (70001, 2), (3, 70000), (301, 300)])
def test_polling_transpose_keeps_the_reference_copy(cache, n, m):
    from array import array
    from rusty import tensor
    from rusty.jit import kernels
    a = array('d', range(n * m))
    assert kernels.load()['transpose'](a, n, m) == tensor.PY_KERNELS['transpose'](a, n, m)


def test_a_nan_sum_is_not_taken_for_a_stop(cache):
    from array import array
    from rusty.jit import kernels
    got = kernels.load()['sum'](array('d', [1.0, float('nan'), 2.0]))
    assert got != got


@pytest.mark.slow
def test_interrupt_stops_a_long_grad_kernel(cache):
    s = Session()
    s.run(BIG + ' (define kept 41)'
          ' (define k (graph-compile-grad (lambda (x w) (tensor-sum (relu (matmul x w)))) big big))',
          '<test>')
    for after in (0.2, 0.9):
        message, took = stop_time(s, '(define r (k big big))', after)
        assert message == 'interrupted'
        assert took < STOP_BOUND
        assert s.run('(+ kept 1)', '<test>') == 42.0
    assert error_of(s, 'r').startswith("Undefined: 'r'")


def test_interrupt_stops_a_loop_of_graph_compile_kernels(cache):
    s = Session()
    s.run('(define g (graph-compile (lambda (x y) (+ (* x x) y)))) (define kept 41)'
          ' (define (spin i acc) (if (= i 0) acc (spin (- i 1) (g 1 acc))))', '<test>')
    message, took = stop_time(s, '(spin 100000000 0)')
    assert message == 'interrupted' and took < STOP_BOUND
    assert s.run("(equal? (list (+ kept 1) (g 3 1)) '(42 10))", '<test>') is True


# ── Ctrl-C as a real SIGINT: the REPL and batch mode ─────────────────────

def test_repl_sigint_stops_a_native_and_keeps_definitions(cache, tmp_path, monkeypatch):
    from repl_driver import CTRL_D, ENTER, drive, private_home
    private_home(tmp_path, monkeypatch)
    keys = ('(defrust spin (n) (spin n))' + ENTER + '(define kept 41)' + ENTER + '(spin 1)' + ENTER
            + '(+ kept 1)' + ENTER + CTRL_D)
    out, _ = drive(keys, interrupt=True)
    assert 'Error: interrupted' in out
    assert '=> 42' in out
    assert 'Exception ignored' not in out


def rusty_run_interrupted(src: str, cache_dir, after: float):
    """Run `rusty -e src` (which prints `ready` when set up), SIGINT it `after`
    seconds after that line; (returncode, rest of stdout, stderr, seconds from
    the signal to the exit)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), RUSTY_CACHE_DIR=str(cache_dir), PYTHONUNBUFFERED='1')
    p = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', src], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=str(REPO))
    assert p.stdout.readline() == 'ready\n'
    time.sleep(after)
    p.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err, time.monotonic() - sent


def test_batch_sigint_stops_a_native(cache):
    rc, out, err, _ = rusty_run_interrupted('(defrust spin (n) (spin n)) (println "ready") (spin 1)', cache, 0.5)
    assert rc == 130
    assert err.startswith('Error: interrupted\n')
    assert 'Exception ignored' not in err and 'Traceback' not in err


def test_batch_sigint_stops_a_long_matmul(cache):
    rc, out, err, took = rusty_run_interrupted(
        BIG + ' (println "ready") (matmul big big) (println "done")', cache, 0.3)
    assert rc == 130 and out == ''
    assert took < STOP_BOUND + 1.0       # the exit itself frees ~200 MB
    assert err.startswith('Error: interrupted\n') and 'Traceback' not in err


@pytest.mark.slow
def test_batch_sigint_during_grad_kernels(cache):
    src = GRAD_PROGRAM + '(println "ready") (check-loop 1000000) (println "bad" bad)'
    for after in (0.3, 0.75, 1.2):
        rc, out, err, _ = rusty_run_interrupted(src, cache, after)
        assert rc == 130, err[-500:]
        assert err.startswith('Error: interrupted\n')
        assert 'Exception ignored' not in err and 'Traceback' not in err
        assert out == ''
