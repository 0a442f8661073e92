"""Breadth: 14 common workloads, rusty against the same algorithm in CPython.

    python3 benchmarks/bench_breadth.py [--quick] [--json PATH] [--no-cells]

Each workload is a rusty program and an idiomatic CPython function doing the
same work by the same algorithm; both sides are timed interleaved in one run
and the minima compared. Goals (issue 20, the compiler's; issue 13 asked for
≤ 10× and ≤ 30×): geometric mean ≤ 3× CPython, no workload over 10×, tak ≤ 3×,
the closure counter ≤ 4×; beating Guile's evaluator and CHICKEN's csi on this
suite would mean a geometric mean ≤ 5× and ≤ 3.3×. Also measured here: the size of a list cell (RSS growth of
a fresh process building a 1,000,000-element list of one symbol, goal ≤ 56
bytes). `--quick` takes about a minute.
"""
from __future__ import annotations

import functools
import io
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from benchlib import (Stat, fmt_ratio, fmt_time, goal, interleave, json_arg, md_table, ratio_goal, timed,  # noqa: E402
                      write_json)

GEOMEAN_GOAL = 3.0
WORST_GOAL = 10.0
ROW_GOALS = (('tak 18 12 6', 'tak', 3.0), ('closure set! 200k', 'closure counter', 4.0))
PEERS = (("Guile's evaluator", 5.0), ("CHICKEN's csi", 3.3))     # their geometric means on this suite
CELL_GOAL = 56.0

# ── The rusty programs ───────────────────────────────────────────────────

RUSTY_PROGRAM = r"""
(define (tak x y z)
  (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))

(define (safe? row dist placed)
  (or (null? placed)
      (and (not (= (car placed) row))
           (not (= (car placed) (+ row dist)))
           (not (= (car placed) (- row dist)))
           (safe? row (+ dist 1) (cdr placed)))))
(define (queens-from n k placed)
  (if (= k n)
      1
      (let loop ((row 0) (total 0))
        (if (= row n)
            total
            (loop (+ row 1)
                  (if (safe? row 1 placed) (+ total (queens-from n (+ k 1) (cons row placed))) total))))))
(define (queens n) (queens-from n 0 '()))

(define (deriv e)
  (cond ((number? e) 0)
        ((symbol? e) (if (eq? e 'x) 1 0))
        ((eq? (car e) '+) (list '+ (deriv (cadr e)) (deriv (caddr e))))
        ((eq? (car e) '*) (list '+ (list '* (cadr e) (deriv (caddr e)))
                                (list '* (deriv (cadr e)) (caddr e))))
        (else (error "deriv: unknown form"))))
(define deriv-expr '(+ (* 3 (* x x)) (+ (* a (* x (* x x))) (+ (* b x) (* (+ x 1) (+ x 2))))))
(define (deriv-times n)
  (let loop ((i 0) (r '()))
    (if (< i n) (loop (+ i 1) (deriv deriv-expr)) r)))

(define (sieve lst)
  (if (null? lst)
      '()
      (let ((p (car lst)))
        (cons p (sieve (filter (lambda (x) (not (= 0 (mod x p)))) (cdr lst)))))))

(define (build-string n)
  (let loop ((i 0) (acc '()))
    (if (< i n)
        (loop (+ i 1) (cons (number->string i) acc))
        (string-append-list (reverse acc)))))

(define (pieces n) (map number->string (iota n)))

(define (make-alist n) (map (lambda (i) (list (str "key" i) i)) (iota n)))
(define (alist-sum alist keys)
  (foldl (lambda (k acc) (+ acc (alist-get k alist 0))) 0 keys))

(define (lcg-list n)
  (let loop ((i 0) (x 42) (acc '()))
    (if (< i n)
        (let ((y (mod (* x 16807) 2147483647)))
          (loop (+ i 1) y (cons y acc)))
        acc)))

(define (merge a b)
  (cond ((null? a) b)
        ((null? b) a)
        ((< (car b) (car a)) (cons (car b) (merge a (cdr b))))
        (else (cons (car a) (merge (cdr a) b)))))
(define (split lst)
  (let loop ((lst lst) (a '()) (b '()))
    (if (null? lst) (list a b) (loop (cdr lst) b (cons (car lst) a)))))
(define (merge-sort lst)
  (if (or (null? lst) (null? (cdr lst)))
      lst
      (let ((halves (split lst)))
        (merge (merge-sort (car halves)) (merge-sort (cadr halves))))))

(define (pipeline lst)
  (foldl + 0 (map (lambda (x) (* x x)) (filter (lambda (x) (= 0 (mod x 3))) lst))))

(define (make-counter)
  (let ((n 0))
    (lambda () (set! n (+ n 1)) n)))
(define (count-up k)
  (let ((c (make-counter)))
    (let loop ((i 0))
      (if (< i k) (begin (c) (loop (+ i 1))) (c)))))

(define (make-records n)
  (map (lambda (i) (list (list "id" i) (list "name" (str "item" i)) (list "tags" (list 1 2 3))
                         (list "ok" #t)))
       (iota n)))
(define (json-round n) (length (json-decode (json-encode (make-records n)))))

(define (tak-loop)
  (let loop ((i 0) (acc 0))
    (if (< i 1) (loop (+ i 1) (+ acc (tak 18 12 6))) acc)))
(define (tak-cliff)
  (let ((out 0))
    (dotimes (k 1) (set! out (tak-loop)))
    out))

(define sieve-input (range 2 3000))
(define join-input (pieces 20000))
(define alist200 (make-alist 200))
(define alist-keys (foldl append '() (map (lambda (i) (map car alist200)) (iota 10))))
(define sort-input (lcg-list 20000))
(define msort-input (lcg-list 10000))
(define pipe-input (iota 100000))
"""


