"""Inlined builtins with an effect (compile/inline.py's Effect: vector-set!)
against the reference: the same programs in a session on the reference alone
and in one compiling every lambda at its first call; the values, the vectors
written and the errors (message, position, backtrace and its frames) must
agree, in every position the call can take."""
import pytest

from rusty.printer import write_form
from rusty.values import Vector, make_list, sym
from test_compile_paths import bits, outcome, outcomes_both_ways, session

INDICES = [0, 1, 2, 3, -1, 1.0, 2.5, -0.0, True, 2 ** 70, 'x', sym('a')]
VECTORS = [Vector([10, 20, 30]), Vector([]), make_list([1, 2]), 'abc', 7]

# Every place the call can be: a statement, a value used, a tail call, a
# `do` loop's body, the value of an `if` test, operands from a global.
SHAPES = [
    '(define (stmt v i x) (vector-set! v i x) v)',
    '(define (used v i x) (list (vector-set! v i x) 1))',
    '(define (tail v i x) (vector-set! v i x))',
    '(define (looped v i x) (do ((k 0 (+ k 1))) ((= k 2) v) (vector-set! v i (+ x k))))',
    '(define (tested v i x) (if (vector-set! v i x) (quote yes) (quote no)))',
    '(define (glob v i x) (vector-set! gv gi x))',
]


def run_all(s):
    """The outcome of every shape on every vector and index, and the vector after it."""
    s.run('(define gv 0) (define gi 0)\n' + '\n'.join(SHAPES), '<defs>')
    found = []
    for shape in SHAPES:
        name = shape.split()[1][1:]
        for v0 in VECTORS:
            for i in INDICES:
                v = Vector(list(v0.items)) if v0.__class__ is Vector else v0
                s.genv.define(sym('gv'), v)
                s.genv.define(sym('gi'), i)
                got = outcome(lambda: write_form(s.call(s.genv.lookup(sym(name)), [v, i, 5])))   # (as text: vectors too)
                after = bits(make_list(v.items)) if v.__class__ is Vector else None
                found.append(((name, repr(v0), repr(i)), got, after))
    return found


def test_vector_set_inlined_matches_the_reference(monkeypatch):
    want = run_all(session(monkeypatch, False))
    got = run_all(session(monkeypatch, True))
    bad = [(w, g) for w, g in zip(want, got) if w != g]
    assert bad == [], bad[:5]


def test_vector_set_is_computed_in_place(monkeypatch):
    s = session(monkeypatch, True)
    s.run('(define (put v i x) (vector-set! v i x) v) (put (vector 1 2) 0 3) (put (vector 1 2) 0 3)', '<defs>')
    from rusty.compile.shown import python_source
    source = python_source(s.genv.lookup(sym('put')), s.unit)
    assert '.items[' in source and '] = ' in source, source


@pytest.mark.parametrize('later', [
    '(define (vector-set! v i x) (list (quote mine) i))',       # redefined: the compiled caller sees it
    '(defmacro vector-set! (v i x) (list (quote quote) (list v i x)))',
])
def test_vector_set_redefined_after_the_caller_was_compiled(monkeypatch, later):
    defs = '(define (put v i x) (vector-set! v i x))'
    src = later + ' (list (put (vector 1 2) 0 3) (put (vector 1 2) 5 3))'
    want, got = outcomes_both_ways(monkeypatch, defs, ['(put (vector 1 2) 0 3)'], src)
    assert want == got


def test_vector_set_failing_deep_reports_alike(monkeypatch):
    defs = ('(define (fill v n) (if (< n 0) v (begin (vector-set! v n n) (fill v (- n 1)))))'
            ' (define (outer v) (+ 1 (vector-length (fill v 5))))')
    want, got = outcomes_both_ways(monkeypatch, defs, ['(outer (make-vector 6 0))'], '(outer (make-vector 3 0))')
    assert want[0] == 'error' and want == got
