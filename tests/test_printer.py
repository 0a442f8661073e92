"""docs/reference.md §3 Values and how they print: number formatting, display form / print form."""
import math

import pytest

from rusty.printer import display_form, format_number, print_form
from rusty.values import EMPTY, NIL, make_list, sym

from helpers import dv, ev, out, value


# ── number formatting (docs/reference.md §3) ──────────────────────────────

@pytest.mark.parametrize('x,text', [
    (3.0, '3'), (-7.0, '-7'), (-0.0, '0'), (0.0, '0'),
    (1 / 3, '0.3333333333333333'), (7 / 3, '2.3333333333333335'), (0.1 + 0.2, '0.30000000000000004'),
    (1e-7, '0.0000001'), (1e15, '1000000000000000'), (1e20, '100000000000000000000'),
    (1e300, '1' + '0' * 300),
    (math.nan, 'NaN'), (math.inf, 'inf'), (-math.inf, '-inf'),
    (0.1, '0.1'), (-1.5, '-1.5'), (123.456, '123.456'), (-1e-7, '-0.0000001'),
    (1e16, '10000000000000000'), (2.0 ** 53, '9007199254740992'), (1e15 + 0.5, '1000000000000000.5'),
    (999999999999999.0, '999999999999999'), (5e-324, '0.' + '0' * 323 + '5'),
    (1.5e300, '15' + '0' * 299), (12345678901234567890.0, '12345678901234567000'),
    (1e21, '1000000000000000000000'), (2.5e-5, '0.000025'), (-2.0 ** 60, '-1152921504606847000'),
    (1.7976931348623157e308, '17976931348623157' + '0' * 292),
])
def test_format_number(x, text):
    assert format_number(x) == text


@pytest.mark.parametrize('src,text', [
    ('3.0', '3'), ('-7.0', '-7'), ('-0.0', '0'), ('(/ 1 3)', '0.3333333333333333'),
    ('(/ 7 3)', '2.3333333333333335'), ('(+ 0.1 0.2)', '0.30000000000000004'), ('1e-7', '0.0000001'),
    ('1e15', '1000000000000000'), ('1e20', '100000000000000000000'), ('1e300', '1' + '0' * 300),
    ('(sqrt -1)', 'NaN'), ('1e400', 'inf'), ('-1e400', '-inf'), ('(- 0)', '0'),
])
def test_number_printing_through_the_evaluator(src, text):
    assert ev(src) == text
    assert dv(src) == text


def test_number_to_string_uses_the_same_rule():
    assert dv('(number->string 1e20)') == '"100000000000000000000"'
    assert dv('(number->string -0.0)') == '"0"'
    assert dv('(number->string (/ 1 3))') == '"0.3333333333333333"'
    assert dv('(number->string 1e-7)') == '"0.0000001"'


def test_never_an_exponent():
    for x in (1e-300, 1e300, 3.14e-100, 6.02e23, 2.0 ** -1074, 1.0000000000000002):
        t = format_number(x)
        assert 'e' not in t and 'E' not in t
        assert float(t) == x


# ── display form / print form on host values (docs/reference.md §3) ───────

def L(*items):
    return make_list(list(items))


@pytest.mark.parametrize('v,disp,prnt', [
    ('a"b', '"a"b"', 'a"b'),
    ('', '""', ''),
    ('line\nbreak', '"line\nbreak"', 'line\nbreak'),
    (True, '#t', '#t'), (False, '#f', '#f'),
    (sym('foo'), 'foo', 'foo'), (sym('a b'), 'a b', 'a b'),
    (NIL, '()', '()'), (EMPTY, '()', '()'),
    (2.5, '2.5', '2.5'),
])
def test_atoms(v, disp, prnt):
    assert display_form(v) == disp
    assert print_form(v) == prnt


def test_lists_nested_strings():
    v = L(sym('a'), 's', L('t', L('u', 1.0)), NIL, EMPTY, True)
    assert display_form(v) == '(a "s" ("t" ("u" 1)) () () #t)'
    assert print_form(v) == '(a s (t (u 1)) () () #t)'


def test_empty_list_and_nil_both_print_parens():
    assert print_form(L(EMPTY, NIL)) == '(() ())'