# ── The CPython programs (same algorithms, idiomatic Python) ─────────────

def tak(x, y, z):
    if not y < x:
        return z
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))


def queens(n):
    def safe(row, placed):
        for dist, q in enumerate(placed, 1):
            if q == row or q == row + dist or q == row - dist:
                return False
        return True

    def place(k, placed):
        if k == n:
            return 1
        return sum(place(k + 1, [row] + placed) for row in range(n) if safe(row, placed))
    return place(0, [])


def deriv(e):
    if isinstance(e, (int, float)):
        return 0
    if isinstance(e, str):
        return 1 if e == 'x' else 0
    op, a, b = e
    if op == '+':
        return ('+', deriv(a), deriv(b))
    if op == '*':
        return ('+', ('*', a, deriv(b)), ('*', deriv(a), b))
    raise ValueError('deriv: unknown form')


DERIV_EXPR = ('+', ('*', 3, ('*', 'x', 'x')),
              ('+', ('*', 'a', ('*', 'x', ('*', 'x', 'x'))),
               ('+', ('*', 'b', 'x'), ('*', ('+', 'x', 1), ('+', 'x', 2)))))


def deriv_times(n):
    r = None
    for _ in range(n):
        r = deriv(DERIV_EXPR)
    return r


def sieve(lst):
    if not lst:
        return []
    p = lst[0]
    return [p] + sieve([x for x in lst[1:] if x % p != 0])


def build_string(n):
    return ''.join([str(i) for i in range(n)])


def make_alist(n):
    return [('key%d' % i, i) for i in range(n)]


def alist_get(k, alist, default):
    for key, v in alist:
        if key == k:
            return v
    return default


def alist_sum(alist, keys):
    return sum(alist_get(k, alist, 0) for k in keys)


def lcg_list(n):
    x, out = 42, []
    for _ in range(n):
        x = (x * 16807) % 2147483647
        out.append(x)
    out.reverse()
    return out


def merge_sort(lst):
    if len(lst) < 2:
        return lst
    mid = len(lst) // 2
    a, b = merge_sort(lst[:mid]), merge_sort(lst[mid:])
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if b[j] < a[i]:
            out.append(b[j])
            j += 1
        else:
            out.append(a[i])
            i += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out


def pipeline(lst):
    return functools.reduce(lambda acc, x: acc + x,
                            map(lambda x: x * x, filter(lambda x: x % 3 == 0, lst)), 0)


def count_up(k):
    n = 0

    def counter():
        nonlocal n
        n += 1
        return n
    for _ in range(k):
        counter()
    return counter()


def json_round(n):
    recs = [{'id': i, 'name': 'item%d' % i, 'tags': [1, 2, 3], 'ok': True} for i in range(n)]
    return len(json.loads(json.dumps(recs, separators=(', ', ': '))))


