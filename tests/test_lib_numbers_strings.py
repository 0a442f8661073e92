"""Numbers (docs/reference.md §2, §6.1) and strings (docs/reference.md §6.6): every example and rule, exact text."""
import math
import subprocess
import sys

import pytest

from helpers import dv, err, ev, value

# ── numbers (docs/reference.md §2, §6.1) ──────────────────────────────────

@pytest.mark.parametrize('src,want', [
    ('(quotient 7 2)', '3'), ('(quotient -7 2)', '-3'), ('(quotient 7 -2)', '-3'), ('(quotient -7 -2)', '3'),
    ('(quotient 7.5 2)', '3'),
    ('(quotient 9007199254740993 1)', '9007199254740993'), ('(quotient 9007199254740993.0 1)', '9007199254740992'),
    ('(remainder 7 2)', '1'), ('(remainder -7 2)', '-1'), ('(remainder 7 -2)', '1'), ('(remainder 5.5 2)', '1.5'),
    ('(modulo -7 2)', '1'), ('(modulo 7 -2)', '-1'), ('(modulo 7 2)', '1'), ('(modulo -7 -2)', '-1'),
    ('(modulo 6 -3)', '0'), ('(modulo -5.5 2)', '0.5'),
    ('(truncate 2.7)', '2'), ('(truncate -2.7)', '-2'), ('(truncate 5)', '5'),
    ('(integer? 2.0)', '#t'), ('(integer? 2)', '#t'), ('(integer? 2.5)', '#f'), ('(integer? -0)', '#t'),
    ('(integer? "2")', '#f'), ("(integer? 'a)", '#f'), ('(integer? (sqrt -1))', '#f'),
])
def test_integer_arithmetic(src, want):
    assert ev(src) == want


def test_quotient_is_exact_where_division_rounds():
    # 1e17 + 8 is a multiple of 8; a/b in floating point would be inexact for
    # other divisors, the quotient times the divisor plus the remainder is a.
    for a, b in ((1e17 + 8, 3.0), (123456789.0, 7.0), (-2.0 ** 60, 9.0)):
        q = value('(quotient %r %r)' % (a, b))
        r = value('(remainder %r %r)' % (a, b))
        assert q == math.trunc(a / b) or abs(q * b + r - a) == 0
        assert q * b + r == a


