"""Hash tables (docs/reference.md §6.4): every builtin, printing in each form, equal?, type-of,
unhashable keys, 0/-0, insertion order, JSON."""
import pytest

from helpers import dv, err, ev, out, value
from rusty.printer import display_form, print_form, write_form
from rusty.values import Hash, equal


@pytest.mark.parametrize('src,want', [
    ('(make-hash)', '#hash()'),
    ('(hash "a" 1 \'b 2)', '#hash(("a" 1) (b 2))'),
    ("(alist->hash '((a 1) (b 2) (a 3)))", '#hash((a 3) (b 2))'),      # later duplicates win, first position
    ("(alist->hash '())", '#hash()'), ('(alist->hash (nil))', '#hash()'),
    ("(hash-ref (hash 'a 1) 'a)", '1'), ("(hash-ref (hash 'a 1) 'z 0)", '0'),
    ("(hash-ref (hash 'a #f) 'a 0)", '#f'),
    ("(let ((h (make-hash))) (list (hash-set! h 'a 1) h))", '(() #hash((a 1)))'),
    ("(let ((h (hash 'a 1 'b 2))) (list (hash-remove! h 'a) (hash-remove! h 'zz) h))", '(() () #hash((b 2)))'),
    ("(let ((h (make-hash))) (hash-update! h 'n inc 0) (hash-update! h 'n inc 0) h)", '#hash((n 2))'),
    ("(let ((h (hash 'n 5))) (list (hash-update! h 'n (lambda (x) (* x 10)) 0) h))", '(() #hash((n 50)))'),
    ("(list (hash-has? (hash 'a 1) 'a) (hash-has? (hash 'a 1) 'b) (hash-has? (hash 'a #f) 'a))", '(#t #f #t)'),
    ("(list (hash-count (make-hash)) (hash-count (hash 1 2 3 4)))", '(0 2)'),
    ("(hash-keys (hash 'b 1 'a 2 'c 3))", '(b a c)'), ("(hash-values (hash 'b 1 'a 2))", '(1 2)'),
    ('(hash->list (hash "a" 1 \'b 2))', '(("a" 1) (b 2))'),
    ("(list (hash-keys (make-hash)) (hash-values (make-hash)) (hash->list (make-hash)))", '(() () ())'),
    ("(let* ((h (hash 1 2)) (c (hash-copy h))) (hash-set! c 1 5) (hash-set! c 3 4) (list h c))",
     '(#hash((1 2)) #hash((1 5) (3 4)))'),
    ("(list (hash? (make-hash)) (hash? '((a 1))) (hash? 5))", '(#t #f #f)'),
    ('(type-of (make-hash))', 'hash'),
    ("(let ((h (hash 'a 1 'b 2 'c 3))) (hash-set! h 'a 9) h)", '#hash((a 9) (b 2) (c 3))'),  # keeps position
    ("(let ((h (hash 'a 1 'b 2))) (hash-remove! h 'a) (hash-set! h 'a 3) h)", '#hash((b 2) (a 3))'),
])
def test_hash_builtins(src, want):
    assert dv(src) == want


def test_keys_compare_with_equal():
    assert ev("(hash-ref (hash '(1 \"a\" (b)) 'yes) (list 1 \"a\" (list 'b)))") == 'yes'
    assert ev('(hash-count (hash 0 \'a -0 \'b))') == '1'
    assert dv('(hash 0 \'a -0 \'b)') == '#hash((0 b))'
    assert ev("(hash-ref (hash -0 'z) 0)") == 'z'
    assert ev('(hash-count (hash 1 \'a #t \'b "1" \'c \'|1| \'d))') == '4'    # 1, #t, "1" and a symbol differ
    assert ev("(hash-count (hash (nil) 'a '() 'b))") == '2'                    # Nil is not the empty list
    assert ev("(hash-count (hash 'a 1 \"a\" 2))") == '2'
    assert ev('(hash-count (hash 1 1 1.0 2))') == '1'
    assert ev("(hash-ref (hash #f 'no) #f)") == 'no'


@pytest.mark.parametrize('key,shown', [
    ('(sqrt -1)', 'NaN'), ('car', '#<builtin:car>'), ('(lambda (x) x)', '#<lambda (x)>'),
    ("(zeros '(2))", '#<tensor 2 [0 0]>'), ('(make-hash)', '#hash()'), ("(list 1 (sqrt -1))", '(1 NaN)'),
])
def test_unhashable_keys(key, shown):
    msg = 'hash: unhashable key %s' % shown
    assert err('(hash %s 1)' % key) == msg
    assert err('(hash-set! (make-hash) %s 1)' % key) == msg
    assert err('(hash-ref (make-hash) %s 0)' % key) == msg
    assert err('(hash-has? (make-hash) %s)' % key) == msg
    assert err('(alist->hash (list (list %s 1)))' % key) == msg


@pytest.mark.parametrize('src,msg', [
    ("(hash 'a)", 'hash: expected an even number of args, got 1'),
    ("(hash 'a 1 'b)", 'hash: expected an even number of args, got 3'),
    ("(hash-ref (hash 'a 1) 'b)", 'hash-ref: no key b'),
    ('(hash-ref (hash) "k")', 'hash-ref: no key "k"'),
    ("(alist->hash '((a 1) (b)))", 'alist->hash: expected (key value), got (b)'),
    ("(alist->hash '(5))", 'alist->hash: expected (key value), got 5'),
    ("(alist->hash 5)", 'alist->hash: expected a list, got 5'),
    ("(hash-ref '((a 1)) 'a)", 'hash-ref: expected a hash, got ((a 1))'),
    ("(hash-set! 5 1 2)", 'hash-set!: expected a hash, got 5'),
    ("(hash-count \"h\")", 'hash-count: expected a hash, got "h"'),
    ("(hash-update! (make-hash) 'a 5 0)", 'hash-update!: expected a procedure, got 5'),
    ("(hash-ref (make-hash))", 'hash-ref: expected 2 to 3 arg(s), got 1'),
    ("(make-hash 1)", 'make-hash: expected 0 arg(s), got 1'),
])
def test_hash_errors(src, msg):
    assert err(src) == msg


