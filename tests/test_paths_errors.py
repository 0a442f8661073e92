"""Error reports and limits, the fast path against the reference evaluator
(RUSTY_SPECIALIZE=0): the error examples of the language's contract (a table
kept here, so the test runs on a clean checkout), every golden program under
tests/lisp/ and repl.lisp-examples/, and the recursion limit, each run both
ways with identical standard output, error report (message, location, caret
line, hints, backtrace) and exit status."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from test_paths_agree import assert_same, both_ways

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The contract's error examples, by the section of docs/reference.md's
# language they come from: the `⇒ error:` examples and a program for each
# message of its error tables.
SPEC_ERRORS = [
    # reader
    '(+ 1 2', ')', '(list 1))', "(list ')", '(list `)', '(list ,)', '(list ,@)', '#| open', '(+ 1 #;)',
    '(' * 8001 + ')' * 8001,
    # truthiness, equality, comparisons (one or more operands), messages naming the operator
    '(not)', '(not 1 2)', '(eq? 1)', '(<)', '(< 1 "a")', '(+ 1 #f)', '(= 1 2 #t)', '(>= "x")', '(neq 1)',
    '(- )', '(/ 1)', '(/ 5 0)', '(/ 5 2 0.0)', '(/ 5 -0.0 2)', '(mod 5 0)', '(quotient 1 0)', '(remainder 1 0)',
    '(modulo 1 0)', '(* 2 "3")', '(max 1 (quote a))', '(abs "x")', '(sqrt #t)', '(exact 1.5)', '(exact "1")',
    # dispatch, arity
    '(5 1)', '(() 1)', "(define xs '(1)) (map eval xs)", '((quote f) 1)', '(define (f x) x) (f)',
    '(define (f x) x) (f 1 2)', '(define (f a . r) a) (f)', '((lambda (a b) a) 1)', '((lambda (a . b) a))',
    '(defmacro m (a) a) (m)', '(define m2 (lambda args args)) (m2 1 2 (car 1))',
    # definitions, assignment, lambda
    '(define)', '(define x)', '(define 5 1)', '(define () 1)', '(define z 1 (f))', '(def x)', '(set! nope 1)',
    '(set! x)', '(set x)', '(lambda (x))', '(lambda (1) 1)', '(lambda (a .) a)', '(lambda (a . b c) a)',
    # let family, do, conditionals
    '(let ((x)) x)', '(let x)', '(let (x) x)', '(let* ((1 2)) 3)', '(letrec (x) 1)', '(letrec* ((x 1)))',
    '(let loop ((i 0)))', '(do ((i 0)) )', '(do)', '(if 1)', '(if 1 2 3 4)', '(when 1)', '(unless #f)',
    '(quote)', '(quote 1 2)', '(cond (1 2) 3)', '(eval-when 5 1)', '(begin (car 1))',
    # try-catch, match, quasiquote, eval, defmacro, load
    '(try-catch 1)', '(try-catch (car 1) e e)', '(try-catch (car 1) (e f) e)', '(match 7)',
    "(match 7 ('seven 1))", "(match '(1 2) ((a . ) a))", '(match 4 ((? 5) 1))', '(match 4 ((? undefined-pred) 1))',
    '(quasiquote)', "(define xs '(2 3)) `(1 ,@5)", '(eval)', '(eval 1 2)', "(eval '(car 1))", '(defmacro)',
    '(defmacro m x x)', '(defmacro m (a))', '(defmacro m (a) (eval-when (compile) 1))', '(load)', '(load 5)',
    '(load "/nonexistent/file.lisp")', '(load-relative "missing-file.lisp")', '(eval-string "(+ 1")',
    '(eval-string "(car 5)")', '(case 1 (1 2))', '(case)',
    # Undefined and its suggestions
    '(filtr even? (list 1 2))', '(defin x 5)', '(string-shout "hi")', '(zzqx 1)', '(string-index "a" "b")',
    '(first-of (list 1))', '(define (f lengthy) (lenghty 1)) (f 2)', 'unquote', '(unquote 1)',
    # lists, strings, formats, JSON, hashes, vectors
    '(car (nil))', "(car '())", '(car 5)', '(cdr 5)', '(cdr (nil))', '(length 5)', '(append 1)',
    "(nth '(a b) 2)", "(nth '(a b) -1)", "(nth '(a b) 1.5)", "(list-tail '(1) 2)", "(list-ref '(1) 3)",
    "(foldl + 0 (nil))", "(foldr + 0 5)", '(apply + 1)', "(sort '(1 a))", "(sort '(1 2) 5)", '(map car)',
    "(map car '(1))", "(filter 5 '(1))", '(string-append "a" 1)', '(string-ref "abc" 3)', '(substring "hello" -3)',
    '(substring "hello" 2 9)', '(string-ref "abc" "x")', '(format 5)', '(format "~a")', '(format "~Q" 1)',
    '(format "~8,2f" "x")', '(json-encode car)', '(json-decode "[1,")', "(json-encode (list (list 1 2)) 'x)",
    '(hash 1)', "(hash-ref (make-hash) 'k)", '(hash-set! (make-hash) car 1)', "(alist->hash '(1))",
    '(char-code "")', '(code-char -1)', '(string-replace "a" "" "b")', '(random 0)', '(exit 300)',
    '(vector-ref #(1 2 3) 3)', '(vector-ref #(1 2 3) -1)', '(vector-set! (vector) 0 1)', '(make-vector -1)',
    '(vector-ref (list 1) 0)', '(take 5 (list 1))', '(assert (even? 3))',
    '(assert #f "custom" 42)', '(error "bad value:" 5)', '(error)', '(string->symbol 5)', '(symbol->string "s")',
    # grad, tensors, graph IR (the interpreted ones: no rustc)
    '(grad 5)', '(grad (lambda () 1))', '(grad (lambda (x) 1 2))', '(grad (lambda (x) (foo x)))',
    '(grad (lambda (x) (expt x x)))', "(tensor '())", "(tensor '((1 2) (3)))", "(zeros '(0))",
    "(tensor-ref (tensor '(1 2)) 5)", "(tensor-ref (tensor '(1 2)) 0 0)",
    "(tensor-add (tensor '((1 2) (3 4))) (tensor '(1 2 3)))", '(tensor-add 1 2)', '(tensor-sum 5)', '(relu "x")',
    "(tensor-map (lambda (x) 'a) (tensor '(1)))", '(matmul 1 2)', "(matmul (tensor '(1)) (tensor '(1)))",
    "(matmul (tensor '((1 2 3) (4 5 6))) (tensor '((1 2) (3 4) (5 6) (7 8))))", "(transpose (tensor '(1)))",
    '(graph-ir 5)', '(graph-ir (lambda x x))', '(graph-ir (lambda (x) x x))', '(graph-ir (lambda (x) y))',
    '(graph-ir (lambda (x) (foo x)))', '(graph-ir (lambda (x) "s"))', '(graph-ir (lambda (x) (if x 1)))',
    '(graph-ir (lambda (x) (+)))', '(graph-eval (lambda (x) (+ x 1)))', '(graph-eval (lambda (x) x) "s")',
    "(graph-eval (lambda (x) (+ x 1)) (tensor '(1 2)))", '(graph-grad (lambda (x) (if (< x 1) x 2)) 1)',
    "(graph-grad (lambda (x) (tensor-add x x)) (tensor '(1 2)))",
    # defrust's compile-time errors (raised before rustc runs)
    '(defrust f (x) y)', '(defrust f (x) (g x))', '(defrust f (x) "s")', '(defrust f (x) (if x 1 2))',
    '(defrust f (x) (let loop ((i 0)) i))', '(defrust f (x) (cond ((< x 1) 2)))', '(defrust*)', '(defrust)',
    # the report's own shape: location, snippet, backtrace and its elision
    '(define (f x) (/ x 0))\n(define (g y) (+ 1 (f y)))\n(g 2)',
    '(define (d n) (if (= n 0) (car n) (+ 1 (d (- n 1)))))\n(d 25)',
    '(define (t n) (if (= n 0) (car n) (t (- n 1))))\n(define (u) (list (t 5)))\n(u)',
    "(define (f x) (car x))\n(map f '(1))", '(define (f) (average))\n(f)', "(define sum 0)\n(average 1 2 (quote a))",
    '(define (f x y) x)\n(define (g) (f 1))\n(g)', '(define (cb) (sort (list 2 1) (lambda (a) #t)))\n(cb)',
    '(define x 1)\n(define (f) (display x) (define x 2) (car x))\n(f)',
    '(define (f) (let ((a 1)) ' + ' ' * 120 + '(car a)))\n(f)',
    '(defmacro twice (e) `(begin ,e ,e))\n(define (f) (twice (car 1)))\n(f)',
    '(define (count-down n) (if (= n 0) 0 (+ 1 (count-down (- n 1)))))\n(count-down 10000000)',
]


def wrapped(text: str) -> str:
    """The same program run from inside a function (where the fast path
    compiles it), called from one more frame."""
    return '(define (spec-site)\n%s)\n(define (spec-caller) (list (spec-site)))\n(spec-caller)' % text


@pytest.mark.parametrize('text', SPEC_ERRORS, ids=range(len(SPEC_ERRORS)))
def test_spec_error_reports_agree(text):
    reference, fast = both_ways(['-e', text])
    assert reference[0] != 0 and reference[2].startswith('Error: '), reference    # it is an error example
    assert_same(reference, fast, text)
    reference, fast = both_ways(['-e', wrapped(text)])
    assert_same(reference, fast, wrapped(text))


# ── Golden programs ──────────────────────────────────────────────────────

def golden_files():
    found = []
    for top in ('tests/lisp', 'repl.lisp-examples'):
        for base, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d != 'lib')
            found += [os.path.relpath(os.path.join(base, f), ROOT) for f in sorted(files) if f.endswith('.lisp')]
    return found


def directive(text: str, name: str) -> list:
    """The values of a golden's `; NAME: value` lines."""
    return re.findall(r'^\s*;+ ?%s: ?(.*)$' % re.escape(name), text, re.M)


