"""Everyday script: write a config file, read it back and validate every entry."""
import sys


def make_config(n):
    out = []
    for i in range(n):
        if i % 17 == 0:
            out.append('# comment %d' % i)
        elif i % 13 == 0:
            out.append('port%d = %d' % (i, i * 100))
        elif i % 11 == 0:
            out.append('bad line %d' % i)
        elif i % 7 == 0:
            out.append('debug%d = %s' % (i, 'true' if i % 2 == 0 else 'maybe'))
        elif i % 5 == 0:
            out.append('name%d = ' % i)
        else:
            out.append('timeout%d = %d' % (i, i * 3))
    return '\n'.join(out)


def number(s):
    try:
        return float(s)
    except ValueError:
        return None


def check_entry(key, value):
    if key.startswith('port'):
        p = number(value)
        return 'ok' if p is not None and 0 < p < 65536 else key + ': port out of range'
    if key.startswith('debug'):
        return 'ok' if value in ('true', 'false') else key + ': not a boolean'
    if key.startswith('timeout'):
        return 'ok' if number(value) is not None else key + ': not a number'
    if value == '':
        return key + ': empty value'
    return 'ok'


def validate(text):
    ok, errors = 0, []
    for line in text.split('\n'):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if '=' not in line:
            errors.append('syntax: ' + line)
            continue
        i = line.index('=')
        r = check_entry(line[:i].strip(), line[i + 1:].strip())
        if r == 'ok':
            ok += 1
        else:
            errors.append(r)
    return ok, errors


with open('app.conf', 'w') as fh:
    fh.write(make_config(int(sys.argv[1])))
with open('app.conf') as fh:
    ok, errors = validate(fh.read())
print(ok, len(errors), errors[0], '|', errors[-1])
