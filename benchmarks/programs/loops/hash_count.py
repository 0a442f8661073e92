"""Count keys in a dict in a loop (a histogram of i*i mod 97)."""
import sys

counts = {}
n = int(sys.argv[1])
for i in range(n):
    k = (i * i) % 97
    counts[k] = counts.get(k, 0) + 1
print(len(counts), max(counts.values()))
