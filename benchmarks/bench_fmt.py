"""The formatter: `fmt-string` on a generated program of
10,000 lines (goal: under 1 s) and of 20,000 and 40,000 lines (goal: linear
growth, each doubling at most 2.3× the time).

    python3 benchmarks/bench_fmt.py [--quick] [--json PATH]

The program is written badly on purpose (no indentation, runs of spaces,
trailing blanks, blank-line runs) with comments, block and datum comments,
quote sugar and multi-line strings, so every rule has work to do. The time is
the whole of `fmt_string`: validation by the reader, then the layout; the two
are also shown apart. Minimum of several runs each.

For the growth, every timed sample does the same amount of work: four runs
of the 10,000-line text, two of the 20,000-line one, one of the 40,000-line
one, and a run's time is the sample's share. On this shared machine the speed
varies in bursts; when one sample of the small text took a quarter of the time
of a large one, it was far likelier to fall wholly inside a fast burst, and
the minima made the growth swing between 1.6× and 3× from run to run.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from benchlib import Stat, fmt_time, goal, interleave, json_arg, md_table, write_json  # noqa: E402
from rusty.fmt import fmt_string, layout, validate  # noqa: E402

GOAL_SECONDS = 1.0
GOAL_DOUBLING = 2.3

CHUNK = '''\
;; function number {i}: a comment of its own
(define   (f{i} x   y)   ; trailing comment
(let ((a (* x {i}))
(b    "a string
over two lines")
(c '(1 2 3)))
#| a block comment
   #| nested |# over lines |#
(cond ((> a y)    (list 'big a b))
((< a 0) `(neg ,a ,@c))
(else #;(ignored form) (+ a y 1.50)))))


(f{i} 1 2)
'''
CHUNK_LINES = CHUNK.count('\n')


def program(lines: int) -> str:
    """A generated program of exactly `lines` lines: whole chunks, then one-line forms."""
    whole = lines // CHUNK_LINES
    return ''.join(CHUNK.format(i=i) for i in range(whole)) + '(done)\n' * (lines - whole * CHUNK_LINES)


def main(argv):
    quick = '--quick' in argv
    runs = 3 if quick else 7
    sizes = (10_000, 20_000, 40_000)
    texts = {n: program(n) for n in sizes}
    assert all(t.count('\n') == n for n, t in texts.items())
    for t in texts.values():
        assert fmt_string(fmt_string(t)) == fmt_string(t)
    # the sizes interleaved round by round, so load from other work hits them alike
    reps = {n: sizes[-1] // n for n in sizes}       # every sample formats 40,000 lines in all

    def sample(n):
        for _ in range(reps[n]):
            fmt_string(texts[n])
    times = interleave({n: (lambda n=n: sample(n)) for n in sizes}, runs)
    total = {n: Stat([t / reps[n] for t in times[n]]) for n in sizes}
    ten = texts[10_000]
    parts = interleave({'read': lambda: validate(ten, '<bench>'), 'layout': lambda: layout(ten)}, runs)
    t10, t20, t40 = (total[n].min for n in sizes)
    growth = (t20 / t10, t40 / t20)
    ok_speed = t10 < GOAL_SECONDS
    ok_linear = max(growth) <= GOAL_DOUBLING
    goals = [
        goal('fmt: 10,000-line file', fmt_time(t10), '< %g s' % GOAL_SECONDS, ok_speed),
        goal('fmt: growth per doubling (20k/10k, 40k/20k)', '%.2f×, %.2f×' % growth,
             '≤ %g× (linear)' % GOAL_DOUBLING, ok_linear),
    ]
    lines = ['`fmt_string` on generated programs (%d characters for 10,000 lines); minimum of %d samples, '
             'each formatting 40,000 lines in all (4 runs of 10,000 lines, 2 of 20,000, 1 of 40,000; a run is '
             'its share).' % (len(texts[10_000]), runs), '']
    lines.append(md_table(('lines', 'min', 'median', 'per 1,000 lines', 'vs half the lines'), [
        ('{:,}'.format(n), fmt_time(total[n].min), fmt_time(total[n].median),
         fmt_time(total[n].min * 1000 / n), '' if n == sizes[0] else '%.2f×' % (total[n].min / total[n // 2].min))
        for n in sizes]))
    lines.append('')
    lines.append('Of the 10,000-line time: reading (validation) %s, layout %s (minima).'
                 % (fmt_time(Stat(parts['read']).min), fmt_time(Stat(parts['layout']).min)))
    text = '\n'.join(lines) + '\n'
    print(text)
    write_json(json_arg(argv), {'markdown': text, 'goals': goals, 'problems': [],
                                'results': {str(n): total[n].to_json() for n in sizes}})
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
