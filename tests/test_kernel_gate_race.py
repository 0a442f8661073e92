"""Ctrl-C racing a compiled grad kernel's entry (docs/reference.md §8 The REPL): however an
asynchronous interrupt lands around the kernel gate in the generated caller,
the gate ends unlocked, no kernel is counted as running, the evaluation ends
with `interrupted` and the session goes on. A fine thread switch interval
stands in for unlucky preemption; hundreds of trials, each bounded in time."""
import os
import random
import sys
import threading
import time

import pytest

from rusty.errors import RustyError
from rusty.jit import build, ffi
from rusty.runtime import Session

pytestmark = pytest.mark.rustc

TRIALS = int(os.environ.get("RACE_TRIALS", 300))
PROGRAM = '''
(define x (tensor '((1 2) (3 4))))
(define w (tensor '((0.5 -1) (2 0.25))))
(define k (graph-compile-grad (lambda (x w) (tensor-sum (relu (matmul x w)))) x w))
(define (spin i) (k x w) (spin (+ i 1)))
'''


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))
    build.reset_process_state()
    yield tmp_path
    build.reset_process_state()


def run_bounded(s: Session, text: str, seconds: float):
    """s.run(text) on a helper thread (as the REPL's main thread would wait);
    ('ok', value) / ('error', message), or 'hung' after `seconds`."""
    box = []

    def go():
        try:
            box.append(('ok', s.run(text, '<race>')))
        except RustyError as e:
            box.append(('error', e.message))
    th = threading.Thread(target=go, daemon=True)
    th.start()
    th.join(seconds)
    return box[0] if box else 'hung'


def test_interrupts_racing_the_kernel_gate_never_lock_it(cache, monkeypatch):
    from rusty import worker
    monkeypatch.setattr(worker, 'NATIVE_ACK', 0.0)   # straight to the asynchronous exception, the racing path
    counted = ffi.in_kernel

    def slow_in_kernel():          # the worker holds the gate longer: callers arrive at it while it decides
        time.sleep(0.001)
        return counted()
    monkeypatch.setattr(ffi, 'in_kernel', slow_in_kernel)
    s = Session()
    s.run(PROGRAM, '<race>')
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    rng = random.Random(24)
    outcomes = {}
    try:
        for trial in range(TRIALS):
            fire = threading.Timer(rng.uniform(0.0, 0.004), s.worker.interrupt)

            def start_when_running():
                deadline = time.monotonic() + 5
                while not s.worker.running and time.monotonic() < deadline:
                    time.sleep(0.0002)
                fire.start()
            threading.Thread(target=start_when_running, daemon=True).start()
            got = run_bounded(s, '(spin 0)', 10)
            fire.join(5)
            assert got != 'hung', 'trial %d: the interrupt never ended the loop' % trial
            assert got == ('error', 'interrupted'), (trial, got)
            assert not ffi.kernel_gate.locked(), 'trial %d left the kernel gate locked' % trial
            assert not ffi.in_kernel(), 'trial %d left a kernel counted as running' % trial
            outcomes[got] = outcomes.get(got, 0) + 1
    finally:
        sys.setswitchinterval(old)
    assert run_bounded(s, '(car (k x w))', 10) == ('ok', 14.0)     # still answering, definitions intact


# ── A single-row product inlined in a grad kernel polls inside itself ─────

def test_a_big_single_row_product_polls_for_interrupts_inside_the_node(cache):
    from rusty.jit import grad_writer
    s = Session()
    s.run("(define x (tensor-map (lambda (v) (* v 0.25)) (ones '(1 700)))) "
          "(define w (tensor-map (lambda (v) (- v 0.5)) (ones '(700 700)))) "
          "(define f (lambda (x w) (tensor-sum (matmul x w)))) "
          "(define k (graph-compile-grad f x w))", '<poll>')
    source = s.run('k', '<poll>').source
    every = grad_writer.POLL_WORK // 700
    assert "if p %% %d == 0 && rusty_stopped(stop) { break 'kernel; }" % every in source
    # polling changes no bits: the compiled kernel still equals the reference
    assert s.run('(equal? (k x w) (graph-grad f x w))', '<poll>') is True
