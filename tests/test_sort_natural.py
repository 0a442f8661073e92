"""`sort` of numbers by `<` or `>` (the builtin, or a lambda that only
applies it to its two parameters) sorts by Python's own comparisons on the
fast path (compile/builtin_loops.natural_order): the same lists as the reference,
which calls the procedure for every comparison (docs/reference.md, `sort`).
"""
import pytest
from hypothesis import given, settings, strategies as st

from rusty.compile.builtin_loops import natural_order
from rusty.printer import print_form
from rusty.values import sym
from helpers import session_on_path

LESS = ['<', '>', 'lt', 'gt', '(lambda (a b) (< a b))', '(lambda (a b) (> a b))', '(fn (x y) (< y x))',
        '(lambda (a b) (gt b a))', '(lambda (a b) (<= a b))', '(lambda (a b) (< a a))']

PRELUDE = '(define nan (sqrt -1)) (define inf (* 1e300 1e300))'

NUMBER = st.one_of(st.integers(-5, 5), st.integers(), st.sampled_from(['nan', 'inf', '(- inf)', '-0.0', '0.0']),
                   st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr))


@pytest.fixture(scope='module')
def both():
    mp = pytest.MonkeyPatch()
    sessions = [session_on_path(mp, True), session_on_path(mp, False)]
    for s in sessions:
        s.run(PRELUDE)
    yield sessions
    mp.undo()


@settings(max_examples=150, deadline=None)
@given(st.lists(NUMBER, max_size=12), st.sampled_from(LESS))
def test_numbers_sort_as_the_reference_sorts_them(both, items, less):
    src = '(sort (list %s) %s)' % (' '.join(map(str, items)), less)
    fast, reference = (print_form(s.run(src)) for s in both)
    assert fast == reference, src


def test_a_nan_sorts_by_less_as_the_procedure_sorts_it(both):
    src = '(sort (list 3 nan 1 nan 0.5 -0.0 0.0 2 1) (lambda (a b) (%s a b)))'
    for op in '<>':
        fast, reference = (print_form(s.run(src % op)) for s in both)
        assert fast == reference


def test_which_procedures_sort_by_pythons_order(both):
    s = both[0]
    s.run('(define (shadowed xs) (let ((< >)) (sort xs (lambda (a b) (< a b)))))')
    lam = s.run('(lambda (a b) (< a b))')
    flipped = s.run('(lambda (a b) (< b a))')
    assert natural_order(lam, [2, 1.5], s.genv) is False
    assert natural_order(flipped, [2, 1.5], s.genv) is True
    assert natural_order(s.genv.lookup(sym('>')), [2, 1], s.genv) is True
    assert natural_order(lam, [2, 'a'], s.genv) is None            # `<` would fail: the reference reports it
    assert natural_order(flipped, [2, float('nan')], s.genv) is None     # in reverse a NaN keeps the calls
    assert natural_order(lam, [2, float('nan')], s.genv) is False
    for other in ('(lambda (a b) (<= a b))', '(lambda (a b) (< a 1))', '(lambda (a b) (< a b) (< b a))',
                  '(lambda (a b . r) (< a b))', '(lambda (a) (< a a))', '<='):
        assert natural_order(s.run(other), [2, 1], s.genv) is None, other
    assert print_form(s.run('(shadowed (list 1 3 2))')) == '(3 2 1)'


def test_a_profiled_sort_counts_the_lambdas_calls_as_the_reference_does(both):
    counts = []
    for s in both:
        s.run('(define (by-less xs) (sort xs (lambda (a b) (< a b))))', 'sorting.lisp')
        s.run('(by-less (list 2 1))')
        s.profile('(by-less (list 3 1 2 5 4))')
        counts.append({r.label: r.calls for r in s.last_profile.rows.values() if not r.builtin})
    assert counts[0] == counts[1]
    assert counts[0]['lambda (sorting.lisp:1)'] >= 4        # one call for each comparison
