"""docs/reference.md §6.6 Strings, conversions and JSON: strings, format, JSON."""
import pytest

from helpers import dv, err, ev, out, value


@pytest.mark.parametrize('src,v', [
    ('(string-length "λx")', 2.0), ('(string-length "")', 0.0), ('(string-length "😀")', 1.0),
    ('(string-length "a\\nb")', 3.0),
    ('(string-append "a" "b")', 'ab'), ('(string-append)', ''), ('(string-append "a" "" "λ")', 'aλ'),
    ('(string-append-list (list "a" 1 \'b (list "c")))', 'a1b(c)'), ("(string-append-list '())", ''),
    ('(string-append-list (list 1.5 #t (nil)))', '1.5#t()'),
    ('(substring "hello" 1 3)', 'el'), ('(substring "hello" 2)', 'llo'), ('(substring "abc" 1 3)', 'bc'),
    ('(substring "abc" 3)', ''), ('(substring "abc" 2 1)', ''), ('(substring "abc" 1 1)', ''),
    ('(substring "abcd" 1.0 3.0)', 'bc'), ('(substring "λμν" 1 2)', 'μ'),
    ('(string-ref "abc" 1)', 'b'), ('(string-ref "abc" 2.0)', 'c'),
    ('(string-ref "λμ" 1)', 'μ'),
    ('(string=? "a" "a")', True), ('(string=? "a" "b")', False), ('(string=? "" "")', True),
    ('(number->string 3.0)', '3'), ('(number->string 0.1)', '0.1'), ('(number->string 1e21)', '1000000000000000000000'),
    ('(number->string (sqrt -1))', 'NaN'), ('(number->string -1e400)', '-inf'),
    ("(symbol->string 'abc)", 'abc'), ('(symbol->string (string->symbol "a b"))', 'a b'),
    ('(str "a" 1 #t)', 'a1#t'), ('(str)', ''), ('(str (list "a" \'b) 1.5)', '(a b)1.5'), ('(str (nil))', '()'),
    ('(str "x" car)', 'x#<builtin:car>'),
])
def test_string_builtins(src, v):
    assert value(src) == v


def test_string_ref_returns_a_string():
    assert ev('(type-of (string-ref "abc" 0))') == 'string'


def test_string_symbol_round_trip():
    assert ev("(eq? (string->symbol \"abc\") 'abc)") == '#t'
    assert ev('(type-of (string->symbol "x"))') == 'symbol'


@pytest.mark.parametrize('src,v', [
    ('(string->list "aλ")', '("a" "λ")'), ('(string->list "")', '()'),
    ('(string-split "a,,b," ",")', '("a" "b")'), ('(string-split "abc" "")', '("a" "b" "c")'),
    ('(string-split "a::b" "::")', '("a" "b")'), ('(string-split "" ",")', '()'),
    ('(string-split "abc" ",")', '("abc")'), ('(string-split ",,," ",")', '()'),
    ('(string-split "a b  c" " ")', '("a" "b" "c")'),
])
def test_list_returning_string_builtins(src, v):
    assert dv(src) == v


@pytest.mark.parametrize('text,v', [
    ('42', '42'), ('-7.5', '-7.5'), ('+5', '5'), ('1e3', '1000'), ('1E+3', '1000'), ('.5', '0.5'), ('5.', '5'),
    ('-.5', '-0.5'), ('inf', 'inf'), ('-Infinity', '-inf'), ('+inf', 'inf'), ('NaN', 'NaN'), ('nAn', 'NaN'),
    ('INFINITY', 'inf'), ('-nan', 'NaN'), ('1e-3', '0.001'), ('0', '0'), ('00012', '12'), ('1e400', 'inf'),
    ('.', '#f'), ('', '#f'), (' 1', '#f'), ('1 ', '#f'), ('1_000', '#f'), ('0x10', '#f'), ('1e', '#f'),
    ('e5', '#f'), ('abc', '#f'), ('1.2.3', '#f'), ('--1', '#f'), ('+-1', '#f'), ('١', '#f'), ('infinit', '#f'),
    ('1e5.5', '#f'), ('\\n1', '#f'), ('1\\n', '#f'), ('in', '#f'), ('+', '#f'), ('-', '#f'), ('1e+', '#f'),
    ('１', '#f'), ('1,5', '#f'), ('0b1', '#f'), ('1j', '#f'), ('nan1', '#f'),
])
def test_string_to_number(text, v):
    assert ev('(string->number "%s")' % text) == v


