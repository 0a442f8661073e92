"""The word-frequency script on a generated 1 MB text (issue 11: under 2 s).

    python3 benchmarks/bench_wordfreq.py [--quick] [--json PATH]

Runs `rusty repl.lisp-examples/wordfreq.lisp TEXT 10` as a fresh process
(start-up included, as a user would run it) several times and reports the
minimum and median; its output is checked against the same count done in
Python (the reference), so a fast wrong answer fails. The text is
deterministic: words from a 5,000-word vocabulary with a Zipf-like skew,
capitals and punctuation mixed in, lines of about 70 characters.
"""
from __future__ import annotations

import collections
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from benchlib import Stat, fmt_time, goal, json_arg, md_table, write_json  # noqa: E402

GOAL_SECONDS = 2.0
TEXT_BYTES = 1_000_000
SCRIPT = os.path.join(ROOT, 'repl.lisp-examples', 'wordfreq.lisp')
PUNCT = '.,;:!?"\'()[]{}<>-_*/'
SYLLABLES = ('ka', 'lo', 'mi', 'ne', 'ru', 'sta', 'ti', 'vo', 'qu', 'ber', 'ly', 'ant', 'e', 'o')


def vocabulary(n=5000):
    """n distinct made-up words."""
    words, i = [], 0
    while len(words) < n:
        k, w = i, ''
        while True:
            w += SYLLABLES[k % len(SYLLABLES)]
            k //= len(SYLLABLES)
            if k == 0:
                break
        words.append(w)
        i += 1
    return words


def generate_text(size=TEXT_BYTES) -> str:
    """About `size` bytes of text, the same every time."""
    words = vocabulary()
    state, out, line, total = 12345, [], [], 0
    while total < size:
        state = (state * 1103515245 + 12345) % (1 << 31)
        r = state / (1 << 31)
        w = words[int(len(words) * r ** 3)]          # skewed: a few words dominate
        if state % 11 == 0:
            w = w.capitalize()
        if state % 7 == 0:
            w += PUNCT[state % len(PUNCT)]
        line.append(w)
        if sum(map(len, line)) + len(line) > 70:
            text = ' '.join(line) + '\n'
            out.append(text)
            total += len(text)
            line = []
    return ''.join(out)


def reference(text: str, top: int) -> str:
    """What wordfreq.lisp must print, computed in Python."""
    words = [w.strip(PUNCT) for w in text.lower().split()]
    words = [w for w in words if w]
    counts = collections.Counter(words)
    ranked = sorted(counts.items(), key=lambda e: (-e[1], e[0]))[:top]
    width = max([4] + [len(w) for w, _ in ranked])
    lines = ['%3d %s %6d' % (i + 1, w.ljust(width), c) for i, (w, c) in enumerate(ranked)]
    lines.append('%d words, %d distinct' % (len(words), len(counts)))
    return '\n'.join(lines) + '\n'


def run_once(path: str):
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, '-m', 'rusty', SCRIPT, path, '10'], capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def main(argv):
    runs = 3 if '--quick' in argv else 7
    text = generate_text()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'text.txt')
        with open(path, 'w', encoding='utf-8') as fh:
            fh.write(text)
        want = reference(text, 10)
        times, cpus, problems = [], [], []
        for _ in range(runs):
            dt, cpu, proc = run_once(path)
            times.append(dt)
            cpus.append(cpu)
            if proc.returncode != 0 or proc.stdout != want:
                problems.append('wordfreq.lisp output differs from the Python reference '
                                '(status %d): %r' % (proc.returncode, (proc.stdout + proc.stderr)[-400:]))
                break
    st, cpu = Stat(times), Stat(cpus)
    met = st.min <= GOAL_SECONDS and not problems
    goals = [goal('wordfreq.lisp on a 1 MB text (fresh process)', fmt_time(st.min), '≤ %g s' % GOAL_SECONDS,
                  met, '; '.join(problems))]
    md = ['Text: %d bytes, %d words (generated, deterministic); `python3 -m rusty wordfreq.lisp TEXT 10`, '
          '%d runs, start-up included; output checked against a Python count. CPU is the child\'s user + '
          'system time: on a loaded machine the wall time runs ahead of it.'
          % (len(text.encode()), len(text.split()), runs), '',
          md_table(('workload', 'wall min', 'wall median', 'CPU min', 'goal'),
                   [('wordfreq.lisp, 1 MB', fmt_time(st.min), fmt_time(st.median), fmt_time(cpu.min),
                     '≤ %g s' % GOAL_SECONDS)])]
    if problems:
        md += ['', '**Problems:** ' + '; '.join(problems)]
    print('\n'.join(md))
    write_json(json_arg(argv), {'markdown': '\n'.join(md) + '\n', 'goals': goals})
    return 0 if not problems else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
