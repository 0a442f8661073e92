"""A loop inside a function called once: the longest Collatz chain up to N."""
import sys


def longest_collatz(limit):
    best = best_start = 0
    for start in range(1, limit + 1):
        x, steps = start, 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        if steps > best:
            best, best_start = steps, start
    return best_start, best


print('(%d %d)' % longest_collatz(int(sys.argv[1])))
