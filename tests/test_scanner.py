"""The reader's hand-written scanner (reader.scan, block_end, _unescape)
against a slow reference: the lexical syntax written as one regular
expression, token by token, on a table of cases and on random texts."""
import random
import re

import pytest

from rusty.reader import _unescape, block_end, scan

# The reference: the first alternative that matches wins.
REFERENCE = re.compile(r'''
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>;[^\n]*)
  | (?P<block>\#\|)
  | (?P<datum>\#;)
  | (?P<vopen>\#\()
  | (?P<open>\()
  | (?P<close>\))
  | (?P<sugar>,@|[,'`])
  | (?P<str>"(?:[^"\\]|\\[\s\S])*(?:\\\Z)?"?)
  | (?P<bool>\#[tf])
  | (?P<hash>\#)
  | (?P<num>-?[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?)
  | (?P<sym>[^ \t\r\n()'"`,]+)
''', re.VERBOSE)
BLOCK_MARK = re.compile(r'\#\||\|\#')
ESCAPE = re.compile(r'\\([\s\S]?)')


def split(text):
    """(kind, token) of every token, by the scanner."""
    pos, out = 0, []
    while pos < len(text):
        kind, end = scan(text, pos)
        assert end > pos
        out.append((kind, text[pos:end]))
        pos = end
    return out


def reference_split(text):
    return [(m.lastgroup, m.group()) for m in REFERENCE.finditer(text)]


def reference_block_end(text, pos):
    depth = 1
    while True:
        m = BLOCK_MARK.search(text, pos)
        if m is None:
            return -1
        pos = m.end()
        depth += 1 if m.group() == '#|' else -1
        if depth == 0:
            return pos


CASES = [
    '', ' ', ' \t\r\n x', '(a b)', "'a `(b ,c ,@d)", ',', ',@', ',@@',
    '; comment\n(x)', ';', ';no newline', '#|', '#|x|#', '#;', '#;(a)', '#t #f #true #fx', '#', '#x', '##',
    '#(1 2)', '#()', '#(#(a))', 'a#(b', '# (', "'#(a)",
    '"', '"abc', '"abc"', '"a\\"b"', '"a\\\\"b"', '"\\', '"a\\', '"\\n\\t"', '"multi\nline"',
    '1', '-1', '-', '--1', '1.5', '1.2.3', '1e5', '1E+5', '1e-', '1e', '1ex', '-1.5e-10x', '12abc',
    '.5', '-.5', '1..', 'a-1', 'a;b', 'a#b', 'a|b', 'foo?', '->x', 'ünïcödé', 'a\x0bb', 'a\fb',
    '(define (f x) (+ x 1))', '(a . b)', '"a"b"c"', 'x"y"', "x'y", 'x`y', 'x,y',
]


@pytest.mark.parametrize('text', CASES)
def test_the_scanner_splits_like_the_reference(text):
    assert split(text) == reference_split(text)


def test_the_scanner_splits_random_texts_like_the_reference():
    rng = random.Random(13)
    alphabet = ' \t\n\r()\'"`,@;#|\\tfeE+-.0123456789abxé\x0b'
    for _ in range(3000):
        text = ''.join(rng.choice(alphabet) for _ in range(rng.randrange(1, 30)))
        assert split(text) == reference_split(text), text


@pytest.mark.parametrize('text', ['x|#', '#|x|#|#', '|#', '#|#', '|#|#', 'a #| b |# c |# d', '#|#|', 'none'])
def test_block_ends_like_the_reference(text):
    for pos in range(len(text) + 1):
        assert block_end(text, pos) == reference_block_end(text, pos)


def test_block_ends_of_random_texts_like_the_reference():
    rng = random.Random(7)
    for _ in range(2000):
        text = ''.join(rng.choice('#|x') for _ in range(rng.randrange(0, 14)))
        for pos in range(len(text) + 1):
            assert block_end(text, pos) == reference_block_end(text, pos), (text, pos)


@pytest.mark.parametrize('body', ['', 'plain', '\\', 'a\\', '\\n\\t\\r', '\\\\', '\\"q\\"', '\\x', 'a\\\\\\', 'é\\é'])
def test_unescape_like_the_reference(body):
    escapes = {'n': '\n', 't': '\t', 'r': '\r'}
    assert _unescape(body) == ESCAPE.sub(lambda m: escapes.get(m.group(1), m.group(1)), body)


def test_unescape_of_random_bodies_like_the_reference():
    rng = random.Random(5)
    escapes = {'n': '\n', 't': '\t', 'r': '\r'}
    for _ in range(2000):
        body = ''.join(rng.choice('\\ntrx"é') for _ in range(rng.randrange(0, 12)))
        assert _unescape(body) == ESCAPE.sub(lambda m: escapes.get(m.group(1), m.group(1)), body), body
