"""The standard library's car/cdr compositions called from compiled code
against the reference: the same programs with RUSTY_SPECIALIZE=0, values and
errors (message, position, backtrace) alike, at the depth limit too, and the
program's own procedure when it redefines the name."""
import pytest

from rusty.runtime import Session
from rusty.values import EMPTY, NIL, make_list, sym
from test_compile_paths import outcome

LIBRARY = ('cadr', 'cddr', 'caddr', 'caar', 'cdar')

ARGS = [EMPTY, NIL, 1.0, 'ab', sym('a'), make_list([1.0]), make_list([1.0, 2.0]),
        make_list([1.0, 2.0, 3.0]), make_list([make_list([1.0, 2.0]), 3.0]), make_list([EMPTY, 2.0]),
        make_list([make_list([5.0]), make_list([6.0]), make_list([7.0])])]

# Every place compiled code calls one: call node (non-tail and tail), as an
# operand, a let init, an argument of an inline builtin, with the operand
# read from a local, an outer frame and a global.
SHAPES = [
    '(define (call-node a) (id (OP a)))',
    '(define (tail-call a) (OP a))',
    '(define (operand a) (list (OP a)))',
    '(define (let-init a) (let ((r (OP a))) r))',
    '(define (outer a) ((lambda () (list (OP a)))))',
    '(define (global a) (list (OP ga)))',
    '(define (nested a) (list (OP (cdr a))))',
]


def session(monkeypatch, fast: bool, limit: str = '2000') -> Session:
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', limit)
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session()
    monkeypatch.delenv('RUSTY_COMPILE_CALLS')
    monkeypatch.delenv('RUSTY_SPECIALIZE')
    monkeypatch.delenv('RUSTY_RECURSION_LIMIT')
    return s


def run_shapes(s, op):
    s.run('(define (id x) x)\n' + '\n'.join(shape.replace('OP', op) for shape in SHAPES), '<lib>')
    found = []
    for a in ARGS:
        s.genv.define(sym('ga'), a)
        for shape in SHAPES:
            proc = s.genv.lookup(sym(shape.split()[1][1:]))
            found.append((shape, repr(a), outcome(lambda: s.call(proc, [a]))))
    return found


@pytest.mark.parametrize('op', LIBRARY)
def test_inline_library_lambda_matches_the_reference(monkeypatch, op):
    got = [run_shapes(session(monkeypatch, fast), op) for fast in (False, True)]
    assert got[0] == got[1]
    assert any(o[2][0] == 'error' for o in got[1]) and any(o[2][0] == 'value' for o in got[1])


@pytest.mark.parametrize('src', [
    # the program's own cadr is called, not the library's
    "(define (f e) (list (cadr e))) (define r1 (f '(1 2))) (define (cadr x) 'mine) (list r1 (f '(1 2)))",
    "(define cadr (lambda (x) 'mine)) (define (f e) (list (cadr e))) (f '(1 2))",
    "(defmacro cadr (x) ''macro) (define (f e) (list (cadr e))) (f '(1 2))",
    # the library itself keeps its cadr when the program redefines it
    "(define (cadr x) 'mine) (define (car x) 'mine) (list (cadr '(1 2)) (caddr '(1 2 3)))",
    # redefined by a call in the middle of the function (OK turns false there)
    "(define (g) (set! cadr car) 1) (define (f e) (list (cadr e) (g) (cadr e))) (list (f '(1 2)) (f '(3 4)))",
    # errors inside, with the library frame in the backtrace (in tail position: a tail call of it)
    "(define (f e) (cadr e)) (list (f '(1 2)) (f 5))",
    "(define (f e) (list (cddr e))) (f '(1))",
    '(define (f e) (+ 1 (caddr e))) (f (list 1 2))',
    '(define (f e) (let ((x (caar e))) x)) (f (list 5))',
])
def test_programs_run_the_same_both_ways(monkeypatch, src):
    got = [outcome(lambda: session(monkeypatch, fast).run(src, '<prog>')) for fast in (False, True)]
    assert got[0] == got[1]


@pytest.mark.parametrize('n', range(1994, 2002))
def test_at_the_depth_limit_the_call_counts_as_in_the_reference(monkeypatch, n):
    # cadr is a call: at the limit it is the call that goes one level too deep
    src = ("(define (down n l) (if (= n 0) (list (cadr l)) (cons 0 (down (- n 1) l)))) "
           "(length (down %d '(1 2)))" % n)
    got = [outcome(lambda: session(monkeypatch, fast).run(src, '<prog>')) for fast in (False, True)]
    assert got[0] == got[1]
    assert {o[0] for o in got} <= {'value', 'error'}


def test_the_compiler_computes_them_in_place(monkeypatch):
    s = session(monkeypatch, True)
    s.run("(define (f e) (list (cadr e) (caddr e))) (define (g e) (cadr e))", '<lib>')
    assert '.cdr.car' in s.python_source(s.genv.lookup(sym('f')))
    s.run("(define (cadr x) 'mine)", '<lib>')      # the program's own: a call, not the library's value
    assert s.run("(list (f '(1 2 3)) (g '(1 2)))", '<lib>').car.car is sym('mine')
