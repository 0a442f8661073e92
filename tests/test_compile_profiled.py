"""Pay for what runs: the code a lambda is compiled to by default carries no
profiler accounting, and the profiler gets a counting variant of it on demand
(compile/profiled.py, compile/counting.py); the integer copy of a body is made
only over parameters its calls on the reference gave an exact integer
(compile/evidence.py). Compared with the reference evaluator: counts under
the profiler (values made before it came on included, a deoptimisation in
the middle), and values of functions warmed with one kind of number and
called with another."""
import textwrap

import pytest

from rusty.errors import RustyError
from rusty.values import sym
from helpers import session_on_path

FIB = '(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n'
FIBFP = '(define (fibfp n) (if (< n 2.) n (+ (fibfp (- n 1.)) (fibfp (- n 2.)))))\n'
ACCOUNTING = ('PROF', 'prof_', 'prow_', 'ptime_', 'pstart_', 'psaved_', 'pret_', 'CLOCK')


def session(monkeypatch, fast: bool, calls: int = 0):
    """A session on the reference, or compiling each lambda after `calls` calls on the reference."""
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', str(calls))
    s = session_on_path(monkeypatch, fast)
    monkeypatch.delenv('RUSTY_COMPILE_CALLS')
    return s


def source(s, name: str) -> str:
    return s.python_source(s.genv.lookup(sym(name)))


def test_default_code_counts_nothing_and_fib_has_two_copies(monkeypatch):
    s = session(monkeypatch, True, 1)
    s.run(FIB + '(fib 15)')
    src = source(s, 'fib')
    assert not [w for w in ACCOUNTING if w in src]
    assert src.count('return v_n_1') == 2         # the integer copy and the general code, no third
    assert 'pself_ is INTS or (OK and v_n_1.__class__ is int)' in src
    assert len([ln for ln in src.splitlines() if not ln.startswith('#')]) < 120      # (98 lines, and the write-back after a run-time expansion: expansion.py)


def test_the_integer_copy_is_made_only_where_the_calls_seen_gave_integers(monkeypatch):
    s = session(monkeypatch, True, 2)
    s.run(FIBFP + '(fibfp 10.) (fibfp 10.)')
    src = source(s, 'fibfp')
    assert 'INTS' not in src and '__class__ is int:' not in src
    s = session(monkeypatch, True, 2)
    s.run(FIBFP + '(fibfp 10) (fibfp 10)')      # given integers (and its 1. steps make floats: seen too)
    assert 'pself_ is INTS or' in source(s, 'fibfp')


WARMED = textwrap.dedent('''
    (define (g n) (if (< n 2) n (+ (g (- n 1)) (g (- n 2)))))
    (define (h x y) (if (< x 1) y (h (- x 1) (+ y x))))
    (define (k xs acc) (if (null? xs) acc (k (cdr xs) (+ acc (car xs)))))
    ''')
MIXES = ['(list (g 12) (g 12.0) (g 7.5) (h 10 0) (h 10.5 0) (h 10 0.5) (k (list 1 2 3) 0) (k (list 1.5 2 3) 0))',
         "(g 'a)", "(h 3 'b)", "(k (list 1 'c) 0)", '(g (expt 10 30))', '(h 3 (expt 2 80))']


def _outcome(s, text):
    try:
        return ('value', repr(s.run(text)), s.out.getvalue())
    except RustyError as e:
        return ('error', e.message, e.span, [t[:3] for t in e.trace])   # (site, name, entry; frames aside)


@pytest.mark.parametrize('warm', ['(list (g 10) (h 20 0) (k (list 1 2) 0))',
                                  '(list (g 10.0) (h 20.0 0.5) (k (list 1.5 2.5) 0.5))',
                                  "(list (g 'x) (h 'x 'y) (k 'x 'y))"])
@pytest.mark.parametrize('text', MIXES)
def test_warmed_with_one_kind_called_with_another_as_the_reference(monkeypatch, warm, text):
    """Whatever the warm-up gave (integers, floats, symbols: each failing),
    each later call's value or error is the reference's."""
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast, 3)
        s.run(WARMED)
        for _ in range(4):
            for part in ('(g 10)', '(h 20 0)', '(k (list 1 2) 0)') if warm.startswith('(list (g 10)') else (warm,):
                try:
                    s.run(part)
                except RustyError:
                    pass
        got.append(_outcome(s, text))
    assert got[0] == got[1]


def lisp_calls(s) -> dict:
    return {r.label: r.calls for r in s.last_profile.rows.values() if not r.builtin}


def test_counts_under_the_profiler_are_the_references_and_the_code_switches_back(monkeypatch):
    """Compiled before the profiler came on: counted exactly (the counting
    variant lowered on demand), default code again after."""
    program = FIB + textwrap.dedent('''
        (define (make-counter) (let ((n 0)) (lambda () (set! n (+ n 1)) n)))
        (make-counter) (make-counter)
        (define tick (make-counter))
        (define (ticks k) (if (= k 0) (tick) (begin (tick) (ticks (- k 1)))))
        (define (spin n acc) (if (= n 0) acc (spin (- n 1) (+ acc 1))))
        ''')
    warm = '(list (fib 5) (ticks 3) (spin 5 0) (tick) (map (lambda (x) (tick)) (list 1 2)))'
    code = '(list (fib 12) (ticks 20) (spin 30 0) (tick) (map (lambda (x) (tick)) (list 1 2 3)))'
    counted, values = [], []
    for fast in (False, True):
        s = session(monkeypatch, fast, 1)
        s.run(program, 'prog.lisp')
        s.run(warm)
        s.run(warm)
        fib = s.genv.lookup(sym('fib'))
        if fast:
            assert fib.code.func.__name__ == 'enter'
        values.append(repr(s.profile(code)))
        counted.append(lisp_calls(s))
        assert all(r.active == 0 for r in s.last_profile.rows.values())
        if fast:
            assert fib.code.func.__name__ == 'enter'       # default code again
            values.append(repr(s.run(code)))
            s.profile('(fib 10)')
            assert lisp_calls(s)['fib (prog.lisp:1)'] == 177
    assert counted[0] == counted[1]
    assert counted[1]['fib (prog.lisp:1)'] == 2 * 233 - 1
    assert counted[1]['tick (prog.lisp:3)'] == 21 + 1 + 3          # the counter made before the profiler
    assert values[0] == values[1] and values[2] != values[1]           # (the counter counts on)


def test_a_deoptimisation_under_the_profiler_keeps_values_and_counts(monkeypatch):
    program = '(define (twice x) (* 2 x))\n(define (f n) (if (= n 0) 0 (+ (twice n) (f (- n 1)))))\n'
    redefine = '(defmacro twice (x) (list (quote +) x x 1))'
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast, 1)
        s.run(program, 'prog.lisp')
        s.run('(f 3)')
        s.run('(f 3)')
        first = s.profile('(f 10)')
        s.run(redefine)
        second = s.profile('(list (f 10) (f 4))')
        got.append((repr(first), repr(second), lisp_calls(s)))
        assert all(r.active == 0 for r in s.last_profile.rows.values())
    assert got[0] == got[1]
