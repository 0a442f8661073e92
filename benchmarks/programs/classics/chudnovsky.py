"""chudnovsky (r7rs-benchmarks src/chudnovsky.scm), the same algorithm in CPython:
binary splitting on Python ints, the triples as lists, integer-sqrt as the same
Newton's method the Lisp port uses (not math.isqrt), pies as a recursive list."""
import sys

CH_A = 13591409
CH_B = 545140134
CH_C = 640320
CH_C3 = 640320 ** 3
CH_D = 12


def ch_split(a, b):
    if b - a == 1:
        g = (6 * b - 5) * (2 * b - 1) * (6 * b - 1)
        return [g, CH_C3 * b ** 3 // 24, (-1) ** b * g * (b * CH_B + CH_A)]
    mid = (a + b) // 2
    g1, p1, q1 = ch_split(a, mid)
    g2, p2, q2 = ch_split(mid, b)
    return [g1 * g2, p1 * p2, q1 * p2 + q2 * g1]


def integer_sqrt(x):
    if x < 2:
        return x
    q = 10 ** ((len(str(x)) + 1) // 2)
    while True:
        nxt = (q + x // q) // 2
        if nxt >= q:
            return q
        q = nxt


def pi(digits):
    num_terms = int(2 + digits / 14.181647462)
    sqrt_c = integer_sqrt(CH_C * 100 ** digits)
    g, p, q = ch_split(0, num_terms)
    return p * CH_C * sqrt_c // (CH_D * (q + p * CH_A))


def pies(n, m, s):
    return [] if m < n else [pi(n)] + pies(n + s, m, s)


def main():
    sys.set_int_max_str_digits(0)
    n, m, s, k = map(int, sys.argv[1:5])
    for _ in range(k):
        result = pies(n, m, s)
    longest = str(result[-1])
    print(len(result), len(longest), longest[-12:])


main()