def _nest(depth, leaf=None):
    v = L(1.0) if leaf is None else leaf
    for _ in range(depth - 1):
        v = L(v)
    return v


def test_nesting_4000_prints_in_full():
    assert print_form(_nest(4000)) == '(' * 4000 + '1' + ')' * 4000
    assert display_form(_nest(4000, EMPTY)) == '(' * 4000 + ')' * 4000


def test_nesting_4001_prints_ellipsis_at_level_4001():
    assert print_form(_nest(4001)) == '(' * 4000 + '(...)' + ')' * 4000
    assert print_form(_nest(5000)) == '(' * 4000 + '(...)' + ')' * 4000
    assert display_form(_nest(5000)) == '(' * 4000 + '(...)' + ')' * 4000


def test_deep_nesting_only_truncates_the_deep_branch():
    v = L(1.0, _nest(4500), 2.0)
    assert print_form(v) == '(1 ' + '(' * 3999 + '(...)' + ')' * 3999 + ' 2)'


def test_very_deep_data_prints_without_overflow():
    assert print_form(_nest(100000)) == '(' * 4000 + '(...)' + ')' * 4000


def test_long_flat_list_prints():
    v = make_list([float(i) for i in range(200000)])
    t = print_form(v)
    assert t.startswith('(0 1 2 ') and t.endswith(' 199999)')


# ── display form / print form through the language (docs/reference.md §3) ──

def test_display_print_example():
    assert out('(display (list \'a "s"))') == '(a "s")'
    assert out('(print (list \'a "s"))') == '(a s)\n'
    assert out('(display "s")') == 's'


def test_display_string_argument_raw_but_nested_quoted():
    assert out('(display "a\\"b")') == 'a"b'
    assert out('(display (list "a\\"b"))') == '("a"b")'
    assert out('(display (list (list "x") "y"))') == '(("x") "y")'


def test_print_form_at_every_level():
    assert out('(print (list (list "x" (list "y"))))') == '((x (y)))\n'
    assert dv('(str (list "a" (list "b")))') == '"(a (b))"'


@pytest.mark.parametrize('name,shown', [
    ('car', 'car'), ('+', '+'), ('add', '+'), ('sub', '-'), ('mul', '*'), ('div', '/'),
    ('gt', '>'), ('lt', '<'), ('ge', '>='), ('le', '<='), ('eq', 'eq?'), ('equal?', 'eq?'),
    ('eq?', 'eq?'), ('nil', 'nil'), ('not', 'not'), ('list', 'list'), ('neq', 'neq'),
    ('string-append', 'string-append'), ('>=', '>='), ('map', 'map'),
])
def test_builtin_printing(name, shown):
    assert ev(name) == '#<builtin:%s>' % shown
    assert dv(name) == '#<builtin:%s>' % shown


@pytest.mark.parametrize('src,text', [
    ('(lambda (x y) x)', '#<lambda (x y)>'),
    ('(lambda (a . rest) a)', '#<lambda (a . rest)>'),
    ('(lambda (a b . rest) a)', '#<lambda (a b . rest)>'),
    ('(lambda args 1)', '#<lambda ( . args)>'),
    ('(lambda (. args) 1)', '#<lambda ( . args)>'),
    ('(lambda () 1)', '#<lambda ()>'),
    ('(fn (x) x)', '#<lambda (x)>'),
    ('(λ (x) x)', '#<lambda (x)>'),
    ('(define (f a b) a) f', '#<lambda (a b)>'),
    ('(def g (q) q) g', '#<lambda (q)>'),
])
def test_lambda_printing(src, text):
    assert ev(src) == text


@pytest.mark.parametrize('src,text', [
    ('(defmacro m (p1 p2) p1) m', '#<macro (p1 p2)>'),
    ('(defmacro m (a . rest) a) m', '#<macro (a)>'),
    ('(defmacro m () 1) m', '#<macro ()>'),
    ('(define-macro m (x) x) m', '#<macro (x)>'),
])
def test_macro_printing(src, text):
    assert ev(src) == text


