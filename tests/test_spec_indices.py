"""Indices are checked, never wrapped or clamped silently (the manual, section
6): every builtin that takes an index or a count accepts an exact integer or a
float with no fraction within range; a negative one or one past the end is
`NAME: index I out of range [0, N)` (`[0, N]` for an end position), anything
else `NAME: expected an index, got X`."""
import pytest

from helpers import builtin_caller, err, ev
from rusty.builtins import format_directives, lists, strings, vectors
from rusty.builtins.args import count_arg, index_arg, index_value
from rusty.errors import EvalError
from rusty.values import make_list, sym

# name -> (a call with the index written as I, the length N, whether the end is allowed)
INDEXED = {
    'nth': ("(nth '(a b c) I)", 3, False),
    'list-ref': ("(list-ref '(a b c) I)", 3, False),
    'list-tail': ("(list-tail '(a b c) I)", 3, True),
    'string-ref': ('(string-ref "abc" I)', 3, False),
    'substring': ('(substring "abc" I)', 3, True),
    'take': ("(take I '(a b c))", 3, True),
    'drop': ("(drop I '(a b c))", 3, True),
    'tensor-ref': ("(tensor-ref (tensor '(1 2 3)) I)", 3, False),
    'vector-ref': ('(vector-ref #(a b c) I)', 3, False),
    'vector-set!': ('(vector-set! (vector 1 2 3) I 0)', 3, False),
    'vector-copy': ('(vector-copy #(a b c) I)', 3, True),
}


@pytest.mark.parametrize('name', sorted(INDEXED))
def test_every_index_builtin_checks_its_index(name):
    template, n, end = INDEXED[name]
    bracket = ']' if end else ')'
    last = n if end else n - 1
    for i in (0, last):
        assert 'error' not in ev('(try-catch %s (e) (list (quote error) e))' % template.replace('I', str(i)))
    assert 'error' not in ev('(try-catch %s (e) (list (quote error) e))' % template.replace('I', '%d.0' % last))
    past = last + 1
    assert err(template.replace('I', str(past))) == '%s: index %d out of range [0, %d%s' % (name, past, n, bracket)
    assert err(template.replace('I', '-1')) == '%s: index -1 out of range [0, %d%s' % (name, n, bracket)
    assert err(template.replace('I', '1e20')) == '%s: index 100000000000000000000 out of range [0, %d%s' \
        % (name, n, bracket)
    for bad, shown in (('1.5', '1.5'), ('(sqrt -1)', 'NaN'), ('(exp 1000)', 'inf'), ('"1"', '"1"'), ('#t', '#t'),
                       ("'x", 'x'), ("'(1)", '(1)')):
        assert err(template.replace('I', bad)) == '%s: expected an index, got %s' % (name, shown), bad


def test_the_manual_example():
    assert err('(substring "hello" -3)') == 'substring: index -3 out of range [0, 5]'


@pytest.mark.parametrize('src, want', [
    ('(substring "hello" 1 5)', '"ello"'),
    ('(substring "hello" 5 5)', '""'),
    ('(substring "hello" 4 2)', '""'),          # start after end: empty, both in range
    ("(take 3 '(a b c))", '(a b c)'),
    ("(drop 3 '(a b c))", '()'),
    ("(list-tail '() 0)", '()'),
    ('(string-pad-left "ab" 5 "*")', '"***ab"'),
    ('(string-pad-right "ab" 1)', '"ab"'),
    ('(string-pad-left "ab" 0)', '"ab"'),
])
def test_in_range(src, want):
    from helpers import value
    from rusty.printer import write_form
    assert write_form(value(src)) == want


@pytest.mark.parametrize('src, msg', [
    ('(substring "hello" 1 6)', 'substring: index 6 out of range [0, 5]'),
    ('(substring "hello" 1 -1)', 'substring: index -1 out of range [0, 5]'),
    ('(substring "hello" 0 2.5)', 'substring: expected an index, got 2.5'),
    ('(string-pad-left "ab" -1)', 'string-pad-left: expected an index, got -1'),
    ('(string-pad-right "ab" 2.5)', 'string-pad-right: expected an index, got 2.5'),
    ('(string-pad-right "ab" "5")', 'string-pad-right: expected an index, got "5"'),
    ("(tensor-ref (tensor '((1 2) (3 4))) 1 2)", 'tensor-ref: index 2 out of range [0, 2)'),
    ("(tensor-ref (tensor '((1 2) (3 4))) 2 0)", 'tensor-ref: index 2 out of range [0, 2)'),
    ("(nth 5 '(a))", 'nth: index 5 out of range [0, 1)'),       # either argument order
    ("(second '(a))", 'second: index 1 out of range [0, 1)'),
    ("(third '(a b))", 'third: index 2 out of range [0, 2)'),
    ('(json-encode 1 -2)', 'json-encode: expected an index, got -2'),
])
def test_out_of_range_and_not_an_index(src, msg):
    assert err(src) == msg


def test_the_out_of_range_report_keeps_its_hint():
    from helpers import session
    from rusty.errors import RustyError
    s = session()
    with pytest.raises(RustyError) as e:
        s.run("(nth '(a b) 4)", '<t>')
    assert e.value.hints == ['nth got (a b)']


# ── The helper itself, with exact integers and floats ───────────────────

def test_the_helper_takes_exact_integers_and_integral_floats():
    assert index_value('f', 3) == 3 and index_value('f', 3.0) == 3 and index_value('f', -0.0) == 0
    assert index_value('f', 10 ** 30) == 10 ** 30
    assert index_arg('f', 2, 3) == 2 and index_arg('f', 3, 3, end=True) == 3
    assert count_arg('f', 7) == 7
    for bad, shown in ((True, '#t'), (False, '#f'), (2.5, '2.5'), (float('nan'), 'NaN'), ('2', '"2"'), (sym('a'), 'a')):
        with pytest.raises(EvalError) as e:
            index_value('f', bad)
        assert e.value.message == 'f: expected an index, got %s' % shown
    with pytest.raises(EvalError) as e:
        index_arg('f', 10 ** 30, 3)
    assert e.value.message == 'f: index %d out of range [0, 3)' % 10 ** 30
    with pytest.raises(EvalError) as e:
        index_arg('f', -4.0, 3, end=True)
    assert e.value.message == 'f: index -4 out of range [0, 3]'


def test_builtins_take_exact_integer_indices():
    call, msg = builtin_caller(lists.TABLE)
    lst = make_list([sym('a'), sym('b'), sym('c')])
    assert call('nth', lst, 1) is sym('b') and call('nth', 2, lst) is sym('c')
    assert call('list-ref', lst, 0) is sym('a')
    assert msg('list-ref', lst, 3) == 'list-ref: index 3 out of range [0, 3)'
    assert msg('nth', lst, True) == 'nth: expected an index, got #t'
    call, msg = builtin_caller(strings.TABLE)
    assert call('substring', 'hello', 1, 3) == 'el' and call('string-ref', 'abc', 2) == 'c'
    assert msg('string-ref', 'abc', -1) == 'string-ref: index -1 out of range [0, 3)'
    call, msg = builtin_caller(format_directives.TABLE)
    assert call('format', '~5d|~x', 42, 255) == '   42|ff'
    call, msg = builtin_caller(vectors.TABLE)
    v = call('make-vector', 2, 'z')
    assert call('vector-ref', v, 1) == 'z'
    assert msg('vector-ref', v, 2) == 'vector-ref: index 2 out of range [0, 2)'
