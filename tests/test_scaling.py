"""Every standard-library function is linear where its job is (issue 13).

List, fold, search and JSON functions: the Python-level calls (functions and
C builtins) made while running them at n, 2n and 4n, counted with a profile
hook on the evaluation thread, must grow by at most ~2.3x per doubling — a
deterministic count, not a timing. Building strings copies characters, which
no call count sees, so the string family is timed (process CPU time, not
wall time, so that a loaded machine matters less; minimum of several runs; a
generous bound; marked slow): from n to 4n, quadratic joining grows ~16x.
"""
import collections
import gc
import io
import sys
import time

import pytest

from rusty.runtime import Session

CALL_BOUND = 2.3      # linear: 2.0 per doubling, plus constant terms
TIME_BOUND = 10.0     # from n to 4n: linear ~4, quadratic ~16


@pytest.fixture(scope='module')
def session():
    s = Session(out=io.StringIO())
    s.run("""
      (define (nums n) (iota n))
      (define (nested n) (map (lambda (i) (list i (list i))) (iota n)))
      (define (strs n) (map number->string (iota n)))
      (define (alist n) (map (lambda (i) (list i i)) (iota n)))
      (define (recs n) (map (lambda (i) (list (list "id" i) (list "tags" (list 1 2)))) (iota n)))
    """)
    return s


def calls(s, setup, expr):
    """Python-level calls made while evaluating expr (after setup, and after
    a first run, so that compiling the lambdas it calls is not counted)."""
    s.run(setup)
    s.run(expr)
    counts = collections.Counter()

    def hook(frame, event, arg):
        if event == 'call' or event == 'c_call':
            counts[0] += 1

    def job():
        sys.setprofile(hook)
        try:
            s._run(expr, '<scaling>')
        finally:
            sys.setprofile(None)
    s.worker.call(job)
    return counts[0]


# (family, setup making `data` of size N, expression over data)
COUNTED = [
    ('range/iota', '(define data N)', '(iota data)'),
    ('take/drop', '(define data (nums N))', '(list (take (/ N 2) data) (drop (/ N 2) data))'),
    ('append/reverse', '(define data (nums N))', '(reverse (append data data))'),
    ('map/filter/for-each', '(define data (nums N))',
     '(list (map inc data) (filter even? data) (for-each identity data))'),
    ('foldl/foldr/sum', '(define data (nums N))', '(list (foldl + 0 data) (foldr + 0 data) (sum data))'),
    ('searches', '(define data (nums N))',
     '(list (any? negative? data) (all? number? data) (count even? data) (find negative? data)'
     ' (member -1 data) (nth data (- N 1)) (last data) (length data))'),
    ('zip/interleave', '(define data (nums N))', '(list (zip data data) (interleave 0 data))'),
    ('flatten', '(define data (nested N))', '(list (flatten data) (flatten1 data))'),
    ('assoc', '(define data (alist N))', '(list (assoc (- N 1) data) (alist-get -1 data 0))'),
    ('take-while/drop-while/partition', '(define data (nums N))',
     '(list (take-while number? data) (drop-while number? data) (partition even? data))'),
    ('sort (as n log n)', '(define data (reverse (nums N)))', '(sort data)'),
    ('json', '(define data (recs N))', '(json-decode (json-encode data))'),
    ('string-join (calls)', '(define data (strs N))', '(string-join data ", ")'),
    ('string searches', '(define data (string-repeat "ab" N))',
     '(list (string-first-index data "x") (string-last-index data "x") (string-contains? data "ba"))'),
]

# a predicate not in the standard library
NEGATIVE = '(define (negative? x) (< x 0))'


@pytest.mark.parametrize('family,setup,expr', COUNTED, ids=[c[0] for c in COUNTED])
def test_call_counts_grow_linearly(session, family, setup, expr):
    session.run(NEGATIVE)
    n = 2000
    got = [calls(session, setup.replace('N', str(k)), expr.replace('N', str(k)))
           for k in (n, 2 * n, 4 * n)]
    ratios = [got[1] / got[0], got[2] / got[1]]
    bound = CALL_BOUND + (0.25 if family.startswith('sort') else 0)
    assert max(ratios) <= bound, (family, got, ratios)


def best_time(s, expr, runs=5):
    best = float('inf')
    for _ in range(runs):
        gc.collect()
        t = time.process_time()
        s.run(expr)
        best = min(best, time.process_time() - t)
    return best


TIMED = [
    ('string-join', '(define data (strs N))', '(string-join data ", ")'),
    ('string-repeat', '(define data N)', '(string-repeat "abc" data)'),
    ('string-append-list', '(define data (strs N))', '(string-append-list data)'),
    ('str/format', '(define data (strs N))', '(list (apply str data) (format "~a" data))'),
]


@pytest.mark.slow
@pytest.mark.parametrize('family,setup,expr', TIMED, ids=[c[0] for c in TIMED])
def test_string_building_time_grows_linearly(session, family, setup, expr):
    n = 40000
    times = []
    for k in (n, 2 * n, 4 * n):
        session.run(setup.replace('N', str(k)))
        times.append(best_time(session, expr))
    assert times[2] / times[0] <= TIME_BOUND, (family, times)
