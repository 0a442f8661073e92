"""ack (r7rs-benchmarks src/ack.scm), the same algorithm in CPython."""
import sys


def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))


def main():
    sys.setrecursionlimit(100000)
    m, n, repeat = map(int, sys.argv[1:4])
    result = None
    for _ in range(repeat):
        result = ack(m, n)
    print(result)


main()
