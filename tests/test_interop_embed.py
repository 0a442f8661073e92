"""Lisp from Python (`rusty.Session`), and Ctrl-C during Python calls."""
import os
import signal
import subprocess
import sys
import time

import pytest

import rusty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_eval_define_call_load(tmp_path):
    s = rusty.Session()
    assert s.eval('(+ 1 2)') == 3
    assert s.eval('(list 1 "a" (list #t ()))') == [1, 'a', [True, None]]
    assert s.eval('(hash "k" (list 1))') == {'k': [1]}
    s.define('xs', [3, 1, 2])
    assert s.eval('(length xs)') == 3           # a Python list stays a Python value, iterable
    s.define('scale', 10)
    s.eval('(define (f a b) (* scale (+ a b)))')
    assert s.call('f', 1, 2) == 30
    assert s['f'](2, 3) == 50                   # a procedure is a Python callable
    path = tmp_path / 'lib.lisp'
    path.write_text('(define (g x) (* x x))\n(g 4)\n')
    assert s.load(str(path)) == 16
    assert s.call('g', 5) == 25
    with pytest.raises(KeyError):
        s['nothing']


def test_python_callables_defined_into_a_session():
    s = rusty.Session()
    seen = []
    s.define('note', seen.append)
    s.eval("(for-each note '(1 2 3))")
    assert seen == [1, 2, 3]
    s.define('kw', lambda a, b=0: a - b)
    assert s.eval('(kw 10 :b 3)') == 7


def test_errors_carry_the_full_report():
    s = rusty.Session()
    with pytest.raises(rusty.RustyError) as got:
        s.eval('(define (f x) (/ x 0))\n(f 2)')
    text = str(got.value)
    assert text.splitlines() == ['Error: Division by zero', '  at <eval 1>:1:15', '  1 | (define (f x) (/ x 0))',
                                 '    |               ^^^^^^^', 'Backtrace (innermost last):', '  <eval 1>:2:1 in f']
    assert got.value.error.message == 'Division by zero'
    with pytest.raises(rusty.RustyError) as got:
        s.call('nosuch', 1)
    assert str(got.value).startswith("Error: Undefined: 'nosuch'")
    with pytest.raises(rusty.RustyError) as got:
        s.call('f', 'a')
    assert str(got.value).startswith('Error: /: expected a number, got "a"')
    assert s.eval('(+ 2 2)') == 4               # the session goes on


def test_a_rusty_error_in_a_callback_is_raised_in_python():
    s = rusty.Session()
    f = s.eval('(lambda (a b) (car a))')
    with pytest.raises(rusty.RustyError) as got:
        f(1, 2)
    assert got.value.message == 'car: not a pair'
    import functools
    assert functools.reduce(s.eval('(lambda (a b) (+ a b))'), [1, 2, 3]) == 6


def test_sessions_are_independent():
    a, b = rusty.Session(), rusty.Session()
    a.eval('(define only-a 1) (import math)')
    with pytest.raises(rusty.RustyError):
        b.eval('only-a')
    with pytest.raises(rusty.RustyError) as got:
        b.eval('math.pi')
    assert "Undefined: 'math.pi'" in str(got.value)
    assert a.eval('math.pi') == pytest.approx(3.14159265)


def test_import_rusty_loads_nothing_else():
    code = 'import sys, rusty; print(sorted(m for m in sys.modules if m.startswith("rusty")))'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=ROOT)).stdout
    assert out.strip() == "['rusty']"


# ── Ctrl-C ───────────────────────────────────────────────────────────────

def interrupted(program: str, wait: float = 1.5):
    """(exit status, stdout, stderr, seconds from SIGINT to exit) of `rusty -e
    PROGRAM` sent SIGINT after `wait` seconds."""
    p = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', program], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    time.sleep(wait)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    return p.returncode, out, err, time.monotonic() - start


@pytest.mark.parametrize('call', ['(time.sleep 100)', '(py->lisp (itertools.count))',
                                  '(length (itertools.count))',
                                  '(functools.reduce (lambda (a b) (spin)) (list 1 2 3))',
                                  '(let loop ((i 0)) (time.monotonic) (loop (+ i 1)))',
                                  '(let loop ((i 0)) (functools.reduce (lambda (a b) (time.monotonic)) (list 1 2 3)) '
                                  '(loop (+ i 1)))'])
def test_ctrl_c_stops_a_long_python_call_and_the_program_goes_on(call):
    program = ('(import time) (import itertools) (import functools) (define (spin) (spin))\n'
               '(display (try-catch %s (e) e)) (display " then") (time.sleep 0.01) (display " on")' % call)
    status, out, err, took = interrupted(program)
    assert (status, out) == (0, 'interrupted then on'), err
    assert took < 5 and 'internal error' not in err


def test_uncaught_interrupt_of_a_python_call_is_the_report():
    status, out, err, took = interrupted('(import time)\n(time.sleep 100)')
    assert status == 130 and err.startswith('Error: interrupted\n  at <expr>:2:1'), err


ABANDONED = '''
from rusty import worker
from rusty.errors import RustyError
from rusty.runtime import Session
real = worker.Worker._take_sigint
fired = []


def take(self):         # Ctrl-C landing as SIGINT is taken back after a Python call ran for the job
    if not fired and any(r[2] is worker.RUNNING for r in self.upcalls):
        fired.append(1)
        raise KeyboardInterrupt
    return real(self)


worker.Worker._take_sigint = take
s = Session()
try:
    print(s.run('(import time) (number? (time.monotonic))', '<t>'))
except RustyError as e:
    print(e.message)
print(len(fired), s.run('(+ 1 2)', '<t>'))
'''


def test_an_interrupt_landing_as_a_python_call_hands_back_its_outcome_never_hangs():
    """The waiting thread runs the job's Python call; an interrupt landing
    just after it (as SIGINT is taken back) still hands the outcome back:
    the job ends, as the value or `interrupted`, never waiting for ever."""
    p = subprocess.run([sys.executable, '-c', ABANDONED], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=ROOT))
    first, last = p.stdout.splitlines()
    assert first in ('True', 'interrupted') and last == '1 3', p.stderr
