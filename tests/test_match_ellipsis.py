"""`match` with `...` (docs/reference.md, `match`): `q ...` in a list pattern
matches none or more elements, each name in q bound to the list of what it
matched (Racket's match, syntax-rules); a misplaced `...` is an error when the
form is read in. Both paths (RUSTY_SPECIALIZE=0 and 1), also inside lambdas."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import session_on_path
from rusty.errors import RustyError
from rusty.printer import print_form


@pytest.fixture(params=[False, True], ids=['reference', 'fast'])
def s(request, monkeypatch):
    return session_on_path(monkeypatch, request.param)


def ev(s, src):
    return print_form(s.run(src, '<t>'))


CASES = [     # (subject, clauses, value)
    ("'(1 2 3 4)", "((a b ...) (list a b))", '(1 (2 3 4))'),         # the case
    ("'(1)", "((a b ...) (list a b))", '(1 ())'),
    ("'()", "((a b ...) 'yes) (_ 'no)", 'no'),
    ("'()", "((x ...) x)", '()'),
    ("'(1 2 3)", "((x ...) x)", '(1 2 3)'),
    ("'((x 1) (y 2))", "(((k v) ...) (list k v))", '((x y) (1 2))'),
    ("'((x 1) (y 2 3))", "(((k v) ...) 'pairs) (_ 'other)", 'other'),
    ("'(1 2 3 4)", "((a b ... c) (list a b c))", '(1 (2 3) 4)'),
    ("'(1 2 3)", "((a b ... c d) (list a b c d))", '(1 () 2 3)'),
    ("'(1 2)", "((a b c ... d) 'yes) (_ 'no)", 'no'),
    ("'((1 2) (3) ())", "(((x ...) ...) x)", '((1 2) (3) ())'),
    ("'(1 2 x)", "(((? number? n) ...) n) (_ 'mixed)", 'mixed'),
    ("'(1 2 3)", "(((? number? n) ...) n)", '(1 2 3)'),
    ("'(1 2 3)", "((_ ...) 'any)", 'any'),
    ("'(1 1 1)", "((1 ...) 'ones)", 'ones'),
    ("'(a b)", "(('a rest ...) rest)", '(b)'),
    ("5", "((x ...) 'list) (_ 'atom)", 'atom'),
    ("'(1 2 3)", "((cons h (t ...)) (list h t))", '(1 (2 3))'),
    ("'(def f 1 2)", "(('def name body ...) (list name body))", '(f (1 2))'),
]


@pytest.mark.parametrize('subject,clauses,expected', CASES)
def test_ellipsis_patterns(s, subject, clauses, expected):
    assert ev(s, '(match %s %s)' % (subject, clauses)) == expected
    s.run('(define (f v) (match v %s))' % clauses, '<t>')            # inside a lambda
    assert ev(s, '(f %s)' % subject) == expected
    assert ev(s, '(f %s)' % subject) == expected                     # again: once compiled


@pytest.mark.parametrize('pattern,message', [
    ('(... a)', "match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
    ('...', "match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
    ('(a ... b ...)', "match: only one '...' in a list pattern"),
    ('(a ... . r)', "match: '...' and a '.' rest in one list pattern"),
    ('(a . ...)', "match: malformed rest pattern after '.'"),
    ('(cons ... t)', "match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
    ('(? number? ...)', "match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
    ('((x ...) (... y))', "match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
])
def test_a_misplaced_ellipsis_is_reported_when_read(s, pattern, message):
    with pytest.raises(RustyError) as e:                        # in a body that never runs
        s.run("(define (never v) (match v (%s 1))) 'not-reached" % pattern, '<t>')
    assert e.value.message == message
    assert 'internal error' not in e.value.message


def test_the_manual_describes_the_ellipsis(s):
    doc = s.run("(doc 'match)", '<t>')
    assert "(a b ...) binds b to the rest" in doc


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6))
def test_ellipsis_agrees_with_rest_and_map(xs):
    from helpers import session
    sess = session()
    lst = "'(%s)" % ' '.join(map(str, xs))
    rest = ev(sess, "(match %s ((a . b) (list a b)) (_ 'none))" % lst)
    assert ev(sess, "(match %s ((a b ...) (list a b)) (_ 'none))" % lst) == rest
    pairs = "'(%s)" % ' '.join('(%d %d)' % (x, x * x) for x in xs)
    assert ev(sess, "(match %s (((k v) ...) (list k v)))" % pairs) == \
        ev(sess, "(list (map car %s) (map cadr %s))" % (pairs, pairs))
