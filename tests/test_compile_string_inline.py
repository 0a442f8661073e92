"""string-append and str (one to four arguments) and substring (two or three)
computed in place by compiled code (inline.VARIADIC, inline.BINARY,
INLINE), against the reference evaluator: every argument tuple from a grid
of strings, positions in and out of range, floats, booleans, symbols and
lists, in shapes that put the call as the value, an operand, a let's init,
an if's test, with literal operands and read from a frame further out; the
same values, and the same errors (message, position, backtrace)."""
import itertools
import sys

import pytest

from rusty.compile.inline import inline_spec
from rusty.values import EMPTY, Builtin, make_list, sym
from test_compile_paths import outcome, session

TEXTS = ['', 'a', 'héllo', 'hello world']
POSITIONS = [0, 1, 3, 5, 11, 12, -1, 2.0, True, 'x']
OTHERS = [1, 2.5, sym('s'), EMPTY, make_list(['a']), False]

SHAPES = [
    '(define (value ARGS) (OP ARGS))',
    '(define (operand ARGS) (list (OP ARGS)))',
    '(define (let-init ARGS) (let ((r (OP ARGS))) r))',
    '(define (test ARGS) (if (string? (OP ARGS)) (quote yes) (quote no)))',
    '(define (outer ARGS) ((lambda () (OP ARGS))))',
]
LITERAL_SHAPES = ['(define (lit-first ARGS) (OP "ab" ARGS))', '(define (lit-last ARGS) (OP ARGS "!"))']
STR_SHAPES = ['(define (lit-int ARGS) (OP ARGS 5))', '(define (lit-mix ARGS) (OP "a" 5 ARGS))', '(define (lit-big ARGS) (OP 1000000000000000 ARGS))',
              '(define (lit-float ARGS) (OP ARGS 2.5))', '(define (lit-empty ARGS) (OP "" ARGS))']

CASES = [('string-append', 1), ('string-append', 2), ('string-append', 3), ('string-append', 4),
         ('substring', 2), ('substring', 3), ('str', 1), ('str', 2), ('str', 3), ('str', 4)]
NUMBERS = [0, 7, -12, 10 ** 15 - 1, 10 ** 15, -10 ** 15 + 1, -10 ** 15, 10 ** 20, 10 ** 5000]     # (str() refuses past 4300 digits)


def grid(op, nargs):
    if op == 'str':
        values = TEXTS[:3] + NUMBERS + OTHERS if nargs <= 2 else ['a', 7, 10 ** 15, 2.5, sym('s')]
        return list(itertools.product(values, repeat=nargs))
    if op == 'substring':
        return [(s,) + p for s in TEXTS + OTHERS[:2] for p in itertools.product(POSITIONS, repeat=nargs - 1)]
    values = TEXTS[:3] + OTHERS
    return [t for t in itertools.product(values, repeat=nargs) if nargs < 3 or sum(x.__class__ is not str for x in t) <= 1]


def label(x) -> str:
    """x's repr (an integer of thousands of digits by its size)."""
    return '<%d bits>' % x.bit_length() if x.__class__ is int and x.bit_length() > 1000 else repr(x)


def program(op, nargs):
    params = ' '.join('abcd'[:nargs])
    shapes = SHAPES + (LITERAL_SHAPES + STR_SHAPES if op != 'substring' else [])
    return '\n'.join(shape.replace('OP', op).replace('ARGS', params) for shape in shapes), \
        [shape.split()[1][1:] for shape in shapes]


def test_the_cases_are_inlined():
    for op, nargs in CASES:
        assert inline_spec(Builtin(op, None), nargs) is not None, (op, nargs)


@pytest.mark.parametrize('op,nargs', CASES)
def test_string_inlines_match_the_reference(monkeypatch, op, nargs):
    src, names = program(op, nargs)
    results = []
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)   # (the printer lifts it at its first long integer: the compiler goes first)
    for fast in (True, False):
        s = session(monkeypatch, fast)
        s.run(src, '<strings>')
        got = []
        for args in grid(op, nargs):
            for name in names:
                proc = s.genv.lookup(sym(name))
                got.append(((name,) + tuple(map(label, args)), outcome(lambda: s.call(proc, list(args)))))
        results.append(got)
    sys.set_int_max_str_digits(limit)
    bad = [(w, g) for g, w in zip(*results) if w != g]
    assert bad == [], bad[:5]
    assert any(o[0] == 'value' for _, o in results[1])
    assert op == 'str' or any(o[0] == 'error' for _, o in results[1])     # (str prints anything)
