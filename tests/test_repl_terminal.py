"""End to end: the installed `rusty` in a pseudo-terminal, driven like a person
would (pexpect, PROMPT_TOOLKIT_NO_CPR=1): a multi-line definition, a call, an
error with its caret, an infinite loop stopped by a real SIGINT, and the
session still answering afterwards with its definitions intact."""
import os
import shutil
import signal
import sys
import time


import pexpect

from helpers import leave_at_prompt


def spawn(tmp_path, term='xterm-256color', no_color=True):
    env = dict(os.environ)
    real = os.path.expanduser('~')
    env.pop('NO_COLOR', None)
    if no_color:
        env['NO_COLOR'] = '1'
    env.update(PROMPT_TOOLKIT_NO_CPR='1', TERM=term, HOME=str(tmp_path),
               RUSTUP_HOME=env.get('RUSTUP_HOME', os.path.join(real, '.rustup')),
               CARGO_HOME=env.get('CARGO_HOME', os.path.join(real, '.cargo')))
    exe = shutil.which('rusty')
    cmd, args = (exe, []) if exe else (sys.executable, ['-m', 'rusty'])
    child = pexpect.spawn(cmd, args, env=env, encoding='utf-8', timeout=20, dimensions=(40, 120))
    return child


def test_a_session_in_a_real_terminal(tmp_path):
    child = spawn(tmp_path)
    try:
        child.expect('rusty ')
        child.expect('rusty>')
        child.send('(define (sq x)\r')
        child.expect(r'\.\.\.>')                  # the input stays open
        child.send('(* x x))\r')
        child.expect('rusty>')
        child.send('(sq 7)\r')
        child.expect('=> 49')
        child.send('(sq "seven")\r')
        child.expect(r'Error: \*: expected a number, got "seven"')
        child.expect(r'at <repl:1>:2:3')
        child.expect(r'\| +\^\^\^\^\^\^\^')
        child.expect('in sq')
        child.send('(define (spin n) (spin (+ n 1)))\r')
        child.expect('rusty>')
        child.send('(spin 0)\r')
        time.sleep(1.0)
        child.kill(signal.SIGINT)                  # a real SIGINT, as the terminal sends for Ctrl-C
        child.expect('Error: interrupted')
        child.expect('rusty>')
        child.send('(sq 8)\r')
        child.expect('=> 64')                      # still answering, definitions intact
        child.send('*e\r')
        child.expect('=> "interrupted"')
        child.sendcontrol('c')                     # Ctrl-C at the prompt: nothing happens
        child.send('(+ 1 2)\r')
        child.expect('=> 3')
        leave_at_prompt(child)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert (tmp_path / '.rusty' / 'history').exists()


def test_history_survives_into_the_next_session(tmp_path):
    child = spawn(tmp_path)
    try:
        child.expect('rusty>')
        child.send('(define remembered 99)\r')
        time.sleep(0.3)
        child.send('quit\r')
        child.expect('Goodbye.')
        child.expect(pexpect.EOF)
    finally:
        child.close()
    child = spawn(tmp_path)
    try:
        child.expect('rusty>')
        child.sendcontrol('r')
        child.send('rememb')
        time.sleep(0.3)
        child.send('\r')           # accept the search result
        time.sleep(0.3)
        child.send('\r')           # evaluate it
        child.send('remembered\r')
        child.expect('=> 99')
        child.expect('rusty>')
        time.sleep(0.2)
        child.sendcontrol('d')
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_a_dumb_terminal_gets_a_plain_working_repl(tmp_path):
    child = spawn(tmp_path, term='dumb', no_color=False)
    try:
        child.expect('rusty>')
        child.send('(define (tw x)\r')
        time.sleep(0.3)
        child.send('(* x 2))\r')
        time.sleep(0.3)
        child.send('(tw 21)\r')
        child.expect('=> 42')
        child.send('(car 5)\r')
        child.expect(r'\| \^\^\^\^\^\^\^')
        assert '\x1b[1m' not in child.before        # no colour on a dumb terminal
        time.sleep(0.3)
        child.send('quit\r')
        child.expect('Goodbye.')
        child.expect(pexpect.EOF)
    finally:
        child.close()
