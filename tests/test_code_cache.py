"""The disk cache of compiled lambdas (rusty/compile/codecache.py): a second
run of a script compiles nothing, with the same output and the same reports
(positions included) as the first and as the reference; an edit recompiles
only what changed; a changed global the code assumed, a damaged, foreign or
unwritable cache, all mean compiling afresh, never an error."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import cache_runs    # noqa: E402
from cache_runs import damage as spoil, ROOT, entries, stats_run    # noqa: E402

SCRIPT = """\
(define (square x) (* x x))
(define (sum-squares xs)
  (let loop ((xs xs) (acc 0))
    (if (null? xs) acc (loop (cdr xs) (+ acc (square (car xs)))))))
(define (scale k xs) (map (lambda (x) (* k x)) xs))
(define (tags) '(a "b" (c 1.5)))
(define (greet name) (string-append "hi " name))
(define (count-up n) (do ((i 0 (+ i 1)) (acc '() (cons i acc))) ((= i n) acc)))
(display (sum-squares '(1 2 3))) (newline)
(display (scale 3 '(1 2 3))) (newline)
(print (tags))
(display (greet "bob")) (newline)
(display (count-up 4)) (newline)
(define (fails x) (+ 1 (car x)))
(define (outer x) (list (fails x)))
(outer 5)
"""


def run(tmp_path, text, cache='cache', **env):
    """(stdout, stderr without the stats line, the stats line) of a fresh `rusty --stats` on text."""
    return stats_run(tmp_path, text, cache, '0', **env)[1:]


def counts(stats: str) -> tuple:
    """(compiled, loaded) lambdas of a stats line (loops, compiled or loaded, left out)."""
    c = cache_runs.counts(stats)
    return c[0], c[2]


def test_a_second_run_compiles_nothing_and_reports_the_same(tmp_path):
    first = run(tmp_path, SCRIPT)
    second = run(tmp_path, SCRIPT)
    reference = run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    compiled, loaded = counts(first[2])
    assert compiled >= 7 and loaded == 0, first[2]
    assert counts(second[2]) == (0, compiled), second[2]
    assert first[:2] == second[:2] == reference[:2]
    assert 'script.lisp:14:24' in second[1] and '14 | (define (fails x)' in second[1], second[1]
    assert len(entries(tmp_path)) == compiled


def test_an_edit_recompiles_only_what_changed_and_positions_follow(tmp_path):
    run(tmp_path, SCRIPT)
    edited = SCRIPT.replace('(define (greet name) (string-append "hi " name))',
                            '(define (greet name) (string-append "hello " name))')
    out, err, stats = run(tmp_path, edited)
    assert counts(stats)[0] == 1 and 'hello bob' in out, stats
    shifted = ';; a comment\n\n' + edited.replace('(define (fails x)', '   (define (fails x)')
    out, err, stats = run(tmp_path, shifted)
    assert counts(stats)[0] == 0, stats
    assert (out, err) == run(tmp_path, shifted, RUSTY_SPECIALIZE='0')[:2]
    assert 'script.lisp:16:27' in err, err


def test_a_redefined_builtin_the_code_assumed_means_compiling_afresh(tmp_path):
    text = '(define (inc x) (+ x 1))\n(display (inc 2))\n'
    assert run(tmp_path, text)[0] == '3'
    redefined = '(define (+ a b) (* a b 10))\n' + text
    out, err, stats = run(tmp_path, redefined)
    assert out == '20' and counts(stats) == (2, 0), (out, stats)
    assert run(tmp_path, text)[0] == '3'
    later = text + '(define (+ a b) (* a b 10))\n(display (inc 2))\n'
    out, err, stats = run(tmp_path, later)
    assert out == '320' and counts(stats) == (0, 2), (out, stats)     # (inc loaded, then late binding as compiled)


@pytest.mark.parametrize('damage', ['truncate', 'garbage', 'empty', 'flip'])
def test_a_damaged_entry_is_compiled_afresh(tmp_path, damage):
    first = run(tmp_path, SCRIPT)
    spoil(tmp_path, damage)
    second = run(tmp_path, SCRIPT)
    assert second[:2] == first[:2]
    assert counts(second[2]) == (counts(first[2])[0], 0), second[2]
    assert counts(run(tmp_path, SCRIPT)[2]) == (0, counts(first[2])[0])       # rewritten whole


def test_the_cache_is_private(tmp_path):
    run(tmp_path, SCRIPT)
    assert os.stat(tmp_path / 'cache').st_mode & 0o777 == 0o700
    assert entries(tmp_path) and all(os.stat(p).st_mode & 0o777 == 0o600 for p in entries(tmp_path))
    for p in entries(tmp_path):
        os.chmod(p, 0o666)              # others could have written it: not read
    assert counts(run(tmp_path, SCRIPT)[2])[1] == 0


def test_a_directory_others_can_write_is_not_used(tmp_path):
    d = tmp_path / 'open'
    d.mkdir()
    os.chmod(d, 0o777)
    first = run(tmp_path, SCRIPT, cache='open')
    assert counts(run(tmp_path, SCRIPT, cache='open')[2])[1] == 0 and not entries(tmp_path, 'open')
    assert first[:2] == run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')[:2]


@pytest.mark.skipif(hasattr(os, 'geteuid') and os.geteuid() == 0, reason='root writes anywhere')
def test_an_unwritable_cache_only_costs_the_compile(tmp_path):
    d = tmp_path / 'ro'
    d.mkdir()
    os.chmod(d, 0o500)
    try:
        out, err, stats = run(tmp_path, SCRIPT, cache='ro')
        assert counts(stats)[0] >= 7 and 'hi bob' in out and not entries(tmp_path, 'ro')
    finally:
        os.chmod(d, 0o700)


def test_the_bound_evicts_the_oldest(tmp_path):
    run(tmp_path, SCRIPT)
    old = entries(tmp_path)
    for p in old:
        os.utime(p, (1, 1))
    biggest = max(os.path.getsize(p) for p in old)
    run(tmp_path, '(define (other x) (list x x))\n(display (other 1))\n', RUSTY_CODE_CACHE_MAX=str(biggest + 4096))
    left = entries(tmp_path)
    assert left and not set(old) & set(left), left


def test_off_switches_write_nothing(tmp_path):
    run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    run(tmp_path, SCRIPT, RUSTY_CODE_CACHE='0')
    assert not entries(tmp_path)


def test_by_default_a_hot_lambda_compiled_once_is_loaded_next_time(tmp_path):
    text = '(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(display (fib 22))\n'
    env = {k: v for k, v in os.environ.items() if k != 'RUSTY_COMPILE_CALLS'}
    env['RUSTY_SPECIALIZE'] = '1'
    first = subprocess.run([sys.executable, '-m', 'rusty', '--stats', '-e', text], capture_output=True, text=True,
                           env=dict(env, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path / 'c')), timeout=120)
    second = subprocess.run([sys.executable, '-m', 'rusty', '--stats', '-e', text], capture_output=True, text=True,
                            env=dict(env, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path / 'c')), timeout=120)
    assert first.stdout == second.stdout == '17711'
    assert counts(first.stderr) == (1, 0) and counts(second.stderr) == (0, 1), (first.stderr, second.stderr)


def test_a_full_disk_only_costs_the_compile(tmp_path, monkeypatch):
    import errno
    import io
    import types

    from rusty import cli, diskcache

    def full(fd, data):
        raise OSError(errno.ENOSPC, 'No space left on device')
    monkeypatch.setattr(diskcache, 'os', types.SimpleNamespace(**{**vars(os), 'write': full}))
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path / 'cache'))
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(['-e', '(define (twice x) (* 2 x)) (display (twice 21))'], stdout=out, stderr=err,
                      stdin=io.StringIO(''))
    assert (status, out.getvalue(), err.getvalue()) == (0, '42', '')
    assert not entries(tmp_path) and not [p for p in (tmp_path / 'cache').iterdir() if '.tmp-' in p.name]


def test_a_lambda_not_yet_warm_is_not_looked_up(tmp_path, monkeypatch):
    import io

    from rusty import cli
    from rusty.compile import codecache
    looked = []
    monkeypatch.setattr(codecache, 'lambda_key', lambda *a: looked.append(a) or None)
    monkeypatch.delenv('RUSTY_COMPILE_CALLS', raising=False)
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path / 'cache'))
    out = io.StringIO()
    status = cli.main(['-e', '(define (f x) (+ x 1)) (display (list (f 1) (f 2) (f 3)))'], stdout=out,
                      stderr=io.StringIO(), stdin=io.StringIO(''))
    assert (status, out.getvalue(), looked) == (0, '(2 3 4)', [])
    status = cli.main(['-e', '(define (g n) (if (< n 2) n (+ (g (- n 1)) (g (- n 2))))) (display (g 20))'],
                      stdout=out, stderr=io.StringIO(), stdin=io.StringIO(''))
    assert status == 0 and len(looked) == 1          # (warm: looked up once, then compiled)


def test_a_directory_others_could_swap_is_not_used(tmp_path):
    (tmp_path / 'mine').mkdir(mode=0o700)
    (tmp_path / 'open').mkdir()
    os.chmod(tmp_path / 'open', 0o777)                  # (not sticky: anyone may replace what it holds)
    os.symlink(tmp_path / 'mine', tmp_path / 'open' / 'link')
    for cache in ('open/link', 'open/below'):
        first = run(tmp_path, SCRIPT, cache=cache)
        assert counts(run(tmp_path, SCRIPT, cache=cache)[2])[1] == 0 and first[0].startswith('14\n')
    assert not list((tmp_path / 'mine').iterdir()) and not entries(tmp_path, 'open/below')
