"""takl (Gabriel; r7rs-benchmarks src/takl.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list."""
import sys


def listn(n):
    return None if n == 0 else (n, listn(n - 1))


def mas(x, y, z):
    if not shorterp(y, x):
        return z
    return mas(mas(x[1], y, z), mas(y[1], z, x), mas(z[1], x, y))


def shorterp(x, y):
    while y is not None:
        if x is None:
            return True
        x, y = x[1], y[1]
    return False


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def main():
    a, b, c, n = map(int, sys.argv[1:5])
    lx, ly, lz = listn(a), listn(b), listn(c)
    result = None
    for _ in range(n):
        result = mas(lx, ly, lz)
    print(length(result))


main()
