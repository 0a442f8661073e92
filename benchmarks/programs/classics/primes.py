"""primes (r7rs-benchmarks src/primes.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list, built by recursion as the
original builds them."""
import sys


def interval_list(m, n):
    return None if m > n else (m, interval_list(m + 1, n))


def remove_multiples(n, lst):
    if lst is None:
        return None
    if lst[0] % n == 0:
        return remove_multiples(n, lst[1])
    return (lst[0], remove_multiples(n, lst[1]))


def sieve(lst):
    if lst is None:
        return None
    return (lst[0], sieve(remove_multiples(lst[0], lst[1])))


def main():
    sys.setrecursionlimit(10 ** 6)
    n, repeat = map(int, sys.argv[1:3])
    result = None
    for _ in range(repeat):
        result = sieve(interval_list(2, n))
    count, last = 0, None
    while result is not None:
        count, last, result = count + 1, result[0], result[1]
    print(count, last)


main()
