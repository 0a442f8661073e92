"""A loop at top level: the sum of the multiples of 3 or 5 below N."""
import sys

n = int(sys.argv[1])
total = 0
for i in range(n):
    if i % 3 == 0 or i % 5 == 0:
        total += i
print(total)
