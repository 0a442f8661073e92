"""The Lisp profiler's overhead (issue 21: a profiled run at most 3x slower).

    python3 benchmarks/bench_profile.py [--quick] [--json PATH]

Each workload runs in one Session plainly (`Session.run`) and under the
profiler (`Session.profile`, what `,profile` and `rusty --profile` use),
interleaved; slowdown = profiled minimum / plain minimum. The workloads: a
call-bound one (fib: one Lisp call per step, nothing else, each a call of
itself), one that mixes Lisp procedures, builtins and callbacks from
builtins (map, sort, strings), a tail-recursive loop, and a loop whose every
step calls another small procedure (each call timed); each with the fast paths on (the default) and off
(RUSTY_SPECIALIZE=0, information only).
"""
from __future__ import annotations

import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(1, ROOT)

from benchlib import Stat, fmt_ratio, fmt_time, goal, interleave, json_arg, md_table, write_json  # noqa: E402

GOAL = 3.0

PROGRAM = """
(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(define (count-up n) (let loop ((i 0) (acc '())) (if (= i n) acc (loop (+ i 1) (cons i acc)))))
(define (square x) (* x x))
(define (mixed n)
  (let ((xs (map square (count-up n))))
    (length (sort (map (lambda (x) (string-append "k" (number->string x))) xs) string<?))))
(define (spin n acc) (if (= n 0) acc (spin (- n 1) (+ acc 1))))
(define (sum-squares n acc) (if (= n 0) acc (sum-squares (- n 1) (+ acc (square n)))))
"""

WORKLOADS = (
    ('call-bound: `(fib 20)`', '(fib 20)'),
    ('mixed: map, sort, strings (`(mixed 5000)`)', '(mixed 5000)'),
    ('tail loop: `(spin 30000 0)`', '(spin 30000 0)'),
    ('calls of another procedure: `(sum-squares 20000 0)`', '(sum-squares 20000 0)'),
)


def session(fast: bool):
    os.environ['RUSTY_SPECIALIZE'] = '1' if fast else '0'
    from rusty.runtime import Session
    s = Session(out=io.StringIO(), err=io.StringIO())
    os.environ.pop('RUSTY_SPECIALIZE')
    s.run(PROGRAM, '<bench_profile>')
    return s


def measure(s, code: str, runs: int) -> dict:
    s.run(code)
    s.profile(code)      # warm: compiled bodies, builtins made
    return {k: Stat(v) for k, v in interleave({
        'plain': lambda: s.run(code),
        'profiled': lambda: s.profile(code)}, runs).items()}


def main(argv):
    quick = '--quick' in argv
    runs = 3 if quick else 7
    rows, goals, results = [], [], {}
    worst = 0.0
    for fast in (True, False):
        s = session(fast)
        for title, code in WORKLOADS:
            t = measure(s, code, runs)
            ratio = t['profiled'].min / t['plain'].min
            label = '%s, fast paths %s' % (title, 'on' if fast else 'off')
            rows.append((label, fmt_time(t['plain'].min), fmt_time(t['profiled'].min), fmt_ratio(ratio),
                         '≤ %gx' % GOAL if fast else '(information)'))
            results[label] = {k: v.to_json() for k, v in t.items()}
            if fast:
                worst = max(worst, ratio)
    text = ('One Session per setting, plain and profiled runs interleaved, %d each; slowdown = '
            'profiled min / plain min.\n\n' % runs +
            md_table(('workload', 'plain (min)', 'profiled (min)', 'slowdown', 'goal'), rows) + '\n')
    print(text)
    ok = worst <= GOAL
    goals.append(goal('Profiler: slowdown of a profiled run (worst workload, fast paths on)', fmt_ratio(worst),
                      '≤ %gx' % GOAL, ok, '' if ok else 'missed by %.0f%%' % ((worst / GOAL - 1) * 100)))
    write_json(json_arg(argv), {'markdown': text, 'goals': goals, 'problems': [], 'results': results})
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
