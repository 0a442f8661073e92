"""docs/reference.md §6 (standard library) and §6.10 (help, apropos, describe)."""
import re

import pytest

from helpers import dv, err, ev, out

FUNCTIONS = ('caar cadr cdar cddr caddr cadddr last range iota take drop take-while drop-while flatten flatten1 '
             'zip zip-with sum product any? all? none? count find partition remove-duplicates interleave map* '
             'filter* foldl* print-list assoc assq alist-get make-record get-field record-set string-join '
             'string-repeat string-contains? string-starts-with? string-first-index string-last-index extract-sexp '
             'string<? sort-strings compose curry identity const flip negate memoize square cube inc dec average '
             'clamp sign').split()
MACROS = 'field -> ->> while dotimes dolist repeat swap! assert time'.split()


@pytest.mark.parametrize('name', FUNCTIONS)
def test_stdlib_functions_are_lambdas(name):
    assert ev('(type-of %s)' % name) == 'lambda'


@pytest.mark.parametrize('name', MACROS)
def test_stdlib_macros_are_macros(name):
    assert ev('(type-of %s)' % name) == 'macro'


@pytest.mark.parametrize('src,v', [
    ("(caar '((1 2) 3))", '1'), ("(cadr '(1 2 3))", '2'), ("(cdar '((1 2) 3))", '(2)'), ("(cddr '(1 2 3))", '(3)'),
    ("(caddr '(1 2 3))", '3'), ("(cadddr '(1 2 3 4))", '4'),
    ("(last '(1 2 3))", '3'), ("(last '(x))", 'x'),
    ('(range 2 5)', '(2 3 4)'), ('(range 5 2)', '()'), ('(range 0.5 3)', '(0.5 1.5 2.5)'), ('(range 3 3)', '()'),
    ('(range -2 1)', '(-2 -1 0)'), ('(iota 5)', '(0 1 2 3 4)'), ('(iota 0)', '()'),
    ("(take 2 '(1 2 3))", '(1 2)'), ("(take 2 '(1 2))", '(1 2)'), ("(take 0 '(1))", '()'),
    ("(drop 2 '(1 2 3))", '(3)'), ("(drop 2 '(1 2))", '()'), ("(drop 0 '(1))", '(1)'),
    ("(take-while even? '(2 4 5 6))", '(2 4)'), ("(drop-while even? '(2 4 5 6))", '(5 6)'),
    ("(take-while even? '(1 2))", '()'), ("(drop-while even? '(2 4))", '()'),
    ("(flatten '(1 (2 (3 4)) 5))", '(1 2 3 4 5)'), ("(flatten '())", '()'), ("(flatten '(1 () 2))", '(1 2)'),
    ("(flatten '((((a)))))", '(a)'), ("(flatten1 '((1 2) (3 4)))", '(1 2 3 4)'),
    ("(flatten1 '((1 (2)) (3)))", '(1 (2) 3)'),
    ("(zip '(1 2) '(3 4))", '((1 3) (2 4))'), ("(zip '(1 2 3) '(4))", '((1 4))'), ("(zip '() '(1))", '()'),
    ("(zip-with + '(1 2) '(10 20 30))", '(11 22)'), ("(zip-with list '(a) '(b))", '((a b))'),
    ("(sum '(1 2 3))", '6'), ("(sum '())", '0'), ("(product '(2 3))", '6'), ("(product '())", '1'),
    ("(sum '(0.1 0.2 0.3))", '0.6000000000000001'),
    ("(any? even? '(1 2))", '#t'), ("(any? even? '())", '#f'), ("(any? even? '(1 3))", '#f'),
    ("(any? (lambda (x) x) '(1))", '#t'), ("(all? even? '(2 4))", '#t'), ("(all? even? '())", '#t'),
    ("(all? even? '(2 3))", '#f'), ("(all? (lambda (x) x) '(1 2))", '#t'),
    ("(none? even? '(1 3))", '#t'), ("(none? even? '(2))", '#f'), ("(count even? '(1 2 4))", '2'),
    ("(count even? '())", '0'),
    ("(find even? '(1 2 3 4))", '2'), ("(find even? '(1))", '#f'),
    ("(partition even? '(1 2 3 4))", '((2 4) (1 3))'), ("(partition even? '())", '(() ())'),
    ("(remove-duplicates '(1 2 1 3 2 1.0))", '(1 2 3)'), ("(remove-duplicates '(\"a\" \"a\" (1) (1)))", '("a" (1))'),
    ("(interleave 0 '(1 2 3))", '(1 0 2 0 3)'), ("(interleave 0 '())", '()'), ("(interleave 0 '(1))", '(1)'),
    ("(map* '(1 2) inc)", '(2 3)'), ("(filter* '(1 2 3) odd?)", '(1 3)'), ("(foldl* '(1 2 3) cons '())", '(3 2 1)'),
    ("(assq 'b '((a . 1) (b . 2)))", '(b . 2)'), ("(assoc \"b\" '((\"a\" 1) (\"b\" 2)))", '("b" 2)'),
    ("(assoc 'z '((a 1)))", '#f'), ("(assoc 2.0 '((1 a) (2 b)))", '(2 b)'), ("(assq 'a '())", '#f'),
    ("(alist-get 'b '((a 1) (b 2)) 'none)", '2'), ("(alist-get 'c '((a 1) (b 2)) 'none)", 'none'),
    ("(make-record 'a 1 'b 2)", '((a 1) (b 2))'), ('(make-record)', '()'),
    ("(get-field 'b (make-record 'a 1 'b 2))", '2'), ("(get-field 'z (make-record 'a 1))", '#f'),
    ("(record-set (make-record 'a 1 'b 2) 'a 9)", '((a 9) (b 2))'), ("(record-set (make-record 'a 1) 'c 3)", '((a 1) (c 3))'),
    ('(field name (make-record "name" 5))', '5'), ("(field name (make-record 'name 5))", '#f'),
    ('(string-join \'("a" "b" "c") ", ")', '"a, b, c"'), ("(string-join '() \",\")", '""'),
    ('(string-join \'("x") "-")', '"x"'),
    ('(string-repeat "ab" 3)', '"ababab"'), ('(string-repeat "a" 0)', '""'),
    ('(string-contains? "hello" "ell")', '#t'), ('(string-contains? "hello" "lo!")', '#f'),
    ('(string-contains? "hello" "")', '#t'),
    ('(string-starts-with? "hello" "he")', '#t'), ('(string-starts-with? "hello" "lo")', '#f'),
    ('(string-first-index "a.b.c" ".")', '1'), ('(string-last-index "a.b.c" ".")', '3'),
    ('(string-first-index "abc" "z")', '#f'), ('(string-last-index "abc" "z")', '#f'), ('(string-first-index "λa.b" ".")', '2'),
    ('(string-first-index "xxabab" "ab")', '2'), ('(string-last-index "xxabab" "ab")', '4'),
    ('(extract-sexp "prose (foo 1 2) more")', '"(foo 1 2)"'), ('(extract-sexp "no parens")', '#f'),
    ('(extract-sexp "x (a (b) c) y (z)")', '"(a (b) c)"'), ('(extract-sexp "(a (b)")', '#f'),
    ('(extract-sexp "a) (b)")', '"(b)"'),
    ('(string<? "a" "b")', '#t'), ('(string<? "B" "a")', '#t'), ('(string<? "a" "a")', '#f'), ('(string<? "ab" "a")', '#f'),
    ('(string<? "a" "ab")', '#t'), ('(string<? "z" "é")', '#t'),
    ('(sort-strings \'("b" "a" "B"))', '("B" "a" "b")'),
    ('(-> 5 (+ 1) (* 2))', '12'), ('(->> 5 (- 1))', '-4'), ('(-> 5 (- 1))', '4'), ('(-> -5 abs)', '5'),
    ("(->> '(1 2 3) (map inc) (filter odd?))", '(3)'), ('(-> 5)', '5'), ("(->> 'a (list 'b) (list 'c))", '(c (b a))'),
    ("(-> 'a (list 'b) (list 'c))", '((a b) c)'),
    ('((compose inc square) 3)', '10'), ('((compose) 5)', '5'), ('((compose inc) 1)', '2'),
    ('((compose inc +) 1 2)', '4'), ('((compose list inc square) 3)', '(10)'),
    ('((curry + 1 2) 3)', '6'), ('((curry list) 1)', '(1)'),
    ('(identity 5)', '5'), ('((const 7) 1 2 3)', '7'), ('((const 7))', '7'),
    ('((flip -) 3 10)', '7'), ('((flip list) 1 2)', '(2 1)'), ('((negate even?) 3)', '#t'), ('((negate <) 1 2)', '#f'),
    ('(square 3)', '9'), ('(cube 2)', '8'), ('(inc 1)', '2'), ('(dec 1)', '0'), ('(square 0.1)', '0.010000000000000002'),
    ('(average 4 6)', '5'), ('(average 1 2)', '1.5'),
    ('(clamp 5 0 3)', '3'), ('(clamp -1 0 3)', '0'), ('(clamp 2 0 3)', '2'),
    ('(sign 5)', '1'), ('(sign -5)', '-1'), ('(sign 0)', '0'),
])
def test_stdlib(src, v):
    assert dv(src) == v


