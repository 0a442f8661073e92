"""Collect the even squares in a list in a loop, then sum them."""
import sys


def even_squares(n):
    acc = []
    for i in range(n):
        if i % 2 == 0:
            acc.append(i * i)
    return acc


squares = even_squares(int(sys.argv[1]))
print(len(squares), sum(squares))
