"""first … fifth: the n-th element of a list, with an error naming the
function (not list-ref), the same on both paths; each is documented."""
import pytest

from helpers import session_on_path
from rusty.errors import RustyError

NAMES = ('first', 'second', 'third', 'fourth', 'fifth')


@pytest.mark.parametrize('fast', [False, True], ids=['reference', 'fast'])
def test_each_takes_its_element_and_names_itself_in_errors(fast, monkeypatch):
    s = session_on_path(monkeypatch, fast)
    for i, name in enumerate(NAMES):
        assert s.run("(%s '(a b c d e f))" % name, '<t>').name == 'abcdef'[i]
        s.run('(define (via-%s l) (%s l))' % (name, name), '<t>')       # called from a (compiled) lambda
        assert s.run("(via-%s '(1 2 3 4 5 6))" % name, '<t>') == i + 1
        if i:
            with pytest.raises(RustyError) as e:
                s.run("(via-%s '(1))" % name, '<t>')
            assert e.value.message == '%s: index %d out of range [0, 1)' % (name, i)
    assert s.run("(equal? (fourth '(1 2 3 4)) (cadddr '(1 2 3 4)))", '<t>') is True


def test_each_is_documented(monkeypatch):
    s = session_on_path(monkeypatch, True)
    for name in NAMES[2:]:
        text = s.run("(doc '%s)" % name, '<t>')
        assert text.startswith('(%s lst)\nThe %s element of a list' % (name, name)), text
