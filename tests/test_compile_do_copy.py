"""The integer copy of a `do` loop's iteration (compile/loops.py,
`integer_copy`): a loop counting with an exact integer runs each iteration
in a copy entered while OK holds and the counter is an exact integer, its
guards decided; the general iteration is its one way out. Each program runs
both ways (the reference evaluator, RUSTY_SPECIALIZE=0, and the compiler)
with identical output, error report and exit status, including the ways
the counter stops being an exact integer while the loop runs: a float
written into it by a macro expanded at run time (an exit's write-back), by
`set!` in the body, stepped by a float; and the ways an assumption fails
while it runs: a global the loop reads, or a builtin it inlines, redefined
by a function it calls."""
import io
import re

import pytest

from rusty.runtime import Session
from rusty.values import sym
from test_paths_agree import agree

SHOW = '(define (show v) (display v) (newline)) '

PROGRAMS = [
    # counting up and down, by 1 and by 2, into a vector and a list
    "(define (f v) (do ((i 0 (+ i 1)) (s 0 (+ s (vector-ref v i)))) ((= i (vector-length v)) s)))"
    " (show (list (f (vector 1 2 3)) (f (vector)) (f (vector 1.5 2))))",
    "(define (f n) (do ((n n (- n 1)) (l '() (cons n l))) ((zero? n) l))) (show (list (f 5) (f 0)))",
    "(define (f n) (do ((i 0 (+ 2 i)) (l '() (cons i l))) ((>= i n) l))) (show (list (f 7) (f 1)))",
    # the counter not an exact integer: a float from the start, a float or a big integer stepped
    "(define (f a n) (do ((i a (+ i 1)) (l '() (cons i l))) ((>= i n) l)))"
    " (show (list (f 0 3) (f 0.5 3) (f 99999999999999999999 100000000000000000002)))",
    "(define (f n) (do ((i 0 (+ i 1)) (l '() (cons i l))) ((> i n) l) (when (= i 2) (set! i 2.5))))"
    " (show (list (f 5) (f 1)))",
    # a float written into the counter by a macro expanded at run time (the loop calls m, turned macro)
    # (each loop compiled from its second call: the third changes things while the compiled loop runs)
    "(defmacro half () '(set! i (+ i 0.5))) (define (m) 0) (define (flip) (set! m half) 0)"
    " (define (f n x) (do ((i 0 (+ i 1)) (l '() (cons i l))) ((> i n) l) (when (and x (= i 1)) (flip)) (m)))"
    " (show (f 3 #f)) (show (f 3 #f)) (show (f 4 #t)) (show (f 3 #f))",
    # a global the loop reads redefined by a function it calls: the new value seen at once
    "(define lim 6) (define (shrink) (set! lim 2) 0)"
    " (define (f x) (do ((i 0 (+ i 1))) ((> i lim) i) (when (and x (= i 1)) (shrink))))"
    " (show (list (f #f) (f #f) (f #t) (f #f)))",
    # a builtin the loop inlines redefined by a function it calls: the rest on the new one
    "(define (flip) (set! vector-ref (lambda (v i) (* 10 i))) 0) (define v (vector 1 2 3 4))"
    " (define (f x) (do ((i 0 (+ i 1)) (s '() (cons (vector-ref v i) s))) ((= i 4) s) (when (and x (= i 1)) (flip))))"
    " (show (list (f #f) (f #f) (f #t) (f #f)))",
    "(define (flip) (set! + (lambda (a b) (* 1.0 (- a (- b))))) 0)"
    " (define (f x) (do ((i 0 (+ i 1)) (n 0 (+ n 1))) ((> n 5) i) (when (and x (= n 1)) (flip))))"
    " (show (list (f #f) (f #f) (f #t)))",
    # a float written into the counter by a closure (made in the body: the iteration is not copied)
    "(define (f n) (do ((i 0 (+ i 1)) (l '() (cons i l))) ((> i n) l) (let ((g (lambda () (set! i (+ i 0.5)))))"
    " (when (= i 1) (g))))) (show (list (f 4) (f 4) (f 2)))",
    "(define (f n) (do ((i 0 (+ i 1)) (l '() (cons i l))) ((> i n) l) (let loop ((k 0))"
    " (when (and (= i 1) (< k 2)) (set! i (+ i 0.25)) (loop (+ k 1)))))) (show (list (f 4) (f 4) (f 2)))",
    # a test of `or` and `and` forms (each form tested in turn): values, errors in each part, empty ones
    "(define (f v n) (do ((k 0 (+ k 1)) (l '() (cons k l))) ((or (> k n) (and (vector-ref v k) (= k 2)) (or)) l)))"
    " (show (list (f (vector #f #t #t #t) 3) (f (vector #t #f #f #f) 3) (f (vector #t #t) 0))) (f (vector #f #f) 5)",
    "(define (f n) (do ((k 0 (+ k 1))) ((and (> k n) (or (car k) #t)) k))) (show (f -1)) (f 2)",
    "(define (f n) (do ((k 0 (+ k 1))) ((or (and) (> k n)) k))) (show (list (f 3) (f 3)))",
    # the reference's errors, in the copy and after leaving it
    "(define (f v) (do ((i 0 (+ i 1))) ((> i 3) 'done) (vector-ref v i))) (show (f (vector 1 2 3 4))) (f (vector 1 2))",
    "(define (f v) (do ((i 0 (+ i 1))) ((> i 3) 'done) (when (= i 1) (set! i 'x)) (vector-ref v 0))) (f (vector 1))",
    # nested loops, a closure made in the body (no copy), a counter a closure captures
    "(define (f n) (do ((i 0 (+ i 1)) (s 0 (+ s (do ((j 0 (+ j 1)) (t 0 (+ t (* i j)))) ((= j n) t))))) ((= i n) s)))"
    " (show (list (f 3) (f 0)))",
    "(define (f n) (do ((i 0 (+ i 1)) (fs '() (cons (lambda () i) fs))) ((= i n) (map (lambda (g) (g)) fs))))"
    " (show (f 3))",
]


