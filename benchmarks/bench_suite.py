"""Fresh-process suite: classic Lisp benchmarks, beginner loops and everyday
scripts, each run as `python -m rusty FILE` in a new process against the same
algorithm in CPython (`python3 PORT.py`).

    python3 benchmarks/bench_suite.py [--quick] [--runs N] [--root DIR] [--wall] [--empty-cache]
                                      [--only NAME,...] [--group G,...] [--json PATH]

Contenders per program, interleaved round by round (median of the runs; CPU
time of the process, user + system, unless --wall):
  cold      the compiler on, a fresh RUSTY_CACHE_DIR holding only what rusty
            writes for itself on any first start (its builtin table index and
            standard library forms), none of any program's code: the program's
            first run, as a user has it for every script after their first
  warm      the compiler on, the cache the cold run filled (a second run)
  ref-cold  RUSTY_SPECIALIZE=0, a fresh cache dir made as for cold (the reference)
  ref-warm  RUSTY_SPECIALIZE=0, its cache filled
  cpython   python3 PORT.py
--quick leaves out ref-warm. --empty-cache makes the cold dirs empty instead:
the first run of rusty ever, which also pays for rusty's own start-up entries. Every run's output is checked against the program's known answer (both paths;
a disagreement between them is a compiler bug and is listed under Problems).
The rusty under test is --root DIR, else $RUSTY_ROOT, else the `rusty` package
found first on $PYTHONPATH (so `PYTHONPATH=/other/tree python3 benchmarks/bench_suite.py`
measures that tree), else this checkout. Goals (issue 31) are printed beside
the figures. `--quick`: one run each, smaller sizes (a few minutes).
"""
from __future__ import annotations

import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROGRAMS = os.path.join(HERE, 'programs')
sys.path.insert(0, HERE)

from benchlib import fmt_ratio, fmt_time, goal, json_arg, md_table, write_json  # noqa: E402
from suite_programs import CLASSICS, LOOPS, SCRIPTS, rows  # noqa: E402

CONTENDERS = ('cold', 'warm', 'ref-cold', 'ref-warm', 'cpython')
TIMEOUT = 300
# Goals of issue 31: (group, geomean bound, worst bound) of rusty cold / CPython.
GROUP_GOALS = {CLASSICS: (3.0, 8.0), SCRIPTS: (3.0, 6.0), LOOPS: (5.0, 5.0)}
SLACK_RATIO, SLACK_S = 1.15, 0.030     # compiled <= 1.15x reference + 30 ms


def rusty_root(argv):
    """The tree whose rusty is measured (see the module docstring)."""
    if '--root' in argv:
        return os.path.abspath(argv[argv.index('--root') + 1])
    if os.environ.get('RUSTY_ROOT'):
        return os.path.abspath(os.environ['RUSTY_ROOT'])
    for entry in os.environ.get('PYTHONPATH', '').split(os.pathsep):
        if entry and os.path.exists(os.path.join(entry, 'rusty', '__init__.py')):
            return os.path.abspath(entry)
    return ROOT


def base_env(root):
    env = dict(os.environ)
    env.pop('PYTHONDONTWRITEBYTECODE', None)     # time rusty as installed
    env.pop('RUSTY_SPECIALIZE', None)
    env.pop('RUSTY_COMPILE', None)
    env['PYTHONPATH'] = root
    return env


