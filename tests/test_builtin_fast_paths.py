"""The builtins' common-case fast paths (two exact integers, two floats, a
string and an index checked in one go) give what their general paths give:
each is compared with the same builtin called so that the general path runs
(an extra neutral argument, a float operand, a radix given), values, signed
zeros and error messages alike."""
import io
import math

import pytest

from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session


@pytest.fixture(scope='module')
def session():
    return Session(out=io.StringIO())


def outcome(s, src):
    """('value', write form, sign of a float zero) or ('error', message)."""
    try:
        v = s.run(src, '<test>')
    except RustyError as e:
        return ('error', e.message)
    sign = math.copysign(1.0, v) if v.__class__ is float and v == 0.0 else None
    return ('value', write_form(v), v.__class__.__name__, sign)


NUMBERS = ['0', '-0.0', '0.0', '3', '-7', '2.5', '-2.5', '123456789012345678901234567890', '(/ 1. 0.)',
           '(/ 0. 0.)', '"a"', '#t']


@pytest.mark.parametrize('a', NUMBERS)
def test_two_argument_arithmetic_agrees_with_the_general_loop(session, a):
    for b in NUMBERS:
        for op, neutral in (('+', '0'), ('-', '0'), ('add', '0'), ('sub', '0'), ('*', '1'), ('mul', '1')):
            fast = outcome(session, '(%s %s %s)' % (op, a, b))
            general = outcome(session, '(%s %s %s %s)' % (op, a, b, neutral))     # the loop, same value
            assert fast == general, (op, b)


INTEGERS = ['0', '7', '-7', '2', '-2', '3', '100000000000000000001', '-100000000000000000001', '1']


@pytest.mark.parametrize('a', INTEGERS)
def test_integer_division_agrees_with_the_definitions(session, a):
    for b in INTEGERS + ['0.0', '"x"']:
        for name in ('quotient', 'remainder', 'modulo'):
            got = outcome(session, '(%s %s %s)' % (name, a, b))
            if b in ('0', '0.0'):
                assert got == ('error', '%s: division by zero' % name)
                continue
            if b == '"x"':
                assert got == ('error', '%s: expected a number, got "x"' % name)
                continue
            x, y = int(a), int(b)
            q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
            want = {'quotient': q, 'remainder': x - y * q, 'modulo': x % y}[name]
            assert got == ('value', str(want), 'int', None), (name, b)


def test_integer_division_of_a_non_number_names_it(session):
    assert outcome(session, '(quotient "a" 2)') == ('error', 'quotient: expected a number, got "a"')
    assert outcome(session, '(modulo 2 #f)') == ('error', 'modulo: expected a number, got #f')
    assert outcome(session, '(remainder 7 2.0)') == ('value', '1', 'float', None)


@pytest.mark.parametrize('src, want', [
    ('(equal? 1)', ('error', 'eq?: 2 args')),
    ('(equal?)', ('error', 'eq?: 2 args')),
    ('(eq? 1 2 3)', ('error', 'eq?: 2 args')),
    ('(equal? 1 1.0)', ('value', '#t', 'bool', None)),
    ("(equal? '(1 \"a\") (list 1 \"a\"))", ('value', '#t', 'bool', None)),
    ('(null?)', ('value', '#t', 'bool', None)),
    ("(null? '())", ('value', '#t', 'bool', None)),
    ('(null? 0)', ('value', '#f', 'bool', None)),
    ('(string-pad-left "ab" -1)', ('error', 'string-pad-left: expected an index, got -1')),
    ('(string-pad-left "ab" 4 "xy")', ('error', 'string-pad-left: expected a one-character string, got "xy"')),
    ('(string-pad-right 5 4)', ('error', 'string-pad-right: expected a string, got 5')),
    ('(string-pad-left "ab" 4.0 "0")', ('value', '"00ab"', 'str', None)),
    ('(string-pad-left "abc" 2)', ('value', '"abc"', 'str', None)),
    ('(substring "hello" 3 1)', ('value', '""', 'str', None)),
    ('(substring "hello" 2)', ('value', '"llo"', 'str', None)),
    ('(substring "hello" 5)', ('value', '""', 'str', None)),
    ('(substring "hello" 6)', ('error', 'substring: index 6 out of range [0, 5]')),
    ('(substring "hello" -1)', ('error', 'substring: index -1 out of range [0, 5]')),
    ('(substring "hello" -1 2)', ('error', 'substring: index -1 out of range [0, 5]')),
    ('(substring "hello" 1 9)', ('error', 'substring: index 9 out of range [0, 5]')),
    ('(substring "hello" 1.0 3)', ('value', '"el"', 'str', None)),
    ('(string-ref "abc" -1)', ('error', 'string-ref: index -1 out of range [0, 3)')),
    ('(string-ref "abc" #t)', ('error', 'string-ref: expected an index, got #t')),
    ('(string-append "a" 5 "b")', ('error', 'string-append: expected a string, got 5')),
    ('(string-append)', ('value', '""', 'str', None)),
    ('(string=? "a" 5)', ('error', 'string=?: expected a string, got 5')),
    ("(string-prefix? 'a \"a\")", ('error', 'string-prefix?: expected a string, got a')),
    ('(string-suffix? "a" 1)', ('error', 'string-suffix?: expected a string, got 1')),
    ('(string-length 5)', ('error', 'string-length: expected a string, got 5')),
    ('(number->string "5")', ('error', 'number->string: expected a number, got "5"')),
    ('(string->number "١٢")', ('value', '#f', 'bool', None)),
    ('(string->number "+")', ('value', '#f', 'bool', None)),
    ('(string->number "-12")', ('value', '-12', 'int', None)),
    ("(hash-ref (hash 2.0 'x) 2)", ('value', 'x', 'Symbol', None)),
    ("(let ((h (hash 2.0 'x))) (hash-set! h 2 'y) h)", ('value', '#hash((2 y))', 'Hash', None)),
    ("(hash-ref 5 'a)", ('error', 'hash-ref: expected a hash, got 5')),
    ("(hash-set! 5 'a 1)", ('error', 'hash-set!: expected a hash, got 5')),
    ("(hash-ref (hash) 'a)", ('error', 'hash-ref: no key a')),
    ('(vector-ref #(1 2) 2)', ('error', 'vector-ref: index 2 out of range [0, 2)')),
    ('(vector-ref #(1 2) -1)', ('error', 'vector-ref: index -1 out of range [0, 2)')),
    ('(vector-ref #(1 2) 1.0)', ('value', '2', 'int', None)),
    ("(vector-ref '(1 2) 0)", ('error', 'vector-ref: expected a vector, got (1 2)')),
    ('(let ((v (vector 1 2))) (vector-set! v 1 5) v)', ('value', '#(1 5)', 'Vector', None)),
    ('(vector-set! (vector 1) 1 0)', ('error', 'vector-set!: index 1 out of range [0, 1)')),
    ("(list-ref '(a b c) 2)", ('value', 'c', 'Symbol', None)),
    ("(list-ref '(a b c) 3)", ('error', 'list-ref: index 3 out of range [0, 3)')),
    ("(list-ref '(a b c) -1)", ('error', 'list-ref: index -1 out of range [0, 3)')),
    ("(list-ref '(a b c) 1.0)", ('value', 'b', 'Symbol', None)),
    ("(list-ref '() 0)", ('error', 'list-ref: index 0 out of range [0, 0)')),
    ('(list-ref 5 0)', ('error', 'list-ref: expected a list, got 5')),
    ('(- "a" 2 "b")', ('error', '-: expected a number, got "a"')),
    ('(- 1 2 "b")', ('error', '-: expected a number, got "b"')),
    ('(sub 1 #f 3)', ('error', 'sub: expected a number, got #f')),
    ('(- "a")', ('error', '-: expected a number, got "a"')),
    ('(- 2.5)', ('value', '-2.5', 'float', None)),
    ('(- 10 1 2 3)', ('value', '4', 'int', None)),
])
def test_fast_paths_keep_results_and_messages(session, src, want):
    assert outcome(session, src) == want