@pytest.mark.parametrize('expr', [
    "(range 3 1)", "(iota 0)", "(take 0 '(1))", "(drop 1 '(1))", "(take-while even? '(1))", "(drop-while even? '(2))",
    "(flatten '())", "(flatten1 '())", "(zip '() '())", "(zip-with + '() '())", "(remove-duplicates '())",
    "(interleave 0 '())", "(map* '() inc)", "(filter* '(1) even?)", "(make-record)",
])
def test_list_functions_return_lists_never_nil(expr):
    assert ev('(type-of %s)' % expr) == 'list'


@pytest.mark.parametrize('src,msg', [
    ("(take 5 '(1 2))", 'take: index 5 out of range [0, 2]'),
    ("(take -1 '(1 2))", 'take: index -1 out of range [0, 2]'),
    ("(take 1.5 '(1 2))", 'take: expected an index, got 1.5'),
    ("(take 1 5)", 'take: expected a list, got 5'),
    ("(drop 5 '(1 2))", 'drop: index 5 out of range [0, 2]'),
    ("(drop 'a '(1 2))", 'drop: expected an index, got a'),
])
def test_take_and_drop_check_their_counts(src, msg):
    assert ev('(try-catch %s (e) e)' % src) == msg


def test_print_list():
    assert out("(print-list '(1 \"a\" (b \"c\")))") == '1\na\n(b c)\n'
    assert ev("(type-of (print-list '(1)))") == 'nil'