def cpu_children():
    """User + system CPU seconds of the finished child processes so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Runner:
    """Runs one program's contenders; owns the cache dirs of the warm ones."""

    def __init__(self, root, scratch, wall=False, empty_cache=False):
        self.root, self.scratch, self.env = root, scratch, base_env(root)
        self.wall = wall
        self.started = tempfile.mkdtemp(dir=scratch, prefix='started-')
        # Python's own bytecode of the tree under test is written once, here, not
        # inside the first timed run; and rusty's own start-up entries once, into
        # `started`, which each cold dir copies (unless empty_cache).
        for spec in ('1', '0'):
            subprocess.run([sys.executable, '-m', 'rusty', '-e', '1'],
                           env=dict(self.env, RUSTY_CACHE_DIR=self.started, RUSTY_SPECIALIZE=spec),
                           cwd=scratch, capture_output=True, timeout=TIMEOUT)
        self.own_entries = [] if empty_cache else [
            os.path.join(self.started, n) for n in sorted(os.listdir(self.started))
            if not n.startswith('code-')]
        self.filled = {}        # 'cold'/'ref-cold' -> the cache dir its last run filled
        self.stats_flag = None

    def fresh_cache(self, prefix):
        """A new cache dir holding rusty's own start-up entries and no program's code."""
        path = tempfile.mkdtemp(dir=self.scratch, prefix=prefix)
        for entry in self.own_entries:
            shutil.copy2(entry, path)
        return path

    def command(self, group, name, args, contender):
        base = os.path.join(PROGRAMS, group, name)
        if contender == 'cpython':
            return [sys.executable, base + '.py'] + args
        return [sys.executable, '-m', 'rusty', base + '.lisp'] + args

    def env_for(self, contender):
        """The environment of one run; a cold run gets a new cache dir, and a warm
        run the one its cold counterpart last filled (a second run on that cache)."""
        env = dict(self.env)
        if contender.startswith('ref'):
            env['RUSTY_SPECIALIZE'] = '0'
        if contender.endswith('-warm') or contender == 'warm':
            env['RUSTY_CACHE_DIR'] = self.filled[contender.replace('warm', 'cold')]
        elif contender != 'cpython':
            env['RUSTY_CACHE_DIR'] = self.fresh_cache('cold-')
        return env

    def keep_filled(self, cache, contender):
        """Record `cache` as the dir `contender` (a cold one) filled last."""
        old = self.filled.get(contender)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        self.filled[contender] = cache

    def run(self, group, name, args, contender, extra=()):
        """(seconds, stdout, stderr, exit status) of one fresh process."""
        cmd = self.command(group, name, args, contender)
        if extra:
            cmd = cmd[:3] + list(extra) + cmd[3:]
        env = self.env_for(contender)
        workdir = tempfile.mkdtemp(dir=self.scratch, prefix='cwd-')
        before = cpu_children()
        t = time.perf_counter()
        try:
            p = subprocess.run(cmd, env=env, cwd=workdir, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=TIMEOUT)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, err, rc = '', 'timed out after %d s' % TIMEOUT, -1
        dt = time.perf_counter() - t
        if not self.wall:
            dt = cpu_children() - before
        if contender in ('cold', 'ref-cold'):
            self.keep_filled(env['RUSTY_CACHE_DIR'], contender)
        shutil.rmtree(workdir, ignore_errors=True)
        return dt, out, err, rc

    def has_stats(self):
        """Whether this rusty knows `--stats` (the compiler's counters)."""
        if self.stats_flag is None:
            p = subprocess.run([sys.executable, '-m', 'rusty', '--help'], env=self.env,
                               capture_output=True, text=True)
            self.stats_flag = '--stats' in p.stdout + p.stderr
        return self.stats_flag


def measure(runner, row, quick, runs):
    """One program: contender -> list of seconds, plus problems and stats."""
    group, name, full, small, want_full, want_small = row
    args, want = (small, want_small) if quick else (full, want_full)
    args = args.split()
    contenders = quick_contenders() if quick else CONTENDERS
    times = {c: [] for c in contenders}
    problems = []
    for _ in range(runs):
        for c in contenders:
            dt, out, err, rc = runner.run(group, name, args, c)
            times[c].append(dt)
            got = out.rstrip()
            if rc != 0 or got != want.rstrip():
                problems.append('%s/%s (%s): exit %d, output %r, expected %r%s' % (
                    group, name, c, rc, short(got), short(want),
                    (': ' + short(err.strip())) if err.strip() else ''))
    stats = ''
    if runner.has_stats():
        _, _, err, _ = runner.run(group, name, args, 'warm', extra=['--stats'])
        stats = ' '.join(err.strip().splitlines()[-3:])
    return times, sorted(set(problems)), stats


def quick_contenders():
    """--quick leaves out ref-warm (the reference is the slow one)."""
    return tuple(c for c in CONTENDERS if c != 'ref-warm')