def tak_cliff():
    out = 0
    for _ in range(1):
        acc = 0
        for _ in range(1):
            acc += tak(18, 12, 6)
        out = acc
    return out


def less(a, b):
    return -1 if a < b else 1 if b < a else 0


SIEVE_INPUT = list(range(2, 3000))
JOIN_INPUT = [str(i) for i in range(20000)]
ALIST200 = make_alist(200)
ALIST_KEYS = [k for _ in range(10) for k, _v in ALIST200]
SORT_INPUT = lcg_list(20000)
MSORT_INPUT = lcg_list(10000)
PIPE_INPUT = list(range(100000))


# ── Workloads ────────────────────────────────────────────────────────────
# name, rusty expression, CPython function, a rusty check expression and the
# CPython value it must equal (compared after converting rusty's result).

WORKLOADS = [
    ('tak 18 12 6', '(tak 18 12 6)', lambda: tak(18, 12, 6), '(tak 18 12 6)', tak(18, 12, 6)),
    ('n-queens 7', '(queens 7)', lambda: queens(7), '(queens 7)', queens(7)),
    ('symbolic deriv ×300', '(deriv-times 300)', lambda: deriv_times(300),
     '(length (flatten (deriv-times 1)))', None),
    ('list sieve 3000', '(sieve sieve-input)', lambda: sieve(SIEVE_INPUT),
     '(length (sieve sieve-input))', len(sieve(SIEVE_INPUT))),
    ('string build 20k', '(build-string 20000)', lambda: build_string(20000),
     '(string-length (build-string 20000))', len(build_string(20000))),
    ('string-join 20k', '(string-join join-input ", ")', lambda: ', '.join(JOIN_INPUT),
     '(string-length (string-join join-input ", "))', len(', '.join(JOIN_INPUT))),
    ('alist lookups 200×2000', '(alist-sum alist200 alist-keys)',
     lambda: alist_sum(ALIST200, ALIST_KEYS), '(alist-sum alist200 alist-keys)',
     alist_sum(ALIST200, ALIST_KEYS)),
    ('sort 20k', '(sort sort-input)', lambda: sorted(SORT_INPUT),
     '(car (sort sort-input))', min(SORT_INPUT)),
    ('sort 20k with less?', '(sort sort-input (lambda (a b) (< a b)))',
     lambda: sorted(SORT_INPUT, key=functools.cmp_to_key(less)),
     '(car (sort sort-input (lambda (a b) (> a b))))', max(SORT_INPUT)),
    ('merge sort 10k', '(merge-sort msort-input)', lambda: merge_sort(MSORT_INPUT),
     '(nth (merge-sort msort-input) 5000)', merge_sort(MSORT_INPUT)[5000]),
    ('map/filter/fold 100k', '(pipeline pipe-input)', lambda: pipeline(PIPE_INPUT),
     '(pipeline pipe-input)', pipeline(PIPE_INPUT)),
    ('closure set! 200k', '(count-up 200000)', lambda: count_up(200000),
     '(count-up 200000)', count_up(200000)),
    ('JSON round trip 2k', '(json-round 2000)', lambda: json_round(2000),
     '(json-round 2000)', json_round(2000)),
    ('tak from a loop in dotimes', '(tak-cliff)', tak_cliff, '(tak-cliff)', tak_cliff()),
]


def session():
    from rusty.runtime import Session
    s = Session(out=io.StringIO())
    s.run(RUSTY_PROGRAM, '<bench_breadth>')
    return s


def check(s, name, expr, expected, problems):
    """The rusty side computes what the CPython side does."""
    try:
        got = s.run(expr, '<bench_breadth>')
    except Exception as e:   # a crash is a finding, not a reason to stop
        problems.append('%s: `%s` raised %s: %s' % (name, expr, type(e).__name__, e))
        return False
    if expected is not None and got != expected:
        problems.append('%s: `%s` gave %r, CPython %r' % (name, expr, got, expected))
        return False
    return True


