"""A `do` loop running long outside compiled code continues compiled (on-stack
replacement, rusty/compile/osr.py): each program runs both ways through the
command line (RUSTY_SPECIALIZE=0 the reference), with the loop switched
after its first iterations (RUSTY_COMPILE_CALLS=1, conftest), and must give
the same output, value, error report (message, position, backtrace) and
status; the compiler's counter says the loop ran compiled."""
import os
import re
import subprocess
import sys

import pytest

from rusty.compile.link import STATS
from test_paths_agree import assert_same, both_ways, run_batch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _switch_after_one_iteration(monkeypatch):
    """A lambda compiled from its second call, a loop from its second iteration (whatever the suite sets)."""
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '1')


def agree_compiled(program: str, loops: int = 1) -> tuple:
    """Both ways agree on `rusty -e program`, and the fast run compiled (or loaded from the
    disk cache) at least `loops` loops."""
    reference = run_batch(['-e', program], False)
    before = STATS.loops + STATS.loops_loaded
    fast = run_batch(['-e', program], True)
    assert_same(reference, fast, program)
    assert STATS.loops + STATS.loops_loaded - before >= loops, (program, STATS.loops + STATS.loops_loaded - before)
    return fast


def test_a_top_level_do_runs_compiled():
    agree_compiled('(display (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 1000) s)))')


def test_a_builtin_the_compiled_loop_assumed_redefined_after_it():
    # (its cells' watcher clears the loop's OK: it once called the loop's function instead)
    agree_compiled('(define s 0) (do ((i 0 (+ i 1))) ((= i 1000)) (set! s (+ s i))) (display s)'
                   ' (define (+ a b) (* a b)) (display (+ 2 3)) (set! + -) (display (+ 2 3))')


def test_a_do_in_a_function_called_once():
    agree_compiled('(define (f n) (do ((i 0 (+ i 1)) (acc (list) (cons (* i i) acc))) ((= i n) (reverse acc))))'
                   ' (display (f 20))')


def test_a_loop_with_no_steps_and_output():
    agree_compiled('(define v (make-vector 5 0))'
                   '(do ((i 0 (+ i 1))) ((= i 5)) (vector-set! v i (* i 3)) (display i) (display " "))'
                   '(display v)')


def test_an_error_after_the_switch_is_the_references():
    status, _, err = agree_compiled('(define (g x) (car x))\n'
                                    '(define (f) (do ((i 0 (+ i 1))) ((= i 10) i) (when (= i 5) (g i))))\n'
                                    '(display (f))')
    assert status != 0 and 'car' in err


def test_a_host_error_of_an_inlined_builtin_after_the_switch():
    status, _, err = agree_compiled('(do ((i 0 (+ i 1)) (s 0 (+ s (if (= i 7) "x" i)))) ((= i 10) s))')
    assert status != 0 and '^' in err


def test_an_error_in_the_result_forms():
    agree_compiled('(define (f) (do ((i 0 (+ i 1))) ((= i 4) (vector-ref (vector 1 2) i))))\n(f)')


def test_set_of_outer_locals_and_globals():
    agree_compiled('(define total 0)\n'
                   '(define (f n) (let ((evens 0))'
                   '  (do ((i 0 (+ i 1))) ((= i n) (list evens total))'
                   '    (set! total (+ total i)) (when (even? i) (set! evens (+ evens 1))))))\n'
                   '(display (f 9)) (display total)')


def test_a_body_that_defines():
    agree_compiled('(display (do ((i 0 (+ i 1)) (acc 0)) ((= i 6) acc)'
                   ' (define sq (* i i)) (set! acc (+ acc sq))))')


def test_a_define_read_before_it_is_made_sees_the_outer_name():
    agree_compiled('(define sq 100)\n(display (do ((i 0 (+ i 1)) (acc 0 (+ acc sq))) ((= i 4) acc) (define sq i)))')


def test_nested_do_loops():
    # The inner loop switches in the outer's first iteration, the outer (the inner lowered in it) in its second.
    agree_compiled('(display (do ((i 0 (+ i 1)) (s 0 (+ s (do ((j 0 (+ j 1)) (t 0 (+ t (* i j)))) ((= j (+ i 5)) t)))))'
                   ' ((= i 30) s)))', loops=2)


def test_a_do_inside_a_named_let():
    agree_compiled('(display (let loop ((k 0) (out (list)))'
                   ' (if (= k 3) out (loop (+ k 1) (cons (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i (+ k 10)) s)) out)))))')


def test_the_loops_of_the_beginners_macros():
    agree_compiled('(define n 0) (dotimes (i 10) (set! n (+ n i))) (dolist (x (list 1 2 3)) (set! n (+ n x)))'
                   '(let ((k 0)) (while (< k 5) (set! k (+ k 1))) (display (list n k)))'
                   '(display (do ((i 0 (+ i 1)) (s 0)) ((= i 5) s) (set! s (+ s i))))')


def test_closures_made_in_the_body_keep_the_loop_on_the_reference():
    # Made before the switch, a closure holds the reference's frame, which
    # compiled code would not update: such a loop never switches.
    before = STATS.loops + STATS.loops_loaded
    reference, fast = both_ways(['-e', '(define fs (list))'
                                 '(display (do ((i 0 (+ i 1))) ((= i 5) (map (lambda (f) (f)) fs))'
                                 ' (set! fs (cons (lambda () i) fs))))'])
    assert_same(reference, fast, 'closures')
    assert fast[1] == '(5 5 5 5 5)' and STATS.loops + STATS.loops_loaded == before


