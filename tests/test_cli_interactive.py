"""`rusty -i FILE ARG…`: run FILE, then the REPL with its definitions (an
error in FILE is reported and the REPL opens all the same); without a
terminal, standard input then runs as a script in the same session."""
import os
import pathlib
import subprocess
import sys

import pexpect
import pytest

from repl_driver import CTRL_D, ENTER, drive, lines, private_home
from rusty.cli import HELP, USAGE, UsageError, parse_args

ROOT = pathlib.Path(__file__).resolve().parent.parent

PROG = '''(define (sq x) (* x x))
(display "hello")
(newline)
(define args (command-line-args))
'''
BROKEN = PROG + "(car '())\n(define after 1)\n"


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def rusty(*args, stdin=''):
    p = subprocess.run([sys.executable, '-m', 'rusty', *args], capture_output=True, text=True,
                       input=stdin, timeout=60, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


def write(tmp_path, text, name='prog.lisp'):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_the_command_line():
    assert parse_args(['-i', 'f.lisp', 'a', '-e', 'b']) == ('interactive', 'f.lisp', ('a', '-e', 'b'))
    with pytest.raises(UsageError, match='-i needs a file'):
        parse_args(['-i'])
    assert HELP.splitlines()[0] == USAGE == 'usage: rusty [FILE | - | -e EXPR]'
    assert '  rusty -i FILE ARG...  run a script, then open the REPL with its definitions' in HELP


def test_usage_and_unreadable_files():
    assert rusty('-i') == (2, '', 'rusty: -i needs a file\n' + USAGE + '\n')
    status, out, err = rusty('-i', 'no/such.lisp')
    assert (status, out, err) == (1, '', 'Error reading no/such.lisp: No such file or directory (os error 2)\n')


def test_without_a_terminal_stdin_runs_after_the_file(tmp_path):
    prog = write(tmp_path, PROG)
    assert rusty('-i', prog, 'a', 'b', stdin='(list (sq 5) args)') == (0, 'hello\n(25 (a b))\n', '')


def test_an_error_in_the_file_is_reported_and_stdin_still_runs(tmp_path):
    prog = write(tmp_path, BROKEN)
    status, out, err = rusty('-i', prog, stdin='(sq 6)')
    assert (status, out) == (1, 'hello\n36\n')
    assert err == ('Error: car: not a pair\n'
                   '  at %s:5:1\n'
                   "  5 | (car '())\n"
                   '    | ^^^^^^^^^\n'
                   '  hint: car got ()\n' % prog)


def test_piped_exit_status(tmp_path):
    prog, broken = write(tmp_path, PROG), write(tmp_path, BROKEN, 'broken.lisp')
    assert rusty('-i', prog, stdin='(+ 1 2)\n') == (0, 'hello\n3\n', '')     # all succeeded
    assert rusty('-i', prog, stdin='') == (0, 'hello\n', '')
    assert rusty('-i', prog, stdin='(define z 1)\n') == (0, 'hello\n', '')     # a Nil last value
    status, out, err = rusty('-i', prog, stdin='(car 1)\n(display "after")\n')   # stops at its error
    assert (status, out) == (1, 'hello\n') and err.startswith('Error: car: not a pair\n  at <stdin>:1:1')
    status, out, err = rusty('-i', broken, stdin='(sq 3)\n')                    # runs, but FILE failed
    assert (status, out) == (1, 'hello\n9\n') and err.startswith('Error: car: not a pair')
    assert rusty('-i', prog, stdin='(display "x")\n(exit 3)\n(display "y")') == (3, 'hello\nx', '')
    assert rusty('-i', broken, stdin='(exit 0)') == (0, 'hello\n', rusty('-i', broken)[2])


def test_the_repl_opens_with_the_files_definitions(tmp_path):
    prog = write(tmp_path, PROG)
    out, _ = drive('(sq 7)' + ENTER + 'args' + ENTER + CTRL_D, script=(open(prog).read(), prog, ('x',)))
    assert lines(out)[:4] == ['hello', '; loaded %s' % prog, '=> 49', '=> ("x")']


def test_the_repl_opens_after_an_error_in_the_file(tmp_path):
    prog = write(tmp_path, BROKEN)
    out, _ = drive('(sq 7)' + ENTER + 'after' + ENTER + CTRL_D, script=(open(prog).read(), prog, ()))
    body = lines(out)
    assert body[:7] == ['hello', 'Error: car: not a pair', '  at %s:5:1' % prog, "  5 | (car '())",
                        '    | ^^^^^^^^^', '  hint: car got ()', '=> 49']
    assert body[7] == "Error: Undefined: 'after'"       # the file stopped at its error


def test_the_scripts_error_can_be_inspected(tmp_path):
    prog = write(tmp_path, '(define (f a) (let ((b (* a 2))) (car b)))\n(define (g x) (+ 1 (f x)))\n(g 4)\n')
    out, repl = drive(',frames' + ENTER + ',locals 1' + ENTER + ',up' + ENTER + '*e' + ENTER + CTRL_D,
                      script=(open(prog).read(), prog, ()))
    body = lines(out)
    listing = body.index('Error: car: not a pair', 1)        # after the report, ,frames
    assert body[listing + 1:listing + 3] == ['>  0: f  at %s:1:34' % prog, '   1: g  at %s:2:20' % prog]
    assert body[listing + 3:listing + 5] == ['1: g  at %s:2:20' % prog, '  x = 4']
    assert body[listing + 5] == '>  1: g  at %s:2:20' % prog
    assert body[listing + 6] == '=> "car: not a pair"'
    assert 'No error to inspect' not in out


def test_exit_in_the_file_ends_the_session_with_its_status(tmp_path):
    prog = write(tmp_path, '(display "bye")\n(exit 3)\n')
    out, repl = drive('(+ 1 2)' + ENTER + CTRL_D, script=(open(prog).read(), prog, ()))
    assert '=> 3' not in out and 'bye' in out and out.endswith('Goodbye.\n')


def test_in_a_real_terminal(tmp_path):
    prog = write(tmp_path, BROKEN)
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color', NO_COLOR='1')
    child = pexpect.spawn(sys.executable, ['-m', 'rusty', '-i', prog, 'p', 'q'], env=env, cwd=str(ROOT),
                          encoding='utf-8', timeout=20, dimensions=(40, 120))
    try:
        child.expect('rusty ')
        child.expect('hello')
        child.expect('Error: car: not a pair')
        child.expect(r'at .*prog\.lisp:5:1')
        child.expect('rusty>')
        child.send('(sq 9)\r')
        child.expect('=> 81')
        child.send('args\r')
        child.expect(r'=> \("p" "q"\)')
        child.send('quit\r')
        child.expect('Goodbye.')
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
