"""mbrot (r7rs-benchmarks src/mbrot.scm), the same algorithm in CPython."""
import sys


def count(r, i, step, x, y):
    max_count = 64
    radius2 = 16.0
    cr = r + float(x) * step
    ci = i + float(y) * step
    zr, zi, c = cr, ci, 0
    while c != max_count:
        zr2, zi2 = zr * zr, zi * zi
        if zr2 + zi2 > radius2:
            return c
        zr, zi, c = (zr2 - zi2) + cr, 2.0 * (zr * zi) + ci, c + 1
    return c


def mbrot(matrix, r, i, step, n):
    for y in range(n - 1, -1, -1):
        for x in range(n - 1, -1, -1):
            matrix[x][y] = count(r, i, step, x, y)


def test(n):
    matrix = [[None] * n for _ in range(n)]
    mbrot(matrix, -1.0, -0.5, 0.005, n)
    return matrix


def main():
    n, repeat = map(int, sys.argv[1:3])
    for _ in range(repeat):
        matrix = test(n)
    print(matrix[0][0], sum(sum(row) for row in matrix))


main()
