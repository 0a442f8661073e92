"""cpstak (r7rs-benchmarks src/cpstak.scm), the same algorithm in CPython.

Python has no tail calls, so every call stays on the stack until the end
(CPython 3.11 keeps Python-to-Python calls off the C stack; the limit is raised)."""
import sys


def cpstak(x, y, z):
    def tak(x, y, z, k):
        if not y < x:
            return k(z)
        return tak(x - 1, y, z,
                   lambda v1: tak(y - 1, z, x,
                                  lambda v2: tak(z - 1, x, y,
                                                 lambda v3: tak(v1, v2, v3, k))))
    return tak(x, y, z, lambda a: a)


def main():
    sys.setrecursionlimit(10 ** 7)
    x, y, z, n = map(int, sys.argv[1:5])
    result = None
    for _ in range(n):
        result = cpstak(x, y, z)
    print(result)


main()