@pytest.mark.parametrize('program', PROGRAMS, ids=range(len(PROGRAMS)))
def test_the_integer_copy_agrees_with_the_reference(program):
    agree(SHOW + program)


def _source(monkeypatch, text, fn):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CODE_CACHE', '0')
    s = Session(out=io.StringIO())
    s.run(text)
    return s, s.python_source(s.genv.lookup(sym(fn)))


FIT = ("(define v (make-vector 40 #f)) (define w (make-vector 80 #f))"
       " (define (fit j end) (do ((k 0 (+ k 1))) ((or (> k end) (and (vector-ref v k) (vector-ref w (+ j k))))"
       " (> k end))))")


def test_the_copy_decides_the_counters_guards_and_its_ok_tests(monkeypatch):
    """The copy is entered on OK and the counter's class; in it no exit is
    left (OK known throughout: a global read, an index's range, run no Lisp
    code) and the counter's class is tested nowhere."""
    s, src = _source(monkeypatch, FIT + ' (fit 3 10) (fit 3 10)', 'fit')
    assert [s.run('(fit 3 30)') for _ in range(2)] == [True, True]
    head = 'if OK and v_k_'
    assert head in src, src
    copy = src.split(head, 1)[1].split('\n', 1)[1]
    indent = len(copy) - len(copy.lstrip(' '))
    copy = copy[:copy.index('\n' + ' ' * (indent - 4) + 'else:')]
    k = src.split(head, 1)[1].split('.', 1)[0]
    assert 'EXIT' not in copy and 'v_k_%s.__class__' % k not in copy and 'if OK' not in copy, copy


def test_only_the_innermost_loop_is_copied(monkeypatch):
    """A copy of an outer loop would copy the inner loops' copies again."""
    text = ('(define (f n) (do ((i 0 (+ i 1)) (s 0 (+ s (do ((j 0 (+ j 1)) (t 0 (+ t (* i j)))) ((= j n) t)))))'
            ' ((= i n) s))) (f 3)')
    s, src = _source(monkeypatch, text, 'f')
    assert s.run('(f 4)') == 36
    assert src.count('while True:') == 2 * src.count('if OK and v_j_'), src
    assert 'if OK and v_i_' not in src


# ── a loop's global reads made once before it (compile/global_reads.py) ──

VSUM = "(define v (vector 1 2 3)) (define real vector-ref) (define (f n) (do ((i 0 (+ i 1)) (s '() (cons (vector-ref v i) s))) ((= i n) s)))"

