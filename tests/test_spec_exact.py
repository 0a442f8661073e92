"""Exact integers beside floats, n-ary comparisons, and the messages that name
the operator or the lambda (docs/reference.md: Numbers, Equality, Arity).
Every example is checked with its exact text and, where the kind is the
point, with the Python type of the value (int: exact, float: inexact)."""
import struct

import pytest

from helpers import err, ev, session, value
from rusty.printer import write_form
from rusty.reader import read


def wv(src):
    return write_form(value(src))


# ── Reading ──────────────────────────────────────────────────────────────

@pytest.mark.parametrize('text,kind', [
    ('42', int), ('-7', int), ('12345678901234567890', int), ('007', int), ('-0', int),
    ('1.0', float), ('1e3', float), ('1.', float), ('-2.5E+3', float), ('1e400', float),
])
def test_a_sign_and_digits_only_read_as_an_exact_integer(text, kind):
    [x] = read(text)
    assert type(x) is kind


def test_the_exact_literal_keeps_every_digit():
    assert value('12345678901234567890') == 12345678901234567890
    assert wv('12345678901234567890') == '12345678901234567890'
    assert value('(exact? 1e400)') is False


# ── Exact operations ─────────────────────────────────────────────────────

@pytest.mark.parametrize('src,text', [
    ('(+ 1 2 3)', '6'), ('(- 10 1 2)', '7'), ('(- 5)', '-5'), ('(* 99999999999 99999999999)', '9999999999800000000001'),
    ('(quotient 17 5)', '3'), ('(quotient -17 5)', '-3'), ('(remainder -17 5)', '-2'), ('(modulo -17 5)', '3'),
    ('(mod -7 3)', '-1'), ('(abs -12345678901234567890)', '12345678901234567890'), ('(gcd 12 18)', '6'),
    ('(max 1 5 3)', '5'), ('(min 4 2 8)', '2'), ('(expt 2 100)', '1267650600228229401496703205376'),
    ('(expt 7 0)', '1'), ('(expt 0 0)', '1'), ('(/ 10 2)', '5'), ('(/ -12 3 2)', '-2'), ('(/ 0 7)', '0'),
    ('(floor 2.5)', '2'), ('(ceiling 2.1)', '3'), ('(round 2.5)', '3'), ('(round -2.5)', '-3'),
    ('(truncate -2.7)', '-2'), ('(floor 7)', '7'), ('(round 1e20)', '100000000000000000000'),
    ('(+ 4503599627370497 4503599627370497)', '9007199254740994'), ('(- 9007199254740993 1)', '9007199254740992'),
    ('(length (list 1 2 3))', '3'), ('(string-length "abc")', '3'), ('(car (iota 3))', '0'),
    ('(begin (random-seed! 7) (random 1))', '0'), ('(char-code "A")', '65'), ('(hash-count (hash 1 2))', '1'),
    ('(sum (list 1 2 3))', '6'), ('(nth (list 5 6) 1)', '6'),
])
def test_exact_integers_stay_exact(src, text):
    v = value(src)
    assert type(v) is int, (src, v)
    assert write_form(v) == text


@pytest.mark.parametrize('src,text', [
    ('(/ 1 3)', '0.3333333333333333'), ('(/ 7 3)', '2.3333333333333335'), ('(/ 1 4)', '0.25'),
    ('(expt 2 -1)', '0.5'), ('(expt 2 0.5)', '1.4142135623730951'), ('(+ 1 0.5)', '1.5'), ('(* 1.0 4)', '4'),
    ('(- 3 1.0)', '2'), ('(max 3 9.0)', '9'), ('(max 9 3.0)', '9'), ('(gcd 12.0 18)', '6'), ('(sqrt 16)', '4'),
    ('(floor 1e400)', 'inf'), ('(round (sqrt -1))', 'NaN'), ('(inexact 7)', '7'),
    ('(* (expt 10 400) 1.0)', 'inf'), ('(- (expt 10 400) 1e300)', 'inf'), ('(+ (- (expt 10 400)) 0.5)', '-inf'),
    ('(inexact (expt 10 400))', 'inf'), ('(/ (expt 10 400) 3)', 'inf'), ('(/ 1 (expt 10 400))', '0'),
    ('(quotient 7.5 2)', '3'), ('(modulo 7 2.0)', '1'), ('(+ 9007199254740993 0.0)', '9007199254740992'),
    ('(quotient 9007199254740993 1e-300)', 'inf'), ('(quotient -1e308 1e-10)', '-inf'),    # past f64: rounded once
    ('(begin (random-seed! 7) (* 0 (random)))', '0'), ('(begin (random-seed! 7) (random 1.0))', '0'),
])
def test_a_float_operand_computes_in_f64(src, text):
    v = value(src)
    assert type(v) is float, (src, v)
    assert write_form(v) == text


