"""Standard-library functions whose work runs in a host primitive: the same
results, the same error messages and hints as the rusty definitions they
replaced (kept below as the reference and compared on a table of inputs),
still lambdas, still insulated from the program's redefinitions, and the
primitives themselves invisible to the program."""
import io

import pytest

from helpers import ev
from rusty.errors import RustyError
from rusty.printer import print_form, write_form
from rusty.runtime import Session

# The definitions the primitives replaced, under other names: the reference.
REFERENCE = r'''
(define (ref-assoc k alist)
  (cond ((null? alist) #f)
        ((and (pair? (car alist)) (equal? (car (car alist)) k)) (car alist))
        (else (ref-assoc k (cdr alist)))))
(define (ref-alist-get k alist default)
  (let ((hit (ref-assoc k alist)))
    (if hit (car (cdr hit)) default)))
(define (ref-string-join lst sep)
  (cond ((null? lst) "")
        ((null? (cdr lst)) (car lst))
        (else (apply string-append
                     (cons (car lst)
                           (foldr (lambda (x acc) (cons sep (cons x acc))) '() (cdr lst)))))))
(define (ref-string-first-index s sub)
  (let ((n (string-length s)) (m (string-length sub)))
    (let loop ((i 0))
      (cond ((> (+ i m) n) #f)
            ((string=? (substring s i (+ i m)) sub) i)
            (else (loop (+ i 1)))))))
(define (ref-string-last-index s sub)
  (let ((m (string-length sub)))
    (let loop ((i (- (string-length s) m)))
      (cond ((< i 0) #f)
            ((string=? (substring s i (+ i m)) sub) i)
            (else (loop (- i 1)))))))
(define (ref-caar x) (car (car x)))
(define (ref-cadr x) (car (cdr x)))
(define (ref-cdar x) (cdr (car x)))
(define (ref-cddr x) (cdr (cdr x)))
(define (ref-caddr x) (car (cdr (cdr x))))
(define (ref-cadddr x) (car (cdr (cdr (cdr x)))))
(define (ref-any? p lst)
  (cond ((null? lst) #f) ((p (car lst)) #t) (else (ref-any? p (cdr lst)))))
(define (ref-all? p lst)
  (cond ((null? lst) #t) ((p (car lst)) (ref-all? p (cdr lst))) (else #f)))
(define (ref-find p lst)
  (cond ((null? lst) #f) ((p (car lst)) (car lst)) (else (ref-find p (cdr lst)))))
(define (ref-count p lst)
  (foldl (lambda (x n) (if (p x) (+ n 1) n)) 0 lst))
(define (ref-take-while p lst)
  (let loop ((lst lst) (acc '()))
    (if (and (pair? lst) (p (car lst))) (loop (cdr lst) (cons (car lst) acc)) (reverse acc))))
(define (ref-drop-while p lst)
  (cond ((null? lst) '())
        ((p (car lst)) (ref-drop-while p (cdr lst)))
        (else lst)))
(define (ref-zip-with f a b)
  (let loop ((a a) (b b) (acc '()))
    (if (and (pair? a) (pair? b))
        (loop (cdr a) (cdr b) (cons (f (car a) (car b)) acc))
        (reverse acc))))
(defmacro yes (x) #t)
(defmacro pair-up (x y) (list 'list x y))
(define (odd-number? x) (and (number? x) (odd? x)))
(define (boom x) (if (= x 3) (error "boom" x) #f))
(define (ref-last lst)
  (if (null? (cdr lst)) (car lst) (ref-last (cdr lst))))
(define (ref-range a b)
  (let loop ((i a) (acc '()))
    (if (< i b) (loop (+ i 1) (cons i acc)) (reverse acc))))
(define (ref-string-repeat s n)
  (if (>= n 9007199254740992) (error "string-repeat: count too large:" n))
  (if (and (>= n 1) (> (* (string-length s) (truncate n)) 268435456))
      (error "string-repeat: result too large"))
  (let loop ((k (if (>= n 1) (truncate n) 0)) (piece s) (acc ""))
    (cond ((< k 1) acc)
          ((odd? k) (loop (quotient k 2) (if (< k 2) piece (string-append piece piece))
                          (string-append acc piece)))
          (else (loop (quotient k 2) (string-append piece piece) acc)))))
(define (ref-string-starts-with? s p)
  (and (<= (string-length p) (string-length s))
       (string=? (substring s 0 (string-length p)) p)))
(define (ref-string-contains? s sub)
  (if (ref-string-first-index s sub) #t #f))
(define (ref-string<? a b)
  (and (not (string=? a b)) (string=? (car (sort (list a b))) a)))
'''


