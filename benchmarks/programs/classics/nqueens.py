"""nqueens (r7rs-benchmarks src/nqueens.scm), the same algorithm in CPython:
lists are (head, rest) tuples, None the empty list, as the original conses."""
import sys


def append(a, b):
    items = []
    while a is not None:
        items.append(a[0])
        a = a[1]
    for x in reversed(items):
        b = (x, b)
    return b


def nqueens(n):
    def iota1(n):
        lst = None
        for i in range(n, 0, -1):
            lst = (i, lst)
        return lst

    def my_try(x, y, z):
        if x is None:
            return 1 if y is None else 0
        return ((my_try(append(x[1], y), None, (x[0], z)) if ok(x[0], 1, z) else 0)
                + my_try(x[1], (x[0], y), z))

    def ok(row, dist, placed):
        while placed is not None:
            if placed[0] == row + dist or placed[0] == row - dist:
                return False
            dist, placed = dist + 1, placed[1]
        return True

    return my_try(iota1(n), None, None)


def main():
    n, repeat = map(int, sys.argv[1:3])
    result = None
    for _ in range(repeat):
        result = nqueens(n)
    print(result)


main()
