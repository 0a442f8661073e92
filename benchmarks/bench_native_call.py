"""Per-call overhead of a one-argument native called *from rusty* (issue 4:
at most 3 µs). bench_defrust.py measures `Native.call` from Python; this
measures the whole call as a rusty program pays it: the evaluator's call
node, the argument checks, the depth guard and the ctypes call.

    python3 benchmarks/bench_native_call.py [--quick] [--json PATH]

Three loops of N iterations run interleaved in one Session: calling
`(defrust ident (x) x)`, calling an interpreted `(define (idl x) x)`, and
evaluating the constant instead of a call. Per-call cost = (loop with the
call - loop with the constant) / N, from the minima. Uses a private JIT cache.
"""
from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(1, ROOT)

from benchlib import Stat, fmt_time, goal, interleave, json_arg, md_table, write_json  # noqa: E402

GOAL_US = 3.0
N = 100000

PROGRAM = """
(defrust ident (x) x)
(define (idl x) x)
(define (loop-native n) (let loop ((i 0)) (if (< i n) (begin (ident 1.5) (loop (+ i 1))) i)))
(define (loop-lambda n) (let loop ((i 0)) (if (< i n) (begin (idl 1.5) (loop (+ i 1))) i)))
(define (loop-const n) (let loop ((i 0)) (if (< i n) (begin 1.5 (loop (+ i 1))) i)))
"""


def main(argv):
    quick = '--quick' in argv
    if shutil.which('rustc') is None:
        text = 'rustc not on PATH: n/a\n'
        print(text)
        write_json(json_arg(argv), {'markdown': text, 'goals': [], 'problems': []})
        return 0
    cache = tempfile.mkdtemp(prefix='rusty-bench-cache-')
    os.environ['RUSTY_CACHE_DIR'] = cache
    try:
        from rusty.runtime import Session
        s = Session(out=io.StringIO())
        s.run(PROGRAM, '<bench_native_call>')
        assert s.run('(ident 2.5)') == 2.5
        runs = 5 if quick else 11
        t = {k: Stat(v) for k, v in interleave({
            'native': lambda: s.run('(loop-native %d)' % N),
            'lambda': lambda: s.run('(loop-lambda %d)' % N),
            'const': lambda: s.run('(loop-const %d)' % N)}, runs).items()}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    per_native = (t['native'].min - t['const'].min) / N
    per_lambda = (t['lambda'].min - t['const'].min) / N
    per_native_med = (t['native'].median - t['const'].median) / N
    rows = [('`(ident 1.5)`, ident a native', fmt_time(t['native'].min), fmt_time(per_native),
             fmt_time(per_native_med), '≤ %g µs' % GOAL_US),
            ('`(idl 1.5)`, idl an interpreted lambda', fmt_time(t['lambda'].min),
             fmt_time(per_lambda), fmt_time((t['lambda'].median - t['const'].median) / N), ''),
            ('`1.5` (no call)', fmt_time(t['const'].min), '', '', '')]
    text = ('Loops of %d iterations in one Session, interleaved, %d runs each; per call = '
            '(loop − constant loop) / %d.\n\n' % (N, runs, N) +
            md_table(('loop body', 'loop min', 'per call (min)', 'per call (median)', 'goal'),
                     rows) + '\n')
    print(text)
    ok = per_native * 1e6 <= GOAL_US
    goals = [goal('defrust: per-call overhead from rusty (1 arg)', fmt_time(per_native),
                  '≤ %g µs' % GOAL_US, ok,
                  '' if ok else 'missed by %.0f%%' % ((per_native * 1e6 / GOAL_US - 1) * 100))]
    write_json(json_arg(argv), {'markdown': text, 'goals': goals, 'problems': [],
                                'results': {k: v.to_json() for k, v in t.items()}})
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
