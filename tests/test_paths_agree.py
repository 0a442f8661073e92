"""The fast path against the reference evaluator on generated programs: each
program (tests/program_gen.py) runs as `rusty -e PROGRAM` twice, with the
fast path on and with RUSTY_SPECIALIZE=0, through the same command-line entry
and the same Session construction; the printed output, the last value
written, the exit status and the whole error report (message, location,
caret line, hints, backtrace) must be identical.

RUSTY_PARITY_EXAMPLES raises the number of programs for a long run.
"""
import difflib
import io
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings

from program_gen import OPERANDS, OPERATOR_SHAPES, OPERATORS, SHOW, programs
from rusty import cli

EXAMPLES = int(os.environ.get('RUSTY_PARITY_EXAMPLES', '') or 200)
SYNTAX_ERROR = re.compile(r'Error: (unexpected |\S+: expected \()')


def run_batch(args, fast: bool, stdin: str = '', cwd=None):
    """(exit status, stdout, stderr) of `rusty ARGS` run in this process with
    the fast path on or off (the switch is read when the session is made)."""
    saved, here = os.environ.get('RUSTY_SPECIALIZE'), os.getcwd()
    os.environ['RUSTY_SPECIALIZE'] = '1' if fast else '0'
    out, err = io.StringIO(), io.StringIO()
    try:
        if cwd is not None:
            os.chdir(cwd)
        status = cli.main(list(args), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    finally:
        os.chdir(here)
        if saved is None:
            del os.environ['RUSTY_SPECIALIZE']
        else:
            os.environ['RUSTY_SPECIALIZE'] = saved
    return status, out.getvalue(), err.getvalue()


def both_ways(args, stdin: str = '', cwd=None):
    """The runs with the switch off (the reference) and on."""
    return run_batch(args, False, stdin, cwd), run_batch(args, True, stdin, cwd)


def assert_same(reference, fast, what):
    """The two runs are identical (and the reference had no host error). A
    difference is shown as a line diff (pytest's own explanation of long
    strings is slow enough to stall hypothesis' shrinking)."""
    assert 'internal error' not in reference[2] + reference[1], (what, reference)
    if fast != reference:
        diff = difflib.unified_diff(run_lines(reference), run_lines(fast), 'RUSTY_SPECIALIZE=0', 'fast path',
                                    lineterm='')
        raise AssertionError('the paths differ on:\n%s\n%s' % (what, '\n'.join(diff)))


def agree(program: str) -> None:
    """`rusty -e program` gives the same output, report and status both ways."""
    reference, fast = both_ways(['-e', program])
    assert_same(reference, fast, program)


def run_lines(run):
    status, out, err = run
    return ['exit %d' % status] + ['out| ' + line for line in out.split('\n')] + \
        ['err| ' + line for line in err.split('\n')]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs_agree(text):
    reference, fast = both_ways(['-e', text])
    assert not SYNTAX_ERROR.match(reference[2]), reference      # the generator writes well-formed programs
    assert_same(reference, fast, text)


# ── Fixed programs: each property the generator aims at, once for sure ──

FIXED = [
    # exact and inexact arithmetic, n-ary comparisons, / exact or not
    '(show (list (+ 1 2) (+ 1 2.0) (* 99999999999 99999999999) (- (expt 2 70)) (/ 10 2) (/ 1 3) (/ 6 4 0.5)))',
    '(show (list (< 1 2 3) (< 1 3 2) (= 2 2.0 2) (>= 3 3 -0.0) (< 1) (= 9007199254740993 9007199254740992.0)))',
    '(define (f a b) (/ a b)) (show (f 1 0))',
    '(define (f a b) (+ a b)) (f 1 #t)',
    '(define (f a b) (< a b 3)) (f 1 "s")',
    # closures: a counter set!-ing a captured variable, two instances
    '(define (mk) (let ((n 0)) (lambda () (set! n (+ n 1)) n))) (define a (mk)) (define b (mk)) '
    '(show (list (a) (a) (b) (a)))',
    # late binding and redefinition of a function that callers inline
    '(define (g x) (* x 2)) (define (h x) (+ (g x) 1)) (show (h 3)) (define (g x) (list x)) (h 3)',
    # shadowing a builtin globally after a caller was compiled
    "(define (f l) (car l)) (show (f '(1 2))) (define (car x) 'mine) (show (list (f '(1 2)) (cadr '(1 2))))",
    # varargs and arity errors, named and anonymous
    '(define (v a . r) (list a r)) (show (v 1)) (show (v 1 2 3)) (v)',
    '((lambda (x y) x) 1)',
    # the resolver's conformance cases: internal define, eval'd define, function redefined as a macro
    "(define x 10) (define (f) (display (list 'before x)) (define x 2) (display (list 'after x))) (f) x",
    "(define (f a) (let ((b 1)) (eval '(define a 99)) (+ a b))) (f 5)",
    "(define (h a) a) (define (u) (h undefined-name)) (defmacro h (a) `(quote ,a)) (u)",
    "(define (f p) (let* ((p (+ p 1)) (q (* p 2))) (+ p q))) (list (f 10) (f 2.5))",
    "(define (f max) (+ max 1)) (define (g do) (+ do 1)) (list (f 9) (g 1))",
    # do loops (compile/loops.py): closures see the variables change, set! of one, steps all computed first,
    # an empty result, a tail call in the result, an error in the body and in a step
    "(define (f n) (do ((i 0 (+ i 1)) (acc '() (cons i acc))) ((= i n) acc))) (show (list (f 5) (f 0)))",
    "(define (g n) (let ((fs '())) (do ((i 0 (+ i 1))) ((= i n) (map (lambda (h) (h)) fs))"
    " (set! fs (cons (lambda () i) fs))))) (show (g 3)) (show (g 4))",
    "(define (h n) (do ((i 0 (+ i 1)) (s 0 (+ s i)) (p 1 i)) ((>= i n) (list s p)) (set! i (+ i 1))))"
    " (show (h 10)) (show (h 9))",
    "(define (k n) (do ((i 0 (+ i 1))) ((= i n)))) (show (k 3)) (show (k 2))",
    "(define (w x) (list x)) (define (t n) (do ((i 0 (+ i 1))) ((= i n) (w i)))) (show (t 4)) (show (t 2))",
    "(define (e n) (do ((i 0 (+ i 1))) ((= i n) 'done) (if (= i 3) (car i) i))) (show (e 2)) (e 5)",
    "(define (e2 n) (do ((i 0 (if (= i 2) (car i) (+ i 1)))) ((= i n) 'done))) (show (e2 1)) (e2 5)",
    # a do variable changing class across steps and by set! (the integer copy must not assume it)
    "(define (a n) (do ((i 0 (+ i 1)) (x 1 (* x 1.5)) (y 1 (* y 1000000000000))) ((= i n) (list x (+ y 1)))))"
    " (define (d n) (do ((i 0 (+ i 1)) (x 0 (+ x i))) ((= i n) x) (if (= i 3) (set! x 2.5) #f)))"
    " (show (list (a 5) (d 6) (a 5) (d 6)))",
    "(define (e n) (do ((i 0 (+ i 1)) (x 0 (+ x 1))) ((= i n) x) (if (= i 3) (set! x \"no\") #f))) (show (e 2)) (e 6)",
    # do loops at top level, switched to compiled code mid-run (compile/osr.py): a define in the body,
    # a class change after the switch, an error in a step after it
    "(show (do ((i 0 (+ i 1)) (acc 0)) ((= i 6) acc) (define sq (* i i)) (set! acc (+ acc sq))))",
    "(show (do ((i 0 (+ i 1)) (x 1 (if (= i 4) 0.5 (* x 3)))) ((= i 7) x)))",
    "(do ((i 0 (+ i 1)) (v (vector 1 2 3) v)) ((= i 9) v) (show (vector-ref v i)))",
    # a deep non-tail chain failing at the bottom (backtrace elision)
    '(define (d n) (if (= n 0) (car n) (+ 1 (d (- n 1))))) (d 30)',
]


def test_fixed_programs_agree():
    for text in FIXED:
        reference, fast = both_ways(['-e', SHOW + text])
        assert_same(reference, fast, text)


@pytest.mark.parametrize('op', OPERATORS)
def test_every_operator_shape_and_operand_pair_agrees(op):
    """The generator's operator table swept whole: every shape of the
    operator on every pair of the colliding operands."""
    parts = ' '.join('(try-catch %s (e) e)' % shape.replace('OP', op) for shape in OPERATOR_SHAPES)
    values = ' '.join(OPERANDS.elements)
    text = SHOW + ('(define (ops a b c) (list %s))\n'
                   '(for-each (lambda (a) (for-each (lambda (b) (show (ops a b a)) (show (ops a b 2))) (list %s)))'
                   ' (list %s))' % (parts, values, values))
    reference, fast = both_ways(['-e', text])
    assert reference[0] == 0 and reference[1].count('\n') == 2 * len(OPERANDS.elements) ** 2, reference
    assert_same(reference, fast, text)
