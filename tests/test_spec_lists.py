"""docs/reference.md §6 conventions, §6.2 predicates, §6.3 list builtins."""
import pytest
from hypothesis import given, settings, strategies as st

from helpers import dv, err, ev, out


# ── types and predicates (docs/reference.md §6.2) ─────────────────────────

@pytest.mark.parametrize('src,v', [
    ('(number? 1)', '#t'), ('(string? "a")', '#t'), ('(string? \'a)', '#f'), ('(boolean? #f)', '#t'),
    ('(boolean? 0)', '#f'), ("(symbol? 'a)", '#t'), ('(symbol? "a")', '#f'), ('(tensor? (tensor 1))', '#t'),
    ("(tensor? '(1))", '#f'), ('(macro? car)', '#f'), ('(defmacro m () 1) (macro? m)', '#t'),
    ("(list? '(1))", '#t'), ("(list? '())", '#t'), ('(list? (nil))', '#t'), ('(list? 5)', '#f'),
    ('(list? "ab")', '#f'), ("(pair? '(1))", '#t'), ("(pair? '())", '#f'), ('(pair? (nil))', '#f'),
    ('(pair? 1)', '#f'), ('(nil? (nil))', '#t'), ("(nil? '())", '#t'), ('(nil?)', '#t'), ('(null?)', '#t'),
    ('(nil? 0)', '#f'), ('(null? #f)', '#f'), ("(null? '(1))", '#f'), ('(procedure? car)', '#t'),
    ('(procedure? (lambda () 1))', '#t'), ('(defmacro m () 1) (procedure? m)', '#t'),
    ("(procedure? 'car)", '#f'), ('(procedure? 5)', '#f'), ('(native? car)', '#f'),
    ('(native? (lambda () 1))', '#f'), ('(procedure? nil)', '#t'), ('(procedure? cadr)', '#t'),
])
def test_predicates(src, v):
    assert ev(src) == v


@pytest.mark.parametrize('name', ['number?', 'string?', 'boolean?', 'symbol?', 'tensor?', 'macro?',
                                  'list?', 'pair?', 'procedure?', 'native?'])
def test_predicate_arity(name):
    assert err('(%s)' % name) == '%s: expected 1 arg(s), got 0' % name
    assert err('(%s 1 2)' % name) == '%s: expected 1 arg(s), got 2' % name


@pytest.mark.parametrize('name', ['nil?', 'null?'])
def test_nil_predicates_take_zero_or_one(name):
    assert err('(%s 1 2)' % name) == '%s: expected 0 to 1 arg(s), got 2' % name


# ── lists (docs/reference.md §6.3) ────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ("(car '(1 2))", '1'), ("(cdr '(1 2))", '(2)'), ("(cdr '(1))", '()'),
    ('(list)', '()'), ('(list 1 "a" \'b)', '(1 "a" b)'),
    ("(length '(1 2))", '2'), ('(length (nil))', '0'), ("(length '())", '0'),
    ("(append '(1) '(2 3) (nil) '())", '(1 2 3)'), ('(append)', '()'), ("(append '(1))", '(1)'),
    ("(append '() '())", '()'), ("(append '((1)) '((2)))", '((1) (2))'),
    ("(reverse '(1 2 3))", '(3 2 1)'), ("(reverse '())", '()'), ("(reverse '((1 2) 3))", '(3 (1 2))'),
    ("(nth '(a b c) 1)", 'b'), ("(nth 1 '(a b c))", 'b'), ("(nth '(a b) 1.0)", 'b'), ("(nth 0 '(a))", 'a'),
    ("(nth '(a b) -0.0)", 'a'), ("(list-ref '(a b c) 2)", 'c'),
    ("(member 2 '(1 2 3))", '(2 3)'), ("(member 5 '(1 2))", '#f'), ('(member 1 (nil))', '#f'),
    ("(member 1 '())", '#f'), ("(member '(1) '((1) 2))", '((1) 2)'),
    ("(list-tail '(1 2 3) 1)", '(2 3)'), ("(list-tail '(1 2 3) 3)", '()'), ("(list-tail '(1 2 3) 0)", '(1 2 3)'),
    ("(list-tail '(1 2 3) 1)", '(2 3)'), ("(list-tail '(1 2 3) 3)", '()'),
    ("(map (lambda (x) (* x 2)) '(1 2 3))", '(2 4 6)'), ("(map abs '(-1 2))", '(1 2)'), ('(map car (nil))', '()'),
    ("(map car '())", '()'), ("(map (lambda (x) x) '(\"a\" b))", '("a" b)'),
    ("(filter (lambda (x) x) '(1 #f 2 () 0))", '(1 2 () 0)'), ("(filter number? '(a 1 \"b\" 2))", '(1 2)'),
    ('(filter number? (nil))', '()'), ("(filter (lambda (x) (nil)) '(1 2))", '(1 2)'),
    ("(type-of (for-each car '((1))))", 'nil'),
    ("(foldl cons '() '(1 2 3))", '(3 2 1)'), ("(foldl - 0 '(1 2 3))", '2'), ("(foldl + 0 '())", '0'),
    ("(foldl list 'i '(a b))", '(b (a i))'),
    ("(foldr cons '() '(1 2 3))", '(1 2 3)'), ("(foldr - 0 '(1 2 3))", '2'), ("(foldr list 0 '(1 2))", '(1 (2 0))'),
    ("(foldr + 0 '())", '0'),
    ("(apply + 1 2 '(3 4))", '10'), ("(apply + '())", '0'), ('(apply + (nil))', '0'), ("(apply list '(1 2))", '(1 2)'),
    ("(apply (lambda args args) 1 '())", '(1)'), ("(apply max '(3 9 2))", '9'),
    ("(apply apply (list + (list 1 2)))", '3'),
    ("(sort '(3 1 2))", '(1 2 3)'), ("(sort '(\"b\" \"a\" \"B\"))", '("B" "a" "b")'), ('(sort (nil))', '()'),
    ("(sort '())", '()'), ("(sort '(3 1 2) >)", '(3 2 1)'), ("(sort '(1e400 -1e400 0))", '(-inf 0 inf)'),
    ("(sort '(\"é\" \"z\" \"a\"))", '("a" "z" "é")'), ("(sort '(2.5 -1 2))", '(-1 2 2.5)'),
    ("(sort '(5))", '(5)'),
])
def test_list_builtins(src, v):
    assert dv(src) == v


