"""The Lisp profiler (`,profile EXPR`, `rusty --profile FILE`): a row per Lisp
procedure with its calls, total and own time and share, sorted by own time,
builtins over 1 % on their own rows; counts the same with the fast paths on
and off; leaves nothing wrapped behind. Its overhead is measured in
benchmarks/bench_profile.py, not here."""
import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings

from rusty.errors import RustyError
from rusty.profiler import OTHER_BUILTINS, TOP_LEVEL
from helpers import session_on_path
from program_gen import programs
from rusty.runtime import Session
from test_cli import REPO, proc

ROW = re.compile(r'^(.*?)\s+(\d*)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d)%$')
FIB = '(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n'


def session(monkeypatch, fast: bool) -> Session:
    return session_on_path(monkeypatch, fast)


def rows(table: str) -> list:
    """(label, calls or None, total ms, own ms, share %) per row of a table."""
    lines = table.splitlines()
    assert lines[0].startswith('; profile: ')
    assert lines[1].split() == ['procedure', 'calls', 'total', 'ms', 'own', 'ms', 'share']
    out = []
    for line in lines[2:]:
        m = ROW.match(line)
        assert m, line
        label, calls, total, own, share = m.groups()
        out.append((label, int(calls) if calls else None, float(total), float(own), float(share)))
    return out


@pytest.fixture(params=[False, True], ids=['reference', 'fast'])
def s(request, monkeypatch):
    return session(monkeypatch, request.param)


def test_each_procedure_counted_sorted_by_own_time_top_level_last(s):
    s.run(FIB + '(define (twice f x) (f (f x)))\n(define (inc x) (+ x 1))\n', 'prog.lisp')
    assert s.profile('(list (fib 12) (twice inc 5))', '<p>').car == 144
    table = rows(s.last_profile.table())
    calls = {label: c for label, c, *_ in table}
    assert calls['fib (prog.lisp:1)'] == 465             # 2 fib(13) - 1
    assert calls['twice (prog.lisp:2)'] == 1
    assert calls['inc (prog.lisp:3)'] == 2
    assert table[-1][0] == TOP_LEVEL and table[-1][1] is None
    owns = [own for _, _, _, own, _ in table[:-1]]
    assert owns == sorted(owns, reverse=True)
    assert abs(sum(share for *_, share in table) - 100.0) < 1.0
    for label, _, total, own, _ in table:
        assert total >= own - 1e-6, label


def test_the_counts_are_the_reference_evaluators(monkeypatch):
    program = FIB + textwrap.dedent('''
        (define (count-up n) (let loop ((i 0) (acc '())) (if (= i n) acc (loop (+ i 1) (cons i acc)))))
        (define (total xs) (apply + (map (lambda (x) (* x x)) xs)))
        ''')
    counted = []
    for fast in (False, True):
        sess = session(monkeypatch, fast)
        sess.run(program, 'prog.lisp')
        sess.profile('(list (fib 10) (total (count-up 50)))')
        counted.append({label: c for label, c, *_ in rows(sess.last_profile.table())
                        if not label.startswith('(') and c is not None and ' (' in label})
    assert counted[0] == counted[1]
    assert counted[0]['loop (prog.lisp:3)'] == 51
    assert counted[0]['lambda (prog.lisp:4)'] == 50


def test_a_heavy_builtin_has_its_own_row(s):
    s.run('(define (work) (length (sort (reverse (iota 60000)) <)))', 'prog.lisp')
    s.profile('(work)')
    table = rows(s.last_profile.table())
    sort = [r for r in table if r[0] == 'sort']
    assert sort and sort[0][1] == 1
    assert 'work (prog.lisp:1)' in [r[0] for r in table]
    builtin_rows = [r for r in table if ' (' not in r[0] and not r[0].startswith('(')]
    assert all(r[4] >= 1.0 for r in builtin_rows)       # (shown to 0.1 %); the rest are folded into one row
    assert [r[0] for r in table].count(OTHER_BUILTINS) <= 1


