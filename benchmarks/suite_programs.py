"""The programs of the fresh-process suite (bench_suite.py): one row each.

A row: group, name, full-size arguments, quick arguments, the expected output
for each (the golden check; the CPython port must print the same). Files are
benchmarks/programs/GROUP/NAME.lisp and NAME.py.
"""

CLASSICS = 'classics'
LOOPS = 'loops'
SCRIPTS = 'scripts'

DERIV = ('(+ (* (* 3 x x) (+ (/ 0 3) (/ 1 x) (/ 1 x))) (* (* a x x) (+ (/ 0 a) (/ 1 x) '
         '(/ 1 x))) (* (* b x) (+ (/ 0 b) (/ 1 x))) 0)')

# (group, name, full args, quick args, full expected, quick expected)
PROGRAMS = [
    (CLASSICS, 'tak', '18 12 6 20', '18 12 6 2', '7', '7'),
    (CLASSICS, 'cpstak', '18 12 6 5', '18 12 6 1', '7', '7'),
    (CLASSICS, 'takl', '18 12 6 2', '18 12 6 1', '7', '7'),
    (CLASSICS, 'fib', '25 2', '20 2', '75025', '6765'),
    (CLASSICS, 'fibfp', '25 1', '20 2', '75025', '6765'),
    (CLASSICS, 'ack', '2 9 200', '2 9 20', '21', '21'),
    (CLASSICS, 'deriv', '20000', '2000', DERIV, DERIV),
    (CLASSICS, 'nqueens', '8 10', '8 2', '92', '92'),
    (CLASSICS, 'primes', '1000 30', '1000 3', '168 997', '168 997'),
]


def rows(groups=None):
    """The table's rows, only those of `groups` when given."""
    return [r for r in PROGRAMS if not groups or r[0] in groups]
