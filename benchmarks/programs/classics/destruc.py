"""destruc (Gabriel; r7rs-benchmarks src/destruc.scm), the same algorithm in CPython:
a mutable pair is a two-slot list [car, cdr], None the empty list."""
import sys

from sexp import show


def mlength(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def append_to_tail(x, y):
    if x is None:
        return y
    a, b = x, x[1]
    while b is not None:
        a, b = b, b[1]
    a[1] = y
    return x


def make_list(k):
    a = None
    for _ in range(k):
        a = [None, a]
    return a


def destructive(n, m):
    lst = make_list(10)
    for i in range(n, 0, -1):
        if lst[0] is None:
            p = lst
            while p is not None:
                if p[0] is None:
                    p[0] = [None, None]
                append_to_tail(p[0], make_list(m))
                p = p[1]
        else:
            l1, l2 = lst, lst[1]
            while l2 is not None:
                a = l2[0]
                for _ in range(mlength(l2[0]) // 2):
                    a[0] = i
                    a = a[1]
                k = mlength(l1[0]) // 2
                if k == 0:
                    l1[0] = None
                    rest = l1[0]
                else:
                    b = l1[0]
                    for _ in range(k - 1):
                        b[0] = i
                        b = b[1]
                    rest = b[1]
                    b[1] = None
                a[1] = rest
                l1, l2 = l1[1], l2[1]
    return lst


def to_list(x):
    if isinstance(x, list):
        out = []
        while x is not None:
            out.append(to_list(x[0]))
            x = x[1]
        return out
    return [] if x is None else x


def main():
    n, m, k = map(int, sys.argv[1:4])
    for _ in range(k):
        result = destructive(n, m)
    print(show(to_list(result)))


main()
