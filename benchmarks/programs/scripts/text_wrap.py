"""Everyday script: wrap paragraphs to 60 columns, fully justified."""
import sys

WORDS = ('rusty is a small lisp that runs on python and it tries to be quick for the programs people write every day such as little scripts loops and the classic benchmarks that lisp people have used for forty years').split()


def make_text(n):
    both = WORDS + WORDS
    return '\n\n'.join(' '.join(both[p % 9:][:20 + (p * 7) % 17]) for p in range(n))


def justify(line_words, width):
    if len(line_words) == 1:
        return line_words[0]
    chars = sum(len(w) for w in line_words)
    gaps = len(line_words) - 1
    base, extra = divmod(width - chars, gaps)
    out = [line_words[0]]
    for i, w in enumerate(line_words[1:]):
        out.append(' ' * (base + (1 if i < extra else 0)))
        out.append(w)
    return ''.join(out)


def wrap(paragraph, width):
    out, line, length = [], [], 0
    for w in paragraph.split():
        if line and length + 1 + len(w) > width:
            out.append(justify(line, width))
            line, length = [], 0
        if not line:
            line, length = [w], len(w)
        else:
            line.append(w)
            length += 1 + len(w)
    if line:
        out.append(' '.join(line))
    return out


with open('essay.txt', 'w') as fh:
    fh.write(make_text(int(sys.argv[1])))
with open('essay.txt') as fh:
    wrapped = ['\n'.join(wrap(p, 60)) for p in fh.read().split('\n\n')]
with open('essay-wrapped.txt', 'w') as fh:
    fh.write('\n\n'.join(wrapped))
with open('essay-wrapped.txt') as fh:
    lines = fh.read().split('\n')
print(len(lines), sum(1 for line in lines if len(line) == 60))
print(lines[1])
