"""A function whose body runs no Lisp code but its own (tak: only `<`, `-`,
`not` and itself; deriv: first-order builtins, the library's `cadr` and
`caddr` and itself; lower.Fn.quiet), against the reference evaluator.
Nothing such a body runs can clear OK or shut the gate, so its calls of
itself keep OK known after them and, made inside the gate, never return a
pending tail call: the compiled code tests neither (guards.fold,
guards.finish_checks, kinds._ResultAudit). Compared here: values, failures
at depth (message, position, every backtrace entry and frame), the depth
limit at the same call, a builtin of the body redefined (as a lambda that
then runs Lisp code), the function redefined, and traced and profiled
runs, which shut the gate."""
import pytest

from rusty.values import sym
from test_compile_paths import outcomes_both_ways, session
from test_paths_agree import agree

DEFS = r"""
(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))
(define (down n acc) (if (= n 0) acc (down (- n 1) (+ acc (down2 n)))))
(define (down2 n) n)
(define (deep n) (if (= n 0) (car n) (+ 1 (deep (- n 1)))))
(define (mix n) (cond ((= n 0) 0) ((odd? n) (mix (- n 1))) (else (+ 1 (mix (- n 1))))))
(define (deriv e)
  (cond ((number? e) 0)
        ((symbol? e) (if (eq? e 'x) 1 0))
        ((eq? (car e) '+) (list '+ (deriv (cadr e)) (deriv (caddr e))))
        ((eq? (car e) '*) (list '+ (list '* (cadr e) (deriv (caddr e))) (list '* (deriv (cadr e)) (caddr e))))
        (else (error "deriv: unknown form" e))))
"""

PROGRAMS = [
    "(list (tak 18 12 6) (tak 6 4 2) (tak 1 2 3) (tak 3.5 2 1) (tak 12 8 4.0))",
    "(list (mix 20) (mix 7) (mix 2.0))",
    "(list (down 10 0) (down 3 0.5))",
    # failing deep inside: the innermost's position, then one entry (and frame) per level
    "(deep 30)", "(tak 'a 2 1)", "(tak 18 12 'z)", "(mix 'q)",
    # the depth limit (RUSTY_RECURSION_LIMIT=2000 here): the same call fails, with the same report
    "(deep 1990)", "(deep 1999)", "(deep 2000)", "(deep 5000)", "(mix 3990)", "(mix 4200)",
    # a builtin of the body redefined as a lambda running Lisp code (which redefines another): as written
    "(define old- -) (set! - (lambda (a b) (set! < >) (old- a b))) (tak 6 4 2)",
    "(define (bump x) (+ x 1)) (set! not (lambda (x) (bump (if x #f #t)))) (tak 6 4 2)",
    # the function redefined while the old value runs: its calls reach the new one
    "(define keep tak) (set! tak (lambda (x y z) 'new)) (list (keep 6 4 2) (keep 1 2 3))",
    # caught, and used again
    "(list (try-catch (tak 'a 2 1) (e) (error-message e)) (tak 6 4 2))",
    # calling the library's cadr and caddr, and error in tail position: values, and failures inside them
    "(deriv '(+ (* 3 (* x x)) (+ (* a (* x (* x x))) (* (+ x 1) (+ x 2)))))",
    "(deriv '(+ (* 3 x) (- x 1)))", "(deriv '(+ (* 3 x) (+ x)))", "(deriv '(+ (* 3 x) (* x . 2)))",
    "(deriv '(* (+ x 1) \"s\"))",
    # cadr or list redefined: the calls as written
    "(define keep cadr) (set! cadr (lambda (l) (set! list vector) (keep l))) (str (deriv '(+ (* 3 x) x)))",
    "(set! list (lambda xs (cons 'L xs))) (deriv '(+ (* 3 x) x))",
]


@pytest.mark.parametrize('src', PROGRAMS, ids=range(len(PROGRAMS)))
def test_a_quiet_loop_agrees_with_the_reference(monkeypatch, src):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '2000')
    warm = ('(tak 3 2 1)', '(down 1 0)', '(try-catch (deep 1) (e) 0)', '(mix 1)', "(deriv '(* x 2))")
    reference, fast = outcomes_both_ways(monkeypatch, DEFS, warm, src)
    assert reference == fast


TOOLS = [
    # traced: every call shown, as the reference shows them (the gate is shut)
    "(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))"
    " (tak 3 2 1) (trace tak) (display (tak 4 2 1)) (untrace) (tak 6 4 2)",
    "(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))"
    " (tak 3 2 1) (trace tak) (tak 3 'b 1)",
    "(define (d e) (cond ((number? e) 0) ((eq? (car e) '+) (list '+ (d (cadr e)) (d (caddr e)))) (else e)))"
    " (d '(+ 1 2)) (trace d) (display (d '(+ (+ 1 2) 3))) (untrace) (trace cadr) (d '(+ 1 (+ 2 3)))",
]


@pytest.mark.parametrize('program', TOOLS, ids=range(len(TOOLS)))
def test_a_quiet_loop_traced_agrees_with_the_reference(program):
    agree(program)


def test_a_quiet_loop_profiled_counts_what_the_reference_counts(monkeypatch):
    """A profiled run (PROF set, the gate at the limit) counts the lambdas'
    calls as the reference does, after the compiled code ran (builtins the
    compiled code computes in place are not counted one by one)."""
    counts = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(DEFS)
        s.run('(tak 6 4 2)')
        s.run('(tak 6 4 2)')
        s.profile('(list (tak 12 8 4) (mix 40))', '<p>')
        counts.append(sorted((r.label, r.calls) for r in s.last_profile.rows.values() if r.calls and not r.builtin))
    assert counts[0] == counts[1] and [c for label, c in counts[0] if label.startswith('tak ')] == [1733]


def test_its_calls_of_itself_test_neither_ok_nor_a_pending_tail_call(monkeypatch):
    """What the claim buys, in the code: after tak's calls of itself in its
    integer copy, no test of OK and no test of the value for a pending tail
    call (the reference's value all the same)."""
    s = session(monkeypatch, True)
    s.run(DEFS)
    assert s.run('(tak 18 12 6)') == 7
    src = s.python_source(s.genv.lookup(sym('tak')))
    copy = src.split('while True:', 2)[1]      # (the copy's loop, up to the general code's)
    assert 'INTS)' in copy and 'tuple' not in src.split('while True:', 1)[1].split('PROF', 1)[0]
    assert copy.count('if OK') == 0
    deriv = s.python_source(s.genv.lookup(sym('deriv')))       # (no copy: its self calls' values are not tested)
    s.run("(deriv '(* x 2))")
    assert 'f_deriv(d + 1' in deriv and 'FINISH(' not in ''.join(
        line for line in deriv.split('\n') if 'SELF, k' in line and 'FINISH' in line)
