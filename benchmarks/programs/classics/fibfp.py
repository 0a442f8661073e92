"""fibfp (r7rs-benchmarks src/fibfp.scm), the same algorithm in CPython."""
import sys


def fibfp(n):
    if n < 2.0:
        return n
    return fibfp(n - 1.0) + fibfp(n - 2.0)


def main():
    n, repeat = map(int, sys.argv[1:3])
    result = None
    for _ in range(repeat):
        result = fibfp(float(n))
    print('%d' % result if result == int(result) else result)


main()
