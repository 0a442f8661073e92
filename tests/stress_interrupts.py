"""Repeat the interrupt cases of tests/test_native_interrupts.py many times and
count what went wrong (run by hand; pytest does not collect it):

    python3 tests/stress_interrupts.py [--in-process N] [--batch N] [--repl N] [--storms N]

- in-process: a session runs a loop that calls a 256×256 graph-compile-grad
  kernel and compares every result with the first (`bad` counts mismatches),
  or a loop of 300×300 native matmuls checked the same way, or one long
  (2000×2000) matmul, or a long graph-compile-grad kernel, or a loop of
  element-wise kernels, sums, relus and transposes over 2^24 elements checked
  the same way, or spins in a defrust tail loop; Worker.interrupt (what the REPL's main thread does on
  SIGINT) fires at a random moment. Wrong: a mismatch, an
  error other than `interrupted`, an exception lost in a ctypes callback, a session that lost its definitions, a stop
  slower than 0.1 s (reported separately: the machine may be loaded). A call
  that ended before the interrupt fired (the 2000×2000 product can finish
  within the 0.4 s window) is counted apart, not as wrong.
- batch: `rusty -e` on the grad loop or the matmul loop gets SIGINT at a
  random moment. Wrong:
  exit status other than 130, output after the interrupt, a traceback or
  "Exception ignored".
- repl: the REPL (headless, tests/repl_driver.py) gets a real SIGINT during the
  loop, then prints `bad` and a definition. Wrong: a mismatch, a lost
  definition, "Exception ignored".

- storms: the storms of tests/test_interrupt_storms.py (many SIGINTs at random
  gaps of 0-100 ms), N rounds each: batch runs of a loop, of a loop that
  catches `interrupted` and of a native; REPL sessions on a terminal; the
  Jupyter kernel's interrupt_kernel; rustc builds with a fresh cache. Wrong:
  any failed check of those tests (a hang, a status other than 130, a lost
  prompt or cell reply, an empty `rustc failed:`, a partial cache entry).

Prints one line per mode and exits 1 if anything was wrong.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / 'tests'))

from test_native_interrupts import ELEMENTWISE_LOOP, GRAD_PROGRAM  # noqa: E402

SPIN = '(defrust spin (n) (spin n))'
# Native matmuls compared with the first product (`bad` counts mismatches),
# and a product and a grad kernel that each run for seconds.
MATMUL_PROGRAM = '''
(define M (matrix 300 300 2))
(define m0 (matmul M M))
(define (mm-loop i)
  (if (= i 0) 'done
      (begin (set! runs (+ runs 1))
             (if (equal? (matmul M M) m0) #t (set! bad (+ bad 1)))
             (mm-loop (- i 1)))))
(define big (ones '(2000 2000)))
(define long-kernel (graph-compile-grad (lambda (x w) (tensor-sum (relu (matmul x w)))) big big))
'''
CALLS = ('(check-loop 1000000)', '(spin 1)', '(mm-loop 1000000)', '(define r (matmul big big))',
         '(define r (long-kernel big big))', '(ew-loop 1000000)')


def in_process(n: int) -> tuple[int, int, int, dict]:
    """(wrong, slow stops, calls that ended before the interrupt fired,
    {call: stop latencies}) over n interrupts in one session."""
    from rusty.errors import RustyError
    from rusty.runtime import Session
    s = Session()
    s.run(GRAD_PROGRAM + SPIN + MATMUL_PROGRAM + ELEMENTWISE_LOOP + ' (define kept 41)', '<stress>')
    lost: list = []
    sys.unraisablehook = lost.append      # "Exception ignored on calling ctypes callback"
    wrong = slow = early = 0
    latencies: dict = {call: [] for call in CALLS}
    for i in range(n):
        call = CALLS[i % len(CALLS)]
        fired = []

        def fire():
            while not s.worker.running:
                time.sleep(0.001)
            time.sleep(random.uniform(0.0, 0.4))
            fired.append(time.monotonic())
            s.worker.interrupt()
        th = threading.Thread(target=fire, daemon=True)
        th.start()
        try:
            s.run(call, '<stress>')
            message = None
        except RustyError as e:
            message = e.message
        ended = time.monotonic()
        latency = ended - fired[0] if fired else 0.0
        th.join()
        if message is None and fired[0] >= ended:     # a short product beat a late interrupt
            early += 1
            continue
        latencies[call].append(latency)
        slow += latency > 0.1
        if (message != 'interrupted' or s.run('bad', '<stress>') != 0.0 or lost
                or s.run('(+ kept 1)', '<stress>') != 42.0):
            wrong += 1
            print('  wrong in-process run %d: %r, bad=%r, lost=%r' % (i, message, s.run('bad', '<stress>'),
                                                                     [u.exc_value for u in lost]))
            lost.clear()
    return wrong, slow, early, latencies


def batch(n: int, cache: str) -> int:
    """Wrong outcomes over n SIGINTed `rusty -e` runs."""
    env = dict(os.environ, PYTHONPATH=str(REPO), RUSTY_CACHE_DIR=cache, PYTHONUNBUFFERED='1')
    srcs = [GRAD_PROGRAM + '(println "ready") (check-loop 1000000) (println "bad" bad)',
            GRAD_PROGRAM + MATMUL_PROGRAM + '(println "ready") (mm-loop 1000000) (println "bad" bad)']
    wrong = 0
    for i in range(n):
        src = srcs[i % 2]
        p = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', src], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        first = p.stdout.readline()
        time.sleep(random.uniform(0.0, 0.5))
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        ok = (first == 'ready\n' and p.returncode == 130 and out == '' and err.startswith('Error: interrupted\n')
              and 'Traceback' not in err and 'Exception ignored' not in err)
        if not ok:
            wrong += 1
            print('  wrong batch run %d: rc=%s out=%r err=%r' % (i, p.returncode, out[-200:], err[-300:]))
    return wrong


def repl(n: int) -> int:
    """Wrong outcomes over n REPL sessions interrupted by a real SIGINT."""
    from repl_driver import CTRL_D, ENTER, drive
    from rusty.runtime import Session
    session = Session()
    session.run(GRAD_PROGRAM + MATMUL_PROGRAM + ' (define kept 41)', '<stress>')
    wrong = 0
    for i in range(n):
        keys = ('(check-loop 1000000)', '(mm-loop 1000000)')[i % 2] + ENTER + '(list bad (+ kept 1))' + ENTER + CTRL_D
        out, _ = drive(keys, interrupt=True, session=session)
        ok = 'Error: interrupted' in out and '=> (0 42)' in out and 'Exception ignored' not in out
        if not ok:
            wrong += 1
            print('  wrong REPL run %d: %r' % (i, out[-400:]))
    return wrong


def storms(n: int, cache: str) -> int:
    """Wrong outcomes over n rounds of each storm of test_interrupt_storms."""
    import test_interrupt_storms as t
    rng = random.Random()
    wrong = 0
    work = Path(tempfile.mkdtemp(prefix='rusty-storms-'))
    env = dict(os.environ, RUSTY_CACHE_DIR=cache)

    def check(what, fn):
        nonlocal wrong
        try:
            fn()
        except (AssertionError, Exception) as e:   # noqa: B014 (report, count, go on)
            wrong += 1
            print('  wrong %s: %s' % (what, str(e)[-400:]))
    for i in range(n):
        count = rng.randint(1, 15)
        for program, call in ((t.LOOP, '(loop 0)'), (t.STUBBORN, '(stubborn)'),
                              (t.STUBBORN_NATIVE, '(stubborn)')):
            def batch_round():
                rc, out, err, took = t.batch_storm(program + ' (println "ready") ' + call, rng, max(count, 2),
                                                   env=env, least=t.least_gap(call))
                assert rc == 130 and 'interrupted' in err and 'Traceback' not in err, (rc, err[-300:])
            check('batch %s x%d' % (call, count), batch_round)
        # from 0.1 s: a SIGINT before Python's own start-up has set its handler kills any Python program
        check('rustc build', lambda: t.rustc_build_storm(work, rng, rng.randint(1, 4), rng.uniform(0.1, 1.5)))
    repl_env = dict(env, PYTHONPATH=str(REPO))

    def repl_rounds():
        child = t.spawn_repl(work, repl_env)
        try:
            child.send(t.STUBBORN_NATIVE + '\r')
            child.expect('rusty>', timeout=120)
            for call in ('(loop 0)', '(spin 0)', '(stubborn)'):
                t.repl_storms(child, call, rng, [rng.randint(2, 15) for _ in range(n)])
        finally:
            child.close(force=True)
    check('repl', repl_rounds)

    def kernel_rounds():
        with t.started_kernel(work / 'prefix', work) as (km, kc):
            assert t.kernel_reply(kc, kc.execute(t.STUBBORN), 60)['status'] == 'ok'
            for call in ('(loop 0)', '(stubborn)'):
                t.kernel_storms(km, kc, call, rng, [rng.randint(2, 15) for _ in range(n)])
    check('kernel', kernel_rounds)
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--in-process', type=int, default=200)
    ap.add_argument('--batch', type=int, default=100)
    ap.add_argument('--repl', type=int, default=100)
    ap.add_argument('--storms', type=int, default=20)
    opts = ap.parse_args()
    cache = tempfile.mkdtemp(prefix='rusty-stress-')
    os.environ['RUSTY_CACHE_DIR'] = cache
    total = 0
    if opts.in_process:
        wrong, slow, early, by_call = in_process(opts.in_process)
        print('in-process: %d interrupts, %d wrong, %d stops over 0.1 s, %d calls ended before the interrupt'
              % (opts.in_process, wrong, slow, early))
        for call, lat in by_call.items():
            lat.sort()
            if lat:
                print('  %-32s stop latency median %.1f ms, max %.1f ms (%d)'
                      % (call, 1000 * lat[len(lat) // 2], 1000 * lat[-1], len(lat)))
        total += wrong
    if opts.batch:
        wrong = batch(opts.batch, cache)
        print('batch: %d SIGINTed runs, %d wrong' % (opts.batch, wrong))
        total += wrong
    if opts.repl:
        wrong = repl(opts.repl)
        print('repl: %d interrupted sessions, %d wrong' % (opts.repl, wrong))
        total += wrong
    if opts.storms:
        wrong = storms(opts.storms, cache)
        print('storms: %d rounds of each storm, %d wrong' % (opts.storms, wrong))
        total += wrong
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
