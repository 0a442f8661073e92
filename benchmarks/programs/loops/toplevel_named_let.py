"""A beginner's first loop at top level: sum of squares."""
import sys

n = int(sys.argv[1])
total = 0
i = 0
while i < n:
    total += i * i
    i += 1
print(total)
