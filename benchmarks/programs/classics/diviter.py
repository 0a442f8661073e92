"""diviter (Gabriel; r7rs-benchmarks src/diviter.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list."""
import sys


def create_n(n):
    a = None
    for _ in range(n):
        a = ((), a)
    return a


def iterative_div2(lst):
    a = None
    while lst is not None:
        a = (lst[0], a)
        lst = lst[1][1]
    return a


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def main():
    n, repeat = map(int, sys.argv[1:3])
    ll = create_n(n)
    for _ in range(repeat):
        result = iterative_div2(ll)
    print(length(result))


main()