def test_nothing_stays_wrapped_after_a_run_or_an_error(s):
    s.run(FIB)
    originals = {id(b): b.fn for b in s.builtins}
    s.profile('(fib 5)')
    with pytest.raises(RustyError) as e:
        s.profile('(+ (fib 3) (car 5))')
    assert e.value.message == 'car: not a pair'
    assert s.last_profile is not None and 'fib' in s.last_profile.table()
    assert {id(b): b.fn for b in s.builtins if id(b) in originals} == originals
    assert len(s.builtins) > len(originals) or s.unit.compile_lambda is None     # some made while profiling
    assert not [b.name for b in s.builtins if getattr(b.fn, 'profiled', False)]
    assert s.depth.gate == s.depth.limit
    assert s.profiling is None


def test_rusty_profile_file_keeps_stdout_and_prints_the_table_on_stderr(tmp_path):
    prog = tmp_path / 'p.lisp'
    prog.write_text(FIB + '(print (fib 15))\n(fib 3)\n')
    plain = proc([str(prog)])
    profiled = proc(['--profile', str(prog)])
    assert profiled.returncode == plain.returncode == 0
    assert profiled.stdout == plain.stdout == '610\n2\n'
    table = rows(profiled.stderr)
    assert dict((r[0], r[1]) for r in table)['fib (%s:1)' % prog] == 1973 + 5        # 2 fib(16) - 1, 2 fib(4) - 1


def test_rusty_profile_of_a_failing_program_still_prints_its_table(tmp_path):
    prog = tmp_path / 'p.lisp'
    prog.write_text(FIB + '(fib 4)\n(car 1)\n')
    r = proc(['--profile', str(prog)])
    assert r.returncode == 1
    assert 'Error: car: not a pair' in r.stderr
    assert 'fib (%s:1)' % prog in r.stderr
    assert 'internal error' not in r.stderr


def test_rusty_profile_needs_a_file():
    r = proc(['--profile'])
    assert r.returncode == 2
    assert r.stderr.startswith('rusty: --profile needs a file')


def test_profiling_inside_a_host_profiler_finishes(tmp_path):
    """The profiler uses no host hook, so it runs under one (cProfile here),
    after an interrupted job too (tests/test_worker_profiling.py has the hang
    this once was)."""
    prog = tmp_path / 'p.lisp'
    prog.write_text(FIB + '(fib 12)\n')
    r = subprocess.run([sys.executable, '-m', 'cProfile', '-m', 'rusty', '--profile', str(prog)],
                       capture_output=True, text=True, timeout=120, cwd=str(REPO))
    assert r.returncode == 0, r.stderr
    assert 'fib (%s:1)' % prog in r.stderr
    assert 'function calls' in r.stdout         # cProfile's own report


def test_the_profile_only_path_counts_as_the_general_one(s):
    """tools.profiled_apply (only the profiler on) against Tools._apply (the
    general stand-in, taken here because something is traced too)."""
    s.run(FIB + '(define (walk xs) (map (lambda (x) (fib x)) xs))\n(define (unused) 0)', 'prog.lisp')
    code = "(list (walk '(3 5 7)) (fib 9))"
    counts = []
    for traced in (False, True):
        if traced:
            s.run("(trace 'unused)")
        s.profile(code)
        counts.append(sorted((label, c) for label, c, *_ in rows(s.last_profile.table())
                             if ' (' in label and not label.startswith('(')))     # the Lisp rows
    assert counts[0] == counts[1]
    assert ('fib (prog.lisp:1)', 2 * (3 + 8 + 21) - 3 + 2 * 55 - 1) in counts[0]