@pytest.mark.parametrize('src,msg', [
    ('(string-length 5)', 'string-length: expected a string, got 5'),
    ("(string-length 'a)", 'string-length: expected a string, got a'),
    ('(string-append "a" 5)', 'string-append: expected a string, got 5'),
    ("(string-append \"a\" 'b)", 'string-append: expected a string, got b'),
    ('(string-ref "abc" 3)', 'string-ref: index 3 out of range [0, 3)'),
    ('(string-ref "abc" 3.7)', 'string-ref: expected an index, got 3.7'),
    ('(string-ref "" 0)', 'string-ref: index 0 out of range [0, 0)'),
    ('(string-ref "a")', 'string-ref: expected 2 arg(s), got 1'),
    ('(substring "abc")', 'substring: expected 2 to 3 arg(s), got 1'),
    ('(substring "abc" 1 2 3)', 'substring: expected 2 to 3 arg(s), got 4'),
    ('(substring 5 1)', 'substring: expected a string, got 5'),
    ('(substring "abc" "a")', 'substring: expected an index, got "a"'),
    ('(substring "abc" 1 10)', 'substring: index 10 out of range [0, 3]'),
    ('(substring "abc" 5)', 'substring: index 5 out of range [0, 3]'),
    ('(substring "abc" -1 2)', 'substring: index -1 out of range [0, 3]'),
    ('(substring "hello" -3)', 'substring: index -3 out of range [0, 5]'),
    ('(substring "abcd" 1.9 3)', 'substring: expected an index, got 1.9'),
    ('(substring "abc" 0 (sqrt -1))', 'substring: expected an index, got NaN'),
    ('(substring "abc" 0 1e400)', 'substring: expected an index, got inf'),
    ('(string-ref "abc" 1.5)', 'string-ref: expected an index, got 1.5'),
    ('(string-ref "abc" -1)', 'string-ref: index -1 out of range [0, 3)'),
    ('(string=? "a" 5)', 'string=?: expected a string, got 5'),
    ('(number->string "a")', 'number->string: expected a number, got "a"'),
    ('(string->number 5)', 'string->number: expected a string, got 5'),
    ('(symbol->string "a")', 'symbol->string: expected a symbol, got "a"'),
    ('(string->symbol 5)', 'string->symbol: expected a string, got 5'),
    ('(string->list 5)', 'string->list: expected a string, got 5'),
    ('(string-split "a" 5)', 'string-split: expected a string, got 5'),
    ('(string-append-list 5)', 'string-append-list: expected a list, got 5'),
])
def test_string_errors(src, msg):
    assert err(src) == msg


# ── format ───────────────────────────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ('(format "~a + ~s = ~a" "x" "y" 3)', 'x + "y" = 3'),
    ('(format "~a" "x")', 'x'), ('(format "~s" "x")', '"x"'), ('(format "~A|~S" "x" "y")', 'x|"y"'),
    ('(format "a~%b")', 'a\nb'), ('(format "a~tb")', 'a\tb'), ('(format "~~")', '~'),
    ('(format "~a" 1 2)', '1'),
    ('(format "~a" (list "a"))', '(a)'), ('(format "~s" (list "a"))', '("a")'), ('(format "plain")', 'plain'),
    ('(format "~s" 1.5)', '1.5'), ('(format "~a~a" \'x #f)', 'x#f'), ('(format "~s" (nil))', '()'),
    ('(format "~~a" 5)', '~a'), ('(format "~%~%")', '\n\n'), ('(format "")', ''),
])
def test_format(src, v):
    assert value(src) == v


def test_format_display_example():
    assert out('(display (format "~a + ~s = ~a" "x" "y" 3))') == 'x + "y" = 3'


@pytest.mark.parametrize('src,msg', [
    ('(format "~a ~a" 1)', 'format: not enough args'),
    ('(format "~s")', 'format: not enough args'),
    ('(format 5)', 'format: expected a string, got 5'),
    ("(format 'a)", 'format: expected a string, got a'),
    ('(format)', 'format: expected at least 1 arg(s), got 0'),
    ('(format "~q")', 'format: unknown directive ~q'),
    ('(format "~x~q" 1)', 'format: unknown directive ~q'),
    ('(format "end~")', 'format: unknown directive ~'),
    ('(format "~5")', 'format: unknown directive ~5'),
])
def test_format_errors(src, msg):
    assert err(src) == msg


