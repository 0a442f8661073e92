"""`(f (reverse x))` of builtins in compiled code (builtin_calls.fused_call):
f's value of reverse's elements, no cell made, while both globals hold their
builtins. fused_value, and the builtins' items_of and of_items it is made of,
against the two builtins called in turn (the slow reference), values and
errors alike; the code's shape; and programs run both ways
(RUSTY_SPECIALIZE=0 against the compiler), rebinding either name, reverse
turned macro, failing arguments."""
import io
import re

import pytest

from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session
from rusty.values import NIL, make_list, sym
from rusty.compile.builtin_calls import fused_value
from test_paths_agree import assert_same, both_ways

CONSUMERS = ('string-append-list', 'list->vector', 'list->string')
ARGS = ["'()", "'(\"a\")", "'(\"a\" \"b\" \"c\")", "'(\"a\" \"bc\")", "'(\"a\" \"bc\" \"\")",
        "'(1 \"a\" b 2.5 (x \"y\") #t)", "(iota 50)", "'(1 . 2)",
        "'(\"a\" \"b\" . \"c\")", '5', '"abc"', '(vector 1 2)', 'nil', "'((1 2) (3))", "(list 'q 1e300 -0.0 0.1)"]


@pytest.fixture(scope='module')
def session():
    return Session(out=io.StringIO())


def outcome(thunk):
    try:
        return ('value', write_form(thunk()))
    except RustyError as e:
        return ('error', e.message)


@pytest.mark.parametrize('consumer', CONSUMERS)
def test_the_fused_value_is_the_two_builtins_called_in_turn(session, consumer):
    rev, f = session.genv.lookup(sym('reverse')), session.genv.lookup(sym(consumer))
    fused = 0
    for text in ARGS:
        x = session.run(text)
        slow = outcome(lambda: f.fn(rev.fn(x)))
        try:
            got = ('value', fused_value(rev, f, x))
        except RustyError as e:
            got = ('error', e.message)
        if got == ('value', None):      # (then compiled code calls the two builtins in turn)
            assert rev.fn.items_of(x) is None, text
        else:
            fused += 1
            assert (got[0], write_form(got[1]) if got[0] == 'value' else got[1]) == slow, text
    assert fused >= 8


def test_reversed_items_are_reverse_s_elements(session):
    rev = session.genv.lookup(sym('reverse'))
    for text in ARGS:
        x = session.run(text)
        items = rev.fn.items_of(x)
        if items is not None:
            assert write_form(make_list(items)) == write_form(rev.fn(x)), text
    assert rev.fn.items_of(NIL) is None and rev.fn.items_of(5) is None


def test_compiled_code_calls_the_fused_value(monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session(out=io.StringIO())
    s.run("(define (f acc) (string-append-list (reverse acc)))")
    assert s.run("(f '(\"b\" \"a\"))") == 'ab'
    src = s.python_source(s.genv.lookup(sym('f')))
    assert re.search(r'= k\d+\(x\d+, x\d+, v_acc_\d+\)', src), src


PROGRAMS = [
    "(define (f x) (list (string-append-list (reverse x)) (list->vector (reverse x)))) "
    "(list (f '(\"a\" 1 b)) (f '()) (f nil) (f (iota 5)) (try-catch (f 5) (e) e) (f '(1 . 2)) "
    "(try-catch (f \"s\") (e) e))",
    # failing without try-catch: the report's position and backtrace
    "(define (f x) (string-append-list (reverse x))) (list (f '(\"a\")) (f '(\"b\"))) (f 7)",
    "(define (g x) (list->vector (reverse x))) (g '(1 2)) (g '(1 2)) (g (vector 1))",
    "(define (h x) (list->string (reverse x))) (list (h '(\"a\" \"b\")) (h '()) (h nil) (h '(\"c\" \"d\"))) "
    "(h '(\"a\" 5 \"bc\"))",
    # either name rebound after the code was compiled; reverse turned macro
    "(define (f x) (string-append-list (reverse x))) (define r1 (f '(\"a\" \"b\"))) "
    "(set! reverse (lambda (l) (list \"R\"))) (define r2 (f '(\"a\" \"b\"))) "
    "(set! string-append-list length) (list r1 r2 (f '(\"a\" \"b\")))",
    "(define (f x) (string-append-list (reverse x))) (f '(\"a\")) (f '(\"a\")) "
    "(defmacro reverse (l) (list 'quote (list \"M\" l))) (f '(\"a\" \"b\"))",
    # reverse a local: never fused
    "(define (f reverse x) (string-append-list (reverse x))) (list (f (lambda (l) l) '(\"a\" \"b\")) "
    "(f reverse '(\"a\" \"b\")) (let ((reverse cdr)) (string-append-list (reverse '(\"a\" \"b\")))))",
    # the argument's own evaluation: once, in order, with its effects
    "(define n 0) (define (next) (set! n (+ n 1)) (list (number->string n) \"x\")) "
    "(define (f) (string-append-list (reverse (next)))) (list (f) (f) (f) n)",
    # in tail position of a loop
    "(define (build n) (let loop ((i 0) (acc '())) (if (< i n) (loop (+ i 1) (cons (number->string i) acc)) "
    "(string-append-list (reverse acc))))) (list (build 12) (build 0) (build 1))",
]


@pytest.mark.parametrize('program', PROGRAMS, ids=range(len(PROGRAMS)))
def test_fused_calls_agree_with_the_reference(program):
    reference, fast = both_ways(['-e', program])
    assert_same(reference, fast, program)
