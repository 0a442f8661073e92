"""paraffins (r7rs-benchmarks src/paraffins.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list, built by the same nested
loops (as recursion on the list built so far, like the original's named lets)."""
import sys


def gen(n):
    half = n // 2
    radicals = [('H', None)] * (half + 1)

    def rads_of_size(n):
        def loop1(ps, lst):
            if ps is None:
                return lst
            nc1, nc2, nc3 = ps[0]

            def loop2(rads1, lst):
                if rads1 is None:
                    return lst

                def loop3(rads2, lst):
                    if rads2 is None:
                        return lst

                    def loop4(rads3, lst):
                        if rads3 is None:
                            return lst
                        return (('C', rads1[0], rads2[0], rads3[0]), loop4(rads3[1], lst))
                    return loop4(rads2 if nc2 == nc3 else radicals[nc3], loop3(rads2[1], lst))
                return loop3(rads1 if nc1 == nc2 else radicals[nc2], loop2(rads1[1], lst))
            return loop2(radicals[nc1], loop1(ps[1], lst))
        return loop1(three_partitions(n - 1), None)

    def bcp_generator(j):
        if j % 2 == 1:
            return None

        def loop1(rads1, lst):
            if rads1 is None:
                return lst

            def loop2(rads2, lst):
                if rads2 is None:
                    return lst
                return (('BCP', rads1[0], rads2[0]), loop2(rads2[1], lst))
            return loop2(rads1, loop1(rads1[1], lst))
        return loop1(radicals[j // 2], None)

    def ccp_generator(j):
        def loop1(ps, lst):
            if ps is None:
                return lst
            nc1, nc2, nc3, nc4 = ps[0]

            def loop2(rads1, lst):
                if rads1 is None:
                    return lst

                def loop3(rads2, lst):
                    if rads2 is None:
                        return lst

                    def loop4(rads3, lst):
                        if rads3 is None:
                            return lst

                        def loop5(rads4, lst):
                            if rads4 is None:
                                return lst
                            return (('CCP', rads1[0], rads2[0], rads3[0], rads4[0]),
                                    loop5(rads4[1], lst))
                        return loop5(rads3 if nc3 == nc4 else radicals[nc4], loop4(rads3[1], lst))
                    return loop4(rads2 if nc2 == nc3 else radicals[nc3], loop3(rads2[1], lst))
                return loop3(rads1 if nc1 == nc2 else radicals[nc2], loop2(rads1[1], lst))
            return loop2(radicals[nc1], loop1(ps[1], lst))
        return loop1(four_partitions(j - 1), None)

    for i in range(1, half + 1):
        radicals[i] = rads_of_size(i)
    return bcp_generator(n), ccp_generator(n)


def three_partitions(m):
    lst = None
    nc1 = m // 3
    while nc1 >= 0:
        nc2 = (m - nc1) // 2
        while nc2 >= nc1:
            lst = ((nc1, nc2, m - (nc1 + nc2)), lst)
            nc2 -= 1
        nc1 -= 1
    return lst


def four_partitions(m):
    lst = None
    nc1 = m // 4
    while nc1 >= 0:
        nc2 = (m - nc1) // 3
        while nc2 >= nc1:
            start = max(nc2, (m + 1) // 2 - (nc1 + nc2))
            nc3 = (m - (nc1 + nc2)) // 2
            while nc3 >= start:
                lst = ((nc1, nc2, nc3, m - (nc1 + (nc2 + nc3))), lst)
                nc3 -= 1
            nc2 -= 1
        nc1 -= 1
    return lst


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def nb(n):
    a, b = gen(n)
    return length(a) + length(b)


def main():
    sys.setrecursionlimit(1000000)
    n, k = map(int, sys.argv[1:3])
    for _ in range(k):
        result = nb(n)
    print(result)


main()
