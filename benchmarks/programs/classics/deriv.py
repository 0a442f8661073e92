"""deriv (Gabriel; r7rs-benchmarks src/deriv.scm), the same algorithm in CPython:
expressions are tuples, symbols strings."""
import sys

from sexp import show


def deriv(a):
    if not isinstance(a, tuple):
        return 1 if a == 'x' else 0
    op = a[0]
    if op == '+':
        return ('+',) + tuple(map(deriv, a[1:]))
    if op == '-':
        return ('-',) + tuple(map(deriv, a[1:]))
    if op == '*':
        return ('*', a, ('+',) + tuple(('/', deriv(b), b) for b in a[1:]))
    if op == '/':
        return ('-', ('/', deriv(a[1]), a[2]), ('/', a[1], ('*', a[2], a[2], deriv(a[2]))))
    raise ValueError('No derivation method available')


INPUT = ('+', ('*', 3, 'x', 'x'), ('*', 'a', 'x', 'x'), ('*', 'b', 'x'), 5)


def main():
    n = int(sys.argv[1])
    result = None
    for _ in range(n):
        result = deriv(INPUT)
    print(show(result))


main()