def test_round_keeps_its_halves_away_from_zero_and_returns_exact():
    for src, n in (('(round 2.5)', 3), ('(round 0.5)', 1), ('(round -0.5)', -1), ('(round 0.49999999999999994)', 0),
                   ('(round 4503599627370497.0)', 4503599627370497)):
        v = value(src)
        assert type(v) is int and v == n, src


# ── Comparing and equality across the kinds ─────────────────────────────

@pytest.mark.parametrize('src,text', [
    ('(= 9007199254740993 9007199254740992.0)', '#f'), ('(< 9007199254740992.0 9007199254740993)', '#t'),
    ('(= 2 2.0)', '#t'), ('(equal? 2 2.0)', '#t'), ('(eq? 2 2.0)', '#t'), ("(equal? '(1 (2)) '(1.0 (2.0)))", '#t'),
    ('(equal? 2 2.5)', '#f'), ('(equal? 2 "2")', '#f'), ('(= (expt 10 400) 1e400)', '#f'),
    ('(< (expt 10 400) 1e400)', '#t'), ("(member 2.0 '(1 2 3))", '(2 3)'), ("(assoc 2 '((1.0 a) (2.0 b)))", '(2 b)'),
    ('(let ((h (make-hash))) (hash-set! h 2 (quote a)) (hash-ref h 2.0))', 'a'),
    ('(let ((h (make-hash))) (hash-set! h 2.0 1) (hash-set! h 2 2) (hash-count h))', '1'),
    ("(match 2.0 (2 'two) (_ 'other))", 'two'),
])
def test_the_kinds_compare_exactly_and_equal_values_are_equal(src, text):
    assert ev(src) == text


# ── Printing ─────────────────────────────────────────────────────────────

def test_an_exact_integer_prints_all_its_digits():
    assert ev('(* 99999999999 99999999999)') == '9999999999800000000001'
    assert ev('(expt 10 5000)') == '1' + '0' * 5000           # past Python's default digit limit
    assert ev('(* 1.0 4)') == '4'
    assert ev('1e20') == '100000000000000000000'
    assert ev('(number->string (expt 2 64))') == '18446744073709551616'


# ── exact? inexact? exact inexact ────────────────────────────────────────

@pytest.mark.parametrize('src,text', [
    ('(exact? 42)', '#t'), ('(exact? 42.0)', '#f'), ('(inexact? 1e3)', '#t'), ('(inexact? 1000)', '#f'),
    ('(exact 2.0)', '2'), ('(exact -0.0)', '0'), ('(exact 1e20)', '100000000000000000000'), ('(exact 7)', '7'),
    ('(exact? (exact 2.0))', '#t'), ('(inexact? (inexact 7))', '#t'), ('(exact? (/ 10 2))', '#t'),
    ('(exact? (/ 1 3))', '#f'), ('(exact? (round 2.5))', '#t'), ('(exact? (floor 1e400))', '#f'),
])
def test_exactness_builtins(src, text):
    assert ev(src) == text


