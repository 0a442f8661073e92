"""The manual's chapter "Python from Lisp, Lisp from Python" runs as written:
each ```lisp block in one fresh session, every `; ⇒ X` checked against the
write form of the form before it; each ```python block executed (its asserts
are the checks)."""
import io
import os
import re

import pytest

from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session

MANUAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'docs', 'reference.md')
BLOCK = re.compile(r'```(lisp|python)\n(.*?)```', re.S)


def chapter() -> str:
    text = open(MANUAL, encoding='utf-8').read()
    start = text.index('## 12. Python from Lisp, Lisp from Python')
    end = text.find('\n## ', start + 10)
    return text[start:] if end < 0 else text[start:end]


def blocks(kind: str) -> list[str]:
    return [body for k, body in BLOCK.findall(chapter()) if k == kind]


def checks(block: str):
    """(code, expected) pairs: the code since the last check, and the value
    a `; ⇒` comment states for its last form."""
    code = []
    for line in block.splitlines():
        if '; ⇒ ' in line:
            before, expected = line.split('; ⇒ ', 1)
            code.append(before)
            yield '\n'.join(code), expected.strip()
            code = []
        else:
            code.append(line)


def test_the_chapter_has_examples():
    assert len(blocks('lisp')) >= 6 and len(blocks('python')) >= 1


@pytest.mark.parametrize('fast', [True, False], ids=['fast', 'reference'])
@pytest.mark.parametrize('n', range(len(blocks('lisp'))))
def test_lisp_examples_give_what_they_say(n, fast, monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    s = Session(out=io.StringIO())
    for code, expected in checks(blocks('lisp')[n]):
        try:
            got = write_form(s.run(code, 'manual.lisp'))
        except RustyError as e:
            got = 'error: ' + e.message
        assert got == expected, code


@pytest.mark.parametrize('n', range(len(blocks('python'))))
def test_python_examples_run(n):
    exec(compile(blocks('python')[n], 'manual-%d.py' % n, 'exec'), {})
