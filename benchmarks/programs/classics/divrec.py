"""divrec (Gabriel; r7rs-benchmarks src/divrec.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list."""
import sys


def create_n(n):
    a = None
    for _ in range(n):
        a = ((), a)
    return a


def recursive_div2(lst):
    if lst is None:
        return None
    return (lst[0], recursive_div2(lst[1][1]))


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def main():
    sys.setrecursionlimit(100000)
    n, repeat = map(int, sys.argv[1:3])
    ll = create_n(n)
    for _ in range(repeat):
        result = recursive_div2(ll)
    print(length(result))


main()
