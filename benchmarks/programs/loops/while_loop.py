"""A while loop at top level: digit sums of 0..N-1."""
import sys

n = int(sys.argv[1])
i = 0
total = 0
while i < n:
    x = i
    while x > 0:
        total += x % 10
        x //= 10
    i += 1
print(total)
