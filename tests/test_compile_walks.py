"""The compiler's fast paths into and out of builtins, against the reference
evaluator (RUSTY_SPECIALIZE=0): map, filter and for-each walking a list with
a compiled lambda (builtin_loops.list_walker: the lambda's function called in the
loop), foldl and reduce (builtin_loops.folder: + and * of exact integers as
Python's own), and `list` of a few arguments built in place
(inline.VARIADIC). Each program runs both ways with identical output, error
report (message, place, backtrace) and exit status; the walker and the
folder are also compared in process with apply.list_walker and
apply.folder, element by element. Also: the Lambda values compiled code
makes (support.LambdaMaker) against Lambda's own constructor."""
import io

import pytest

from rusty.apply import EACH, FILTER, MAP, folder, list_walker, sorter
from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session
from rusty.values import make_list
from rusty.compile.entry import direct_of
from helpers import session_on_path
from test_paths_agree import assert_same, both_ways

PROGRAMS = [
    # values, order of calls, output
    "(define (f lst) (map (lambda (x) (* x x)) lst)) (display (f '(1 2 3))) (f (vector 4 5))",
    "(define (f lst) (filter (lambda (x) (odd? x)) lst)) (list (f '(1 2 3 4 5)) (f '()))",
    "(define (f lst) (for-each (lambda (x) (display x) (newline)) lst)) (f '(a b c))",
    "(define (f lst) (map (lambda (x) (map (lambda (y) (list x y)) lst)) lst)) (f '(1 2))",
    "(define (f) (let ((n 0)) (for-each (lambda (x) (set! n (+ n x))) (iota 100)) n)) (f)",
    "(define (g x) (if (< x 3) x (g (- x 1)))) (define (f) (map (lambda (x) (g x)) '(1 5 9))) (f)",
    "(define (f lst) (filter (lambda (x) (and (> x 2) x)) lst)) (f '(1 2 3 4))",
    # a procedure failing midway: the report names the lambda, its call from the builtin and the builtin's call
    "(define (f lst) (map (lambda (x) (car x)) lst)) (f '((1) (2) 3 (4)))",
    "(define (f lst) (filter (lambda (x) (< x 2)) lst)) (f '(1 2 a 3))",
    "(define (f lst) (for-each (lambda (x) (display x) (/ 1 x)) lst)) (f '(3 2 1 0 5))",
    # failing after a tail call (the walker finishes the callee's tail call as run would)
    "(define (bad y) (car y)) (define (f lst) (map (lambda (x) (bad x)) lst)) (f '((1) 2))",
    "(define (f lst) (map (lambda (x) (let loop ((i x)) (if (= i 0) (car i) (loop (- i 1))))) lst)) (f '(2))",
    # a walk in place whose body calls first-order builtins the compiler does not inline; one redefined;
    # a large body; choosing forms beyond if
    "(define (f l) (map (lambda (x) (str \"n\" x)) l)) (define a (f '(1 2))) (set! str (lambda xs 'mine)) (list a (f '(3)))",
    "(define (f l) (filter (lambda (x) (> (string-length x) 1)) l)) (f '(\"ab\")) (f '(\"ab\" \"c\" 5 \"de\"))",
    "(define (f l) (map (lambda (i) (list (list \"id\" i) (list \"name\" (str \"item\" i)) (list \"tags\" (list 1 2 3))"
    " (list \"ok\" #t) (list (+ i 1) (* i 2) (- i 3)))) l)) (list (f '(1 2)) (f '(3)))",
    "(define (f l) (map (lambda (x) (cond ((< x 0) 'neg) ((= x 0) (when #t 'zero)) (else (begin 1 'pos)))) l)) (f '(1)) (f '(-1 0 1 a))",
    # procedures the walker leaves to the reference: builtins, rest parameters, two parameters
    "(define (f lst) (list (map car lst) (map (lambda args args) lst) (filter pair? lst))) (f '((1) (2 3)))",
    "(define (f lst) (map (lambda (a b) a) lst)) (f '(1 2))",
    # a builtin of one argument that runs no Lisp code, walked by Python's map (builtin_loops.builtin_walk):
    # values, a failure midway, filter's any true value, for-each, vectors, other arities left to the reference
    "(define (f l) (list (map number->string l) (filter odd? l) (for-each abs l) (map abs (vector -1 2)))) (f (iota 20))",
    "(define (f l) (map number->string l)) (f '(1 2 a 3))",
    "(define (f l) (filter string-length l)) (f '(\"a\" \"bc\" 3 \"d\"))",
    "(list (filter (lambda (x) x) (map string? '(1 \"a\"))) (map car '((1) (2))) (filter null? '(() 1 (2))))",
    "(for-each car (list '(1) 2))",
    "(list (map number->string '(255) '(16)) (map + '(1 2)) (map list '(1 2)) (filter zero? '()))",
    "(define (f lst) (map (lambda (x . r) x) lst)) (f '(1 2))",
    # list built in place, and not (rebound, too many arguments, an argument failing)
    "(define (f a) (list a (list a 1) (list 1 2 3 4) (list 1 2 3 4 5) (list))) (f 7)",
    "(define (f a) (list a (car a))) (f 5)",
    "(define (f a) (list a (list (list (cdr a))))) (f 5)",
    "(define (f a) (list a 2)) (define list (lambda args (cons 'mine args))) (f 1)",
    "(define (f a) (list a 2)) (f 1) (set! list vector) (f 1)",
    # sort by a compiled less? (builtin_loops.sorter): stable, any true value, failing, a tail call, not compiled yet
    "(define (f l) (sort l (lambda (a b) (< (car a) (car b))))) (f '((2 a) (1 b) (2 c) (1 d) (0 e)))",
    "(define (f l) (sort l (lambda (a b) (and (> a b) 0)))) (list (f '(3 1 2)) (f '()) (f '(5)))",
    "(define (f l) (sort l (lambda (a b) (< a b)))) (f '(3 1 x 2))",
    "(define (lt a b) (< a b)) (define (f l) (sort l (lambda (a b) (lt b a)))) (list (f '(1 3 2)) (f '(1 z)))",
    "(display (sort '(3 1 2) (lambda (a b) (display a) (< a b))))",
    # foldl and reduce (builtin_loops.folder): + and * over exact integers, then whatever comes; lambdas
    "(list (foldl + 0 '(1 2 3)) (foldl * 1 (iota 30 1)) (reduce + 0 '()) (foldl + 0 '(1 2.5 3)) (foldl + 0.5 '(1 2)))",
    "(foldl + 0 '(1 2 a 4))",
    "(define (f l) (reduce * 1 l)) (f (list 1 2 \"s\" 3))",
    "(list (foldl + 1 '(#t)) (foldl + 0 '(1 2)))",
    "(define (f l) (foldl (lambda (x acc) (cons (* x 2) acc)) '() l)) (f '(1 2 3))",
    "(define (f l) (foldl (lambda (x acc) (display x) (+ acc (car x))) 0 l)) (f '((1) (2) 3 (4)))",
    "(define (bad y) (car y)) (define (f l) (foldl (lambda (x acc) (bad x)) 0 l)) (f '((1) 2))",
    "(define (f l) (foldl (lambda (x . r) x) 0 l)) (list (f '(1 2)) (foldl list 0 '(1 2)) (foldl - 0 '(1 2)))",
    "(define (f l) (foldl (lambda (x acc) (+ x acc)) 0 l)) (define (g) (f (iota 1000))) (list (g) (g))",
]