@pytest.fixture(scope='module')
def session():
    s = Session(out=io.StringIO())
    s.run(REFERENCE)
    return s


def outcome(s, src):
    """('value', print form) or ('error', message, hints) of evaluating src."""
    try:
        return ("value", write_form(s.run(src, "<test>")))
    except RustyError as e:
        return ('error', e.message, list(e.hints))


# ── Exact results, messages and hints ────────────────────────────────────

EXACT = [
    ('(string-join \'("a" "b" "c") ", ")', ('value', '"a, b, c"')),
    ('(string-join \'() 5)', ('value', '""')),
    ('(string-join () ",")', ('value', '""')),
    ("(string-join '(5) 5)", ('value', '5')),
    ("(string-join '(a) \",\")", ('value', 'a')),
    ('(string-join \'("a" "b") "")', ('value', '"ab"')),
    ('(string-join 5 ",")', ('error', 'cdr: not a pair', ['cdr got 5'])),
    ('(string-join "abc" ",")', ('error', 'cdr: not a pair', ['cdr got "abc"'])),
    ('(string-join \'("a" "b") 5)', ('error', 'string-append: expected a string, got 5', [])),
    ('(string-join \'(1 "b") 5)', ('error', 'string-append: expected a string, got 1', [])),
    ('(string-join \'("a" "b" c) ",")', ('error', 'string-append: expected a string, got c', [])),
    ('(string-join \'("a" "b"))', ('error', 'string-join: expected 2 args, got 1', ['string-join takes (lst sep)'])),
    ("(assoc 'a 5)", ('error', 'car: not a pair', ['car got 5'])),
    ("(assoc 'a \"abc\")", ('error', 'car: not a pair', ['car got "abc"'])),
    ("(assoc 'a ())", ('value', '#f')),
    ("(assoc 'a '(1 2 (a 3)))", ('value', '(a 3)')),
    ("(assoc 'a '(() (a)))", ('value', '(a)')),
    ("(assoc 1 '((1.0 x)))", ('value', '(1 x)')),
    ("(assoc 0 '((-0 z)))", ('value', '(0 z)')),
    ("(assoc #t '((1 x) (#t y)))", ('value', '(#t y)')),
    ("(assoc 1 '((#t x) (1 y)))", ('value', '(1 y)')),
    ('(assoc "k" \'((k 1) ("k" 2)))', ('value', '("k" 2)')),
    ("(assoc 'k '((\"k\" 1) (k 2)))", ('value', '(k 2)')),
    ("(assoc '(1 (2)) '(((1 2) x) ((1 (2)) y)))", ('value', '((1 (2)) y)')),
    ("(assoc '() '((() 1)))", ('value', '(() 1)')),
    ("(assoc car (list (list car 1)))", ('value', '#f')),
    ("(assoc (/ 0. 0.) (list (list (/ 0. 0.) 1)))", ('error', 'Division by zero', [])),
    ("(assq 'b '((a . 1) (b . 2)))", ('value', '(b . 2)')),
    ("(assq 'a 5)", ('error', 'car: not a pair', ['car got 5'])),
    ("(assoc 'a)", ('error', 'assoc: expected 2 args, got 1', ['assoc takes (k alist)'])),
    ("(alist-get 'a 5 0)", ('error', 'car: not a pair', ['car got 5'])),
    ("(alist-get 'a '((b) (a)) 0)", ('error', 'car: not a pair', ['car got ()'])),
    ("(alist-get 'a '(x (a 1 2)) 0)", ('value', '1')),
    ("(alist-get 'a () 0)", ('value', '0')),
    ('(string-first-index "banana" "an")', ('value', '1')),
    ('(string-first-index "héllo" "l")', ('value', '2')),
    ('(string-first-index "abc" "")', ('value', '0')),
    ('(string-first-index "" "")', ('value', '0')),
    ('(string-first-index "ab" "abc")', ('value', '#f')),
    ('(string-first-index 5 "a")', ('error', 'string-length: expected a string, got 5', [])),
    ("(string-first-index 1 'x)", ('error', 'string-length: expected a string, got 1', [])),
    ('(string-last-index "héllo" "l")', ('value', '3')),
    ('(string-last-index "aaa" "aa")', ('value', '1')),
    ('(string-last-index "abc" "")', ('value', '3')),
    ('(string-last-index "" "")', ('value', '0')),
    ('(string-last-index "ab" "abc")', ('value', '#f')),
    ("(string-last-index 1 'x)", ('error', 'string-length: expected a string, got x', [])),
    ('(string-last-index "abc" 5)', ('error', 'string-length: expected a string, got 5', [])),
    ('(string-contains? "hello" "ll")', ('value', '#t')),
    ('(string-contains? "hello" "lo!")', ('value', '#f')),
    ('(string-contains? 5 "a")', ('error', 'string-length: expected a string, got 5', [])),
]


