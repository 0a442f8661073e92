"""The list builtins that walk cells and build their result in one pass
(map, filter, for-each, foldl, length, nth, list-tail, cons) against plain
reference definitions written in rusty with car/cdr/cons and reverse: the
same values on random lists, the same order of calls, the same errors (a
procedure failing midway, an index past the end), and fresh result cells
that end at the one empty list."""
import io
import random

import pytest

from rusty.errors import RustyError
from rusty.printer import format_number, write_form
from rusty.runtime import Session
from rusty.values import EMPTY, List

REFERENCE = r"""
(define (ref-map f lst)
  (let loop ((l lst) (acc '()))
    (if (null? l) (reverse acc) (loop (cdr l) (cons (f (car l)) acc)))))
(define (ref-filter p lst)
  (let loop ((l lst) (acc '()))
    (if (null? l) (reverse acc) (loop (cdr l) (if (p (car l)) (cons (car l) acc) acc)))))
(define (ref-foldl f acc lst)
  (if (null? lst) acc (ref-foldl f (f (car lst) acc) (cdr lst))))
(define (ref-length lst)
  (let loop ((l lst) (n 0)) (if (null? l) n (loop (cdr l) (+ n 1)))))
(define log '())
(define (note x) (set! log (cons x log)) x)
(define (noting f) (lambda args (note (car args)) (apply f args)))
(define (boom-at k) (lambda (x) (if (= x k) (error "boom" x) (* x 2))))
"""


@pytest.fixture(scope='module')
def session():
    s = Session(out=io.StringIO())
    s.run(REFERENCE)
    return s


def outcome(s, text):
    """('value', printed form, calls logged) or ('error', message)."""
    s.run("(set! log '())")
    try:
        v = s.run(text)
    except RustyError as e:
        return ('error', e.message)
    return ('value', write_form(v), write_form(s.run('log')))


def lists():
    rng = random.Random(13)
    yield "'()"
    yield '(nil)'
    yield "'(1)"
    for _ in range(25):
        n = rng.choice([2, 3, 7, 40, 300])
        yield "'(%s)" % ' '.join(str(rng.randrange(-20, 20)) for _ in range(n))


PAIRS = [
    ('(map (noting (lambda (x) (* x x))) {L})', '(ref-map (noting (lambda (x) (* x x))) {L})'),
    ('(filter (noting even?) {L})', '(ref-filter (noting even?) {L})'),
    ('(filter (noting (lambda (x) (if (> x 0) x (nil)))) {L})',
     '(ref-filter (noting (lambda (x) (if (> x 0) x (nil)))) {L})'),
    ('(foldl (noting cons) 0 {L})', '(ref-foldl (noting cons) 0 {L})'),
    ('(begin (for-each note {L}) 1)', '(begin (ref-map note {L}) 1)'),
    ('(length {L})', '(ref-length {L})'),
    ('(map (boom-at 3) {L})', '(ref-map (boom-at 3) {L})'),
    ('(filter (boom-at 3) {L})', '(ref-filter (boom-at 3) {L})'),
]


@pytest.mark.parametrize('fast, ref', PAIRS)
def test_walkers_agree_with_their_reference(session, fast, ref):
    for lst in lists():
        if lst == '(nil)' and fast.startswith('(foldl'):
            continue                      # foldl refuses Nil; its reference would not
        assert outcome(session, fast.format(L=lst)) == outcome(session, ref.format(L=lst)), lst


def test_results_are_fresh_cells_ending_at_the_empty_list(session):
    session.run("(define src '(1 2 3 4 5 6))")
    for text in ("(map (lambda (x) x) src)", "(filter (lambda (x) #t) src)"):
        got = session.run(text)
        a, b = got, session.run('src')
        while b is not EMPTY:
            assert a.__class__ is List and a is not b and a.car is b.car and a.span is None
            a, b = a.cdr, b.cdr
        assert a is EMPTY


@pytest.mark.parametrize('k', [0, 1, 2, 5, 6, 7, 100, 1e300])
def test_nth_and_list_tail_bounds(session, k):
    lst = "'(a b c d e f)"
    n = 6
    nth = outcome(session, '(nth %s %r)' % (lst, k))
    tail = outcome(session, '(list-tail %s %r)' % (lst, k))
    ks = format_number(float(k))
    if k < n:
        assert nth[1] == 'abcdef'[int(k)]
    else:
        assert nth == ('error', 'nth: index %s out of range [0, 6)' % ks)
    if k <= n:
        assert tail[1] == '(%s)' % ' '.join('abcdef'[int(k):])
    else:
        assert tail == ('error', 'list-tail: index %s out of range [0, 6]' % ks)


def test_nth_with_an_infinite_index_ends(session):
    assert outcome(session, "(nth '(1 2) (/ 1 0))")[0] == 'error'
    assert outcome(session, "(list-tail '(1 2) (/ 1 0))")[0] == 'error'


def test_length_and_equal_on_long_lists(session):
    session.run('(define big (iota 200000))')
    assert session.run('(length big)') == 200000.0
    assert session.run('(equal? big (map (lambda (x) x) big))') is True
    assert session.run('(equal? big (cdr big))') is False
    assert session.run('(equal? (cdr big) big)') is False


# ── The builtins' procedure caller against its reference ─────────────────

CALLBACKS = [
    "(map (lambda (x) (* x x)) '(1 2 3))",
    "(map (lambda (x y) (list x y)) '(1 2 3) '(a b))",
    "(filter (lambda (x) (> x 1)) '(1 2 3))",
    "(sort '(3 1 2) (lambda (a b) (< a b)))",
    "(foldl (lambda (e acc) (+ e acc)) 0 '(1 2 3))",
    "(apply (lambda (a . rest) (list a rest)) '(1 2 3))",
    "(map car '((1) (2)))",
    "(define (deep x) (car x)) (define (mid x) (deep x)) (map mid '((1) 2))",
    "(map (lambda (x) (error \"bad\" x)) '(1))",
    "(map (lambda (x y) x) '(1 2))",
    "(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1))))) (map down '(10 100000))",
    "(define (loop n) (if (= n 0) 'done (loop (- n 1)))) (map loop '(1000 20000))",
]


def caller_outcome(session, text):
    try:
        return ('value', write_form(session.run(text, 'cb.lisp')))
    except RustyError as e:
        where = (e.span.line, e.span.col) if e.span is not None else None
        trace = [tuple((x.line, x.col) if hasattr(x, 'line') else x for x in entry[:3]) for entry in e.trace]
        return ('error', e.message, where, trace)


@pytest.mark.parametrize('text', CALLBACKS)
def test_the_inlined_caller_matches_run(text):
    from rusty.apply import procedure_caller
    fast = Session(out=io.StringIO())
    ref = Session(out=io.StringIO())
    ref.call = procedure_caller(ref.depth)
    got, want = caller_outcome(fast, text), caller_outcome(ref, text)
    assert got == want
    assert 'internal error' not in repr(got)