@pytest.mark.parametrize('program', PROGRAMS, ids=range(len(PROGRAMS)))
def test_walks_and_lists_agree_with_the_reference(program):
    reference, fast = both_ways(['-e', program])
    assert_same(reference, fast, program)


def test_a_walk_past_the_depth_limit_agrees():
    program = ("(define (down n) (if (= n 0) 0 (car (filter (lambda (k) (>= (down k) 0)) (list (- n 1))))))\n"
               "(define (go n) (try-catch (down n) (e) (list 'caught e)))\n(display (go 300000)) (go 100)")
    reference, fast = both_ways(['-e', program])
    assert 'recursion limit exceeded' in reference[1], reference
    assert_same(reference, fast, program)


# ── In process: the compiled walker against the reference walker ──────────

def outcome(fn, *args):
    try:
        return ('value', write_form(fn(*args)))
    except RustyError as e:
        return ('error', e.message, [(entry[1]) for entry in e.trace])


def compiling_session(monkeypatch) -> Session:
    """A session with the compiler on, whatever the environment says."""
    for var in ('RUSTY_SPECIALIZE', 'RUSTY_COMPILE', 'RUSTY_COMPILE_CALLS'):
        monkeypatch.setenv(var, '1')
    return Session(out=io.StringIO())


@pytest.mark.parametrize('mode', [MAP, FILTER, EACH])
def test_the_compiled_walker_agrees_with_the_reference_walker(monkeypatch, mode):
    s = compiling_session(monkeypatch)
    s.run("(define seen '()) (define (p x) (set! seen (cons x seen)) (if (= x 4) (car x) (odd? x)))"
          "(define (q x) (set! seen (cons x seen)) (and (odd? x) (* x 10)))")
    reference = list_walker(s.call)
    assert s.walk.__module__ == 'rusty.compile.builtin_loops'       # the compiler's own, on this session
    for name, data in (('q', '(iota 9)'), ('p', "'(1 2 3)"), ('p', "'(1 2 3 4 5)"), ('q', "'()"),
                       ('odd?', '(iota 19)'), ('odd?', "'(1 2 x 3)"), ('number->string', '(iota 10)'),
                       ('car', "'((1) (2) 3)"), ('string-length', "'(\"a\" \"\" \"bc\")"), ('abs', "'()")):
        p, lst = s.run(name), s.run(data)
        got = []
        for walk in (s.walk, reference):
            s.run("(set! seen '())")
            got.append((s.worker.call(lambda: outcome(walk, p, lst, mode)), write_form(s.run('seen')),
                        s.depth.n))
        assert got[0] == got[1], (name, data)


