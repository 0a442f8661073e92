"""tak (Gabriel; r7rs-benchmarks src/tak.scm), the same algorithm in CPython."""
import sys


def tak(x, y, z):
    if not y < x:
        return z
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))


def main():
    x, y, z, n = map(int, sys.argv[1:5])
    result = None
    for _ in range(n):
        result = tak(x, y, z)
    print(result)


main()
