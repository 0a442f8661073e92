"""Everyday script: write a server log, then parse it."""
import sys

MODULES = ('auth', 'db', 'cache', 'api', 'web')
LEVELS = ('INFO', 'INFO', 'INFO', 'WARN', 'ERROR')


def make_log(n):
    seed, lines = 99, []
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        lines.append('2026-12-05 %02d:%02d:%02d %s %s: request %d took %dms' % (
            (i // 3600) % 24, (i // 60) % 60, i % 60, LEVELS[(seed // 16) % 5],
            MODULES[(seed // 256) % 5], i, (seed // 4096) % 500))
    return '\n'.join(lines)


def parse_line(line):
    words = line.split(' ')
    return words[2], words[3][:-1], int(words[7][:-2])


with open('server.log', 'w') as fh:
    fh.write(make_log(int(sys.argv[1])))
counts, latency, slowest = {}, {}, ('none', 0)
with open('server.log') as fh:
    for line in fh.read().split('\n'):
        level, module, ms = parse_line(line)
        key = level + '/' + module
        counts[key] = counts.get(key, 0) + 1
        latency[module] = ms + latency.get(module, 0)
        if ms > slowest[1]:
            slowest = (line, ms)
for k in sorted(counts):
    print(k, counts[k])
for m in sorted(latency):
    n = sum(counts.get(lv + '/' + m, 0) for lv in ('INFO', 'WARN', 'ERROR'))
    print(m, '%.2f' % (latency[m] / n))
print(slowest[0])