def measure(s, quick):
    """Interleaved timings per workload; (rows, results, problems)."""
    budget = 0.6 if quick else 3.0
    rows, results, problems = [], {}, []
    for name, rexpr, pyfn, cexpr, expected in WORKLOADS:
        if not check(s, name, cexpr, expected, problems):
            rows.append((name, 'FAILED', '', '', ''))
            continue
        first = timed(lambda: s.run(rexpr, '<bench>'))
        runs = max(3, min(15, int(budget / max(first, 1e-6))))
        t = interleave({'rusty': lambda: s.run(rexpr, '<bench>'), 'cpython': pyfn}, runs)
        ru, cp = Stat(t['rusty']), Stat(t['cpython'])
        ratio = ru.min / cp.min
        results[name] = {'rusty': ru.to_json(), 'cpython': cp.to_json(), 'ratio': ratio,
                         'runs': runs}
        rows.append((name, '%s (%s)' % (fmt_time(ru.min), fmt_time(ru.median)),
                     '%s (%s)' % (fmt_time(cp.min), fmt_time(cp.median)), fmt_ratio(ratio),
                     runs))
        print('  %-28s %10s %10s %8s' % (name, fmt_time(ru.min), fmt_time(cp.min),
                                         fmt_ratio(ratio)), file=sys.stderr)
    return rows, results, problems


# ── List cell size ───────────────────────────────────────────────────────

CELL_PROGRAM = r"""
import gc, sys
sys.path.insert(0, %r)
from rusty.runtime import Session

def rss():
    with open('/proc/self/statm') as fh:
        return int(fh.read().split()[1]) * 4096

s = Session()
s.run("(define (ones n) (let loop ((i 0) (acc '())) (if (< i n) (loop (+ i 1) (cons 'a acc)) acc)))")
s.run("(define keep (ones 10))")
gc.collect()
before = rss()
s.run("(define keep (ones 1000000))")
gc.collect()
print((rss() - before) / 1e6)
"""


def cell_size():
    """Bytes per list cell: RSS growth of a fresh process holding 1e6 cells."""
    proc = subprocess.run([sys.executable, '-c', CELL_PROGRAM % ROOT], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    try:
        return float(proc.stdout.split()[-1])
    except (ValueError, IndexError):
        return None


# ── Report ───────────────────────────────────────────────────────────────

def main(argv):
    quick = '--quick' in argv
    s = session()
    rows, results, problems = measure(s, quick)
    ratios = [r['ratio'] for r in results.values()]
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
    worst = max(results.items(), key=lambda kv: kv[1]['ratio']) if results else None
    goals = []
    if geo is not None:
        goals.append(ratio_goal('breadth: geometric mean vs CPython', geo, GEOMEAN_GOAL))
        goals.append(ratio_goal('breadth: worst workload vs CPython', worst[1]['ratio'], WORST_GOAL,
                                worst[0]))
        for peer, bound in PEERS:
            goals.append(ratio_goal('breadth: faster than %s (geomean ≤ %g× CPython)' % (peer, bound),
                                    geo, bound))
    for row, label, bound in ROW_GOALS:
        if row in results:
            goals.append(ratio_goal('breadth: %s vs CPython' % label, results[row]['ratio'], bound))
    lines = ['%d workloads, rusty and CPython interleaved; min (median) of the runs shown.'
             % len(WORKLOADS), '',
             md_table(('workload', 'rusty', 'CPython', 'ratio', 'runs'), rows), '']
    if geo is not None:
        lines.append('Geometric mean of the ratios: **%s** (goal ≤ %g×); worst: %s at %s '
                     '(goal ≤ %g×).' % (fmt_ratio(geo), GEOMEAN_GOAL, worst[0],
                                        fmt_ratio(worst[1]['ratio']), WORST_GOAL))
    cell = None if '--no-cells' in argv else cell_size()
    if cell is not None:
        lines.append('')
        lines.append('List cell: **%.1f bytes** per element (RSS growth of a fresh process '
                     'building a 1,000,000-element list of one symbol; goal ≤ %g).'
                     % (cell, CELL_GOAL))
        goals.append(goal('list cell size', '%.1f bytes' % cell, '≤ %g bytes' % CELL_GOAL,
                          cell <= CELL_GOAL))
    if problems:
        lines += ['', '**Problems found:**'] + ['- ' + p for p in problems]
    text = '\n'.join(lines).rstrip() + '\n'
    print(text)
    write_json(json_arg(argv), {'markdown': text, 'goals': goals, 'problems': problems,
                                'results': results, 'geomean': geo, 'cell_bytes': cell})
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