def test_procedures_inside_lists():
    assert ev('(list car (lambda (x) x) "s")') == '(#<builtin:car> #<lambda (x)> s)'
    assert dv('(list car "s")') == '(#<builtin:car> "s")'


def test_deep_list_built_in_the_language_prints_ellipsis():
    prog = "(define (nest n acc) (if (= n 0) acc (nest (- n 1) (list acc)))) "
    assert out(prog + "(print (nest 4999 '(1)))") == '(' * 4000 + '(...)' + ')' * 4000 + '\n'
    assert out(prog + "(display (nest 3999 '(\"s\")))") == '(' * 4000 + '"s"' + ')' * 4000
    assert dv(prog + "(string-length (str (nest 99999 '(1))))") == '8005'


# ── Deep and self-containing hashes ──────────────────────────────────────

def _deep_hash_program(n):
    return ("(define (deep n) (if (= n 0) (make-hash) (let ((h (make-hash))) (hash-set! h 'k (deep (- n 1))) h))) "
            "(deep %d)" % n)


def test_a_hash_that_contains_itself_prints_with_labels():
    from helpers import err
    assert ev("(let ((h (make-hash))) (hash-set! h 'me h) h)") == '#0=#hash((me #0#))'
    assert ev("(let ((h (make-hash))) (hash-set! h 1 h) (list h h))") == '(#0=#hash((1 #0#)) #1=#hash((1 #1#)))'
    assert ev("(define a (make-hash)) (define b (make-hash)) (hash-set! a 'b b) (hash-set! b 'a a) "
              "(hash-set! a 'x \"y\") a") == '#0=#hash((b #hash((a #0#))) (x y))'
    assert out("(let ((h (make-hash))) (hash-set! h \"s\\n\" h) (display h) (display (str h)) (display (repr h)))") == \
        '#0=#hash(("s\n" #0#))#0=#hash((s\n #0#))#0=#hash(("s\\n" #0#))'
    assert ev("(let ((h (make-hash))) (hash-set! h 1 h) (pretty-string (list 1 h) 10))") == \
        '(1 #0=#hash((1 #0#)))'
    assert err("(let ((h (make-hash))) (hash-set! h \"a\" h) (json-encode h))") == \
        'json-encode: cannot encode a hash that contains itself'


def test_a_shared_hash_without_a_cycle_prints_in_full_each_time():
    from helpers import ev
    assert ev("(let ((h (hash 1 2))) (hash (quote a) h (quote b) h))") == '#hash((a #hash((1 2))) (b #hash((1 2))))'


def test_deep_hashes_print_without_host_recursion():
    import subprocess
    import sys
    from rusty.printer import MAX_DEPTH, display_form, print_form, write_form
    from rusty.values import Hash, hash_key, sym
    h = Hash()
    for _ in range(5000):           # deeper than the host's recursion limit
        outer = Hash()
        outer.table[hash_key(sym('k'))] = (sym('k'), h)
        h = outer
    for form in (print_form, display_form, write_form):
        text = form(h)                  # each level opens a hash and its entry: 2 of the depth bound
        assert text.count('#hash(') == MAX_DEPTH // 2 and text.count('(...)') == 1
    # a batch program's last value is printed outside the evaluation thread
    r = subprocess.run([sys.executable, '-m', 'rusty', '-e', _deep_hash_program(300)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count('#hash((k') == 300
    deep_json = '{"a":' * 300 + '1' + '}' * 300
    r = subprocess.run([sys.executable, '-m', 'rusty', '-e', "(json-decode (getenv \"J\") 'hash)"],
                       capture_output=True, text=True, timeout=60, env=dict(__import__('os').environ, J=deep_json))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('#hash((a #hash((a ') and r.stdout.count('#hash(') == 300     # print form


def test_deep_hashes_pretty_print_and_encode():
    program = _deep_hash_program(300).rsplit(' (deep', 1)[0]      # the definition only
    assert ev('%s (string-length (json-encode (deep 300)))' % program) == str(len('{"k": ' * 300 + '{}' + '}' * 300))
    laid_out = value('%s (pretty-string (deep 300) 40)' % program)
    assert laid_out.count('#hash((k') == 300 and laid_out.count('\n') >= 300
