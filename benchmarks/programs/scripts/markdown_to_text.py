"""Everyday script: convert a Markdown document of N sections to plain text
(headings underlined, **bold** in capitals, `code` quoted, links spelled out,
lists and quotes indented, code blocks kept), then print counts and a few lines."""
import sys

WORDS = ['parser', 'cache', 'prompt', 'compiler', 'vector', 'report', 'string', 'loop', 'table']


def word(i):
    return WORDS[i % len(WORDS)]


def section(i):
    lines = ['## Section %d: the %s' % (i, word(i)),
             '',
             'The **%s** now handles `%s` input; see [the notes](https://example.org/%s/%d)'
             ' for details.' % (word(i + 1), word(i + 2), word(i), i),
             'It is faster on %s heavy work and uses less memory.' % word(i + 3),
             '',
             '- fixed the %s when **empty**' % word(i + 4),
             '- `%s` accepts a [limit](https://example.org/limit)' % word(i + 5),
             '- documented ' + word(i + 6),
             '']
    if i % 3 == 0:
        lines += ['1. read the notes', '2. rebuild the ' + word(i), '']
    if i % 4 == 0:
        lines += ['```', '(define (f x) (* x %d))' % i, '(f 2)', '```', '']
    if i % 5 == 0:
        lines += ['> Thanks to **user%d** for the report.' % i, '']
    return lines


def make_document(n):
    return '\n'.join(['# Release notes', ''] + [line for i in range(n) for line in section(i)])


links = 0


def inline(s):
    global links
    out = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == '*' and i + 1 < n and s[i + 1] == '*':
            end = s.find('**', i + 2)
            out.append(s[i + 2:end].upper())
            i = end + 2
        elif c == '`':
            end = s.find('`', i + 1)
            out.append("'" + s[i + 1:end] + "'")
            i = end + 1
        elif c == '[':
            mid = s.find('](', i + 1)
            end = s.find(')', mid)
            links += 1
            out.append('%s <%s>' % (s[i + 1:mid], s[mid + 2:end]))
            i = end + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def convert(text):
    out = []
    in_code = False
    for line in text.split('\n'):
        if line.startswith('```'):
            in_code = not in_code
        elif in_code:
            out.append('    ' + line)
        elif line.startswith('# '):
            title = inline(line[2:]).upper()
            out += [title, '=' * len(title)]
        elif line.startswith('## '):
            title = inline(line[3:])
            out += [title, '-' * len(title)]
        elif line.startswith('- '):
            out.append('  * ' + inline(line[2:]))
        elif len(line) > 2 and line[0].isdigit() and line[1:3] == '. ':
            out.append('  ' + inline(line))
        elif line.startswith('> '):
            out.append('    | ' + inline(line[2:]))
        else:
            out.append(inline(line))
    return out


with open('notes.md', 'w') as fh:
    fh.write(make_document(int(sys.argv[1])))
with open('notes.md') as fh:
    text_lines = convert(fh.read())
with open('notes.txt', 'w') as fh:
    fh.write('\n'.join(text_lines))
with open('notes.txt') as fh:
    print('lines', len(text_lines), 'words', len(fh.read().split()), 'links', links)
for line in text_lines[:12]:
    print(line)
print(text_lines[-2])