@pytest.mark.rustc
def test_natives_are_timed_and_traced_callers_see_them(s):
    """A native defined during the profiled run is counted like one defined before."""
    s.run('(defrust nsq (x) (* x x))\n(define (f n) (if (= n 0) 0.0 (+ (nsq n) (f (- n 1)))))', 'prog.lisp')
    assert s.profile("(begin (defrust ncube (x) (* x (* x x))) (+ (f 4) (ncube 2.0)))") == 38.0
    by_label = {r.label: r.calls for r in s.last_profile.rows.values()}
    assert by_label['nsq [native]'] == 4
    assert by_label['ncube [native]'] == 1
    assert by_label['f (prog.lisp:2)'] == 5
    s.run("(trace 'f)")
    s.err.seek(0)
    s.err.truncate()
    assert s.run('(f 1)') == 1.0
    assert s.err.getvalue().splitlines() == ['> (f 1)', '  > (f 0)', '  < 0', '< 1']


PROGRAM = FIB + textwrap.dedent('''
    (define (spin n acc) (if (= n 0) acc (spin (- n 1) (+ acc 1))))
    (define (outer xs)
      (define (sq x) (* x x))
      (define inc (lambda (x) (+ x 1)))
      (let walk ((ys (map inc (map sq xs))) (acc 0))
        (if (null? ys) acc (walk (cdr ys) (+ acc (car ys))))))
    (define (deep n) (if (= n 0) (car n) (+ 1 (deep (- n 1)))))
    (define (second-of xs) (cadr xs))
    ''')


def lisp_rows(prof) -> dict:
    """label -> (calls, total, own) of the Lisp procedures' rows."""
    return {r.label: (r.calls, r.total, r.own) for r in prof.rows.values() if not r.builtin}


def test_compiled_code_counts_its_own_calls_as_the_reference_does(monkeypatch):
    """Compiled functions count themselves while the profiler alone is on:
    the self tail loop's hops, nested defines (named as define names them),
    a named let, a library function otherwise computed in place; the counts
    are the reference evaluator's."""
    code = '(list (fib 9) (spin 40 0) (outer (iota 30)) (spin 7 0) (outer (iota 5)) (second-of (list 1 2)))'
    counted = []
    for fast in (False, True):
        sess = session(monkeypatch, fast)
        sess.run(PROGRAM, 'prog.lisp')
        sess.run('(list (fib 2) (spin 2 0) (outer (iota 2)) (second-of (list 3 4)) (second-of (list 5 6)))')
        sess.profile(code)
        counted.append({label: c for label, (c, _, _) in lisp_rows(sess.last_profile).items()})
    assert counted[0] == counted[1]
    assert counted[1]['spin (prog.lisp:3)'] == 41 + 8
    assert counted[1]['sq (prog.lisp:5)'] == 35
    assert counted[1]['inc (prog.lisp:6)'] == 35
    assert counted[1]['walk (prog.lisp:8)'] == 31 + 6
    assert counted[1]['cadr (<stdlib>:12)'] == 1         # the library's, which compiled code computes in place


def test_compiled_code_is_timed_own_within_total(monkeypatch):
    sess = session(monkeypatch, True)
    sess.run(PROGRAM, 'prog.lisp')
    sess.run('(fib 3)')
    sess.profile('(fib 16)')
    prof = sess.last_profile
    (calls, total, own), = [v for k, v in lisp_rows(prof).items() if k.startswith('fib')]
    assert calls == 2 * 1597 - 1
    assert 0 < own <= total + 1e-9 <= prof.elapsed + 1e-9        # recursion is not counted twice
    assert prof.inner >= 0


SELF_CALLING = textwrap.dedent('''
    (define (busy k) (length (let loop ((i 0) (acc '())) (if (< i k) (loop (+ i 1) (cons i acc)) acc))))
    (define (walk n) (if (= n 0) 0 (+ (busy 5000) (walk (- n 1)))))
    (define (climb n) (let up ((i 0)) (if (< i n) (+ (busy 5000) (up (+ i 1))) 0)))
    ''')


@pytest.mark.parametrize('fast', [False, True], ids=['reference', 'fast'])
@pytest.mark.parametrize('code, caller', [('(walk 40)', 'walk (prog.lisp:3)'),
                                          ('(climb 40)', 'up (prog.lisp:4)')])
