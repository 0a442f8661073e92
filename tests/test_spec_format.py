"""`format` with widths, precision and alignment; `string-split` that keeps
every field; `json-encode` with an indent (Python's json.dumps layout)."""
import json

import pytest

from helpers import err, ev, session, value
from rusty.builtins.json_text import json_encode
from rusty.printer import write_form


def wv(src):
    return write_form(value(src))


# ── format ───────────────────────────────────────────────────────────────

@pytest.mark.parametrize('src, want', [
    ('(format "~8,2f|~5d|~6a|~6@a|" 3.14159 42 "ab" "cd")', '"    3.14|   42|ab    |    cd|"'),
    ('(format "~6s|~6@s|" "ab" "cd")', '"\\"ab\\"  |  \\"cd\\"|"'),
    ('(format "~3a|~3@a|" "long" "long")', '"long|long|"'),         # never cut
    ('(format "~5a|" (list 1 "a"))', '"(1 a)|"'),
    ('(format "~a~a" 1 2)', '"12"'),
    ('(format "~0a|" "x")', '"x|"'),
    ('(format "~,2f ~,0f ~,0f ~,0f" 2.675 0.5 1.5 2.5)', '"2.67 0 2 2"'),   # half to even, as Python
    ('(format "~,3f" 1)', '"1.000"'),
    ('(format "~6,1f|" -2.25)', '"  -2.2|"'),
    ('(format "~f" 2.5)', '"2.5"'),
    ('(format "~5f|" 1e20)', '"100000000000000000000|"'),
    ('(format "~,2f ~,2f ~,2f" (sqrt -1) (exp 1000) (- (exp 1000)))', '"NaN inf -inf"'),
    ('(format "~d ~5d| ~d" 42 -7 1e15)', '"42    -7| 1000000000000000"'),
    ('(format "~x ~o ~b" 255 8 5)', '"ff 10 101"'),
    ('(format "~x ~b" -255 0)', '"-ff 0"'),
    ('(format "~4x|~8b|" 255 5)', '"  ff|     101|"'),
    ('(format "~A ~S ~D ~X" "a" "b" 3 255)', '"a \\"b\\" 3 ff"'),
    ('(format "a~%b~tc~~")', '"a\\nb\\tc~"'),
])
def test_format_directives(src, want):
    assert wv(src) == want


@pytest.mark.parametrize('src, msg', [
    ('(format "~q")', 'format: unknown directive ~q'),
    ('(format "~5z" 1)', 'format: unknown directive ~5z'),
    ('(format "~,2")', 'format: unknown directive ~,2'),
    ('(format "tail~")', 'format: unknown directive ~'),
    ('(format "~f" "pi")', 'format: ~f expects a number, got "pi"'),
    ('(format "~,2f" #t)', 'format: ~f expects a number, got #t'),
    ('(format "~d" 2.5)', 'format: ~d expects an integer, got 2.5'),
    ('(format "~d" "2")', 'format: ~d expects an integer, got "2"'),
    ('(format "~x" (sqrt -1))', 'format: ~x expects an integer, got NaN'),
    ('(format "~b" (exp 1000))', 'format: ~b expects an integer, got inf'),
    ("(format \"~o\" 'a)", 'format: ~o expects an integer, got a'),
    ('(format "~5d")', 'format: not enough args'),
])
def test_format_errors(src, msg):
    assert err(src) == msg


# ── string-split ─────────────────────────────────────────────────────────

@pytest.mark.parametrize('src, want', [
    ("(string-split \"a,,b,\" \",\" 'all)", '("a" "" "b" "")'),
    ("(string-split \"\" \",\" 'all)", '("")'),
    ("(string-split \",\" \",\" 'all)", '("" "")'),
    ("(string-split \"a--b\" \"--\" 'all)", '("a" "b")'),
    ("(string-split \"ab\" \"\" 'all)", '("a" "b")'),
    ('(string-split "a,,b," ",")', '("a" "b")'),            # without 'all, as before
])
def test_string_split_all(src, want):
    assert wv(src) == want


def test_string_split_mode_errors():
    assert err('(string-split "a" "," "all")') == 'string-split: expected the symbol all, got "all"'
    assert err("(string-split \"a\" \",\" 'some)") == 'string-split: expected the symbol all, got some'
    assert err("(string-split \"a\" 5 'all)") == 'string-split: expected a string, got 5'


# ── json-encode with an indent ───────────────────────────────────────────

CASES = [
    ("'((name \"Ada\") (langs (\"en\" \"fr\")) (born 1815) (alive #f) (spouse ()))",
     {'name': 'Ada', 'langs': ['en', 'fr'], 'born': 1815, 'alive': False, 'spouse': []}),
    ("(list 1 (list) (list (list \"k\" (list 2 3))) \"s\\tt\")", [1, [], {'k': [2, 3]}, 's\tt']),
    ("(hash \"a\" (hash) \"b\" (vector 1 (hash 'c #t)))", {'a': {}, 'b': [1, {'c': True}]}),
    ("(vector)", []),
    ("(nil)", None),
    ("\"x\\\"y\"", 'x"y'),
    ("2.5", 2.5),
]


@pytest.mark.parametrize('src, py', CASES)
@pytest.mark.parametrize('indent', [0, 1, 2, 4])
def test_json_encode_indented_is_pythons_layout(src, py, indent):
    s = session()
    assert s.run('(json-encode %s %d)' % (src, indent), '<t>') == json.dumps(py, indent=indent)


def test_json_encode_indent_examples_and_errors():
    assert ev("(json-encode '((a (1 2))) 2)") == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert err('(json-encode (list 1) -1)') == 'json-encode: expected an index, got -1'
    assert err('(json-encode (list 1) 1.5)') == 'json-encode: expected an index, got 1.5'
    assert err("(json-encode (list car) 2)") == 'json-encode: cannot encode #<builtin:car>'
    assert err("(json-encode (hash 1 2) 2)") == 'json-encode: cannot encode key 1'


def test_json_encode_indented_deep_data_does_not_overflow():
    v = value('(let loop ((i 0) (acc 0)) (if (< i 30000) (loop (+ i 1) (list acc)) acc))')
    text = json_encode(v, 1.0)
    assert text.count('[') == 30000 and text.endswith(']')


@pytest.mark.parametrize('src', ['(format "~99999999999a" 1)', '(format "~,99999999999f" 1)',
                                 '(format "~%sa" 1)' % ('9' * 5000), '(json-encode 1 1e300)'])
def test_huge_widths_are_out_of_memory_not_host_errors(src):
    assert err(src) == 'out of memory'


def test_a_width_may_have_leading_zeros():
    assert ev('(format "~00000000003a|" 1)') == '1  |'


def test_format_takes_exact_integers():
    from rusty.builtins.format_directives import format_
    assert format_('~,2f|~f|~6,1f|~5d|~x', 10 ** 30, 7, -5, 42, 2 ** 70) == \
        '1000000000000000000000000000000.00|7|  -5.0|   42|400000000000000000'
    assert format_('~d ~b', 2 ** 64, -2) == '18446744073709551616 -10'