def test_looping_macros():
    assert out('(define i 0) (while (< i 3) (display i) (set! i (+ i 1)))') == '012'
    assert ev('(define i 0) (type-of (while (< i 3) (set! i (+ i 1))))') == 'nil'
    assert out('(dotimes (i 3) (display i))') == '012'
    assert ev('(type-of (dotimes (i 3) i))') == 'nil'
    assert out('(define n 3) (dotimes (i n) (set! n 10) (display i))') == '012'
    assert out("(dolist (x '(a b)) (display x))") == 'ab'
    assert ev("(type-of (dolist (x '(a)) x))") == 'nil'
    assert out('(repeat 3 (display "x"))') == 'xxx'
    assert ev('(type-of (repeat 2 1))') == 'nil'
    assert out('(dotimes (i 0) (display i))') == ''


def test_while_loop_many_iterations():
    assert ev('(define i 0) (while (< i 20000) (set! i (+ i 1))) i') == '20000'


def test_swap():
    assert ev('(define tmp 1) (define y 2) (swap! tmp y) (list tmp y)') == '(2 1)'
    assert ev('(let ((a 1) (b 2)) (swap! a b) (list a b))') == '(2 1)'


def test_assert():
    assert err('(assert (even? 3))') == 'assertion failed: (even? 3)'
    assert err('(assert #f "x is" 5)') == 'assertion failed: x is 5'
    assert err('(assert (= 1 2) "bad" (list "a"))') == 'assertion failed: bad (a)'
    assert err('(assert (equal? "a" "b"))') == 'assertion failed: (equal? a b)'
    assert ev('(type-of (assert #t))') == 'nil'
    assert ev('(type-of (assert 0))') == 'nil'