def test_quotient_of_big_integers_matches_exact_integer_division():
    for a, b in ((1e300, 3.0), (2.0 ** 70 + 2.0 ** 20, 7.0), (123456789012345678.0, 1000.0),
                 (9007199254740991.0, 2.0)):
        assert value('(quotient %r %r)' % (a, b)) == float(int(a) // int(b))
        assert value('(quotient %r %r)' % (-a, b)) == -float(int(a) // int(b))


def test_quotient_of_fractions_truncates_the_exact_quotient():
    from fractions import Fraction
    for a, b in ((0.3, 0.1), (7.5, 2.0), (-7.5, 2.0), (1.0, 3.0), (1e-300, 1e-310), (5.0, 0.5)):
        want = float(abs(int(Fraction(a) / Fraction(b))))
        want = want if (a < 0) == (b < 0) else -want
        assert value('(quotient %r %r)' % (a, b)) == want
    assert ev('(quotient 0.3 0.1)') == '2'     # 0.3/0.1 rounds to 3 in floating point; exactly it is 2.999…


def test_integer_infinities_and_nan():
    assert ev('(integer? (exp 1000))') == '#f'
    assert ev('(truncate (exp 1000))') == 'inf'
    assert ev('(quotient (exp 1000) 2)') == 'inf'
    assert ev('(quotient 5 (exp 1000))') == '0'
    assert ev('(remainder (exp 1000) 2)') == 'NaN'
    assert ev('(modulo (sqrt -1) 2)') == 'NaN'


@pytest.mark.parametrize('name', ['quotient', 'remainder', 'modulo'])
def test_division_by_zero(name):
    assert err('(%s 1 0)' % name) == '%s: division by zero' % name
    assert err('(%s 1 -0)' % name) == '%s: division by zero' % name


@pytest.mark.parametrize('src,msg', [
    ('(quotient "a" 1)', 'quotient: expected a number, got "a"'),
    ("(modulo 1 'b)", 'modulo: expected a number, got b'),
    ('(truncate "x")', 'truncate: expected a number, got "x"'),
    ('(quotient 1)', 'quotient: expected 2 arg(s), got 1'),
    ('(integer?)', 'integer?: expected 1 arg(s), got 0'),
])
def test_integer_errors(src, msg):
    assert err(src) == msg


def test_random_ranges():
    src = '(list %s)' % ' '.join(['(random)'] * 200)
    xs = list(value(src))
    assert all(0.0 <= x < 1.0 for x in xs) and len(set(xs)) > 150
    ys = list(value('(list %s)' % ' '.join(['(random 6)'] * 300)))
    assert set(ys) == {0.0, 1.0, 2.0, 3.0, 4.0, 5.0}
    assert ev('(random 1)') == '0'


@pytest.mark.parametrize('arg,shown', [('0', '0'), ('-3', '-3'), ('2.5', '2.5'), ('"a"', '"a"'),
                                       ('(sqrt -1)', 'NaN'), ('(exp 1000)', 'inf')])
def test_random_bad_argument(arg, shown):
    assert err('(random %s)' % arg) == 'random: expected a positive integer, got %s' % shown


def test_random_seed_fixes_the_sequence_in_and_across_processes():
    src = '(random-seed! 42) (list (random) (random 1000) (random 1000000))'
    a = ev(src)
    assert ev(src) == a
    assert ev('(random-seed! 43) (list (random) (random 1000) (random 1000000))') != a
    assert ev('(random-seed! 42)') == '()' and value('(random-seed! 42)').__class__.__name__ == 'NilType'
    p = subprocess.run([sys.executable, '-m', 'rusty', '-e', src], capture_output=True, text=True,
                       env={'PYTHONHASHSEED': '123', 'PYTHONPATH': sys.path[0], 'PATH': '/usr/bin:/bin'})
    assert p.stdout.strip() == a
    assert err("(random-seed! 'x)") == 'random-seed!: expected a number, got x'


# ── strings (docs/reference.md §6.6) ──────────────────────────────────────

@pytest.mark.parametrize('src,want', [
    ('(string-upcase "straße")', '"STRASSE"'), ('(string-upcase "abc")', '"ABC"'),
    ('(string-downcase "ÀB")', '"àb"'), ('(string-downcase "Hello")', '"hello"'),
    ('(string-trim "  a b \\n\\t")', '"a b"'), ('(string-trim-left "  a  ")', '"a  "'),
    ('(string-trim-right "  a  ")', '"  a"'), ('(string-trim "xxaxx" "x")', '"a"'),
    ('(string-trim "abcab" "ab")', '"c"'), ('(string-trim-left "xyax" "yx")', '"ax"'),
    ('(string-trim (string-append (code-char 12288) "a" (code-char 160)))', '"a"'),   # Unicode spaces
    ('(string-trim "  a  " "")', '"  a  "'),
    ('(string-replace "a-b-c" "-" "+")', '"a+b+c"'), ('(string-replace "aaa" "aa" "b")', '"ba"'),
    ('(string-replace "abc" "x" "y")', '"abc"'), ('(string-replace "abab" "ab" "")', '""'),
    ('(string-ends-with? "hello" "lo")', '#t'), ('(string-ends-with? "hello" "")', '#t'),
    ('(string-ends-with? "lo" "hello")', '#f'),
    ('(string-split "  a b\\n c ")', '("a" "b" "c")'), ('(string-split "")', '()'),
    ('(string-split "a,,b," ",")', '("a" "b")'), ('(string-split "ab" "")', '("a" "b")'),
    ('(string-pad-left "7" 3 "0")', '"007"'), ('(string-pad-left "abc" 2)', '"abc"'),
    ('(string-pad-left "ab" 4)', '"  ab"'), ('(string-pad-right "ab" 4 ".")', '"ab.."'),
    ('(string-pad-right "ab" 2.0)', '"ab"'), ('(string-pad-left "ab" 0)', '"ab"'),
    ('(char-code "A")', '65'), ('(char-code "λx")', '955'), ('(char-code "😀")', '128512'),
    ('(code-char 97)', '"a"'), ('(code-char 128512)', '"😀"'), ('(code-char 0)', '"' + '\0' + '"'),
    ('(code-char 1114111)', '"\U0010ffff"'),
])
def test_string_builtins(src, want):
    assert dv(src) == want


@pytest.mark.parametrize('src,msg', [
    ('(string-replace "abc" "" "x")', 'string-replace: empty pattern'),
    ('(char-code "")', 'char-code: empty string'),
    ('(code-char -1)', 'code-char: invalid code point -1'),
    ('(code-char 1114112)', 'code-char: invalid code point 1114112'),
    ('(code-char 55296)', 'code-char: invalid code point 55296'),
    ('(code-char 57343)', 'code-char: invalid code point 57343'),
    ('(code-char 65.5)', 'code-char: invalid code point 65.5'),
    ('(code-char (sqrt -1))', 'code-char: invalid code point NaN'),
    ('(code-char "a")', 'code-char: expected a number, got "a"'),
    ("(string-upcase 'a)", 'string-upcase: expected a string, got a'),
    ('(string-trim "a" 5)', 'string-trim: expected a string, got 5'),
    ('(string-pad-left "a" 3 "xy")', 'string-pad-left: expected a one-character string, got "xy"'),
    ('(string-pad-right "a" "3")', 'string-pad-right: expected an index, got "3"'),
    ('(string-pad-right "ab" 2.9)', 'string-pad-right: expected an index, got 2.9'),
    ('(string-pad-left "ab" (sqrt -1))', 'string-pad-left: expected an index, got NaN'),
    ('(string-pad-left "ab" -1)', 'string-pad-left: expected an index, got -1'),
    ('(string-split "a" "b" "c")', 'string-split: expected the symbol all, got "c"'),
    ("(string-split \"a\" \"b\" 'all 1)", 'string-split: expected 1 to 3 arg(s), got 4'),
    ('(string-split 5)', 'string-split: expected a string, got 5'),
    ('(string-ends-with? "a")', 'string-ends-with?: expected 2 arg(s), got 1'),
    ('(repr)', 'repr: expected 1 arg(s), got 0'),
])
def test_string_errors(src, msg):
    assert err(src) == msg


def test_huge_sizes_are_rusty_errors():
    assert err('(string-pad-left "a" 1e300)') == 'out of memory'
    assert err('(string-pad-left "a" (exp 1000))') == 'string-pad-left: expected an index, got inf'
    assert err("(zeros '(1e10 1e10))") == 'out of memory'
    assert err("(ones '(1e300))") == 'out of memory'


@pytest.mark.parametrize('src,want', [
    ('(repr "hi")', '"hi"'),
    ('(repr (list "a b" \'c "42" 42))', '("a b" c "42" 42)'),
    ('(repr "a\\\\b\\"c\\nd\\te\\rf")', '"a\\\\b\\"c\\nd\\te\\rf"'),
    ('(repr 1.5)', '1.5'), ("(repr 'sym)", 'sym'), ('(repr #f)', '#f'), ('(repr (nil))', '()'),
    ('(repr car)', '#<builtin:car>'), ('(repr (hash "k" "v"))', '#hash(("k" "v"))'),
])
def test_repr_is_the_write_form(src, want):
    assert value(src) == want


def test_repr_reads_back_equal():
    for src in ('"a\\"b\\\\c\\nd"', "'(1 \"two\" (three \"4\") #t #f -2.5)", '"λ\\t😀"', "'()"):
        assert ev('(equal? %s (eval-string (string-append "(quote " (repr %s) ")")))' % (src, src)) == '#t'


# ── string-repeat (issue 12 item 8) ──────────────────────────────────────

@pytest.mark.parametrize('src,want', [
    ('(string-repeat "ab" 3)', '"ababab"'), ('(string-repeat "ab" 0)', '""'), ('(string-repeat "ab" 1)', '"ab"'),
    ('(string-repeat "ab" 2.7)', '"abab"'), ('(string-repeat "ab" -2)', '""'),
    ('(string-repeat "ab" (sqrt -1))', '""'), ('(string-repeat "" 1000)', '""'),
    ('(string-length (string-repeat "abc" 12345))', '37035'),
])
def test_string_repeat(src, want):
    assert dv(src) == want


def test_string_repeat_matches_the_slow_reference():
    ref = '(define (slow s n) (let loop ((n n) (acc "")) (if (< n 1) acc (loop (- n 1) (string-append acc s)))))'
    for n in range(0, 40):
        assert ev(ref + ' (equal? (slow "xy" %d) (string-repeat "xy" %d))' % (n, n)) == '#t'


def test_string_repeat_refuses_an_infinite_count_and_is_linear():
    assert err('(string-repeat "ab" (exp 1000))') == 'string-repeat: count too large: inf'
    # 2,000,000 copies: quadratic appending would copy ~10^12 characters
    assert ev('(string-length (string-repeat "ab" 2000000))') == '4000000'
