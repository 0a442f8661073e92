"""Two revisions of rusty side by side on the interpreter and breadth workloads.

    python3 benchmarks/bench_revisions.py OLD [NEW] [--quick] [--only TEXT] [--json PATH]

OLD and NEW are git revisions of this repository or directories holding a
rusty tree (NEW defaults to this checkout). Each tree runs in its own process
with the same workload programs (this checkout's `bench_interp` and
`bench_breadth`); the parent asks the two in turn to run one workload, so both
see the same machine load, and compares the minima: new / old above 1 is
slower. This is how a change shows it made nothing slower. `--only TEXT`
keeps the workloads whose name contains TEXT.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import bench_breadth  # noqa: E402
import bench_interp  # noqa: E402
from benchlib import fmt_ratio, fmt_time, goal, md_table, write_json  # noqa: E402

NOISE = 1.10     # new / old above this is a slowdown, not noise, on this shared machine

# A worker: one Session of the tree given, the programs sent as one JSON line,
# then one workload expression per line, answered with its time in seconds.
WORKER = r'''
import io, json, sys, time
sys.path.insert(0, sys.argv[1])
sys.setrecursionlimit(100000)
from rusty.runtime import Session
s = Session(out=io.StringIO())
for program in json.loads(sys.stdin.readline()):
    s.run(program, '<bench>')
print('ready', flush=True)
for line in sys.stdin:
    expr = json.loads(line)
    t = time.perf_counter()
    s.run(expr, '<bench>')
    print(time.perf_counter() - t, flush=True)
'''


def workloads() -> list:
    """(family, name, rusty expression) for every workload compared."""
    rows = [('interp', w[0], w[1]) for w in bench_interp.WORKLOADS]
    return rows + [('breadth', w[0], w[1]) for w in bench_breadth.WORKLOADS]


def tree_of(spec: str, scratch: str) -> str:
    """The directory of `spec`: itself if it is one, else the git revision extracted."""
    if os.path.isdir(os.path.join(spec, 'rusty')):
        return os.path.abspath(spec)
    out = os.path.join(scratch, spec.replace('/', '_'))
    os.makedirs(out)
    got = subprocess.run(['git', 'archive', spec, 'rusty'], cwd=ROOT, capture_output=True)
    if got.returncode != 0:
        raise SystemExit('bench_revisions: no revision %s here: %s' % (spec, got.stderr.decode().strip()))
    archive = got.stdout
    subprocess.run(['tar', '-x', '-C', out], input=archive, check=True)
    return out


class Worker:
    """One tree's process, answering workload timings."""

    def __init__(self, tree: str):
        env = dict(os.environ, PYTHONPATH='', HOME=os.environ.get('HOME', '/tmp'))
        self.p = subprocess.Popen([sys.executable, '-c', WORKER, tree], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env, cwd=tree)
        self._send([bench_interp.RUSTY_PROGRAM, bench_breadth.RUSTY_PROGRAM])
        if self.p.stdout.readline().strip() != 'ready':
            raise SystemExit('bench_revisions: %s did not start' % tree)

    def _send(self, obj):
        self.p.stdin.write(json.dumps(obj) + '\n')
        self.p.stdin.flush()

    def time(self, expr: str) -> float:
        self._send(expr)
        return float(self.p.stdout.readline())

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def option(argv, flag):
    """The value after `flag` in argv, or None."""
    return argv[argv.index(flag) + 1] if flag in argv[:-1] else None


def compare(old: Worker, new: Worker, quick: bool, only) -> list:
    """Rows (family, name, old min, new min, new/old, rounds), each workload interleaved."""
    budget = 0.6 if quick else 3.0
    rows = []
    for family, name, expr in workloads():
        if only is not None and only not in name:
            continue
        first = old.time(expr) + new.time(expr)
        rounds = max(3, min(25, int(budget / max(first, 1e-6))))
        o, n = [], []
        for _ in range(rounds):
            o.append(old.time(expr))
            n.append(new.time(expr))
        rows.append((family, name, min(o), min(n), min(n) / min(o), rounds))
    return rows


def main(argv):
    values = {option(argv, '--json'), option(argv, '--only')}
    args = [a for a in argv if not a.startswith('--') and a not in values]
    if not args:
        raise SystemExit(__doc__)
    quick = '--quick' in argv
    with tempfile.TemporaryDirectory() as scratch:
        old_tree = tree_of(args[0], scratch)
        new_tree = tree_of(args[1], scratch) if len(args) > 1 else ROOT
        old, new = Worker(old_tree), Worker(new_tree)
        try:
            rows = compare(old, new, quick, option(argv, '--only'))
        finally:
            old.close()
            new.close()
    label_new = args[1] if len(args) > 1 else 'this checkout'
    table = md_table(['family', 'workload', args[0], label_new, 'new / old', 'rounds'],
                     [(f, n, fmt_time(o), fmt_time(w), fmt_ratio(r), k) for f, n, o, w, r, k in rows])
    print(table)
    slow = [(n, r) for _f, n, _o, _w, r, _k in rows if r > NOISE]
    worst = max(rows, key=lambda row: row[4])
    goals = [goal('revisions: slowest workload against %s' % args[0], '%s (%s)' % (fmt_ratio(worst[4]), worst[1]),
                  '≤ %.2f×' % NOISE, not slow, ', '.join('%s %s' % (n, fmt_ratio(r)) for n, r in slow))]
    write_json(option(argv, '--json'), {'markdown': table, 'goals': goals,
                                        'rows': [dict(family=f, name=n, old=o, new=w, ratio=r, rounds=k)
                                                 for f, n, o, w, r, k in rows]})

if __name__ == '__main__':
    main(sys.argv[1:])