def masked(run, patterns):
    """A run's standard output with the lines a golden matches by a pattern
    (timings) reduced to the pattern, so two runs compare."""
    lines = [next((p for p in patterns if re.fullmatch(p, line)), line) for line in run[1].split('\n')]
    return run[0], '\n'.join(lines), run[2]


@pytest.mark.parametrize('path', golden_files())
def test_golden_programs_agree(path):
    full = os.path.join(ROOT, path)
    with open(full, encoding='utf-8') as fh:
        text = fh.read()
    if 'rustc' in ' '.join(directive(text, 'requires')) and shutil.which('rustc') is None:
        pytest.skip('rustc not on PATH')
    args = [os.path.basename(full)] + [a for line in directive(text, 'args') for a in line.split()]
    stdin = ''.join(line + '\n' for line in directive(text, 'stdin'))
    reference, fast = both_ways(args, stdin, cwd=os.path.dirname(full))
    patterns = directive(text, 'expect-match')
    assert_same(masked(reference, patterns), masked(fast, patterns), path)


# ── Limits: the depth limit and tail calls, both ways ────────────────────

LIMIT = 400


def rusty(program: str, fast: bool, **env):
    """`python3 -m rusty -e PROGRAM` in a subprocess (for the limit read at start-up)."""
    full = dict(os.environ, RUSTY_SPECIALIZE='1' if fast else '0', **env)
    done = subprocess.run([sys.executable, '-m', 'rusty', '-e', program], capture_output=True, text=True,
                          env=full, cwd=ROOT, timeout=300)
    return done.returncode, done.stdout, done.stderr


