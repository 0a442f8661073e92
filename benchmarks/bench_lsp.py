"""The language server: hover on a 5,000-line file (goal: answered in under
100 ms), measured as an editor sees it — a request over JSON-RPC to `rusty
lsp` in its own process and the answer back.

    python3 benchmarks/bench_lsp.py [--quick] [--json PATH]

The file is generated: functions with docstrings, lets, conds, calls of
builtins and of one another. It is opened once (the time to its diagnostics
is shown too); then hovers at names spread over the file, each timed alone.
"""
from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests'))

from benchlib import Stat, fmt_time, goal, json_arg, md_table, write_json  # noqa: E402
from lsp_client import Client  # noqa: E402

GOAL_SECONDS = 0.100
LINES = 5000

CHUNK = '''\
(define (step{i} x y)
  "(step{i} x y)
A step of the generated program."
  (let ((a (* x {i}))
        (b (+ y 1)))
    (cond ((> a b) (list 'big a (step{j} b a)))
          ((< a 0) (map (lambda (k) (* k a)) (list 1 2 3)))
          (else (+ a b)))))
(define total{i} (step{i} 1 2))
'''


def program(lines: int) -> str:
    """Whole chunks while they fit, then comment lines up to `lines`."""
    per = CHUNK.count('\n')
    body = ''.join(CHUNK.format(i=i, j=max(i - 1, 0)) for i in range(lines // per))
    return body + '; padding\n' * (lines - body.count('\n'))


def main(argv):
    quick = '--quick' in argv
    hovers = 20 if quick else 60
    text = program(LINES)
    assert text.count('\n') == LINES
    lines = text.split('\n')
    calls = [n for n, src in enumerate(lines) if '(step' in src]
    targets = [(n, lines[n].index('(step') + 2) for n in calls[::max(1, len(calls) // hovers)]]
    c = Client()
    try:
        c.initialize()
        uri = 'file:///bench/big.lisp'
        start = time.perf_counter()
        c.open(uri, text)
        diags = c.diagnostics(uri, timeout=120)
        opened = time.perf_counter() - start
        assert diags == [], diags[:3]
        times = []
        for line, col in targets:
            t0 = time.perf_counter()
            h = c.at('textDocument/hover', uri, line, col)
            times.append(time.perf_counter() - t0)
            assert h is not None and 'step' in h['contents']['value'], (line, h)
        comp = []
        for line, col in targets[:10]:
            t0 = time.perf_counter()
            c.at('textDocument/completion', uri, line, col + 2)
            comp.append(time.perf_counter() - t0)
    finally:
        c.close()
    hs, cs = Stat(times), Stat(comp)
    goals = [goal('lsp: hover on a 5,000-line file', fmt_time(hs.median), '< %d ms' % (GOAL_SECONDS * 1000),
                  hs.median < GOAL_SECONDS, 'max %s over %d hovers' % (fmt_time(max(times)), len(times)))]
    out = ['`rusty lsp` in a subprocess, over JSON-RPC; a generated %d-line file (%d characters) opened once, '
           'then each request timed alone from sending it to reading the answer.' % (LINES, len(text)), '']
    out.append(md_table(('request', 'n', 'min', 'median', 'max'), [
        ('didOpen → diagnostics published', 1, fmt_time(opened), fmt_time(opened), fmt_time(opened)),
        ('hover', hs.n, fmt_time(hs.min), fmt_time(hs.median), fmt_time(max(times))),
        ('completion (every name, locals first)', cs.n, fmt_time(cs.min), fmt_time(cs.median), fmt_time(max(comp))),
    ]))
    md = '\n'.join(out) + '\n'
    print(md)
    write_json(json_arg(argv), {'markdown': md, 'goals': goals, 'problems': [],
                                'results': {'hover': hs.to_json(), 'completion': cs.to_json(), 'open': opened}})
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
