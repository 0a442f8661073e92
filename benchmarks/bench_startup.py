"""Start-up: `rusty -e 1` against `python3 -c pass` (issue 13: at most 2.5x).

    python3 benchmarks/bench_startup.py [--quick] [--json PATH]

Every command runs as a fresh process through subprocess, alternately, many
times; ratios compare the minima (medians shown too).

The goal row is the pair without `site` (`python3 -S`): rusty's batch entry
point (what the console script runs) from this tree against `python3 -S -c
pass`. Without -S, both sides pay for `site` and whatever the .pth files of
site-packages import, which on a machine with many of them dwarfs and hides
rusty's own cost; that plain pair (`rusty -e 1`, the console script installed
beside this Python, not a pyenv shim, against `python3 -c pass`) is kept as
an information row. Also: rusty's start-up phase by phase, and where the
import time goes (`python3 -S -X importtime`, per module the minimum over a
few runs).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from benchlib import Stat, fmt_ratio, fmt_time, goal, json_arg, md_table, write_json  # noqa: E402

STARTUP_GOAL = 2.5
# Modules a batch run must not import (tests/test_startup_imports.py pins the full list).
KEPT_OUT = ('prompt_toolkit', 'pygments', 'torch', 'numpy', 'typing', 'ctypes', 'fractions', 're', 'enum')

# rusty is timed as installed: with its bytecode cached (a development shell
# may set PYTHONDONTWRITEBYTECODE, which would make every run recompile the
# modules changed since the last cache write).
ENV = dict(os.environ)
ENV.pop('PYTHONDONTWRITEBYTECODE', None)


def rusty_command():
    """The rusty console script of this interpreter, as an argv prefix."""
    beside = os.path.join(os.path.dirname(sys.executable), 'rusty')
    if os.access(beside, os.X_OK):
        return [beside], beside
    found = shutil.which('rusty')
    if found:
        return [found], found
    return [sys.executable, '-m', 'rusty'], 'python3 -m rusty'


def run_once(argv):
    t = time.perf_counter()
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=ENV)
    dt = time.perf_counter() - t
    return dt, proc


def alternate(commands, runs):
    """Each argv of `commands` run once per round, `runs` rounds; a Stat each."""
    times = [[] for _ in commands]
    for _ in range(runs):
        for argv, out in zip(commands, times):
            out.append(run_once(argv)[0])
    return [Stat(t) for t in times]


# rusty's batch entry point without site (-S): no .pth files run, so the
# figure is rusty's own start-up over a bare interpreter.
ROOT = os.path.dirname(HERE)
BARE_RUSTY = ('import sys; sys.path[:0] = [%r]; sys.argv = ["rusty", "-e", "1"]; '
              'from rusty.cli import console_main; sys.exit(console_main())' % ROOT)


def import_profile(runs=3):
    """Per module (self µs, cumulative µs), minimum over `runs` runs of rusty's
    batch entry under `python3 -S -X importtime`; and the set of modules imported."""
    best = {}
    order = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, '-S', '-X', 'importtime', '-c', BARE_RUSTY],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, env=ENV)
        for line in proc.stderr.splitlines():
            if not line.startswith('import time:') or 'self [us]' in line:
                continue
            try:
                self_us, cum_us, name = line[len('import time:'):].split('|')
                self_us, cum_us = int(self_us), int(cum_us)
            except ValueError:
                continue
            raw = name.rstrip()
            mod = raw.strip()
            if mod not in best:
                best[mod] = (self_us, cum_us)
                order.append((mod, len(raw) - len(raw.lstrip())))
            else:
                best[mod] = (min(best[mod][0], self_us), min(best[mod][1], cum_us))
    return best, order


# In a fresh process (`python3 -S`): what `rusty -e 1` does, phase by phase
# (cli.run_batch's imports, the builtin tables' index, the standard library's
# forms, Session() binding the globals lazily), with the collector off as
# run_batch has it during start-up.
PHASES = """\
import gc, time
gc.disable()
t0 = time.perf_counter()
import rusty.cli
from rusty.printer import print_form
from rusty.report import render
from rusty import runtime
t1 = time.perf_counter()
runtime.table_index()
t2 = time.perf_counter()
runtime.stdlib_file()
t3 = time.perf_counter()
s = runtime.Session()
t4 = time.perf_counter()
s.run('1')
t5 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)
"""
PHASE_NAMES = ('imports (cli, printer, report, runtime)', 'the builtin tables\' names (cached index)',
               'the standard library\'s forms (form cache, not decoded)',
               'Session(): the evaluation thread, every global bound (pending)',
               'evaluating `1`')


def phases(runs):
    """Minimum seconds of each start-up phase over `runs` fresh processes, or None."""
    best = None
    for _ in range(runs):
        proc = subprocess.run([sys.executable, '-S', '-c', PHASES], cwd=ROOT, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, env=ENV)
        try:
            got = [float(x) for x in proc.stdout.split()]
        except ValueError:
            return None
        if len(got) != len(PHASE_NAMES):
            return None
        best = got if best is None else [min(a, b) for a, b in zip(best, got)]
    return best


def main(argv):
    quick = '--quick' in argv
    runs = 8 if quick else 25
    rusty, shown = rusty_command()
    a = rusty + ['-e', '1']
    b = [sys.executable, '-c', 'pass']
    problems = []
    _, proc = run_once(a)
    if proc.returncode != 0 or proc.stdout.strip() != '1':
        problems.append('`rusty -e 1` printed %r (stderr %r, status %d), expected "1"'
                        % (proc.stdout, proc.stderr[-300:], proc.returncode))
    run_once(b)
    bare_a = [sys.executable, '-S', '-c', BARE_RUSTY]
    bare_b = [sys.executable, '-S', '-c', 'pass']
    bare_ok = run_once(bare_a)[1].stdout.strip() == '1'
    if bare_ok:
        tr, tp, sr, sp = alternate([a, b, bare_a, bare_b], runs)
    else:
        tr, tp = alternate([a, b], runs)
    ratio = tr.min / tp.min
    if bare_ok:
        bare = sr.min / sp.min
        goals = [goal('start-up: rusty\'s batch entry vs `python3 -c pass`, both `python3 -S`',
                      fmt_ratio(bare), '≤ %g×' % STARTUP_GOAL, bare <= STARTUP_GOAL,
                      '' if bare <= STARTUP_GOAL else
                      'missed by %.0f%% (%s over the goal)' % ((bare / STARTUP_GOAL - 1) * 100,
                                                              fmt_time(sr.min - STARTUP_GOAL * sp.min)))]
    else:
        goals = []
        problems.append('rusty\'s batch entry under `python3 -S` did not print "1"')
    lines = ['`rusty` = `%s`; `python3` = `%s`; %d alternating runs each, fresh processes.'
             % (shown, sys.executable, runs), '']
    lines.append(md_table(('command', 'min', 'median', 'ratio (min)', 'goal'), ([
        ('rusty batch entry, `python3 -S` (no site)', fmt_time(sr.min), fmt_time(sr.median),
         fmt_ratio(sr.min / sp.min), '≤ %g×' % STARTUP_GOAL),
        ('`python3 -S -c pass`', fmt_time(sp.min), fmt_time(sp.median), '1×', ''),
    ] if bare_ok else []) + [
        ('`rusty -e 1` (installed)', fmt_time(tr.min), fmt_time(tr.median), fmt_ratio(ratio),
         'info'),
        ('`python3 -c pass`', fmt_time(tp.min), fmt_time(tp.median), '1×', ''),
    ]))
    if bare_ok:
        lines.append('')
        lines.append('The `-S` pair leaves out `site` and the `.pth` files of this machine\'s '
                     'site-packages (which both sides of the plain pair pay alike): it is rusty\'s '
                     'own start-up cost over a bare interpreter, %s. The plain pair runs the '
                     'installed `rusty`, which may be another tree than this one.'
                     % fmt_time(sr.min - sp.min))
    ph = phases(3 if quick else 6)
    if ph is not None:
        lines.append('')
        lines.append('Where rusty\'s start-up goes, phase by phase in a fresh process (minimum of '
                     '%d runs each, `python3 -S`; the interpreter\'s own start-up before these is the '
                     '`python3 -S -c pass` figure):' % (3 if quick else 6))
        lines.append('')
        lines.append(md_table(('phase', 'time'), [(n, fmt_time(t)) for n, t in zip(PHASE_NAMES, ph)]
                              + [('**sum**', fmt_time(sum(ph)))]))
    best, order = import_profile(2 if quick else 4)
    if best:
        total = sum(v[0] for v in best.values())
        rusty_self = sum(v[0] for m, v in best.items() if m == 'rusty' or m.startswith('rusty.'))
        top_level = [(m, best[m][1]) for m, indent in order if indent == 1]
        heavy = sorted(best.items(), key=lambda kv: -kv[1][0])[:10]
        lines.append('')
        lines.append('Import time (`%s -S -X importtime`, rusty\'s batch entry, per module the minimum of '
                     '%d runs): %d modules, %s of imports in all, of which rusty\'s own modules '
                     '(self time) %s.' % (os.path.basename(sys.executable), 2 if quick else 4,
                                          len(best), fmt_time(total * 1e-6),
                                          fmt_time(rusty_self * 1e-6)))
        lines.append('')
        lines.append('Top 10 modules by self time:')
        lines.append('')
        lines.append(md_table(('module', 'self', 'cumulative'),
                              [('`%s`' % m, fmt_time(s * 1e-6), fmt_time(c * 1e-6))
                               for m, (s, c) in heavy]))
        lines.append('')
        tops = sorted(top_level, key=lambda kv: -kv[1])[:8]
        lines.append('Heaviest top-level imports (cumulative): ' +
                     ', '.join('`%s` %s' % (m, fmt_time(c * 1e-6)) for m, c in tops) + '.')
        bad = sorted(m for m in best if m.split('.')[0] in KEPT_OUT or m.startswith('rusty.jit'))
        if bad:
            problems.append('a batch run imports %s' % ', '.join(bad[:5]))
    if problems:
        lines.append('')
        lines.append('**Problems found:**')
        lines.extend('- ' + p for p in problems)
    text = '\n'.join(lines).rstrip() + '\n'
    print(text)
    write_json(json_arg(argv), {'markdown': text, 'goals': goals, 'problems': problems,
                                'results': {'rusty': tr.to_json(), 'python': tp.to_json(),
                                            'ratio': ratio,
                                            'bare': {'rusty': sr.to_json(), 'python': sp.to_json()}
                                            if bare_ok else None}})
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
