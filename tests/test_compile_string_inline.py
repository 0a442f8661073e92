"""string-append (one to four arguments) and substring (two or three)
computed in place by compiled code (inline.VARIADIC, inline.BINARY,
INLINE), against the reference evaluator: every argument tuple from a grid
of strings, positions in and out of range, floats, booleans, symbols and
lists, in shapes that put the call as the value, an operand, a let's init,
an if's test, with literal operands and read from a frame further out; the
same values, and the same errors (message, position, backtrace)."""
import itertools

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

CASES = [('string-append', 1), ('string-append', 2), ('string-append', 3), ('string-append', 4),
         ('substring', 2), ('substring', 3)]


def grid(op, nargs):
    if op == 'substring':
        return [(s,) + p for s in TEXTS + OTHERS[:2] for p in itertools.product(POSITIONS, repeat=nargs - 1)]
    values = TEXTS[:3] + OTHERS
    return [t for t in itertools.product(values, repeat=nargs) if nargs < 3 or sum(x.__class__ is not str for x in t) <= 1]


def program(op, nargs):
    params = ' '.join('abcd'[:nargs])
    shapes = SHAPES + (LITERAL_SHAPES if op == 'string-append' else [])
    return '\n'.join(shape.replace('OP', op).replace('ARGS', params) for shape in shapes), \
        [shape.split()[1][1:] for shape in shapes]


def test_the_cases_are_inlined():
    for op, nargs in CASES:
        assert inline_spec(Builtin(op, None), nargs) is not None, (op, nargs)


@pytest.mark.parametrize('op,nargs', CASES)
def test_string_inlines_match_the_reference(monkeypatch, op, nargs):
    src, names = program(op, nargs)
    results = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(src, '<strings>')
        got = []
        for args in grid(op, nargs):
            for name in names:
                proc = s.genv.lookup(sym(name))
                got.append(((name,) + tuple(map(repr, args)), outcome(lambda: s.call(proc, list(args)))))
        results.append(got)
    bad = [(w, g) for w, g in zip(*results) if w != g]
    assert bad == [], bad[:5]
    assert any(o[0] == 'value' for _, o in results[1]) and any(o[0] == 'error' for _, o in results[1])
