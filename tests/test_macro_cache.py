"""Macro expansions cached per call site must stay unobservable (docs/architecture.md, Fast paths and their references).

Only pure macros are cached, and only while the macro and every global
definition are unchanged; these tests pin the behaviour that must not change.
"""
from helpers import err, out, session, value

from rusty.macro_cache import is_pure
from rusty.values import sym


def pure(src, name):
    s = session()
    s.run(src)
    return is_pure(s.genv.lookup(sym(name)), s.genv)


def test_standard_library_macros_are_pure():
    s = session()
    for name in ('->', '->>', 'while', 'dotimes', 'dolist', 'repeat', 'swap!', 'assert', 'field', 'time'):
        m = s.genv.lookup(sym(name))
        assert is_pure(m, s.genv), name   # time's clock reads are in its template, run each time


def test_effects_make_a_macro_impure():
    assert not pure('(defmacro m (x) (display "e") x)', 'm')
    assert not pure('(defmacro m (x) (list (gensym) x))', 'm')
    assert not pure('(define n 0) (defmacro m (x) (set! n 1) x)', 'm')
    assert not pure('(define (helper x) x) (defmacro m (x) (helper x))', 'm')
    assert not pure('(defmacro m (x) (eval x))', 'm')
    assert not pure('(defmacro m (x) (let ((p display)) (p x)) x)', 'm')
    assert not pure('(defmacro m (x) (let ((print (print 1))) x))', 'm')


def test_pure_bodies_with_local_procedures_are_pure():
    assert pure('(defmacro m (x) (map (lambda (y) (list y y)) x))', 'm')
    assert pure('(defmacro m (x) (let loop ((i 0) (acc (quote ()))) (if (= i 3) acc (loop (+ i 1) (cons x acc)))))', 'm')
    assert pure('(defmacro m (x) (define (twice y) (list y y)) (twice x))', 'm')


def test_impure_macro_expands_every_time():
    src = ('(defmacro noisy (x) (display "x") x) (define (f n) (noisy n)) '
           '(f 1) (f 2) (f 3)')
    assert out(src) == 'xxx'


def test_expansion_sees_redefined_globals():
    src = ('(define k 1) (defmacro m () k) (define (f) (m)) '
           '(define a (f)) (define k 2) (list a (f))')
    assert list(value(src)) == [1.0, 2.0]


def test_time_macro_measures_each_call():
    src = '(define (f) (time 1)) (f) (f)'
    lines = out(src).splitlines()
    assert len(lines) == 2 and all(line.startswith('time:  ') for line in lines)


def test_redefined_macro_is_expanded_again():
    src = ("(defmacro m () ''one) (define (f) (m)) (define a (f)) "
           "(defmacro m () ''two) (list a (f))")
    assert [x.name for x in session().run(src)] == ['one', 'two']


def test_macro_turned_function_is_called():
    src = ("(defmacro m (x) ''macro) (define (f) (m 1)) (define a (f)) "
           "(define (m x) 'function) (list a (f))")
    assert [x.name for x in session().run(src)] == ['macro', 'function']


def test_hot_loop_through_a_pure_macro_still_computes_each_call():
    src = '(define (f x) (-> x (+ 1) (* 2))) (map f (list 1 2 3))'
    assert [float(x) for x in session().run(src)] == [4.0, 6.0, 8.0]


def test_expansion_errors_are_not_cached():
    src = ('(define ok #f) (defmacro m () (if ok 1 (error "not yet"))) (define (f) (m)) '
           '(try-catch (f) (e) e)')
    assert session().run(src) == 'not yet'
    assert err(src.replace('(try-catch (f) (e) e)', '(f)')) == 'not yet'
    assert session().run(src.replace('(try-catch (f) (e) e)', '(try-catch (f) (e) e) (set! ok #t) (f)')) == 1.0