@pytest.mark.parametrize('src, want', EXACT, ids=[c[0] for c in EXACT])
def test_exact_results_messages_and_hints(session, src, want):
    assert outcome(session, src) == want


# ── The reference definitions agree, input by input ──────────────────────

ALISTS = ["'()", '()', "'((a 1) (b 2) (a 3))", "'(1 (a) () \"a\" (\"a\" 9) ((a) 8))", "'((1 x) (1.0 y) (-0 z))",
          "(list (list #t 1) (list #f 2) (list 'x 3))", '5', '"str"', "'(x)",
          "(list (list 1 'a) (list \"a\" 'b) (list #t 'c) (list () 'd) (list 'a 'e) '() (list #f 'f) (list \"b\"))"]
KEYS = ["'a", "'b", '"a"', '1', '0', '#t', '#f', "'(a)", "'()", '()', "'zz"]


@pytest.mark.parametrize('alist', ALISTS)
def test_assoc_and_alist_get_agree_with_the_reference(session, alist):
    for k in KEYS:
        assert outcome(session, '(assoc %s %s)' % (k, alist)) == \
            outcome(session, '(ref-assoc %s %s)' % (k, alist)), k
        assert outcome(session, "(alist-get %s %s 'none)" % (k, alist)) == \
            outcome(session, "(ref-alist-get %s %s 'none)" % (k, alist)), k


LISTS = ["'()", '()', '\'("a")', '\'("a" "b" "c")', "'(x)", '\'("a" 2 "c")', '\'(1 "b")', '5', '"s"',
         '(map number->string (iota 50))', '\'("" "" "")']
SEPS = ['", "', '""', '5', "'x", '"é"']


@pytest.mark.parametrize('lst', LISTS)
def test_string_join_agrees_with_the_reference(session, lst):
    for sep in SEPS:
        assert outcome(session, '(string-join %s %s)' % (lst, sep)) == \
            outcome(session, '(ref-string-join %s %s)' % (lst, sep)), sep


TEXTS = ['""', '"a"', '"banana"', '"héllo wörld"', '"aaaa"', '5', "'x", '"a.b.c"']


@pytest.mark.parametrize('s', TEXTS)
def test_string_indexes_agree_with_the_reference(session, s):
    for sub in TEXTS + ['"an"', '"."', '"ö"', '"bananas"']:
        for name in ('string-first-index', 'string-last-index'):
            assert outcome(session, '(%s %s %s)' % (name, s, sub)) == \
                outcome(session, '(ref-%s %s %s)' % (name, s, sub)), (name, sub)


NESTED = ["'((1 2) (3 4) (5 6) (7))", "'((1) 2 3 4)", "'(1 2 3)", "'(1 2)", "'(1)", "'()", '()', '5', '"ab"',
          "'(() ())", "'((a . b) c)", "(list (list) 1 2 3)", '#(1 2)']


@pytest.mark.parametrize('x', NESTED)
def test_car_cdr_compositions_agree_with_the_reference(session, x):
    for name in ('caar', 'cadr', 'cdar', 'cddr', 'caddr', 'cadddr'):
        assert outcome(session, '(%s %s)' % (name, x)) == outcome(session, '(ref-%s %s)' % (name, x)), name


PREDICATES = ['odd-number?', 'even?', 'boom', 'yes', '5', '(lambda (x) x)', '(lambda (x y) x)', 'car', 'list']
SEQUENCES = ["'(1 2 3 4)", "'(2 4)", "'()", '()', '5', '"ab"', '#(1 2)', "'(1 #f 3)", "'(a b)", '(iota 40)']


@pytest.mark.parametrize('p', PREDICATES)
def test_searches_and_counts_agree_with_the_reference(session, p):
    for lst in SEQUENCES:
        for name in ('any?', 'all?', 'find', 'count'):
            assert outcome(session, '(%s %s %s)' % (name, p, lst)) == \
                outcome(session, '(ref-%s %s %s)' % (name, p, lst)), (name, lst)
        assert outcome(session, '(none? %s %s)' % (p, lst)) == \
            outcome(session, '(not (ref-any? %s %s))' % (p, lst)), lst


@pytest.mark.parametrize('p', PREDICATES)
def test_prefix_walks_agree_with_the_reference(session, p):
    for lst in SEQUENCES:
        for name in ('take-while', 'drop-while'):
            assert outcome(session, '(%s %s %s)' % (name, p, lst)) == \
                outcome(session, '(ref-%s %s %s)' % (name, p, lst)), (name, lst)