DEPTH_PROGRAMS = {
    'plain': '(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1)))))\n(down N)',
    'let': '(define (down n) (if (= n 0) 0 (let ((r (down (- n 1)))) (+ r 1))))\n(down N)',
    'mutual': '(define (a n) (if (= n 0) 0 (+ 1 (b (- n 1)))))\n(define (b n) (if (= n 0) 0 (+ 1 (a (- n 1)))))\n'
              '(a N)',
    'closure': '(define (mk) (lambda (n) (if (= n 0) 0 (+ 1 (self (- n 1))))))\n(define self (mk))\n(self N)',
    # the library's cadr (computed inline by the fast path while the depth limit has room for its call)
    'library': "(define (down n) (if (= n 0) (cadr '(1 0)) (+ 1 (down (- n 1)))))\n(down N)",
    'map': "(define (down n) (if (= n 0) 0 (car (map (lambda (k) (+ 1 (down k))) (list (- n 1))))))\n(down N)",
}


@pytest.mark.parametrize('shape', sorted(DEPTH_PROGRAMS))
def test_depth_limit_is_the_same_both_ways(shape):
    """Depth limit - 1 nested calls work, the limit fails with the same
    report both ways (a program counts its own top frame: found by search on
    the reference, then checked on both)."""
    program = DEPTH_PROGRAMS[shape]
    env = {'RUSTY_RECURSION_LIMIT': str(LIMIT)}
    deepest = deepest_working(lambda n: rusty(program.replace('N', str(n)), False, **env)[0] == 0)
    for fast in (False, True):
        ok = rusty(program.replace('N', str(deepest)), fast, **env)
        assert ok == (0, '%d\n' % deepest, ''), (fast, ok)
    over = [rusty(program.replace('N', str(deepest + 1)), fast, **env) for fast in (False, True)]
    assert over[0][0] == 1 and 'recursion limit exceeded (depth %d)' % LIMIT in over[0][2], over[0]
    assert_same(over[0], over[1], shape)


