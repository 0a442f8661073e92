"""quicksort (Hansen's quick-1; r7rs-benchmarks src/quicksort.scm), the same
algorithm in CPython: the vector is a Python list sorted in place by the same
recursive helper and partition (its tail-recursive loops as while loops), with
less? passed as a function; L'Ecuyer's generator on Python floats, its state a
six-element list."""
import math
import sys

NORM = 2.328306549295728e-10
M1 = 4294967087.0
M2 = 4294944443.0
A12 = 1403580.0
A13N = 810728.0
A21 = 527612.0
A23N = 1370589.0
seed = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]


def random_flonum():
    p1 = A12 * seed[1] - A13N * seed[0]
    p2 = A21 * seed[5] - A23N * seed[3]
    k1 = math.trunc(p1 / M1)
    k2 = math.trunc(p2 / M2)
    seed[0] = seed[1]
    seed[3] = seed[4]
    p1 = p1 - k1 * M1
    p2 = p2 - k2 * M2
    seed[1] = seed[2]
    seed[4] = seed[5]
    if p1 < 0.0:
        p1 += M1
    if p2 < 0.0:
        p2 += M2
    seed[2] = p1
    seed[5] = p2
    if p1 <= p2:
        return NORM * (p1 - p2 + M1)
    return NORM * (p1 - p2)


def random(n):
    return math.trunc(float(n) * random_flonum())


def quick_1(v, less):
    def helper(left, right):
        if left < right:
            median = partition(v, left, right, less)
            if median - left < right - median:
                helper(left, median - 1)
                helper(median + 1, right)
            else:
                helper(median + 1, right)
                helper(left, median - 1)
        return v
    return helper(0, len(v) - 1)


def partition(v, left, right, less):
    mid = v[right]

    def uploop(i):
        i += 1
        while i < right and less(v[i], mid):
            i += 1
        return i

    def downloop(j):
        j -= 1
        while j > left and less(mid, v[j]):
            j -= 1
        return j

    i, j = left - 1, right
    while True:
        i = uploop(i)
        j = downloop(j)
        tmp = v[i]
        v[i] = v[j]
        v[j] = tmp
        if i < j:
            continue
        v[j] = v[i]
        v[i] = v[right]
        v[right] = tmp
        return i


def sorted_p(v):
    return all(v[i - 1] <= v[i] for i in range(1, len(v)))


def main():
    sys.setrecursionlimit(100000)
    n, r, k = map(int, sys.argv[1:4])
    v = [random(r) for _ in range(n)]
    for _ in range(k):
        result = quick_1(list(v), lambda x, y: x < y)
    print('#t' if sorted_p(result) else '#f', result[0], result[n // 2], result[-1])


main()
