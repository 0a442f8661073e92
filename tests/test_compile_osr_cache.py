"""`do` loops compiled mid-run (on-stack replacement, rusty/compile/osr.py)
kept in the disk cache of compiled code (rusty/compile/codecache.py): a
second run of a script compiles no loop, with the same output and the same
reports (message, position, backtrace, the debugger's `,locals`) as the
first and as the reference; an edit compiles the edited loop afresh, a loop
that moved is loaded with its positions where they now are; a damaged
entry, a changed global the code assumed, the cache off: compiled afresh,
never an error. A loop found in the cache switches earlier than one that
has to be compiled (a load costs less)."""
import os
import re
import subprocess
import sys

import pytest

from rusty.compile.link import STATS

sys.path.insert(0, os.path.dirname(__file__))

from cache_runs import damage as spoil, ROOT, entries, stats_run    # noqa: E402
from cache_runs import counts as loops    # noqa: E402

# Two loops switch after their first iteration (RUSTY_COMPILE_CALLS=1): one at
# top level, one in a function called once, which fails inside the compiled
# loop three calls deep; the first's body defines and runs a named let (its
# loop compiled with it: a maker of the cache's recipes).
SCRIPT = """\
(define (g x) (car x))
(define (h i) (+ 1 (g i)))
(define (f n)
  (do ((i 0 (+ i 1)) (s 0 (+ s i)))
      ((= i n) s)
    (when (= i 7) (h i))))
(display (do ((i 0 (+ i 1)) (acc '() (cons (+ sq (let count ((k i) (c 0)) (if (= k 0) c (count (- k 1) (+ c 2))))) acc)))
             ((= i 12) (reverse acc))
           (define sq (* i i))))
(newline)
(display (f 10))
"""


def run(tmp_path, text, cache='cache', **env):
    """(status, stdout, stderr without the stats line, the stats line) of a fresh `rusty --stats` on text."""
    return stats_run(tmp_path, text, cache, '1', **env)


def test_a_second_run_compiles_no_loop_and_reports_the_same(tmp_path):
    first = run(tmp_path, SCRIPT)
    second = run(tmp_path, SCRIPT)
    reference = run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    assert loops(first[3]) == (1, 2, 0, 0), first[3]          # (the named let's lambda: from its second call)
    assert loops(second[3]) == (0, 0, 1, 2), second[3]
    assert re.fullmatch(r'stats: 0 lambdas compiled \(0\.000 s\), 1 lambda and 2 loops loaded from the cache, '
                        r'0 on the reference\n', second[3]), second[3]
    assert first[:3] == second[:3] == reference[:3]
    status, out, err = second[:3]
    assert status != 0 and out.startswith('(0 3 8 15 24 35 48 63 80 99 120 143)\n'), second
    assert 'script.lisp:1:15' in err and 'hint: car got 7' in err, err
    assert re.search(r'script.lisp:11:10 in f\n.*script.lisp:6:19 in h\n.*script.lisp:2:20 in g\n$', err), err
    assert len(entries(tmp_path)) == 3


def test_an_edited_loop_is_compiled_afresh_and_a_moved_one_loaded_where_it_is(tmp_path):
    run(tmp_path, SCRIPT)
    edited = SCRIPT.replace('(when (= i 7) (h i))', '(when (= i 8) (h i))')
    status, out, err, stats = run(tmp_path, edited)
    assert loops(stats) == (0, 1, 1, 1), stats
    assert (status, out, err) == run(tmp_path, edited, RUSTY_SPECIALIZE='0')[:3]
    shifted = ';; a comment\n\n' + edited.replace('(define (g x) (car x))', '  (define (g x)\n (car x))')
    status, out, err, stats = run(tmp_path, shifted)
    assert loops(stats) == (0, 0, 1, 2), stats
    assert (status, out, err) == run(tmp_path, shifted, RUSTY_SPECIALIZE='0')[:3]
    assert 'script.lisp:4:2' in err and 'script.lisp:9:19 in h' in err, err


@pytest.mark.parametrize('damage', ['truncate', 'garbage', 'empty', 'flip'])
def test_a_damaged_loop_entry_is_compiled_afresh(tmp_path, damage):
    first = run(tmp_path, SCRIPT)
    spoil(tmp_path, damage)
    second = run(tmp_path, SCRIPT)
    assert second[:3] == first[:3]
    assert loops(second[3]) == (1, 2, 0, 0), second[3]
    assert loops(run(tmp_path, SCRIPT)[3]) == (0, 0, 1, 2)         # rewritten whole