# ── JSON ─────────────────────────────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ('(json-encode (list 1 "two" #t))', '[1, "two", true]'),
    ("(json-encode '((a 1) (b (2 3))))", '{"a": 1, "b": [2, 3]}'),
    ('(json-encode (nil))', 'null'), ('(json-encode #t)', 'true'), ('(json-encode #f)', 'false'),
    ('(json-encode 1.5)', '1.5'), ('(json-encode 3.0)', '3'), ('(json-encode (sqrt -1))', 'NaN'),
    ('(json-encode 1e400)', 'inf'), ('(json-encode -1e400)', '-inf'), ('(json-encode 1e20)', '100000000000000000000'),
    ('(json-encode -0.0)', '0'), ('(json-encode 1e-7)', '0.0000001'),
    ('(json-encode "a\\"b\\\\c\\nd\\te/")', '"a\\"b\\\\c\\nd\\te/"'),
    ('(json-encode "λ😀")', '"λ😀"'), ('(json-encode "a\\rb")', '"a\rb"'),
    ("(json-encode 'sym)", '"sym"'), ("(json-encode '())", '[]'),
    ('(json-encode (list (list "k" 1)))', '{"k": 1}'), ("(json-encode '((a 1) (b)))", '[["a", 1], ["b"]]'),
    ("(json-encode '((1 2)))", '[[1, 2]]'), ("(json-encode '((a ((b 1)))))", '{"a": {"b": 1}}'),
    ('(json-encode (list (nil) 1))', '[null, 1]'), ("(json-encode '(a 1))", '["a", 1]'),
    ("(json-encode '((a 1) (a 2)))", '{"a": 1, "a": 2}'), ("(json-encode '((a ())))", '{"a": []}'),
    ("(json-encode '(() ()))", '[[], []]'), ("(json-encode (list (list 'k (nil))))", '{"k": null}'),
    ('(json-encode (list (list "a" 1) (list #t 2)))', '[["a", 1], [true, 2]]'),
    ("(json-encode '((\"x\" \"y\")))", '{"x": "y"}'), ("(json-encode '(((a) 1)))", '[[["a"], 1]]'),
])
def test_json_encode(src, v):
    assert value(src) == v


def test_json_encode_println_examples():
    assert out('(println (json-encode (list 1 "two" #t)))') == '[1, "two", true]\n'
    assert out("(println (json-encode '((a 1) (b (2 3)))))") == '{"a": 1, "b": [2, 3]}\n'


def test_json_encode_control_characters_raw():
    assert value('(json-encode (string-append "a" (json-decode "\\"\\\\u0001\\"")))') == '"a\x01"'


@pytest.mark.parametrize('src,msg', [
    ('(json-encode car)', 'json-encode: cannot encode #<builtin:car>'),
    ('(json-encode (list 1 car))', 'json-encode: cannot encode #<builtin:car>'),
    ('(json-encode (lambda (x) x))', 'json-encode: cannot encode #<lambda (x)>'),
    ("(json-encode (list (list 'a (lambda () 1))))", 'json-encode: cannot encode #<lambda ()>'),
])
def test_json_encode_errors(src, msg):
    assert err(src) == msg


@pytest.mark.parametrize('text,v', [
    ('[1, 2.5, "x", true, false, null]', '(1 2.5 "x" #t #f ())'),
    ('{"a": 1, "b": [2]}', '(("a" 1) ("b" (2)))'),
    ('{"b": 1, "a": 2}', '(("b" 1) ("a" 2))'),
    ('{"a": 1, "a": 2}', '(("a" 1) ("a" 2))'),
    ('{}', '()'), ('[]', '()'), ('"\\u00e9"', '"é"'), ('"\\ud83d\\ude00"', '"😀"'),
    ('"a\\nb\\t\\"\\\\\\/"', '"a\nb\t"\\/"'), ('5', '5'), ('-0.5e2', '-50'), (' [1] ', '(1)'),
    ('12345678901234567890', '12345678901234567890'), ('1.2345678901234567890e19', '12345678901234567000'), ('{"k": {"n": null}}', '(("k" (("n" ()))))'),
    ('[[]]', '(())'), ('"λ"', '"λ"'),
])
def test_json_decode(text, v):
    lit = text.replace('\\', '\\\\').replace('"', '\\"')
    assert dv('(json-decode "%s")' % lit) == v


def test_json_decode_types():
    assert ev('(type-of (json-decode "null"))') == 'nil'
    assert ev('(type-of (json-decode "[]"))') == 'list'
    assert ev('(type-of (json-decode "{}"))') == 'list'
    assert ev('(type-of (json-decode "7"))') == 'number'
    assert ev('(type-of (car (car (json-decode "{\\"k\\": 1}"))))') == 'string'


@pytest.mark.parametrize('text', ['[1,', '', 'NaN', 'Infinity', '-Infinity', '1 2', "{'a': 1}", '[1,]',
                                  'nul', '{"a" 1}', '01', '"\\x"', 'tru', '[', '+1', '.5', '{"a": 1,}'])
def test_json_decode_invalid(text):
    lit = text.replace('\\', '\\\\').replace('"', '\\"')
    assert err('(json-decode "%s")' % lit).startswith('json-decode: invalid JSON')


def test_json_decode_non_string():
    assert err('(json-decode 5)') == 'json-decode: expected a string, got 5'


def test_json_round_trip():
    src = '(json-encode (json-decode "{\\"a\\": [1, 2.5, \\"s\\", true, null], \\"b\\": {}}"))'
    assert value(src) == '{"a": [1, 2.5, "s", true, null], "b": []}'
