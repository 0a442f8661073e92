"""Fill a list, then sum it with an index loop, each in a function called once."""
import sys


def fill_squares(n):
    v = [0] * n
    for i in range(n):
        v[i] = (i * i) % 1000
    return v


def vector_sum(v):
    total = 0
    for i in range(len(v)):
        total += v[i]
    return total


print(vector_sum(fill_squares(int(sys.argv[1]))))