def test_a_redefined_builtin_the_loop_assumed_means_compiling_afresh(tmp_path):
    text = '(display (do ((i 0 (- i -1)) (s 1 (+ s i))) ((= i 5) s)))\n'
    assert run(tmp_path, text)[1] == '11'
    redefined = '(define (+ a b) (* a b 10))\n' + text
    status, out, err, stats = run(tmp_path, redefined)
    assert (status, out) == (0, '0') and loops(stats)[1] == 1, (out, err, stats)
    status, out, err, stats = run(tmp_path, text)
    assert (status, out) == (0, '11') and loops(stats)[1] + loops(stats)[3] == 1, stats


def test_the_reference_and_the_cache_off_neither_read_nor_write_loops(tmp_path):
    reference = run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    off = run(tmp_path, SCRIPT, RUSTY_CODE_CACHE='0')
    assert not entries(tmp_path) and loops(off[3]) == (1, 2, 0, 0)
    run(tmp_path, SCRIPT)
    assert run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')[:3] == reference[:3] == off[:3]
    assert loops(run(tmp_path, SCRIPT, RUSTY_CODE_CACHE='0')[3]) == (1, 2, 0, 0)


def test_locals_after_an_error_in_a_loaded_loop_are_the_references(tmp_path, monkeypatch):
    from repl_driver import CTRL_D, ENTER, drive
    from rusty.runtime import Session
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path / 'cache'))
    code = ['(define (f n) (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i n) s)'
            ' (define sq (* i i)) (let ((z (+ sq 1))) (when (= i 5) (car z)))))', '(f 10)', ',locals', ',frames']
    shown = []
    for fast in ('0', '1', '1'):
        monkeypatch.setenv('RUSTY_SPECIALIZE', fast)
        compiled, loaded = STATS.loops, STATS.loops_loaded
        out, _ = drive(''.join(c + ENTER for c in code) + CTRL_D, session=Session())
        shown.append(out)
    assert (STATS.loops, STATS.loops_loaded) == (compiled, loaded + 1)       # (the last run's loop: loaded)
    assert shown[0] == shown[1] == shown[2]
    assert '  z = 26\n' in shown[2] and '  i = 5\n' in shown[2] and '    sq = 25\n' in shown[2], shown[2]


PROBE = """
import io, sys
from rusty import cli
from rusty.compile import osr
real = osr.resumer
def resumer(fn, D):
    resume = real(fn, D)
    def first(fr):
        sys.stderr.write('switched at %d\\n' % fr[2])
        return resume(fr)
    return first
osr.resumer = resumer
sys.exit(cli.main(['--stats', '-e', sys.argv[1]], stdout=sys.stdout, stderr=sys.stderr, stdin=io.StringIO('')))
"""


def test_by_default_a_loop_in_the_cache_switches_sooner_than_one_compiled(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path / 'c'), RUSTY_SPECIALIZE='1')
    env.pop('RUSTY_COMPILE_CALLS', None)
    program = '(display (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 400000) s)))'
    at = []
    for _ in range(2):
        p = subprocess.run([sys.executable, '-c', PROBE, program], capture_output=True, text=True, env=env,
                           timeout=300)
        assert (p.returncode, p.stdout) == (0, '79999800000'), p.stderr
        at.append(int(re.search(r'switched at (\d+)', p.stderr).group(1)))
        at.append(loops(p.stderr.splitlines()[-1]))
    assert at[1] == (0, 1, 0, 0) and at[3] == (0, 0, 0, 1), at
    assert at[2] * 3 < at[0], at


def test_a_run_that_loaded_code_budgets_an_uncached_loop_as_a_cold_run_starts(monkeypatch):
    from rusty.compile import link, osr
    stats = link.Stats()
    monkeypatch.setattr(link, 'STATS', stats)
    stats.cost, stats.forms = 0.001, 20                     # (compiles measured cheaper than PER_FORM)
    assert osr.per_form_compiled() == stats.per_form() < link.PER_FORM
    stats.saved, stats.saved_forms = 0.002, 40              # (and code loaded, whose store was not timed)
    assert osr.per_form_compiled() == link.PER_FORM
    stats.cost = 1.0
    assert osr.per_form_compiled() == stats.per_form() > link.PER_FORM
