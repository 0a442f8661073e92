"""Lexical addressing must behave exactly like by-name lookup (docs/reference.md §4 Evaluation, environments)."""
import pytest

from helpers import err, ev, out


def test_runtime_internal_define():
    src = ("(define x 10) (define (f) (display (list 'before x)) (define x 2) (display (list 'after x))) (f)")
    assert out(src) == '(before 10)(after 2)'
    assert ev(src + ' x') == '10'


@pytest.mark.parametrize('name,src,v', [
    ('eval-define-shadowing-parameter', "(define (f a) (let ((b 1)) (eval '(define a 99)) (+ a b))) (f 5)", '100'),
    ('global-function-redefined', '(define (g) 1) (define (c) (g)) (define r (c)) (define (g) 2) (list r (c))', '(1 2)'),
    ('function-redefined-as-macro',
     "(define (h a) a) (define (u) (h undefined-name)) (defmacro h (a) `(quote ,a)) (u)", 'undefined-name'),
    ('closure', '(define (adder n) (lambda (v) (+ v n))) ((adder 3) 4)', '7'),
    ('let*-rebinding-parameter', '(define (f p) (let* ((p (+ p 1)) (q (* p 2))) (+ p q))) (f 10)', '33'),
    ('named-let', '(define (f) (let loop ((i 0) (acc 0)) (if (= i 5) acc (loop (+ i 1) (+ acc i))))) (f)', '10'),
    ('grad-of-resolved-body', '((grad (lambda (t) (* t t))) 3)', '6'),
    ('builtin-name-as-parameter', '(define (f max) (+ max 1)) (f 9)', '10'),
    ('special-form-name-as-parameter', '(define (f do) (+ do 1)) (f 1)', '2'),
])
def test_conformance_table(name, src, v):
    assert ev(src) == v


# further corner cases that precomputed addresses must not break

@pytest.mark.parametrize('src,v', [
    # `set` with an existing global assigns it; without one it creates a local binding
    ("(define y 'global) (define (f) (set y 'assigned) y) (list (f) y)", '(assigned assigned)'),
    ("(define (f) (set zqfresh 'made) (list zqfresh (g))) (define (g) 'g) (f)", '(made g)'),
    ("(define (f) (define y 'inner) (set y 'assigned) y) (f)", 'assigned'),
    # a define in a let frame at run time shadows the outer name for later references
    ("(define z 'global) (define (f) (let ((a 1)) (define z 'let) z)) (f)", 'let'),
    ("(define z 'global) (define (f) (let ((a 1)) (if #t (define z 'let)) z)) (f)", 'let'),
    # conditional internal define: the same code sees either binding
    ("(define z 'global) (define (f flag) (if flag (define z 'local)) z) (list (f #f) (f #t) (f #f))",
     '(global local global)'),
    # eval of a define creating a new local inside a closure body
    ("(define v 'global) (define (f) (eval '(define v 'local)) v) (list (f) v)", '(local global)'),
    # eval-when definitions shadow for the expander
    ("(define k 'global) (defmacro m () (eval-when (x) (define k 'macro-env)) (list 'quote k)) (m)", 'macro-env'),
    # deep closure chains
    ('(define (a x) (lambda (y) (lambda (z) (list x y z)))) (((a 1) 2) 3)', '(1 2 3)'),
    # a parameter shadowed by an internal define of the same name
    ('(define (f x) (define x (* x 10)) x) (f 2)', '20'),
    # a closure created before an internal define sees the new binding (same frame)
    ("(define w 'global) (define (f) (define g (lambda () w)) (define w 'local) (g)) (f)", 'local'),
    # redefining a builtin globally is seen by existing callers
    ('(define (f) (car (list 1 2))) (define (car x) 99) (f)', '99'),
    # the code reader sees symbols, not addresses
    ("(define (f x) (lambda (y) (+ x y))) (f 1)", '#<lambda (y)>'),
    ("(defmacro q (e) (list 'quote e)) (define (f x) (q (+ x 1))) (f 5)", '(+ x 1)'),
    # named let variable shadowing a global used in the init
    ('(define i 7) (define (f) (let loop ((i i) (acc 0)) (if (= i 0) acc (loop (- i 1) (+ acc i))))) (f)', '28'),
    # do loop variables and closures
    ('(define (f) (do ((i 0 (+ i 1)) (s 0 (+ s i))) ((= i 4) s))) (f)', '6'),
    # match bindings shadow
    ("(define a 'global) (define (f v) (match v ((a b) (list b a)))) (f '(1 2))", '(2 1)'),
    # try-catch variable shadows
    ('(define e 5) (define (f) (try-catch (car 1) (e) e)) (f)', 'car: not a pair'),
])
def test_by_name_equivalence(src, v):
    assert ev(src) == v


def test_set_creating_binding_then_global_visible_again_in_new_activation():
    src = "(define y 'global) (define (f flag) (if flag (set y 'made)) y) (list (f #f) (f #t) (f #f))"
    # `set` assigns the nearest existing binding: the global, when one exists
    assert ev(src) == '(global made made)'


def test_undefined_reference_inside_lambda_after_resolution():
    assert err('(define (f) zqnever) (f)') == "Undefined: 'zqnever'"
    assert ev("(define (f) zqlate) (define zqlate 'now) (f)") == 'now'
