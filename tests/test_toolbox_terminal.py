"""The REPL toolbox in a real pseudo-terminal (pexpect), this checkout's rusty:
trace, profile, post-mortem frames, a breakpoint's `rusty[1]> ` prompt left by
`,continue` and by Ctrl-D, and a script's breakpoint opening that prompt; the
session keeps its definitions throughout."""
import os
import signal
import sys
import time

import pexpect

from helpers import leave_at_prompt
from test_cli import REPO


def spawn(tmp_path, *args):
    env = dict(os.environ, NO_COLOR='1', PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color', HOME=str(tmp_path))
    env['PYTHONPATH'] = str(REPO) + os.pathsep + env.get('PYTHONPATH', '')
    env.setdefault('RUSTUP_HOME', os.path.join(os.path.expanduser('~'), '.rustup'))
    env.setdefault('CARGO_HOME', os.path.join(os.path.expanduser('~'), '.cargo'))
    return pexpect.spawn(sys.executable, ['-m', 'rusty'] + list(args), env=env, cwd=str(REPO),
                         encoding='utf-8', timeout=20, dimensions=(40, 120))


def send(child, line: str) -> None:
    child.send(line + '\r')


def test_every_tool_at_a_real_prompt(tmp_path):
    child = spawn(tmp_path)
    try:
        child.expect('rusty>')
        send(child, '(define (fact n) (if (= n 0) (car n) (* n (fact (- n 1)))))')
        child.expect('rusty>')
        send(child, '(define (sq x) (* x x))')
        child.expect('rusty>')
        send(child, ',trace sq')
        child.expect('; tracing: sq')
        send(child, '(sq 3)')
        child.expect(r'> \(sq 3\)')
        child.expect('< 9')
        child.expect('=> 9')
        send(child, ',untrace')
        child.expect('; tracing: nothing')
        send(child, ',profile (fact 3)')
        child.expect('Error: car: not a pair')
        child.expect(r'procedure +calls +total ms +own ms +share')
        child.expect(r'fact \(<repl:1>:1\) +4 ')
        send(child, ',frames')
        child.expect(r'>  0: fact  at <repl:1>:1:30')
        child.expect(r'   3: fact  at <repl:1>:1:43')
        send(child, ',locals 2')
        child.expect('  n = 2')
        send(child, ',up')                  # ,locals 2 only looked: frame 0 was still current
        child.expect(r'>  1: fact')
        send(child, ',frame 2')
        child.expect(r'>  2: fact')
        send(child, ',up')
        child.expect(r'>  3: fact')
        send(child, '(define (h) (+ 1 (breakpoint)))')
        child.expect('rusty>')
        send(child, '(h)')
        child.expect(r'; breakpoint at <repl:\d+>:1:18')
        child.expect(r'rusty\[1\]>')
        send(child, '(define (spin n) (spin (+ n 1)))')
        child.expect(r'rusty\[1\]>')
        send(child, '(spin 0)')
        time.sleep(1.0)
        child.kill(signal.SIGINT)                  # Ctrl-C stops the nested evaluation only
        child.expect('Error: interrupted')
        child.expect(r'rusty\[1\]>')
        send(child, '(sq 5)')
        child.expect('=> 25')
        child.expect(r'rusty\[1\]>')
        send(child, ',continue')
        child.expect('=> 26')
        child.expect('rusty>')
        send(child, '(h)')
        child.expect(r'rusty\[1\]>')
        time.sleep(0.2)
        child.sendcontrol('d')                     # resumes with Nil: (+ 1 ()) fails
        child.expect(r'Error: \+: expected a number, got \(\)')
        child.expect('rusty>')
        send(child, '(sq 8)')
        child.expect('=> 64')                      # every definition still there
        leave_at_prompt(child)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_scripts_breakpoint_opens_the_nested_prompt_at_a_terminal(tmp_path):
    prog = tmp_path / 'bp.lisp'
    prog.write_text('(define (f x) (let ((y 10)) (breakpoint) (+ x y)))\n(print (f 1))\n')
    child = spawn(tmp_path, str(prog))
    try:
        child.expect(r'; breakpoint at .*bp\.lisp:1:29')
        child.expect(r'rusty\[1\]>')
        send(child, '(set! y 100)')
        child.expect(r'rusty\[1\]>')
        send(child, ',continue')
        child.expect('101')
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
