"""docs/reference.md §3 Values and how they print: types, Nil vs the empty list, truthiness, comparisons, equality."""
import pytest

from helpers import dv, err, ev


# ── type-of (docs/reference.md §3) ────────────────────────────────────────

@pytest.mark.parametrize('src,t', [
    ('1', 'number'), ('-0.5', 'number'), ('#t', 'boolean'), ('#f', 'boolean'), ('"s"', 'string'),
    ("'a", 'symbol'), ("'(1)", 'list'), ("'()", 'list'), ('()', 'nil'), ('(nil)', 'nil'),
    ('(lambda (x) x)', 'lambda'), ('car', 'builtin'), ('nil', 'builtin'), ('(tensor 1)', 'tensor'),
    ('cadr', 'lambda'), ('while', 'macro'),
])
def test_type_of(src, t):
    assert ev('(type-of %s)' % src) == t


def test_type_of_returns_a_symbol_and_no_argument_gives_nil():
    assert ev("(symbol? (type-of 1))") == '#t'
    assert ev('(type-of)') == 'nil'
    assert ev("(eq? (type-of) 'nil)") == '#t'


def test_type_of_macro():
    assert ev('(defmacro m () 1) (type-of m)') == 'macro'


# ── Nil and the empty list (docs/reference.md §3) ─────────────────────────

def test_nil_and_empty_list_print_alike_but_differ():
    assert ev('()') == '()'
    assert ev("'()") == '()'
    assert ev("(equal? () '())") == '#f'
    assert ev("(type-of ())") == 'nil'
    assert ev("(type-of '())") == 'list'


@pytest.mark.parametrize('expr', ['()', "'()"])
def test_both_null_and_true(expr):
    assert ev('(null? %s)' % expr) == '#t'
    assert ev('(nil? %s)' % expr) == '#t'
    assert ev("(if %s 'yes 'no)" % expr) == 'yes'
    assert ev('(not %s)' % expr) == '#f'


@pytest.mark.parametrize('expr', [
    '()', '(begin)', '(if #f 1)', '(cond)', '(cond (#f 1))', '(when #f 1)', '(unless #t 1)',
    '(define zzv 1)', '(begin (define zzv 1) (set! zzv 2))', '(set zzw 1)',
    '(defmacro zzm () 1)', '(display "")', '(print)', '(println 1)', '(newline)',
    "(for-each car '())", "(for-each display '(1))", '(json-decode "null")', '(nil)',
    '(cond (else))',
])
def test_nil_sources(expr):
    assert ev('(type-of %s)' % expr) == 'nil'


@pytest.mark.parametrize('expr', [
    "'()", '(list)', "(cdr '(1))", '(map car ())', "(map car '())", '(append)',
    "(filter number? '(a b))", '(json-decode "[]")', '(json-decode "{}")',
])
def test_empty_list_sources(expr):
    assert ev('(type-of %s)' % expr) == 'list'
    assert ev('(length %s)' % expr) == '0'


def test_the_nil_variable():
    assert ev('(nil)') == '()'
    assert ev('(not nil)') == '#f'
    assert ev("(if nil 'then 'else)") == 'then'
    assert ev('(procedure? nil)') == '#t'


def test_cons_onto_non_list_makes_two_element_list():
    assert ev('(cons 1 2)') == '(1 2)'
    assert ev("(cons 1 '(2 3))") == '(1 2 3)'
    assert ev("(cons 1 '())") == '(1)'
    assert ev('(cons "a" "b")') == '(a b)'
    assert dv('(cons "a" "b")') == '("a" "b")'
    assert ev("(length (cons '(1) 2))") == '2'


def test_cdr_shares_structure_and_lists_are_immutable_values():
    assert ev("(define a '(1 2 3)) (define b (cdr a)) (list b a)") == '((2 3) (1 2 3))'
    assert ev("(define a (list 1 2)) (define b (cons 0 a)) (list a b)") == '((1 2) (0 1 2))'


def test_long_list_building_is_not_quadratic():
    # cons is amortised O(1): 100k conses must be quick
    prog = "(define (build n acc) (if (= n 0) acc (build (- n 1) (cons n acc)))) (length (build 100000 '()))"
    assert ev(prog) == '100000'


# ── truthiness (docs/reference.md §3) ─────────────────────────────────────

@pytest.mark.parametrize('v', ['0', '""', "'()", '()', '(nil)', 'nil', "'a", '(sqrt -1)', '-0.0', '#t'])
def test_everything_but_false_is_true(v):
    assert ev("(if %s 'yes 'no)" % v) == 'yes'
    assert ev('(not %s)' % v) == '#f'


def test_only_false_is_false():
    assert ev("(if #f 'yes 'no)") == 'no'
    assert ev('(not #f)') == '#t'


@pytest.mark.parametrize('src,msg', [
    ('(not)', 'not: expected 1 arg(s), got 0'),
    ('(not 1 2)', 'not: expected 1 arg(s), got 2'),
])
def test_not_arity(src, msg):
    assert err(src) == msg


# ── numeric comparison (docs/reference.md §3) ─────────────────────────────

@pytest.mark.parametrize('src,result', [
    ('(< 1 2)', '#t'), ('(< 2 1)', '#f'), ('(> 2 1)', '#t'), ('(<= 2 2)', '#t'), ('(>= 1 2)', '#f'),
    ('(= 1 1.0)', '#t'), ('(= 0 -0)', '#t'), ('(= 0 -0.0)', '#t'), ('(neq 1 2)', '#t'), ('(neq 1 1)', '#f'),
    ('(gt 2 1)', '#t'), ('(lt 2 1)', '#f'), ('(ge 2 2)', '#t'), ('(le 3 2)', '#f'),
    ('(< -1e400 1e400)', '#t'), ('(= 1e400 1e400)', '#t'), ('(< 0.1 (+ 0.1 0.2))', '#t'),
    ('(= (+ 0.1 0.2) 0.3)', '#f'),
])
def test_comparisons(src, result):
    assert ev(src) == result