def test_time():
    o = out('(time (+ 1 2))')
    assert re.fullmatch(r'time:  \d+(\.\d+)?  s\n', o), repr(o)
    assert ev('(time (+ 1 2))') == '3'


def test_memoize():
    src = ("(define calls 0) (define f (memoize (lambda (x) (set! calls (+ calls 1)) (* x 2)))) "
           "(define r (list (f 2) (f 2) (f 3) (f 2))) (list r calls)")
    assert ev(src) == '((4 4 6 4) 2)'
    src2 = ("(define calls 0) (define f (memoize (lambda (x) (set! calls (+ calls 1)) x))) "
            "(f '(1)) (f (list 1)) (f 1.0) (f 1) calls")
    assert ev(src2) == '2'
    assert ev('(define g (memoize +)) (list (g 1 2) (g 1 2) (g 3))') == '(3 3 3)'


def test_average_of_nothing():
    assert err('(average)') == 'Division by zero'


def test_stdlib_bindings_can_be_redefined():
    assert ev('(define (inc x) 100) (inc 1)') == '100'
    assert ev('(defmacro while (t . b) 42) (while #f)') == '42'


# ── discovery (docs/reference.md §6.10) ───────────────────────────────────

@pytest.mark.parametrize('src,o', [
    ("(describe 'car)", 'car: #<builtin:car>\n'),
    ("(describe 'if)", 'if: special form\n'),
    ("(describe 'define-macro)", 'define-macro: special form\n'),
    ("(describe 'zzqnothing)", 'zzqnothing: undefined\n'),
    ("(define zqx \"s\") (describe 'zqx)", 'zqx: "s"\n'),
    ("(define zqx '(1 \"a\")) (describe 'zqx)", 'zqx: (1 "a")\n'),
    ("(describe 'add)", 'add: #<builtin:+>\n'),
    ("(define (zqf x) x) (help 'zqf)", 'zqf: #<lambda (x)>\n'),
    ("(help 'zzqnothing)", 'zzqnothing: undefined\n'),
])
def test_describe(src, o):
    assert out(src) == o


def test_describe_only_global_values():
    assert out("(define zqv 'global) (let ((zqv 'local)) (describe 'zqv))") == 'zqv: global\n'


def test_discovery_returns_nil():
    assert ev("(type-of (describe 'car))") == 'nil'
    assert ev('(type-of (apropos "car"))') == 'nil'
    assert ev('(type-of (help))') == 'nil'


def test_apropos():
    assert out('(apropos "string-app")') == '  string-append\n  string-append-list\n'
    assert out('(apropos "zzqqxx")') == ''
    assert out('(apropos "eval-w")') == '  eval-when\n'
    assert out('(define zzqfoo 1) (apropos "zzqfo")') == '  zzqfoo\n'
    assert out("(apropos 'cadd)") == '  cadddr\n  caddr\n'


def test_apropos_sorted_unique_with_special_forms():
    o = out("(apropos 'let)")
    lines = o.splitlines()
    assert all(line.startswith('  ') for line in lines)
    names = [line[2:] for line in lines]
    assert names == sorted(names)
    assert len(names) == len(set(names))
    for n in ['let', 'let*', 'letrec', 'letrec*', 'file-delete']:
        assert n in names


def test_apropos_no_duplicates_for_redefined_special_name():
    o = out('(define do 5) (apropos "do")')
    names = [line[2:] for line in o.splitlines()]
    assert names.count('do') == 1
    assert 'dotimes' in names and 'dolist' in names


def test_help_forms():
    text = out('(help)')
    assert '(apropos "text")' in text and "(describe 'name)" in text
    assert out('(help "string-app")') == out('(apropos "string-app")')
    assert out("(help 'zzqnothing)") == 'zzqnothing: undefined\n'


def test_apropos_errors():
    assert err('(apropos 5)') == 'apropos: expected a string or symbol, got 5'
