"""Everyday script: convert numbers to Roman numerals and back, checking each."""
import sys

TABLE = ((1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'), (100, 'C'), (90, 'XC'), (50, 'L'),
         (40, 'XL'), (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I'))
VALUES = {'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}


def to_roman(n):
    acc, t = '', 0
    while n != 0:
        if n >= TABLE[t][0]:
            n -= TABLE[t][0]
            acc = acc + TABLE[t][1]
        else:
            t += 1
    return acc


def from_roman(s):
    total = 0
    for i in range(len(s)):
        v = VALUES[s[i]]
        nxt = VALUES[s[i + 1]] if i + 1 < len(s) else 0
        total = total - v if v < nxt else total + v
    return total


n = int(sys.argv[1])
longest, bad = '', 0
for i in range(1, n + 1):
    r = to_roman(i)
    if from_roman(r) != i:
        bad += 1
    if len(r) > len(longest):
        longest = r
print(bad, longest, from_roman(longest), to_roman(n))
