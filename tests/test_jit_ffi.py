"""Calling natives (docs/reference.md §10 Native code): results, arities, the recursion guard,
per-call overhead."""
import math
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from rusty.errors import EvalError, RecursionLimit
from rusty.jit import build, ffi
from rusty.jit.codegen import compile_defrust
from rusty.reader import read
from rusty.values import Native

pytestmark = pytest.mark.rustc
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def native(*texts):
    defs = []
    for t in texts:
        name, params, body = list(read(t, '<test>').car)
        defs.append((name.name, [p.name for p in params], body))
    out = compile_defrust(defs, 'defrust*' if len(texts) > 1 else 'defrust')
    return out if len(texts) > 1 else out[0]


def too_deep(name):
    return ("recursion limit exceeded in native code '%s': non-tail recursion too deep"
            " — rewrite with an accumulator / tail call" % name)


def test_fib():
    fib = native('(fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))')
    assert isinstance(fib, Native)
    assert (fib.name, fib.arity) == ('fib', 1)
    assert fib.call([30.0]) == 832040.0
    assert fib.call((10.0,)) == 55.0
    assert 'pub extern "C" fn rusty_fib(' in fib.source
    assert isinstance(fib.handle, build.Library)


@pytest.mark.parametrize('params, body, args, want', [
    ('()', '42', [], 42.0),
    ('(a)', '(* a 3)', [0.1], 0.1 * 3),
    ('(a b)', '(- a b)', [0.3, 0.1], 0.3 - 0.1),
    ('(a b c)', '(+ (* a b) c)', [1.5, 2.25, 1e-300], 1.5 * 2.25 + 1e-300),
    ('(a b c d e)', '(- a (* b c) (/ d e))', [1.0, 2.0, 3.0, 7.0, 3.0], 1.0 - 2.0 * 3.0 - 7.0 / 3.0),
])
def test_arities_and_exact_results(params, body, args, want):
    f = native('(f %s %s)' % (params, body))
    assert f.arity == len(args)
    got = f.call(args)
    assert type(got) is float and got == want
    assert f.call(list(args)) == want   # buffers are reused: calling again is the same


def test_genuine_nan_is_returned_not_raised():
    f = native('(f (x) (- x x))')
    assert math.isnan(f.call([math.inf]))
    assert f.call([1.0]) == 0.0


def test_recursion_depth_10000_works_and_deeper_raises():
    down = native('(down (n) (if (= n 0) 0 (+ 1 (down (- n 1)))))')
    assert down.call([10000.0]) == 10000.0
    assert down.call([100000.0]) == 100000.0
    with pytest.raises(RecursionLimit) as info:
        down.call([1e7])
    assert isinstance(info.value, EvalError)
    assert info.value.message == too_deep('down')
    # the process survives, the flag is cleared, and the native still works
    assert down.call([10000.0]) == 10000.0
    assert math.isnan(native('(g (x) (- x x))').call([math.inf]))
    with pytest.raises(RecursionLimit):
        down.call([1e9])


def test_guard_is_per_thread_and_works_off_the_main_thread():
    down = native('(down (n) (if (= n 0) 0 (+ 1 (down (- n 1)))))')
    results = []

    def run():
        try:
            down.call([1e7])
        except RecursionLimit as e:
            results.append(e.message)
        results.append(down.call([20000.0]))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert results == [too_deep('down'), 20000.0]


@pytest.mark.parametrize('stack', [256 << 10, 2 << 20, 1 << 30])
def test_guard_follows_the_calling_threads_stack(stack):
    """Small stacks never overflow; big ones still stop within the cap."""
    down = native('(down (n) (if (= n 0) 0 (+ 1 (down (- n 1)))))')
    results = []

    def run():
        results.append(down.call([1000.0 if stack < (1 << 20) else 10000.0]))
        for n in (1e7, 1e9):
            try:
                down.call([n])
                results.append('no error')
            except RecursionLimit:
                results.append('limit')

    old = threading.stack_size(stack)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert results[1:] == ['limit', 'limit'] and results[0] in (1000.0, 10000.0)


def test_mutual_recursion_is_guarded_and_names_the_called_native():
    even, odd = native('(ev (n) (if (= n 0) 1 (+ 0 (od (- n 1)))))',
                       '(od (n) (if (= n 0) 0 (+ 0 (ev (- n 1)))))')
    assert even.call([10000.0]) == 1.0
    with pytest.raises(RecursionLimit) as info:
        odd.call([1e7])
    assert info.value.message == too_deep('od')


def test_tail_calls_are_not_limited():
    loop = native('(loop (n acc) (if (= n 0) acc (loop (- n 1) (+ acc 1))))')
    assert loop.call([1e7, 0.0]) == 1e7


def test_nan_after_the_trip_does_not_hide_it():
    # the tripped call's NaN is consumed by a comparison; the entry point still reports it
    f = native('(f (n) (if (= n 0) 0 (if (< (f (- n 1)) -1) 1 2)))')
    assert f.call([10.0]) == 2.0
    with pytest.raises(RecursionLimit):
        f.call([1e7])


def test_tree_recursion_past_the_limit_unwinds_quickly():
    f = native('(f (n) (if (<= n 0) 0 (+ (f (- n 1)) (f (- n 1)) (f (- n 2)))))')
    t = time.perf_counter()
    with pytest.raises(RecursionLimit):
        f.call([1e7])
    assert time.perf_counter() - t < 5.0


def test_deep_recursion_in_a_fresh_process_does_not_crash():
    code = textwrap.dedent('''\
        from rusty.reader import read
        from rusty.jit.codegen import compile_defrust
        from rusty.errors import RecursionLimit
        name, params, body = list(read("(d (n) (if (= n 0) 0 (+ 1 (* 1 (d (- n 1))))))").car)
        [d] = compile_defrust([(name.name, [p.name for p in params], body)])
        for n in (1e4, 1e5, 1e6, 1e7, 1e8):
            try:
                print(int(d.call([n])))
            except RecursionLimit as e:
                print('limit')
    ''')
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split()
    assert lines[:2] == ['10000', '100000'] and lines[-2:] == ['limit', 'limit']


def test_unguarded_caller():
    f = native('(f (x y) (* x y))')
    call = ffi.scalar_caller(f.handle, 'rusty_f', 2, 'f', guarded=False)
    assert call([3.0, 4.0]) == 12.0


def test_per_call_overhead_under_3_microseconds():
    ident = native('(ident (x) x)')
    call = ident.call
    args = [1.5]
    n = 20000
    best = math.inf
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            call(args)
        best = min(best, (time.perf_counter() - t) / n)
    assert best < 3e-6, '%.2f us per call' % (best * 1e6)