def deepest_working(works) -> int:
    """The largest n below LIMIT for which works(n) (binary search; works(0) holds)."""
    low, high = 0, LIMIT
    while low + 1 < high:
        mid = (low + high) // 2
        low, high = (mid, high) if works(mid) else (low, mid)
    assert low > LIMIT // 4, low
    return low


def test_recursion_limit_caught_by_try_catch_agrees():
    program = ('(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1)))))\n'
               '(list (try-catch (down 100000) (e) e) (down 50))')
    runs = [rusty(program, fast, RUSTY_RECURSION_LIMIT='300') for fast in (False, True)]
    assert runs[0][0] == 0 and 'recursion limit exceeded (depth 300)' in runs[0][1], runs[0]
    assert_same(runs[0], runs[1], program)


TAIL_CALLS = [
    # a million mutual tail calls, in if, cond, and, when, let bodies
    '(define (ev? n) (if (= n 0) #t (od? (- n 1))))\n(define (od? n) (if (= n 0) #f (ev? (- n 1))))\n'
    '(list (ev? 1000000) (od? 1000001))',
    '(define (ping n acc) (cond ((<= n 0) acc) (else (pong (- n 1) (+ acc 1)))))\n'
    '(define (pong n acc) (let ((m n)) (when #t (and #t (ping m acc)))))\n(ping 1000000 0)',
    # a named let loop and a self tail call through a captured variable
    '(define (f) (let loop ((i 0) (acc 0)) (if (= i 1000000) acc (loop (+ i 1) (+ acc 2)))))\n(f)',
    '(define (mk) (define (go n) (if (= n 0) (quote done) (go (- n 1)))) go)\n((mk) 1000000)',
]


@pytest.mark.parametrize('program', TAIL_CALLS, ids=range(len(TAIL_CALLS)))
def test_a_million_tail_calls_run_in_constant_stack_both_ways(program):
    """With a depth limit far below a million, only proper tail calls finish."""
    runs = [rusty(program, fast, RUSTY_RECURSION_LIMIT='1000') for fast in (False, True)]
    assert runs[0][0] == 0 and runs[0][2] == '', runs[0]
    assert_same(runs[0], runs[1], program)
