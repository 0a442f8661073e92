"""fib (r7rs-benchmarks src/fib.scm), the same algorithm in CPython."""
import sys


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main():
    n, repeat = map(int, sys.argv[1:3])
    result = None
    for _ in range(repeat):
        result = fib(n)
    print(result)


main()
