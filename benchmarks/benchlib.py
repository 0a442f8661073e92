"""Shared helpers of the benchmark scripts: interleaved timing, statistics,
goal records and markdown tables. No rusty imports here.

Every ratio in benchmarks/ is measured side by side in one run: the two
contenders are interleaved (a, b, a, b, ...) so that load from other work on
the shared machine hits both alike, and each side's *minimum* is compared
(medians are shown beside them).
"""
from __future__ import annotations

import gc
import json
import statistics
import time


def timed(fn):
    """Wall time of one call of fn(), in seconds, after a collection."""
    gc.collect()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def interleave(contenders, runs):
    """Time every callable of `contenders` (a dict name -> fn) `runs` times,
    interleaved round by round; name -> list of seconds."""
    out = {name: [] for name in contenders}
    for _ in range(runs):
        for name, fn in contenders.items():
            out[name].append(timed(fn))
    return out


class Stat:
    """Min and median of a list of timings (seconds)."""

    def __init__(self, samples):
        self.samples = list(samples)
        self.min = min(self.samples)
        self.median = statistics.median(self.samples)
        self.n = len(self.samples)

    def to_json(self):
        return {'min': self.min, 'median': self.median, 'n': self.n}


def fmt_time(s):
    """Seconds as a short human figure."""
    if s is None:
        return 'n/a'
    if s < 1e-3:
        return '%.1f µs' % (s * 1e6)
    if s < 1:
        return '%.2f ms' % (s * 1e3) if s < 0.01 else '%.1f ms' % (s * 1e3)
    return '%.2f s' % s


def fmt_ratio(r):
    if r is None:
        return 'n/a'
    return '%.2f×' % r if r < 10 else '%.1f×' % r


def goal(name, figure, target, met, note=''):
    """One goal record: what was measured, the figure, the target, met?"""
    return {'name': name, 'figure': figure, 'target': target, 'met': met, 'note': note}


def ratio_goal(name, ratio, bound, which=None):
    """A goal on a ratio to CPython: met at or under bound, else by how much it missed."""
    figure = fmt_ratio(ratio) if which is None else '%s (%s)' % (fmt_ratio(ratio), which)
    return goal(name, figure, '≤ %g×' % bound, ratio <= bound,
                '' if ratio <= bound else 'missed by %.0f%%' % ((ratio / bound - 1) * 100))


def md_table(head, rows):
    """A markdown table."""
    lines = ['| ' + ' | '.join(head) + ' |',
             '|' + '|'.join('---' for _ in head) + '|']
    for r in rows:
        lines.append('| ' + ' | '.join(str(c) for c in r) + ' |')
    return '\n'.join(lines)


def write_json(path, data):
    if path:
        with open(path, 'w', encoding='utf-8') as fh:
            json.dump(data, fh, indent=1)


def json_arg(argv):
    """The PATH of `--json PATH` in argv, or None."""
    if '--json' in argv:
        i = argv.index('--json')
        if i + 1 < len(argv):
            return argv[i + 1]
    return None
