"""Everyday script: format amounts with thousands separators and two decimals."""
import sys


def group_thousands(digits):
    parts = []
    s = digits
    while len(s) > 3:
        parts.insert(0, s[-3:])
        s = s[:-3]
    return ','.join([s] + parts)


def money(cents):
    sign = '-' if cents < 0 else ''
    c = abs(cents)
    return sign + '$' + group_thousands(str(c // 100)) + '.' + str(c % 100).rjust(2, '0')


def amount(i):
    return (i * i * 7919) % 1000000007 - 300000000


lines = [money(amount(i)).rjust(18, ' ') for i in range(int(sys.argv[1]))]
with open('ledger.txt', 'w') as fh:
    fh.write('\n'.join(lines))
with open('ledger.txt') as fh:
    text = fh.read()
for line in lines[:3]:
    print(line)
print(len(text), lines[-1])