@pytest.mark.parametrize('f', ['list', '+', 'pair-up', '5', '(lambda (x) x)', 'cons', 'boom'])
def test_zip_with_agrees_with_the_reference(session, f):
    for a in SEQUENCES:
        for b in ("'(1 2 3)", "'()", '5', '(iota 10)'):
            assert outcome(session, '(zip-with %s %s %s)' % (f, a, b)) == \
                outcome(session, '(ref-zip-with %s %s %s)' % (f, a, b)), (a, b)
            if f == 'list':
                assert outcome(session, '(zip %s %s)' % (a, b)) == \
                    outcome(session, '(ref-zip-with list %s %s)' % (a, b)), (a, b)


LAST_INPUTS = ["'(1 2 3)", "'(1)", "'()", '()', '5', '"abc"', "'((a) (b c))", '(iota 100)', "(cons 1 2)", '#(1 2)']


@pytest.mark.parametrize('lst', LAST_INPUTS)
def test_last_agrees_with_the_reference(session, lst):
    assert outcome(session, '(last %s)' % lst) == outcome(session, '(ref-last %s)' % lst)


BOUNDS = ['0', '3', '-2', '2.5', '0.5', '-0.0', '12.0', '(/ 0. 0.)', '"a"', "'x", '#t', '()', '7']


@pytest.mark.parametrize('a', BOUNDS)
def test_range_and_iota_agree_with_the_reference(session, a):
    for b in BOUNDS:
        assert outcome(session, '(range %s %s)' % (a, b)) == outcome(session, '(ref-range %s %s)' % (a, b)), b
    assert outcome(session, '(iota %s)' % a) == outcome(session, '(ref-range 0 %s)' % a)


def test_range_keeps_exactness_and_float_steps(session):
    assert outcome(session, '(map exact? (range 1 3))') == ('value', '(#t #t)')
    assert outcome(session, '(range 0.5 3)') == ('value', '(0.5 1.5 2.5)')
    assert outcome(session, '(map exact? (range 0 2.5))') == ('value', '(#t #t #t)')


REPEAT_STRINGS = ['""', '"ab"', '"é"', '5', "'x"]
COUNTS = ['0', '1', '3', '2.7', '-1', '0.5', '(/ 0. 0.)', '1e16', '9007199254740992', '(/ 1. 0.)', '300000000', '1000',
          '"3"', '()']


@pytest.mark.parametrize('s', REPEAT_STRINGS)
def test_string_repeat_agrees_with_the_reference(session, s):
    for n in COUNTS:
        assert outcome(session, '(string-repeat %s %s)' % (s, n)) == \
            outcome(session, '(ref-string-repeat %s %s)' % (s, n)), n


STRINGS = ['""', '"a"', '"ab"', '"abc"', '"b"', '"é"', '"B"', '5', "'a", '()']


@pytest.mark.parametrize('a', STRINGS)
def test_string_tests_agree_with_the_reference(session, a):
    for b in STRINGS:
        for name in ('string-starts-with?', 'string-contains?', 'string<?'):
            assert outcome(session, '(%s %s %s)' % (name, a, b)) == \
                outcome(session, '(ref-%s %s %s)' % (name, a, b)), (name, b)


# ── Still lambdas, insulated, primitives hidden ──────────────────────────

@pytest.mark.parametrize('src, want', [
    ('(define (string-append . xs) "mine") (define (foldr . xs) 0) (string-join \'("a" "b") ",")', 'a,b'),
    ("(define (equal? a b) #t) (define (car x) 0) (define (pair? x) #f) (assoc 'b '((a 1) (b 2)))", '(b 2)'),
    ("(define (assoc k a) 'mine) (alist-get 'b '((a 1) (b 2)) 0)", '2'),
    ('(define (string-length s) 0) (define (substring . a) "") (string-first-index "banana" "na")', '2'),
    ('(define (string-first-index s x) 0) (string-contains? "abc" "x")', '#f'),
])
def test_insulated_from_the_programs_redefinitions(src, want):
    assert ev(src) == want


def test_the_primitives_are_not_visible_to_the_program():
    s = Session(out=io.StringIO())
    names = s.global_names()
    assert not [n for n in names if n.startswith('%')]
    for name in ('string-join', 'assoc', 'assq', 'alist-get', 'string-first-index', 'string-last-index', 'last',
                 'range', 'iota', 'string-repeat', 'caar', 'cadr', 'cdar', 'cddr', 'caddr', 'cadddr',
                 'any?', 'all?', 'find', 'count', 'take-while', 'drop-while', 'zip-with', 'zip', 'string-starts-with?', 'string-contains?', 'string<?'):
        assert print_form(s.run('(type-of %s)' % name)) == 'lambda'
