"""The shared list walks (rusty/cells.py: eight cells a step) against the
cell-by-cell walk, and the builtins built on them against plain rusty
definitions, on lists of every length around the step."""
import io

from hypothesis import given, settings, strategies as st

from rusty.cells import cars, count, skip
from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session
from rusty.values import EMPTY, make_list


def one_by_one(lst) -> list:
    out = []
    while lst is not EMPTY:
        out.append(lst.car)
        lst = lst.cdr
    return out


def test_every_length_up_to_three_steps_walks_as_one_by_one():
    for n in range(30):
        lst = make_list(list(range(n)))
        assert cars(lst) == one_by_one(lst) == list(range(n))
        assert count(lst) == n


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none(), st.booleans()), max_size=70))
def test_any_list_walks_as_one_by_one(items):
    lst = make_list(items)
    got = cars(lst)
    assert got == one_by_one(lst) and all(a is b for a, b in zip(got, items))
    assert count(lst) == len(items)


def test_skip_steps_as_one_by_one_and_says_how_far_it_fell_short():
    for n in range(30):
        lst = make_list(list(range(n)))
        for k in range(-2, 36):
            cell, left, steps = lst, k, 0
            while left > 0 and cell is not EMPTY:
                cell, left, steps = cell.cdr, left - 1, steps + 1
            assert skip(lst, k) == (cell, left), (n, k)


def test_a_walk_shares_no_structure_and_leaves_the_list_as_it_was():
    lst = make_list(['a', 'b'] * 9)
    got = cars(lst)
    got.append('x')
    assert one_by_one(lst) == ['a', 'b'] * 9


REFERENCE = r"""
(define (ref-length l) (if (null? l) 0 (+ 1 (ref-length (cdr l)))))
(define (ref-join l sep) (cond ((null? l) "") ((null? (cdr l)) (car l))
                               (else (string-append (car l) sep (ref-join (cdr l) sep)))))
(define (ref-chars l) (if (null? l) "" (string-append (car l) (ref-chars (cdr l)))))
(define (ref-vector l) (let ((v (make-vector (ref-length l) 0)))
                         (let loop ((i 0) (l l)) (if (null? l) v (begin (vector-set! v i (car l)) (loop (+ i 1) (cdr l)))))))
"""

PAIRS = [
    ('(length {l})', '(ref-length {l})'),
    ('(string-join (map number->string {l}) ", ")', '(ref-join (map number->string {l}) ", ")'),
    ('(string-append-list (map number->string {l}))', '(ref-join (map number->string {l}) "")'),
    ('(apply string-append (map number->string {l}))', '(ref-join (map number->string {l}) "")'),
    ('(list->string (map (lambda (i) (substring "abcdefghij" (mod i 10) (+ 1 (mod i 10)))) {l}))',
     '(ref-chars (map (lambda (i) (substring "abcdefghij" (mod i 10) (+ 1 (mod i 10)))) {l}))'),
    ('(list->vector {l})', '(ref-vector {l})'),
    ('(apply + 1 {l})', '(+ 1 (foldl + 0 {l}))'),
    ('(foldr cons (list) {l})', '(map (lambda (x) x) {l})'),
    ('(sort (reverse {l}))', '{l}'),
]


def outcome(s, text):
    try:
        return ('value', write_form(s.run(text)))
    except RustyError as e:
        return ('error', e.message)


def test_the_builtins_that_walk_a_whole_list_agree_with_plain_definitions():
    s = Session(out=io.StringIO())
    s.run(REFERENCE)
    for n in (0, 1, 2, 7, 8, 9, 15, 16, 17, 100):
        lst = '(iota %d)' % n
        for fast, ref in PAIRS:
            assert outcome(s, fast.format(l=lst)) == outcome(s, ref.format(l=lst)), (fast, n)


MEMBER = r"""
(define (ref-member x l) (cond ((null? l) #f) ((equal? x (car l)) l) (else (ref-member x (cdr l)))))
(define items (list 1 2.0 "a" 'b #t #f (nil) '() '(1 2) (vector 1) 3 "3" 'c 1.5 0 -0.0))
"""


def test_member_by_class_agrees_with_equal():
    s = Session(out=io.StringIO())
    s.run(MEMBER)
    keys = ['1', '1.0', '2', '2.0', '"a"', '"b"', "'b", "'a", '#t', '#f', '(nil)', "'()", "'(1 2)", "'(1 2.0)",
            '(vector 1)', '3.0', '"3"', '0.0', '-0', '(/ 0.0 0.0)', 'car']
    for k in keys:
        for lst in ('items', '(reverse items)', "'()", '(nil)'):
            got = outcome(s, '(member %s %s)' % (k, lst))
            assert got == outcome(s, '(ref-member %s %s)' % (k, lst)), (k, lst, got)


POSITIONS = r"""
(define (ref-tail l k) (cond ((= k 0) l) ((null? l) (error "short")) (else (ref-tail (cdr l) (- k 1)))))
"""


def test_positions_past_eight_cells_agree_with_plain_definitions():
    s = Session(out=io.StringIO())
    s.run(POSITIONS)
    for n in (0, 1, 7, 8, 9, 16, 17, 40):
        lst = '(iota %d)' % n
        for k in (-1, 0, 1, 7, 8, 9, 15, 16, 17, 39, 40, 41, 8.0, 100):
            for fast in ('(list-ref %s %s)', '(nth %s %s)'):
                want = outcome(s, '(car (ref-tail %s %s))' % (lst, k)) if 0 <= k < n else None
                got = outcome(s, fast % (lst, k))
                assert (got[0] == 'error') if want is None else got == want, (fast, n, k, got)
            for fast in ('(list-tail %s %s)', '(drop %s %s)'):
                want = outcome(s, '(ref-tail %s %s)' % (lst, k)) if 0 <= k <= n else None
                got = outcome(s, fast % (lst, k) if 'tail' in fast else '(drop %s %s)' % (k, lst))
                assert (got[0] == 'error') if want is None else got == want, (fast, n, k, got)