def test_a_closure_over_the_steps_sees_them_change():
    reference, fast = both_ways(['-e', '(define get #f)'
                                 '(display (do ((i 0 (+ i 1)) (seen (list))) ((= i 6) seen)'
                                 ' (when (= i 2) (set! get (lambda () i)))'
                                 ' (when get (set! seen (cons (get) seen)))))'])
    assert_same(reference, fast, 'a closure over i')
    assert fast[1] == '(5 4 3 2)'


def test_a_named_let_loop_in_the_body_is_compiled_with_it():
    agree_compiled('(display (do ((i 0 (+ i 1)) (s 0 (+ s (let count ((k i) (n 0)) (if (= k 0) n (count (- k 1) (+ n 1)))))))'
                   ' ((= i 20) s)))')


def test_the_depth_limit_inside_a_compiled_loop(monkeypatch):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '60')
    status, _, err = agree_compiled('(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n'
                                    '(do ((i 0 (+ i 10))) ((= i 100) i) (deep i))')
    assert status != 0 and 'recursion limit' in err


def test_stats_count_the_loops(tmp_path):
    program = tmp_path / 'loop.lisp'
    program.write_text('(display (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 100) s)))\n')
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_COMPILE_CALLS='1', RUSTY_SPECIALIZE='1',
               RUSTY_CACHE_DIR=str(tmp_path / 'cache'))         # (empty: the loop is compiled, not loaded)
    done = subprocess.run([sys.executable, '-m', 'rusty', '--stats', str(program)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert (done.returncode, done.stdout) == (0, '4950'), done.stderr
    assert re.fullmatch(r'stats: 0 lambdas and 1 loop compiled \(\d+\.\d{3} s\), 0 loaded from the cache, '
                        r'0 on the reference\n', done.stderr), done.stderr


def stats_by_default(program: str, cache) -> str:
    """The --stats line of `rusty -e program` in a fresh process, tiering up by time (no RUSTY_COMPILE_CALLS),
    on the disk cache in directory `cache`."""
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_SPECIALIZE='1', RUSTY_CACHE_DIR=str(cache))
    env.pop('RUSTY_COMPILE_CALLS', None)
    done = subprocess.run([sys.executable, '-m', 'rusty', '--stats', '-e', program], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + '|' + done.stderr


def test_by_default_a_long_loop_switches_and_a_short_one_does_not(tmp_path):
    long_loop = stats_by_default('(display (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 400000) s)))', tmp_path)
    assert long_loop.startswith('79999800000|stats: 0 lambdas and 1 loop compiled'), long_loop
    short_loop = stats_by_default('(display (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 50) s)))', tmp_path)
    assert short_loop.startswith('1225|stats: 0 lambdas compiled'), short_loop


def test_refused_loops_stay_on_the_reference_for_good(monkeypatch):
    # `breakpoint` keeps its caller on the reference: lowering refuses once, never again.
    from rusty.compile import osr_lower
    tries = []
    real = osr_lower.lowered_loop

    def counting(*a):
        tries.append(1)
        return real(*a)
    monkeypatch.setattr(osr_lower, 'lowered_loop', counting)
    fast = run_batch(['-e', '(define (f) (do ((i 0 (+ i 1))) ((= i 20) i) (if #f (breakpoint) i))) (display (f))'],
                     True)
    assert fast[:2] == (0, '20') and len(tries) == 1


@pytest.mark.parametrize('program', [
    '(display (do ((i 0 (+ i 1)) (s 0.0 (+ s (/ i 2)))) ((= i 9) s)))',
    '(display (do ((xs (list 1 2 3 4 5) (cdr xs)) (s 0 (+ s (car xs)))) ((null? xs) s)))',
    '(display (do ((i 0 (+ i 1)) (str "" (string-append str (number->string i)))) ((= i 12) str)))',
    '(define h (hash)) (do ((i 0 (+ i 1))) ((= i 10)) (hash-set! h (modulo i 3) i)) (display (hash-ref h 2))',
    '(display (do ((i 0 (+ i 1))) ((> i 5) (list i "done"))))',
])
def test_assorted_loops_agree(program):
    agree_compiled(program)


def test_locals_after_an_error_in_a_switched_loop_are_the_references(monkeypatch):
    # The debugger's frame of a loop that failed compiled: its variables (and the
    # lets it failed in) as the reference's frame holds them.
    from repl_driver import CTRL_D, ENTER, drive
    from rusty.runtime import Session
    code = ['(define (f n) (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i n) s)'
            ' (define sq (* i i)) (let ((z (+ sq 1))) (when (= i 5) (car z)))))', '(f 10)', ',locals', ',frames']
    shown = []
    for fast in ('0', '1'):
        monkeypatch.setenv('RUSTY_SPECIALIZE', fast)
        before = STATS.loops + STATS.loops_loaded
        out, _ = drive(''.join(c + ENTER for c in code) + CTRL_D, session=Session())
        shown.append(out)
    assert STATS.loops + STATS.loops_loaded > before
    assert shown[0] == shown[1]
    assert '  z = 26\n' in shown[1] and '  i = 5\n' in shown[1] and '    sq = 25\n' in shown[1], shown[1]