@pytest.mark.parametrize('op,result', [
    ('=', '#f'), ('<', '#f'), ('>', '#f'), ('<=', '#f'), ('>=', '#f'), ('neq', '#t'),
    ('gt', '#f'), ('lt', '#f'), ('ge', '#f'), ('le', '#f'),
])
def test_nan_comparisons(op, result):
    assert ev('(define nan (sqrt -1)) (%s nan nan)' % op) == result
    assert ev('(define nan (sqrt -1)) (%s nan 1)' % op) == result
    assert ev('(define nan (sqrt -1)) (%s 1 nan)' % op) == result


@pytest.mark.parametrize('op', ['=', '<', '>', '<=', '>=', 'neq', 'gt', 'lt', 'ge', 'le'])
def test_comparison_arity_and_types(op):
    if op == 'neq':     # stays binary
        assert err('(neq 1 2 3)') == 'neq: expected 2 arg(s), got 3'
        assert err('(neq 1)') == 'neq: expected 2 arg(s), got 1'
        assert err('(neq)') == 'neq: expected 2 arg(s), got 0'
    else:               # one or more numbers
        assert ev('(%s 1)' % op) == '#t'
        assert err('(%s)' % op) == '%s: expected at least 1 arg, got 0' % op
    assert err('(%s 1 "a")' % op) == '%s: expected a number, got "a"' % op
    assert err("(%s 'a 2)" % op) == '%s: expected a number, got a' % op
    assert err("(%s '(1) #t)" % op) == '%s: expected a number, got (1)' % op


# ── structural equality (docs/reference.md §3) ────────────────────────────

@pytest.mark.parametrize('a,b,result', [
    ('1', '1.0', '#t'), ('0', '-0', '#t'), ('(sqrt -1)', '(sqrt -1)', '#f'), ('1', '2', '#f'),
    ('#t', '#t', '#t'), ('#f', '#f', '#t'), ('#t', '#f', '#f'), ('#t', '1', '#f'),
    ('"a"', '"a"', '#t'), ('"a"', '"b"', '#f'), ("'a", "'a", '#t'), ("'a", '"a"', '#f'),
    ('()', '()', '#t'), ("'()", "'()", '#t'), ('()', "'()", '#f'), ("'()", '(list)', '#t'),
    ("'(1 (2 \"x\"))", '(list 1 (list 2 "x"))', '#t'), ("'(1 2)", "'(1 2 3)", '#f'),
    ("'(1 (2))", "'(1 (3))", '#f'), ("'(a)", "'(\"a\")", '#f'), ('(list (nil))', "(list '())", '#f'),
    ('(list (nil))', '(list (nil))', '#t'), ('car', 'car', '#f'), ('1', "'(1)", '#f'),
    ('(tensor (list 1 2))', '(tensor (list 1 2))', '#t'), ('(tensor (list 1 2))', '(tensor (list (list 1 2)))', '#f'),
    ('(tensor 0)', '(tensor -0.0)', '#t'), ('(tensor (sqrt -1))', '(tensor (sqrt -1))', '#f'),
    ("'(1 2)", '(tensor (list 1 2))', '#f'), ("'sym", "'Sym", '#f'),
])
@pytest.mark.parametrize('fn', ['eq?', 'equal?', 'eq'])
def test_equality(fn, a, b, result):
    assert ev('(%s %s %s)' % (fn, a, b)) == result


def test_procedures_never_equal_even_to_themselves():
    assert ev('(eq? car car)') == '#f'
    assert ev('(define (f) 1) (eq? f f)') == '#f'
    assert ev('(define f (lambda () 1)) (equal? (list f) (list f))') == '#f'
    assert ev('(defmacro m () 1) (eq? m m)') == '#f'
    assert ev('(eq nil nil)') == '#f'


@pytest.mark.parametrize('fn', ['eq?', 'equal?', 'eq'])
def test_equality_arity(fn):
    assert err('(%s 1)' % fn) == 'eq?: 2 args'
    assert err('(%s)' % fn) == 'eq?: 2 args'
    assert err('(%s 1 1 1)' % fn) == 'eq?: 2 args'


def test_equality_ignores_positions():
    assert ev("(define a '(x (y))) (define b (list 'x (list 'y))) (equal? a b)") == '#t'


@pytest.mark.parametrize('src,result', [
    ("(member 2.0 '(1 2 3))", '(2 3)'), ("(member '(1) '(0 (1) 2))", '((1) 2)'),
    ("(member \"b\" '(\"a\" \"b\"))", '("b")'), ("(assoc '(k) '(((k) 1)))", '((k) 1)'),
    ("(remove-duplicates '(1 1.0 -0 0 \"a\" \"a\"))", '(1 0 "a")'),
    ("(get-field \"a\" '((\"a\" 1)))", '1'), ("(member car (list car))", '#f'),
    ("(member (sqrt -1) (list (sqrt -1)))", '#f'),
])
def test_library_uses_structural_equality(src, result):
    assert dv(src) == result


def test_deep_equal_lists_in_process():
    prog = ("(define (nest n acc) (if (= n 0) acc (nest (- n 1) (list acc)))) "
            "(equal? (nest 3000 '(1)) (nest 3000 '(1)))")
    assert ev(prog) == '#t'
    prog2 = ("(define (nest n acc) (if (= n 0) acc (nest (- n 1) (list acc)))) "
             "(equal? (nest 3000 '(1)) (nest 3000 '(2)))")
    assert ev(prog2) == '#f'
