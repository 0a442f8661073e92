"""Nested loops over a grid held in a list of lists (a multiplication table mod 7)."""
import sys


def grid(n):
    rows = [None] * n
    for i in range(n):
        row = [0] * n
        for j in range(n):
            row[j] = (i * j) % 7
        rows[i] = row
    return rows


def grid_sum(g):
    total = 0
    for i in range(len(g)):
        for j in range(len(g[i])):
            total += g[i][j]
    return total


print(grid_sum(grid(int(sys.argv[1]))))