@pytest.mark.parametrize('x', ['0', '-5', '12345678901234567890', '2.5', '-0.0', '1e21', '(/ 0. 0.)'])
def test_number_text_without_a_radix_is_the_radix_10_text(session, x):
    assert outcome(session, '(number->string %s)' % x) == outcome(session, '(number->string %s 10)' % x)


@pytest.mark.parametrize('text', ['"42"', '"-42"', '"+7"', '"007"', '"1.5"', '"1e3"', '""', '"x"', '"1_000"',
                                  '" 1"', '"inf"', '"٣"'])
def test_number_parsing_without_a_radix_is_radix_10(session, text):
    assert outcome(session, '(string->number %s)' % text) == outcome(session, '(string->number %s 10)' % text)


STR_PARTS = ['""', '"a"', '5', '-12', '123456789012345678901234567890', '2.5', '(/ 0. 0.)', "'sym", '#t', '()',
             "'(1 \"x\" (y))", '#(1 "v")', '(hash "k" 1)', 'car', '"é\\n"']


@pytest.mark.parametrize('a', STR_PARTS)
def test_str_is_the_print_forms_concatenated(session, a):
    for b in STR_PARTS:
        for parts in ((a,), (a, b), (a, b, a), (b, '"-"', a, '" "', b)):
            args = ' '.join(parts)
            assert outcome(session, '(str %s)' % args) == \
                outcome(session, '(string-append-list (list %s))' % args), args


@pytest.mark.parametrize('a', NUMBERS)
def test_many_exact_integers_add_as_the_loop_does(session, a):
    """(apply + lst) of many exact integers is summed at once; one other value anywhere takes the loop."""
    many = '1 2 3 4 5 6 7 8 9'
    for args in ('%s %s' % (a, many), '%s %s' % (many, a), '4 %s %s' % (a, many), '1 2 3 %s 5 6 7 8 9' % a):
        for op in ('+', 'add'):
            step_by_step = '(foldl (lambda (x acc) (%s acc x)) 0 (list %s))' % (op, args)
            assert outcome(session, '(%s %s)' % (op, args)) == outcome(session, step_by_step), (op, args)


@pytest.mark.parametrize('a', NUMBERS)
def test_many_exact_integers_max_and_min_as_the_loop_does(session, a):
    """(apply max lst) of many exact integers is Python's max at once; one other value anywhere takes the loop."""
    many = '1 -2 30 4 (expt 10 30) 6 (- (expt 10 30)) 8 9'
    for args in ('%s %s' % (a, many), '%s %s' % (many, a), '4 %s %s' % (a, many)):
        for op in ('max', 'min'):
            step_by_step = ('(foldl (lambda (x acc) (%s x acc)) (car (list %s)) (cdr (list %s)))' % (op, args, args))
            assert outcome(session, '(%s %s)' % (op, args)) == outcome(session, step_by_step), (op, args)
