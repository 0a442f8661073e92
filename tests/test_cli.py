"""docs/reference.md §9 The command line: batch mode and the command line (in-process and as a real process)."""
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rusty import cli

REPO = Path(__file__).resolve().parents[1]
USAGE = 'usage: rusty [FILE | - | -e EXPR]'


def proc(args, input=None, cwd=None, env=None, timeout=60, stderr=subprocess.PIPE):
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    e.update(env or {})
    return subprocess.run([sys.executable, '-m', 'rusty'] + list(args), input=input, stdout=subprocess.PIPE,
                          stderr=stderr, text=True, env=e, timeout=timeout, cwd=str(cwd or REPO))


def main(argv, stdin=None):
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(argv, stdout=o, stderr=e, stdin=io.StringIO(stdin) if stdin is not None else None)
    return status, o.getvalue(), e.getvalue()


# ── Batch mode (docs/reference.md §9), in process ─────────────────────────

@pytest.mark.parametrize('expr,stdout', [
    ('(+ 1 2)', '3\n'),
    ('"hi"', 'hi\n'),
    ('(list "a" \'b)', '(a b)\n'),
    ("'()", '()\n'),
    ('()', ''),
    ('#f', ''),
    ('#t', '#t\n'),
    ('0', '0\n'),
    ('(define x 1)', ''),
    ('(display "x")', 'x'),
    ('(display "x") 5', 'x5\n'),
    ('1 2 3', '3\n'),
    ('(println "a") (nil)', 'a\n'),
    ('car', '#<builtin:car>\n'),
    ('', ''),
    ('; just a comment', ''),
])
def test_final_value_printing(expr, stdout):
    assert main(['-e', expr]) == (0, stdout, '')


def test_expr_error_exit_1():
    status, o, e = main(['-e', '(display "a") (car 5) (display "b")'])
    assert (status, o) == (1, 'a')
    assert e == 'Error: car: not a pair\n  at <expr>:1:15\n  1 | (display "a") (car 5) (display "b")\n' \
                '    |               ^^^^^^^\n  hint: car got 5\n'


def test_expr_parse_error_runs_nothing():
    status, o, e = main(['-e', '(display "x") ('])
    assert (status, o) == (1, '')
    assert e.startswith("Error: unexpected end of input: a '(' is never closed\n  at <expr>:1:15\n")


def test_stdin_dash(tmp_path, monkeypatch):
    assert main(['-'], stdin='(+ 1 2)\n') == (0, '3\n', '')
    status, o, e = main(['-'], stdin='(car 5)')
    assert status == 1
    assert e.startswith('Error: car: not a pair\n  at <stdin>:1:1\n')


def test_script_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'p.lisp').write_text('(define (sq x) (* x x))\n(println (sq 4))\n(sq 5)\n')
    assert main(['p.lisp']) == (0, '16\n25\n', '')


def test_script_path_as_given_in_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'sub').mkdir()
    (tmp_path / 'sub' / 'p.lisp').write_text('(car 5)\n')
    status, o, e = main(['sub/p.lisp'])
    assert e.splitlines()[1] == '  at sub/p.lisp:1:1'
    status, o, e = main(['./sub/p.lisp'])
    assert e.splitlines()[1] == '  at ./sub/p.lisp:1:1'


def test_script_relative_paths_use_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'sub').mkdir()
    (tmp_path / 'data.txt').write_text('top')
    (tmp_path / 'sub' / 'p.lisp').write_text('(file-read "data.txt")\n')
    assert main(['sub/p.lisp']) == (0, 'top\n', '')


def test_version_and_help_in_process():
    status, o, e = main(['--version'])
    assert status == 0 and e == ''
    assert re.fullmatch(r'rusty \S+\n', o)
    status, o, e = main(['--help'])
    assert status == 0 and e == ''
    assert o.splitlines()[0] == USAGE


@pytest.mark.parametrize('argv', [['--bogus'], ['-x'], ['-e'], ['-e', '1', '-e', '2'], ['-q'],
                                  ['--version', 'x']])
def test_usage_errors_in_process(argv):
    status, o, e = main(argv)
    assert status == 2
    assert o == ''
    lines = e.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith('rusty: ') and len(lines[0]) > len('rusty: ')
    assert lines[1] == USAGE


def test_startup_loads_stdlib_before_running():
    assert main(['-e', '(square 4)']) == (0, '16\n', '')


def test_sessions_are_independent():
    main(['-e', '(define zqcli 1)'])
    status, o, e = main(['-e', 'zqcli'])
    assert status == 1 and e.startswith("Error: Undefined: 'zqcli'")


# ── The command line (docs/reference.md §9) as a real process ─────────────

def test_process_expr_and_exit_status():
    p = proc(['-e', '(+ 1 2)'])
    assert (p.returncode, p.stdout, p.stderr) == (0, '3\n', '')
    p = proc(['-e', '(car 5)'])
    assert p.returncode == 1 and p.stdout == ''
    assert p.stderr.startswith('Error: car: not a pair\n')
    assert 'Traceback' not in p.stderr