@pytest.mark.parametrize('src,msg', [
    ('(exact 2.5)', 'exact: no exact integer for 2.5'),
    ('(exact (sqrt -1))', 'exact: no exact integer for NaN'),
    ('(exact 1e400)', 'exact: no exact integer for inf'),
    ('(exact (- 1e400))', 'exact: no exact integer for -inf'),
    ('(exact "2")', 'exact: expected a number, got "2"'),
    ('(exact? #t)', 'exact?: expected a number, got #t'),
    ('(inexact? (quote x))', 'inexact?: expected a number, got x'),
    ('(inexact (list 1))', 'inexact: expected a number, got (1)'),
])
def test_exactness_errors(src, msg):
    assert err(src) == msg


# ── Radix, JSON ──────────────────────────────────────────────────────────

@pytest.mark.parametrize('src,text', [
    ('(number->string 255 16)', '"ff"'), ('(number->string 255 2)', '"11111111"'), ('(number->string -35 36)', '"-z"'),
    ('(number->string 42)', '"42"'), ('(string->number "ff" 16)', '255'), ('(string->number "-101" 2)', '-5'),
    ('(string->number "12" 2)', '#f'), ('(exact? (string->number "42"))', '#t'),
    ('(exact? (string->number "42.0"))', '#f'),
    ('(json-decode "[1, 2.5, 1e2, 12345678901234567890]")', '(1 2.5 100 12345678901234567890)'),
    ('(map exact? (json-decode "[1, 2.5, 1e2, -0]"))', '(#t #f #f #t)'),
    ('(json-encode (list (expt 2 100) 2.5 (* 1.0 4)))', '"[1267650600228229401496703205376, 2.5, 4]"'),
])
def test_radix_and_json(src, text):
    assert wv(src) == text


# ── The native half is f64 ───────────────────────────────────────────────

@pytest.mark.parametrize('src,text', [
    ("(tensor->list (tensor (list 1 2 (expt 10 400))))", '(1 2 inf)'),
    ("(map exact? (tensor->list (tensor (list 1 2))))", '(#f #f)'),
    ("(exact? (tensor-ref (tensor (list 1 2)) 1))", '#f'),
    ("(tensor-shape (zeros (list 2 3)))", '(2 3)'),
    ("(map exact? (tensor-shape (zeros (list 2 3))))", '(#t #t)'),
    ("(tensor->list (tensor-add (tensor (list 1 2)) 10))", '(11 12)'),
    ("(exact? (graph-eval (lambda (x y) (+ (* x x) y)) 3 1))", '#f'),
    ("(graph-eval (lambda (x) (* x x)) (expt 10 400))", 'inf'),
    ("(graph-grad (lambda (x) (* x x)) 3)", '(9 6)'),
    ("(map exact? (graph-grad (lambda (x) (* x x)) 3))", '(#f #f)'),
])
def test_tensors_and_graphs_take_exact_integers_as_f64(src, text):
    assert wv(src) == text


def f64_bits(x) -> bytes:
    return struct.pack('<d', x)


@pytest.mark.rustc
@pytest.mark.parametrize('arg', ['3', '-7', '9007199254740993', '(expt 10 400)', '0'])
def test_defrust_with_exact_arguments_is_the_interpreter_on_floats(arg):
    s = session()
    s.run('(define (interp-f x) (+ (* x x) (/ x 3) 0.5))', '<test>')
    s.run('(defrust native-f (x) (+ (* x x) (/ x 3) 0.5))', '<test>')
    got = s.run('(native-f %s)' % arg, '<test>')
    want = s.run('(interp-f (inexact %s))' % arg, '<test>')
    assert type(got) is float and f64_bits(got) == f64_bits(want), (arg, got, want)


@pytest.mark.rustc
def test_compiled_graphs_take_exact_integers():
    s = session()
    assert write_form(s.run('((graph-compile (lambda (x y) (* x y))) 3 4)', '<test>')) == '12'
    assert s.run('(exact? ((graph-compile (lambda (x y) (* x y))) 3 4))', '<test>') is False
    assert write_form(s.run('((graph-compile-grad (lambda (x) (* x x)) 1) 3)', '<test>')) == '(9 6)'


