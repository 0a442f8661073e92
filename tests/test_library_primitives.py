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
    for name in ('string-join', 'assoc', 'assq', 'alist-get', 'string-first-index', 'string-last-index'):
        assert print_form(s.run('(type-of %s)' % name)) == 'lambda'