def test_types_of_empty_results():
    assert ev('(type-of (map car (nil)))') == 'list'
    assert ev('(type-of (append (nil)))') == 'list'
    assert ev("(type-of (filter number? '(a)))") == 'list'
    assert ev('(type-of (reverse (nil)))') == 'nil'
    assert ev("(type-of (reverse '()))") == 'list'
    assert ev('(type-of (sort (nil)))') == 'list'
    assert ev("(type-of (list-tail '(1) 1))") == 'list'


def test_for_each_order_and_output():
    assert out("(for-each display '(1 2 3))") == '123'
    assert out("(for-each (lambda (x) (display x)) (nil))") == ''


def test_map_and_filter_call_in_order():
    assert out("(map display '(1 2 3))") == '123'
    assert out("(filter (lambda (x) (display x) #t) '(1 2 3))") == '123'
    assert out("(foldr (lambda (e acc) (display e) acc) 0 '(1 2 3))") == '321'
    assert out("(foldl (lambda (e acc) (display e) acc) 0 '(1 2 3))") == '123'


def test_cdr_and_append_do_not_mutate():
    assert ev("(define a '(1 2)) (define b (append a '(3))) (list a b)") == '((1 2) (1 2 3))'
    assert ev("(define a '(3 1 2)) (define b (sort a)) (list a b)") == '((3 1 2) (1 2 3))'
    assert ev("(define a '(1 2 3)) (reverse a) a") == '(1 2 3)'


def test_sort_is_stable_with_less():
    src = ("(sort '((1 a) (0 b) (1 c) (0 d) (2 e) (1 f) (0 g)) (lambda (x y) (< (car x) (car y))))")
    assert ev(src) == '((0 b) (0 d) (0 g) (1 a) (1 c) (1 f) (2 e))'


def test_sort_is_stable_on_many_elements():
    src = ("(define xs (map (lambda (i) (list (mod (* i 7) 5) i)) (iota 60))) "
           "(define s (sort xs (lambda (a b) (< (car a) (car b))))) "
           "(equal? s (apply append (map (lambda (k) (filter (lambda (p) (= (car p) k)) xs)) (iota 5))))")
    assert ev(src) == '#t'


def test_sort_stable_for_equal_numbers():
    # 0 and -0 compare equal: a stable sort keeps their order (atan2 shows the sign)
    assert ev('(map (lambda (x) (atan2 x -1)) (sort (list 0.0 (- 0.0))))') == '(3.141592653589793 -3.141592653589793)'
    assert ev('(map (lambda (x) (atan2 x -1)) (sort (list (- 0.0) 0.0)))') == '(-3.141592653589793 3.141592653589793)'
    # an exact integer and the float of its value compare equal too
    assert ev('(map exact? (sort (list 2 2.0 1)))') == '(#t #t #f)'


BIG = 1 << 53


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(-BIG, BIG), st.integers(-BIG - 3, -BIG), st.integers(BIG, BIG + 3),
                          st.integers(), st.sampled_from([0, -1, 1, 2**30, 2**31 - 1])), max_size=40))
def test_sort_of_exact_integers_agrees_with_a_plain_sort(xs):
    # exact integers of any size, around 2^53 (where floats stop being exact) too
    assert ev("(sort '(%s))" % ' '.join(map(str, xs))) == '(%s)' % ' '.join(map(str, sorted(xs)))
    assert ev("(map exact? (sort '(%s)))" % ' '.join(map(str, xs))) == '(%s)' % ' '.join(['#t'] * len(xs))