GLOBALS = [
    # the global replaced while the loop runs, by a builtin it inlines redefined (each call an exit,
    # whose write-back the loop reads the global again after): the new vector, its new length
    VSUM + " (show (f 3)) (show (f 3)) (set! vector-ref (lambda (w i) (set! v (vector 10 20 30)) (real w i)))"
    " (show (f 3)) (show (f 3))",
    VSUM + " (show (f 3)) (show (f 3)) (set! vector-ref (lambda (w i) (set! v (vector 7)) (real w i))) (f 3)",
    # a global read outside any call (a step), after an exit that changed it: read again
    "(define v 1) (define real vector-ref) (define u (vector 1 2 3))"
    " (define (f n) (do ((i 0 (+ i 1)) (w v v) (s '() (cons w s))) ((= i n) s) (vector-ref u i)))"
    " (show (f 3)) (show (f 3)) (set! vector-ref (lambda (x i) (set! v (+ v 1)) (real x i))) (show (f 3))",
    # a global unbound when the loop runs, a global holding no vector: the reference's errors
    "(define (f) (do ((i 0 (+ i 1))) ((= i 2) 'ok) (vector-ref nowhere i))) (f)",
    "(define v '(1 2)) (define (f) (do ((i 0 (+ i 1))) ((= i 2) 'ok) (vector-ref v i))) (f)",
    "(define v (vector 1 2)) (define (f) (do ((i 0 (+ i 1)) (s 0 (+ s (vector-ref v i)))) ((= i 2) s)))"
    " (show (f)) (set! v (vector 5 6 7)) (show (f)) (set! v 'x) (f)",
    # an item of a global vector at a fixed index, read before the loop unless the loop stores into
    # a vector (an alias of it, here) or calls a function (that may): the reference's values
    "(define m (vector (vector 1 2 3) (vector 4 5 6)))"
    " (define (f r) (do ((k 0 (+ k 1)) (s '() (cons (vector-ref (vector-ref m r) k) s))) ((= k 3) s)))"
    " (define (g r a b) (do ((k 0 (+ k 1)) (s '() (cons (vector-ref (vector-ref m r) k) s))) ((= k 3) s)"
    " (vector-set! a 2 (* 10 k)) (when (= k 1) (vector-set! m r b))))"
    " (define (h r) (do ((k 0 (+ k 1)) (s '() (cons (vector-ref (vector-ref m r) k) s))) ((= k 3) s)"
    " (set-item! r k)))"
    " (define (set-item! r k) (vector-set! (vector-ref m r) 2 (- k)) (when (= k 1) (vector-set! m r (vector r k 0))))"
    " (show (list (f 0) (f 1) (f 0) (g 0 (vector-ref m 0) (vector 7 8 9)) (g 1 (vector-ref m 1) (vector 0 0 0)) (f 0) (h 0) (h 1) (f 0)))"
    " (f 2)",
    # a store into a global vector (its class and length read before the loop): in range, past it, no vector
    "(define w (make-vector 4 0)) (define (f n) (do ((k 0 (+ k 1))) ((= k n) w) (vector-set! w k (* k k))))"
    " (show (list (f 2) (f 4))) (set! w (vector 1)) (show (f 1)) (set! w 'w) (f 1)",
    "(define w (make-vector 4 0)) (define (f n) (do ((k 0 (+ k 1))) ((= k n) w) (vector-set! w k (* k k))))"
    " (show (list (f 2) (f 4))) (f 5)",
    # a loop writing the global, or calling a function that does: read at each use
    "(define n 0) (define (f) (do ((i 0 (+ i 1))) ((> i 3) n) (set! n (+ n i)))) (show (list (f) (f)))",
]


@pytest.mark.parametrize('program', GLOBALS, ids=range(len(GLOBALS)))
def test_a_loops_global_reads_agree_with_the_reference(program):
    agree(SHOW + program)


def test_a_loop_running_no_lisp_code_reads_its_globals_before_it(monkeypatch):
    """fit's loop reads v and w (and their lengths) once, before it; a loop
    calling a function reads its global at each use."""
    s, src = _source(monkeypatch, FIT + ' (fit 3 10) (fit 3 10)', 'fit')
    assert s.run('(fit 3 30)') is True
    loops = _loops(src)
    assert loops and not any(re.search(r':= k\d+\.value', loop) for loop in loops), src
    assert all(re.search(r'= (hoisted\d+_) if \1 is not MISSING', loop) for loop in loops), src
    s, src = _source(monkeypatch, '(define m (vector (vector 1 2))) (define (f r) (do ((k 0 (+ k 1)) (s 0 (+ s'
                     ' (vector-ref (vector-ref m r) k)))) ((= k 2) s))) (f 0)', 'f')
    assert s.run('(f 0)') == 3
    before = src.split('while True:')[0]
    assert re.search(r'hoisted\d+_ = hoisted\d+_\.items\[v_r_\d+\]', before), src
    s, src = _source(monkeypatch, '(define n 0) (define (g) 1) (define (f) (do ((i 0 (+ i 1))) ((> i n) i) (g))) (f)', 'f')
    assert all(re.search(r':= k\d+\.value', loop) for loop in _loops(src)), src


def _loops(src) -> list:
    """The text of each `while` loop of src (its lines indented past its own)."""
    out, lines = [], src.split('\n')
    for i, line in enumerate(lines):
        if line.strip() == 'while True:':
            depth = len(line) - len(line.lstrip())
            body = []
            for more in lines[i + 1:]:
                if more.strip() and len(more) - len(more.lstrip()) <= depth:
                    break
                body.append(more)
            out.append('\n'.join(body))
    return out
