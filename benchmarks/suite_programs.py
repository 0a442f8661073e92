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
    (LOOPS, 'toplevel_named_let', '300000', '100000', '8999955000050000', '333328333350000'),
    (LOOPS, 'toplevel_do', '300000', '100000', '20999850000', '2333316668'),
    (LOOPS, 'do_in_function', '10000', '3000', '(6171 261)', '(2919 216)'),
    (LOOPS, 'vector_sum', '300000', '100000', '138450000', '46150000'),
    (LOOPS, 'string_build', '20000', '5000', '108890 19998,19999,', '23890 7,4998,4999,'),
    (LOOPS, 'closure_counter', '300000', '100000', '300000', '100000'),
    (LOOPS, 'while_loop', '20000', '2000', '370000', '28000'),
    (LOOPS, 'list_accumulate', '300000', '100000', '150000 4499955000100000', '50000 166661666700000'),
    (LOOPS, 'hash_count', '200000', '50000', '49 4124', '49 1031'),
    (LOOPS, 'nested_loops', '500', '200', '641139', '102341'),
    (LOOPS, 'char_loop', '5000', '1000', '55000', '11000'),
]


def rows(groups=None):
    """The table's rows, only those of `groups` when given."""
    return [r for r in PROGRAMS if not groups or r[0] in groups]