# ── Comparisons take one or more numbers ─────────────────────────────────

@pytest.mark.parametrize('src,text', [
    ('(let ((p 8080)) (< 0 p 65536))', '#t'), ('(let ((p 70000)) (< 0 p 65536))', '#f'), ('(< 1)', '#t'),
    ('(= 1 1 1.0)', '#t'), ('(= 1 1 2)', '#f'), ('(<= 1 1 2 2)', '#t'), ('(> 3 2 2)', '#f'), ('(>= 3 2 2)', '#t'),
    ('(lt 1 2 3)', '#t'), ('(gt 3 2 1)', '#t'), ('(le 1 1)', '#t'), ('(ge 1 2)', '#f'),
    ('(< 1 (sqrt -1) 3)', '#f'), ('(apply < (iota 100))', '#t'),
])
def test_comparisons_hold_for_every_adjacent_pair(src, text):
    assert ev(src) == text


@pytest.mark.parametrize('src,msg', [
    ('(<)', '<: expected at least 1 arg, got 0'),
    ('(=)', '=: expected at least 1 arg, got 0'),
    ('(ge)', 'ge: expected at least 1 arg, got 0'),
    ('(neq 1 2 3)', 'neq: expected 2 arg(s), got 3'),
    ('(neq 1)', 'neq: expected 2 arg(s), got 1'),
    ('(+ 1 #f)', '+: expected a number, got #f'),
    ('(< 1 "a")', '<: expected a number, got "a"'),
    ('(< 2 1 "a")', '<: expected a number, got "a"'),
    ('(add 1 #f)', 'add: expected a number, got #f'),
    ("(lt 1 'x)", 'lt: expected a number, got x'),
    ('(mul 2 (list 1))', 'mul: expected a number, got (1)'),
    ('(- "a\\nb")', '-: expected a number, got "a\\nb"'),         # write form: escaped
    ('(neq 1 "a")', 'neq: expected a number, got "a"'),
    ('(sqrt #t)', 'sqrt: expected a number, got #t'),
    ('(quotient 1 "2")', 'quotient: expected a number, got "2"'),
])
def test_messages_name_the_operator_as_called(src, msg):
    assert err(src) == msg


def test_the_fast_paths_give_the_same_messages():
    # in a function body the calls below are compiled inline; the message must not change
    for src, msg in (('(define (f x) (+ x 1)) (f #f)', '+: expected a number, got #f'),
                     ('(define (f x) (lt x 1)) (f "a")', 'lt: expected a number, got "a"'),
                     ('(define (f x y) (* x y)) (f 2 (quote y))', '*: expected a number, got y')):
        assert err(src) == msg


# ── Procedures called with the wrong count ───────────────────────────────

@pytest.mark.parametrize('src,msg', [
    ('(define (f x y) x) (f 1)', 'f: expected 2 args, got 1'),
    ('(define (f x y) x) (f 1 2 3)', 'f: expected 2 args, got 3'),
    ('((lambda (x) x))', 'lambda: expected 1 args, got 0'),
    ('((lambda (a b . r) a) 1)', 'lambda: expected at least 2 args, got 1'),
    ('(define (g . r) r) (define (h a . r) a) (h)', 'h: expected at least 1 args, got 0'),
    ('(define k (lambda (x) x)) (k)', 'k: expected 1 args, got 0'),
])
def test_arity_messages_name_the_procedure(src, msg):
    assert err(src) == msg


def test_an_exact_power_too_large_to_compute_is_refused_at_once():
    # the host's power cannot be interrupted: (expt 2 9007199254740993) held the session for good
    assert err('(expt 2 9007199254740993)') == 'expt: result too large'
    assert err('(expt -3 100000000)') == 'expt: result too large'
    assert ev('(list (expt -1 99999999999) (expt 0 99999999999) (expt 1 99999999999) (expt 2 99999999999.0))') \
        == '(-1 0 1 inf)'
    assert ev('(= (expt 2 16777216) (* (expt 2 8388608) (expt 2 8388608)))') == '#t'   # the largest allowed