def test_process_piped_stdin_without_dash():
    p = proc([], input='(define x 2)\n(* x 21)\n')
    assert (p.returncode, p.stdout, p.stderr) == (0, '42\n', '')


def test_process_stdin_dash():
    p = proc(['-'], input='(car 5)\n')
    assert p.returncode == 1
    assert p.stderr.startswith('Error: car: not a pair\n  at <stdin>:1:1\n')


def test_process_script(tmp_path):
    (tmp_path / 'demo.lisp').write_text('(define (f x) (/ x 0))\n(define (g y) (+ 1 (f y)))\n(g 2)\n')
    p = proc(['demo.lisp'], cwd=tmp_path)
    assert p.returncode == 1
    assert p.stdout == ''
    assert p.stderr == ('Error: Division by zero\n'
                        '  at demo.lisp:1:15\n'
                        '  1 | (define (f x) (/ x 0))\n'
                        '    |               ^^^^^^^\n'
                        'Backtrace (innermost last):\n'
                        '  demo.lisp:3:1 in g\n'
                        '  demo.lisp:2:20 in f\n')


def test_process_unreadable_file(tmp_path):
    p = proc(['missing.lisp'], cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == \
        (1, '', 'Error reading missing.lisp: No such file or directory (os error 2)\n')


def test_process_version():
    p = proc(['--version'])
    assert p.returncode == 0 and p.stderr == ''
    assert re.fullmatch(r'rusty \S+\n', p.stdout)


def test_process_help():
    p = proc(['--help'])
    assert p.returncode == 0 and p.stderr == ''
    assert p.stdout.splitlines()[0] == USAGE
    assert len(p.stdout.splitlines()) > 1


@pytest.mark.parametrize('args', [['--nope'], ['-e'], ['-e', '1', '-e', '2']])   # docs/reference.md §9: FILE ARG… runs
def test_process_usage_errors(args):
    p = proc(args)
    assert p.returncode == 2
    assert p.stdout == ''
    lines = p.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith('rusty: ') and lines[1] == USAGE


def test_version_and_help_with_arguments_say_so():
    p = proc(['--version', 'extra'])        # before: unknown option: --version
    assert (p.returncode, p.stderr.splitlines()[0]) == (2, 'rusty: --version takes no arguments')


def test_process_flushes_stdout_before_report():
    p = proc(['-e', '(display "a") (print "b") (car 5)'], stderr=subprocess.STDOUT)
    assert p.returncode == 1
    assert p.stdout.startswith('ab\nError: car: not a pair\n  at <expr>:1:27\n')


def test_process_flushes_stdout_before_report_script(tmp_path):
    (tmp_path / 'p.lisp').write_text('(println "one")\n(display "two")\n(error "boom")\n')
    p = proc(['p.lisp'], cwd=tmp_path, stderr=subprocess.STDOUT)
    assert p.stdout.startswith('one\ntwoError: boom\n')


def test_process_output_is_utf8():
    p = proc(['-e', '(println "λ😀")'])
    assert p.returncode == 0
    assert p.stdout == 'λ😀\n'


def test_batch_run_does_not_import_prompt_toolkit_or_pygments():
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    p = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'rusty', '-e', '1'], capture_output=True,
                       text=True, env=e, timeout=60, cwd=str(REPO))
    assert p.returncode == 0
    assert p.stdout == '1\n'
    assert 'prompt_toolkit' not in p.stderr
    assert 'pygments' not in p.stderr


def test_batch_error_does_not_import_prompt_toolkit():
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    p = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'rusty', '-e', '(car 5)'], capture_output=True,
                       text=True, env=e, timeout=60, cwd=str(REPO))
    assert p.returncode == 1
    assert 'prompt_toolkit' not in p.stderr


def interrupted_run(src):
    """(status, stdout, stderr) of `rusty -e SRC` sent SIGINT after 2 s."""
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    p = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', src],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, cwd=str(REPO))
    try:
        time.sleep(2.0)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, err


@pytest.mark.slow
def test_process_interrupt_exits_130():
    status, out, err = interrupted_run('(display "started") (define (loop) (loop)) (loop)')
    assert status == 130
    assert out == 'started'
    assert err.startswith('Error: interrupted\n')
    assert 'Traceback' not in err


@pytest.mark.slow
def test_process_interrupt_is_catchable_by_try_catch():
    status, out, err = interrupted_run('(define (loop) (loop)) (println (try-catch (loop) (e) e))')
    assert (status, out, err) == (0, 'interrupted\n', '')


def test_terminal_starts_the_repl():
    import pexpect
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    e['TERM'] = 'dumb'
    e['HOME'] = str(Path(os.environ.get('TMPDIR', '/tmp')))
    child = pexpect.spawn(sys.executable, ['-m', 'rusty'], env=e, cwd=str(REPO), encoding='utf-8', timeout=20)
    try:
        child.expect('rusty ')          # the banner's first line starts `rusty `
        child.expect('rusty> ')
        child.sendline('(+ 1 2)')
        child.expect('=> 3')
        child.sendline('quit')
        child.expect('Goodbye.')
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