def test_sort_with_non_strict_order_returns_a_permutation():
    v = ev("(sort '(3 1 2 1 5) (lambda (a b) #t))")
    assert sorted(v[1:-1].split()) == ['1', '1', '2', '3', '5']


@pytest.mark.parametrize('src,msg', [
    ('(car (nil))', 'car: empty list'), ('(car ())', 'car: empty list'), ('(cdr (nil))', 'cdr: empty list'),
    ("(car '())", 'car: not a pair'), ('(car 5)', 'car: not a pair'), ("(cdr '())", 'cdr: not a pair'),
    ('(cdr "a")', 'cdr: not a pair'), ('(car "abc")', 'car: not a pair'),
    ('(car)', 'car: expected 1 arg(s), got 0'), ("(car '(1) '(2))", 'car: expected 1 arg(s), got 2'),
    ('(cons 1)', 'cons: expected 2 arg(s), got 1'), ('(cons 1 2 3)', 'cons: expected 2 arg(s), got 3'),
    ('(length 5)', 'length: not a list'), ('(length "abc")', 'length: not a list'),
    ("(append '(1) 5)", 'append: not a list: 5'), ('(append "s")', 'append: not a list: "s"'),
    ("(nth '(a b) 5)", 'nth: index 5 out of range [0, 2)'), ("(nth '(a b) 2.9)", 'nth: expected an index, got 2.9'),
    ("(nth '() 0)", 'nth: index 0 out of range [0, 0)'), ("(nth 7.5 '(a))", 'nth: expected an index, got 7.5'),
    ("(nth '(a b) -1)", 'nth: index -1 out of range [0, 2)'), ("(nth '(a b) -5)", 'nth: index -5 out of range [0, 2)'),
    ("(nth '(a b) (sqrt -1))", 'nth: expected an index, got NaN'), ("(nth -0.9 '(a b))", 'nth: expected an index, got -0.9'),
    ("(list-tail '(1 2 3) -2)", 'list-tail: index -2 out of range [0, 3]'),
    ("(list-ref '(a b) 2)", 'list-ref: index 2 out of range [0, 2)'), ("(list-ref 5 0)", 'list-ref: expected a list, got 5'),
    ("(list-tail '(1 2) 3)", 'list-tail: index 3 out of range [0, 2]'),
    ("(list-tail '(1 2) 3.5)", 'list-tail: expected an index, got 3.5'),
    ("(map car)", 'map: expected at least 2 arg(s), got 1'),      # docs/reference.md §6.3, `map`: one or more lists
    ("(map + '(1) 5)", 'map: expected a list, got 5'),
    ("(map 5 '(1))", 'map: expected a procedure, got 5'),
    ('(map car 5)', 'map: expected a list, got 5'),
    ("(filter 5 '(1))", 'filter: expected a procedure, got 5'),
    ('(filter car "s")', 'filter: expected a list, got "s"'),
    ('(for-each car 5)', 'for-each: expected a list, got 5'),
    ('(foldl + 0 (nil))', 'foldl: not a list'),
    ('(foldr + 0 (nil))', 'foldr: not a list'),
    ("(foldl + 0)", 'foldl: expected 3 arg(s), got 2'),
    ("(apply + 1 2)", 'apply: last argument must be a list'),
    ("(apply + \"ab\")", 'apply: last argument must be a list'),
    ("(sort '(1 \"a\"))", 'sort: cannot compare 1 and "a"'),
    ("(sort '(1 2 \"a\" b))", 'sort: cannot compare 1 and "a"'),
    ("(sort '(a b))", 'sort: cannot compare a and b'),
    ("(sort '(a 1))", 'sort: cannot compare a and 1'),
    ("(sort '(\"x\" 2 3))", 'sort: cannot compare "x" and 2'),
    ("(sort '(\"x\" \"y\" (1)))", 'sort: cannot compare "x" and (1)'),
    ("(sort (list 1 #t))", 'sort: cannot compare 1 and #t'),
    ('(sort 5)', 'sort: expected a list, got 5'),
    ('(sort)', 'sort: expected 1 to 2 arg(s), got 0'),
    ('(reverse 5)', 'reverse: expected a list, got 5'),
    ("(map (lambda (x) (car x)) '(1))", 'car: not a pair'),
])
def test_list_errors(src, msg):
    assert err(src) == msg


@pytest.mark.slow
def test_long_lists_are_handled_iteratively():
    assert ev('(length (iota 100000))') == '100000'
    assert ev('(car (reverse (iota 100000)))') == '99999'
    assert ev('(length (map (lambda (x) x) (iota 100000)))') == '100000'
    assert ev('(foldr + 0 (iota 100000))') == '4999950000'
    assert ev('(length (append (iota 50000) (iota 50000)))') == '100000'
    assert ev('(car (sort (reverse (iota 50000))))') == '0'