def short(text, n=160):
    return text if len(text) <= n else text[:n] + '…'


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def report(results, quick, runs, root, wall, empty_cache=False):
    """Markdown body and goal records from {row: (times, problems, stats)}."""
    lines, goals, problems = [], [], []
    by_group = {}
    for row, (times, probs, stats) in results.items():
        by_group.setdefault(row[0], []).append((row, times, stats))
        problems += probs
    for group in (CLASSICS, LOOPS, SCRIPTS):
        if group not in by_group:
            continue
        table, vs_cpy, vs_ref, slack_bad = [], [], [], []
        for row, times, stats in by_group[group]:
            med = {c: statistics.median(times[c]) for c in times}
            r_cpy = med['cold'] / med['cpython']
            r_ref = med['cold'] / med['ref-cold']
            r_ref_w = med['warm'] / med['ref-warm'] if 'ref-warm' in med else None
            vs_cpy.append((row[1], r_cpy))
            vs_ref.append((row[1], r_ref))
            over = ['%s %s vs %s' % (kind, fmt_time(med[c]), fmt_time(med[r]))
                    for kind, c, r in (('cold', 'cold', 'ref-cold'), ('warm', 'warm', 'ref-warm'))
                    if r in med and med[c] > SLACK_RATIO * med[r] + SLACK_S]
            if over:
                slack_bad.append('%s (%s)' % (row[1], ', '.join(over)))
            table.append((row[1], (row[3] if quick else row[2]) or '—',
                          fmt_time(med['cold']), fmt_time(med['warm']),
                          fmt_time(med['ref-cold']), fmt_time(med.get('ref-warm')),
                          fmt_time(med['cpython']), fmt_ratio(r_cpy), fmt_ratio(r_ref),
                          fmt_ratio(r_ref_w)) + ((stats or '—',) if stats is not None else ()))
        g_cpy, g_ref = geomean([r for _, r in vs_cpy]), geomean([r for _, r in vs_ref])
        worst = max(vs_cpy, key=lambda x: x[1])
        worst_ref = max(vs_ref, key=lambda x: x[1])
        head = ('program', 'args', 'cold', 'warm', 'ref cold', 'ref warm', 'CPython',
                'cold/CPython', 'cold/ref', 'warm/ref', '--stats (warm)')
        lines += ['### %s' % group.capitalize(), '',
                  md_table(head, table), '',
                  '%s: geomean cold/CPython **%s**, worst %s %s; geomean cold/ref %s, '
                  'worst %s %s.' % (group, fmt_ratio(g_cpy), worst[0], fmt_ratio(worst[1]),
                                    fmt_ratio(g_ref), worst_ref[0], fmt_ratio(worst_ref[1])),
                  '']
        gm_bound, worst_bound = GROUP_GOALS[group]
        if group == LOOPS:
            goals.append(goal('suite %s: every loop within %g× CPython' % (group, worst_bound),
                              'worst %s %s' % (worst[0], fmt_ratio(worst[1])),
                              '≤ %g×' % worst_bound, worst[1] <= worst_bound))
        else:
            goals.append(goal('suite %s: geomean cold/CPython' % group, fmt_ratio(g_cpy),
                              '≤ %g×' % gm_bound, g_cpy <= gm_bound))
            goals.append(goal('suite %s: worst cold/CPython' % group,
                              '%s %s' % (worst[0], fmt_ratio(worst[1])),
                              '≤ %g×' % worst_bound, worst[1] <= worst_bound))
        goals.append(goal('suite %s: compiled ≤ 1.15× reference + 30 ms' % group,
                          '%d of %d over' % (len(slack_bad), len(table)), 'none over',
                          not slack_bad, '; '.join(slack_bad)))
    lines.insert(0, ('Each program is a fresh `python -m rusty FILE` (rusty from `%s`), '
                     '%s; times are medians of %d interleaved run%s, in %s. cold = compiler on, '
                     '%s; warm = a second run on that cache; ref = '
                     'RUSTY_SPECIALIZE=0; CPython = `python3 PORT.py`, the same algorithm.\n')
                 % (root, 'quick sizes' if quick else 'full sizes', runs, '' if runs == 1 else 's',
                    'wall-clock time' if wall else 'CPU time (user + system) of the process, '
                    'steadier than wall time on a shared machine; `--wall` for wall time',
                    'an empty RUSTY_CACHE_DIR (rusty\'s first run ever, `--empty-cache`)' if empty_cache
                    else 'a fresh RUSTY_CACHE_DIR holding only the entries rusty writes for itself on '
                    'any first start (its builtin table index, its standard library\'s forms) and none '
                    'of any program\'s code: the program\'s first run'))
    lines += ['Goals (issue 31): classics geomean ≤ 3× CPython, none over 8× (fresh process, '
              'compile included); scripts geomean ≤ 3×, none over 6×; beginner loops within 5×; '
              'every program cold and warm ≤ 1.15× its RUSTY_SPECIALIZE=0 time + 30 ms; a '
              'second run compiles nothing (`rusty --stats`, shown when this rusty has it).', '']
    if problems:
        lines += ['**Problems found:**', ''] + ['- ' + p for p in problems] + ['']
    goals.append(goal('suite: every output right on both paths',
                      '%d problems' % len(problems), 'none', not problems))
    return '\n'.join(lines), goals, problems


def option(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    if '--help' in argv or '-h' in argv:
        print(__doc__)
        return 0
    quick = '--quick' in argv
    runs = int(option(argv, '--runs', '1' if quick else '3'))
    only = set(filter(None, option(argv, '--only', '').split(',')))
    groups = set(filter(None, option(argv, '--group', '').split(',')))
    root = rusty_root(argv)
    selected = [r for r in rows(groups) if not only or r[1] in only]
    scratch = tempfile.mkdtemp(prefix='rusty-suite-')
    results = {}
    try:
        runner = Runner(root, scratch, wall='--wall' in argv, empty_cache='--empty-cache' in argv)
        for row in selected:
            t = time.perf_counter()
            results[row] = measure(runner, row, quick, runs)
            times = results[row][0]
            print('  %-10s %-18s %s  (%.0f s)%s' % (
                row[0], row[1], '  '.join('%s %s' % (c, fmt_time(statistics.median(times[c])))
                                          for c in times),
                time.perf_counter() - t, '  PROBLEM' if results[row][1] else ''),
                file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    body, goals, problems = report(results, quick, runs, root, '--wall' in argv, '--empty-cache' in argv)
    print(body)
    for g in goals:
        print('%-60s %-22s %-10s %s' % (g['name'], g['figure'], g['target'],
                                        'met' if g['met'] else 'MISSED'))
    write_json(json_arg(argv), {'markdown': body, 'goals': goals, 'problems': problems})
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
