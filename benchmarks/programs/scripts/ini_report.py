"""Everyday script: write an INI file of N service sections, parse it back into a
table of sections and report on it (per host, missing keys, the longest timeout)."""
import sys


def section_lines(i):
    lines = ['[svc%d]' % i, 'host = node%d.example' % (i % 7), 'port=%d' % (8000 + i * 37 % 1000)]
    if i % 9 != 0:
        lines.append('workers = %d   # one per core' % (1 + i % 8))
    lines += ['enabled = ' + ('no' if i % 3 == 0 else 'yes'), '; timeout in seconds',
              'timeout = %ds' % (i * 13 % 90), '']
    return lines


def make_ini(n):
    return '\n'.join(line for i in range(n) for line in section_lines(i))


def parse_ini(text):
    sections, current = {}, None
    for raw in text.split('\n'):
        line = raw.split('#', 1)[0].strip()
        if not line or line.startswith(';'):
            continue
        if line.startswith('['):
            current = line[1:-1]
            sections[current] = {}
        else:
            key, _, value = line.partition('=')
            sections[current][key.strip()] = value.strip()
    return sections


def report(sections):
    hosts = {}
    enabled = workers = 0
    missing = []
    worst, worst_t = None, -1
    for name, s in sections.items():
        port = int(s['port'])
        t = int(s['timeout'][:-1])
        count, ports = hosts.get(s['host'], (0, 0))
        hosts[s['host']] = (count + 1, ports + port)
        if s['enabled'] == 'yes':
            enabled += 1
            workers += int(s.get('workers', '1'))
        if 'workers' not in s:
            missing.append(name)
        if t > worst_t:
            worst, worst_t = name, t
    print('sections', len(sections), 'enabled', enabled, 'workers', workers)
    print('missing workers:', len(missing), 'last', missing[-1])
    print('longest timeout: %ds in %s' % (worst_t, worst))
    for host in sorted(hosts):
        count, ports = hosts[host]
        print('%-14s %5d %9d' % (host, count, ports))


with open('services.ini', 'w') as fh:
    fh.write(make_ini(int(sys.argv[1])))
with open('services.ini') as fh:
    report(parse_ini(fh.read()))