def test_the_compiled_sorter_agrees_with_the_reference_sorter(monkeypatch):
    s = compiling_session(monkeypatch)
    s.run("(define seen 0) (define (p a b) (set! seen (+ seen 1)) (if (eq? a 'x) (car a) (< a b)))"
          "(define (q a b) (> (car a) (car b)))")
    reference = sorter(s.call)
    assert s.sort_by.__module__ == 'rusty.compile.builtin_loops'
    for name, data in (('p', '(list 5 3 9 1 3)'), ('p', "'(2 x 1)"), ('q', "'((1 a) (3 b) (1 c))"), ('p', "'()")):
        p, items = s.run(name), list(s.run(data))
        got = []
        for sort_by in (s.sort_by, reference):
            s.run('(set! seen 0)')
            got.append((s.worker.call(lambda: outcome(lambda: make_list(sort_by(items, p)))), s.run('seen'),
                        s.depth.n))
        assert got[0] == got[1], (name, data)


def test_the_compiled_folder_agrees_with_the_reference_folder(monkeypatch):
    s = compiling_session(monkeypatch)
    s.run("(define seen '()) (define (p x acc) (set! seen (cons x seen)) (if (eq? x 'x) (car x) (+ x acc)))")
    reference = folder(s.call)
    assert s.fold.__module__ == 'rusty.compile.builtin_loops'
    cases = (('p', '0', '(iota 9)'), ('p', '0', "'(1 2 x 3)"), ('p', '1.5', "'(1 2)"), ('+', '0', '(iota 100)'),
             ('+', '0', "'(1 2 x 3)"), ('*', '1', "'(2 3.5 4)"), ('*', "'a", "'(2 3)"), ('+', '7', "'()"),
             ('-', '0', "'(5 1)"), ('list', '0', "'(1 2)"), ('*', '3', '(range 1 30)'), ('+', '-7', '(iota 17)'),
             ('+', '1', "'(1 2 #t)"), ('*', '0', "'(1 2 3)"), ('+', '0', '(list 1 2 (expt 10 30))'))
    for name, init, data in cases:
        f, acc, lst = s.run(name), s.run(init), s.run(data)
        got = []
        for fold in (s.fold, reference):
            s.run("(set! seen '())")
            got.append((s.worker.call(lambda: outcome(fold, f, acc, lst)), write_form(s.run('seen')), s.depth.n))
        assert got[0] == got[1], (name, init, data)


def test_a_profiled_integer_fold_counts_the_builtins_calls_as_the_reference_does(monkeypatch):
    """Python's + stands in for the builtin only while no profiler counts its calls."""
    counts = []
    for fast in (True, False):
        s = session_on_path(monkeypatch, fast)
        s.run("(define (f xs) (foldl + 0 xs)) (define xs '(%s))" % ' '.join(map(str, range(40))))
        assert s.run('(f xs)') == 780
        s.profile('(f xs)')
        counts.append({r.label: r.calls for r in s.last_profile.rows.values() if r.label in ('+', 'foldl')})
    assert counts[0] == counts[1] and counts[0]['+'] == 40, counts


# ── Lambda values made by compiled code ──────────────────────────────────

def test_a_lambda_compiled_code_makes_is_the_one_its_constructor_makes(monkeypatch):
    """support.LambdaMaker fills a Lambda's slots in place: each as Lambda() would."""
    from rusty.compile import support
    from rusty.values import Lambda
    s = compiling_session(monkeypatch)
    s.run('(define (mk a) (list (lambda (x) (+ x a)) (lambda (x . r) r) (lambda (x) (define y x) y) (lambda () a)))')
    s.run('(mk 1)')                         # the reference's values; compiled from here on
    for lam in s.run('(mk 2)'):
        assert lam.code.func is support.enter
        made = Lambda(lam.params, lam.rest, lam.body, lam.code, lam.env, lam.name, lam.scope, lam.extra)
        for slot in ('params', 'rest', 'body', 'env', 'name', 'scope', 'extra', 'fast'):
            assert getattr(lam, slot) is getattr(made, slot) or getattr(lam, slot) == getattr(made, slot), slot
        assert (direct_of(lam) is not None) == (made.rest is None)     # (body defines too: support.arity)
    assert write_form(s.run('(map (lambda (f) (f 5)) (list (car (mk 3))))')) == '(8)'