def test_a_procedure_calling_itself_owns_none_of_its_callees_time(monkeypatch, fast, code, caller):
    """Compiled code counts a call of itself (a lambda's, a named let's) but
    does not time it: its time is its caller's, of the same row. What it calls
    is still subtracted from that row's own time, and recursion is not counted
    twice in its total: the reference's figures."""
    sess = session(monkeypatch, fast)
    sess.run(SELF_CALLING, 'prog.lisp')
    sess.run(code)
    sess.profile(code)
    prof = sess.last_profile
    got = lisp_rows(prof)
    calls, total, own = got[caller]
    b_calls, b_total, b_own = got['busy (prog.lisp:2)']
    assert calls == 41 and b_calls == 40
    assert own < b_total / 4                # the self calls do nothing but call busy
    assert own + b_total <= total + 1e-9 <= prof.elapsed + 1e-9
    assert total <= 1.5 * (own + b_total)
    assert all(r.active == 0 for r in prof.rows.values())


@pytest.mark.parametrize('fast', [False, True], ids=['reference', 'fast'])
def test_an_error_through_counted_calls_leaves_every_call(monkeypatch, fast):
    """A failure passing up through profiled calls (compiled ones leave in
    their handler) ends each of them: no row stays active, and the error and
    its backtrace are what they are unprofiled."""
    sess = session(monkeypatch, fast)
    sess.run(PROGRAM, 'prog.lisp')
    sess.run('(fib 2)')
    with pytest.raises(RustyError) as plain:
        sess.run('(deep 30)')
    with pytest.raises(RustyError) as profiled:
        sess.profile('(deep 30)')
    assert profiled.value.message == plain.value.message == 'car: not a pair'
    assert len(profiled.value.trace) == len(plain.value.trace)
    rows = sess.last_profile.rows.values()
    assert all(r.active == 0 for r in rows)
    assert {r.label: r.calls for r in rows if not r.builtin}['deep (prog.lisp:9)'] == 31
    assert sess.profile('(fib 10)') == 55                  # and the next profiled run is whole


def _profiled(text: str, fast: bool, monkeypatch):
    """(Lisp rows' calls, error message or None, output, rows left active) of a profiled run."""
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    sess = session(monkeypatch, fast)
    monkeypatch.delenv('RUSTY_COMPILE_CALLS')
    try:
        sess.profile(text, '<p>')
        err = None
    except RustyError as e:
        err = e.message
    rows = sess.last_profile.rows.values()
    return ({r.label: r.calls for r in rows if not r.builtin}, err, sess.out.getvalue(),
            [r.label for r in rows if r.active])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_generated_programs_count_the_same_both_ways(monkeypatch, text):
    """Compiled code counting itself (from its first call) against the
    reference's stand-in, on the differential tests' programs: every Lisp
    procedure's calls, the output and the error; no call left active."""
    reference, fast = _profiled(text, False, monkeypatch), _profiled(text, True, monkeypatch)
    assert fast == reference
    assert fast[3] == []


def test_a_walk_written_in_place_still_counts_its_lambda(monkeypatch):
    """Compiled code writes map and filter of a simple literal lambda as a
    loop in place, but not while the profiler counts: the lambda's calls are
    counted as the reference counts them."""
    counted = []
    for fast in (False, True):
        sess = session(monkeypatch, fast)
        sess.run("(define (g l)\n  (filter (lambda (x) (< x 3))\n          (map (lambda (x) (* x 2)) l)))\n", 'prog.lisp')
        sess.run("(g '(1 2))")
        assert list(sess.profile("(g '(1 2 3))")) == [2]
        counted.append(sorted((label, c) for label, (c, _, _) in lisp_rows(sess.last_profile).items()))
    assert counted[0] == counted[1]
    assert [c for label, c in counted[1] if label.startswith('lambda')] == [3, 3]