def test_printing_in_each_form():
    h = value('(hash "a" 1 \'b "x y" \'c (list "s" (hash "in" "ner")))')
    assert display_form(h) == '#hash(("a" 1) (b "x y") (c ("s" #hash(("in" "ner")))))'
    assert print_form(h) == '#hash((a 1) (b x y) (c (s #hash((in ner)))))'
    assert write_form(value('(hash "q\\"" "l\\nm")')) == '#hash(("q\\"" "l\\nm"))'
    assert out('(print (hash "a" 1 \'b 2)) (display (hash "a" 1 \'b 2))') == \
        '#hash((a 1) (b 2))\n#hash(("a" 1) (b 2))'
    assert ev('(str (hash "a" "b"))') == '#hash((a b))'
    assert ev('(format "~a ~s" (hash "a" 1) (hash "a" 1))') == '#hash((a 1)) #hash(("a" 1))'


def test_equal_on_hashes():
    assert ev("(equal? (hash 'a 1 'b 2) (hash 'b 2 'a 1))") == '#t'           # any order
    assert ev("(equal? (hash 'a 1) (hash 'a 2))") == '#f'
    assert ev("(equal? (hash 'a 1) (hash 'a 1 'b 2))") == '#f'
    assert ev("(equal? (hash 'a (list 1 (hash 'x \"y\"))) (hash 'a (list 1 (hash 'x \"y\"))))") == '#t'
    assert ev("(equal? (hash) (hash))") == '#t'
    assert ev("(equal? (hash) '())") == '#f'
    assert ev("(let ((h (hash 1 2))) (eq? h h))") == '#t'
    assert ev("(equal? (list (hash 1 2)) (list (hash 1 2)))") == '#t'
    assert ev("(member (hash 1 2) (list 5 (hash 1 2)))") == '(#hash((1 2)))'
    assert ev("(equal? (hash 0 'a) (hash -0 'a))") == '#t'


def test_equal_agrees_with_a_slow_reference():
    # The table-based equal? against comparing sorted entry lists by hand.
    ref = ('(define (ref a b) (and (= (hash-count a) (hash-count b))'
           ' (all? (lambda (k) (and (hash-has? b k) (equal? (hash-ref a k) (hash-ref b k)))) (hash-keys a))))')
    cases = ["(hash 1 2)", "(hash 1 3)", "(hash 2 2)", "(hash 1 2 3 4)", "(hash 3 4 1 2)", "(hash)",
             "(hash 'a '(1 2))", "(hash 'a '(1 3))"]
    for a in cases:
        for b in cases:
            assert ev(ref + ' (equal? (equal? %s %s) (ref %s %s))' % (a, b, a, b)) == '#t'


def test_hash_update_sees_changes_made_by_f():
    src = ("(define h (hash 'a 1)) (hash-update! h 'b (lambda (old) (hash-set! h 'c 3) (+ old 1)) 10) h")
    assert dv(src) == '#hash((a 1) (c 3) (b 11))'


def test_json_encode_and_decode_hashes():
    assert ev('(json-encode (hash "a" 1 \'b (list 1 2) "h" (make-hash)))') == '{"a": 1, "b": [1, 2], "h": {}}'
    assert ev('(json-encode (list (hash "x" #t)))') == '[{"x": true}]'
    assert err('(json-encode (hash 1 2))') == 'json-encode: cannot encode key 1'
    assert err("(json-encode (hash '(a) 2))") == 'json-encode: cannot encode key (a)'
    h = value('(json-decode "{\\"a\\": {\\"b\\": [1, {}]}, \\"c\\": null}" \'hash)')
    assert h.__class__ is Hash
    assert display_form(h) == '#hash(("a" #hash(("b" (1 #hash())))) ("c" ()))'
    assert dv('(json-decode "{\\"a\\": 1, \\"b\\": 2, \\"a\\": 3}" \'hash)') == '#hash(("a" 3) ("b" 2))'
    assert dv('(json-decode "[1, 2]" \'hash)') == '(1 2)'          # nothing else changes
    assert dv('(json-decode "{\\"a\\": 1}")') == '(("a" 1))'        # unchanged without 'hash
    assert err("(json-decode \"{}\" 'list)") == 'json-decode: expected the symbol hash, got list'
    assert ev('(equal? (json-decode (json-encode (hash "k" (list 1 "v"))) \'hash) (hash "k" (list 1 "v")))') == '#t'


def test_hash_values_are_not_serializable_models_or_procedures():
    assert ev('(procedure? (make-hash))') == '#f'
    assert err('(save-model "/nonexistent-dir/x" (make-hash))') == 'save-model: cannot serialize #hash()'


def test_equal_helper_handles_hashes_directly():
    a, b = value("(hash 'a (list 1 2))"), value("(hash 'a (list 1 2))")
    assert equal(a, b) and not equal(a, value("(hash 'a (list 1))"))
