"""docs/reference.md §5 Special forms: the `case` special form."""
import pytest

from helpers import dv, err, ev, out


@pytest.mark.parametrize('src, want', [
    ("(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite) (else 'other))", 'composite'),
    ("(case 5 ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite) (else 'other))", 'prime'),
    ("(case 10 ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite) (else 'other))", 'other'),
    ("(case 'b ((a) 1) ((b c) 2))", '2'),
    ("(case \"hi\" ((\"ho\") 1) ((\"hi\") 2))", '2'),
    ("(case '(1 2) (((1 2)) 'pair) (else 'no))", 'pair'),      # equal?, not eq?
    ("(case 2 ((1) 'a) ((2) 'first) ((2) 'second))", 'first'),   # the first matching clause
    ("(case 0 ((-0) 'zero))", 'zero'),
    ("(case 'else ((else) 'datum))", 'datum'),                  # a datum named else
    ("(case 'x ((a) 1) ((b) 2))", '()'),                         # no match, no else: Nil
    ("(case 1)", '()'),
    ("(case 1 ((1)))", '()'),                                    # empty body: Nil
    ("(case 1 (() 'never) (else 'e))", 'e'),
    ("(case 1 (else))", '()'),
    ("(case 1 ((1) 'a 'b 'c))", 'c'),
])
def test_case_results(src, want):
    assert ev(src) == want


def test_data_are_not_evaluated():
    assert ev("(define x 1) (case 1 ((x) 'symbol-x) ((1) 'one))") == 'one'
    assert ev("(case 'x ((x) 'symbol-x))") == 'symbol-x'
    assert ev("(case '(quote a) (('a) 'quoted))") == 'quoted'


def test_result_is_nil_not_empty_list():
    assert dv("(nil? (case 3 ((1) 1)))") == '#t'


def test_key_is_evaluated_once():
    assert out("(case (begin (display \"k\") 3) ((1) 1) ((2) 2) ((3) 3))") == 'k'
    assert ev("(define n 0) (case (begin (set! n (+ n 1)) 5) ((1) 1) ((5) n))") == '1'


def test_only_the_chosen_body_runs():
    assert out("(case 2 ((1) (display 'a)) ((2) (display 'b)) (else (display 'c)))") == 'b'


def test_bodies_run_in_the_current_frame():
    assert ev("(define (f k) (case k ((1) (define y 10))) y) (f 1)") == '10'


def test_last_body_form_is_a_tail_call():
    src = "(define (loop n) (case n ((0) 'done) (else (loop (- n 1))))) (loop 1000000)"
    assert ev(src) == 'done'
    src = "(define (loop n) (case (= n 0) ((#t) 'done) ((#f) 1 (loop (- n 1))))) (loop 1000000)"
    assert ev(src) == 'done'


@pytest.mark.parametrize('src, msg', [
    ('(case 1 (1 2))', 'case: bad clause (1 2)'),
    ('(case 1 5)', 'case: bad clause 5'),
    ('(case 1 ())', 'case: bad clause ()'),
    ('(case 1 "x")', 'case: bad clause "x"'),
    ('(case 1 (else 2) ((1) 3))', 'case: bad clause (else 2)'),      # else only last
    ('(case 1 ((1) 2) (x 3))', 'case: bad clause (x 3)'),
    ('(case)', 'case: expected (case key ((datum...) body...)... (else body...)), got 0 parts'),
])
def test_malformed_case(src, msg):
    assert err(src) == msg


def test_malformed_clause_is_caught_when_read_in_or_when_eval_is_given_it():
    assert err('(define (f) (try-catch (case 1 (1 2)) (e) e))') == 'case: bad clause (1 2)'
    assert ev("(try-catch (eval '(case 1 (1 2))) (e) e)") == 'case: bad clause (1 2)'


def test_case_is_a_special_form_name():
    assert ev("(define (f case) (+ case 1)) (f 1)") == '2'
    assert out("(describe 'case)") == 'case: special form\n'


def test_case_inside_a_macro_template_and_expansion():
    src = "(defmacro kind (x) `(case ,x ((1) 'one) (else 'many))) (list (kind 1) (kind 2))"
    assert ev(src) == '(one many)'
