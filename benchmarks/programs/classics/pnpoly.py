"""pnpoly (r7rs-benchmarks src/pnpoly.scm), the same algorithm in CPython: the
polygon's coordinates in Python lists (copied per run, as the original copies its
vectors), the same crossing loop as a while loop."""
import sys

XS = [0.0, 1.0, 1.0, 0.0, 0.0, 1.0, -0.5, -1.0, -1.0, -2.0, -2.5, -2.0, -1.5, -0.5, 1.0, 1.0,
      0.0, -0.5, -1.0, -0.5]
YS = [0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 2.0, 3.0, 0.0, -0.5, -1.0, -1.5, -2.0, -2.0, -1.5, -1.0,
      -0.5, -1.0, -1.0, -0.5]
POINTS = [(0.5, 0.5), (0.5, 1.5), (-0.5, 1.5), (0.75, 2.25), (0.0, 2.01), (-0.5, 2.5),
          (-1.0, -0.5), (-1.5, 0.5), (-2.25, -1.0), (0.5, -0.25), (0.5, -1.25), (-0.5, -2.5)]


def pt_in_poly2(xp, yp, x, y):
    c = False
    i = len(xp) - 1
    j = 0
    while i >= 0:
        if (((yp[i] > y or y >= yp[j]) and (yp[j] > y or y >= yp[i]))
                or x >= xp[i] + (xp[j] - xp[i]) * (y - yp[i]) / (yp[j] - yp[i])):
            pass
        else:
            c = not c
        j = i
        i -= 1
    return c


def run(input1, input2):
    count = 0
    xp = list(input1)
    yp = list(input2)
    for x, y in POINTS:
        if pt_in_poly2(xp, yp, x, y):
            count += 1
    return count


def main():
    k = int(sys.argv[1])
    for _ in range(k):
        result = run(XS, YS)
    print(result)


main()
