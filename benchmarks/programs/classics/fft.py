"""fft (r7rs-benchmarks src/fft.scm), the same algorithm in CPython on a list of floats."""
import math
import sys


def four1(data):
    n = len(data)
    pi2 = 6.28318530717959
    i = j = 0
    while i < n:
        if i < j:
            data[i], data[j] = data[j], data[i]
            data[i + 1], data[j + 1] = data[j + 1], data[i + 1]
        m = n // 2
        while m >= 2 and j >= m:
            j -= m
            m //= 2
        i += 2
        j += m
    mmax = 2
    while mmax < n:
        theta = pi2 / float(mmax)
        x = math.sin(0.5 * theta)
        wpr = -2.0 * (x * x)
        wpi = math.sin(theta)
        wr, wi, m = 1.0, 0.0, 0
        while m < mmax:
            i = m
            while i < n:
                j = i + mmax
                tempr = wr * data[j] - wi * data[j + 1]
                tempi = wr * data[j + 1] + wi * data[j]
                data[j] = data[i] - tempr
                data[j + 1] = data[i + 1] - tempi
                data[i] = data[i] + tempr
                data[i + 1] = data[i + 1] + tempi
                i = j + mmax
            wr, wi, m = (wr * wpr - wi * wpi) + wr, (wi * wpr + wr * wpi) + wi, m + 2
        mmax *= 2


def fresh_data(n):
    return [(i % 13) / 4.0 for i in range(n)]


def main():
    size, n = map(int, sys.argv[1:3])
    for _ in range(n):
        data = fresh_data(size)
        four1(data)
    print('%.6f %.6f %.6f' % (data[0], data[2], data[3]))


main()
