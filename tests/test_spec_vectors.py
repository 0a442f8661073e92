"""Vectors (the manual's section on vectors): the `#(…)` literal, printing in
every form, the vector builtins, equality, JSON, the sequence builtins that
take vectors, the layout tools (pretty printer, `rusty fmt`, the REPL's lexer
and indenter) and a clear error wherever a vector is not accepted."""

import pytest

from helpers import err, ev, out, session, value
from rusty.errors import RustyError
from rusty.fmt import fmt_string
from rusty.pretty import pretty_string
from rusty.printer import display_form, print_form, write_form
from rusty.reader import read
from rusty.values import Vector, sym


def wv(src):
    """The write form of the last value."""
    return write_form(value(src))


# ── Reading and printing ─────────────────────────────────────────────────

def test_a_literal_is_a_vector_of_unevaluated_elements():
    v = value('#(1 "a" b (+ 1 2))')
    assert v.__class__ is Vector
    assert [display_form(x) for x in v.items] == ['1', '"a"', 'b', '(+ 1 2)']
    assert ev("(type-of #(1))") == 'vector'
    assert ev('(vector? #())') == '#t'


@pytest.mark.parametrize('show, want', [
    (display_form, '#(1 "a\nb" sym (2 #("x")) #())'),
    (print_form, '#(1 a\nb sym (2 #(x)) #())'),
    (write_form, '#(1 "a\\nb" sym (2 #("x")) #())'),
])
def test_vectors_print_in_every_form(show, want):
    v = value('(vector 1 "a\nb" \'sym (list 2 (vector "x")) (vector))')
    assert show(v) == want


def test_printing_through_the_builtins():
    assert out('(display #(1 "a")) (print #(1 "a")) (displayln #("b"))') == '#(1 "a")#(1 a)\n#("b")\n'
    assert ev('(str #(1 "a"))') == '#(1 a)'
    assert ev('(format "~a ~s" #("x") #("x"))') == '#(x) #("x")'
    assert ev('(repr #("q\\""))') == '#("q\\"")'


def test_the_literal_keeps_the_spans_of_the_form_around_it():
    forms = read('(list\n  #(1 2)\n  x)', 'f.lisp')
    cells = list(forms.car.cells())
    assert cells[1].car.__class__ is Vector
    sp = cells[1].span
    assert (sp.line, sp.col, sp.end_line, sp.end_col) == (2, 3, 2, 9)
    assert cells[2].span.line == 3


def test_an_error_after_a_literal_points_at_the_right_place():
    s = session()
    with pytest.raises(RustyError) as e:
        s.run('(list #(1 2)\n  (car 5))', 'f.lisp')
    assert (e.value.span.line, e.value.span.col) == (2, 3)


def test_reading_errors():
    assert err('#(1 2') == "unexpected end of input: a '#(' is never closed"
    assert err('(list #(1 2)') == "unexpected end of input: a '(' is never closed"
    assert err('#(1 2))') == "unexpected ')' with no matching '('"


def test_deep_vectors_print_without_overflowing():
    v = value('(let loop ((i 0) (acc 0)) (if (< i 20000) (loop (+ i 1) (vector acc)) acc))')
    text = display_form(v)
    assert text.startswith('#(#(#(') and '(...)' in text


def test_a_literal_gives_a_fresh_vector_each_time():
    assert ev('(define (board) #(0 0)) (define a (board)) (vector-set! a 0 9) (list a (board))') \
        == '(#(9 0) #(0 0))'


def test_quoted_vectors_and_vectors_in_quoted_lists():
    assert wv("'#(a (b))") == '#(a (b))'
    assert wv("'(1 #(2 3))") == '(1 #(2 3))'
    assert wv("(car (cdr '(1 #(2 3))))") == '#(2 3)'
    assert wv('(eval (list (quote quote) #(1 2)))') == '#(1 2)'


# ── The builtins ─────────────────────────────────────────────────────────

@pytest.mark.parametrize('src, want', [
    ('(vector 1 "a" \'b)', '#(1 "a" b)'),
    ('(vector)', '#()'),
    ('(make-vector 3)', '#(0 0 0)'),
    ('(make-vector 2 "x")', '#("x" "x")'),
    ('(make-vector 0)', '#()'),
    ('(make-vector 2.0 #t)', '#(#t #t)'),
    ("(list->vector '(1 2 3))", '#(1 2 3)'),
    ("(list->vector '())", '#()'),
    ('(list->vector (nil))', '#()'),
    ('(vector->list #(1 (2) "c"))', '(1 (2) "c")'),
    ('(vector->list #())', '()'),
    ('(vector-length #(a b c))', '3'),
    ('(vector-length #())', '0'),
    ('(exact? (vector-length #(a b c)))', '#t'),
    ('(list (vector-length (make-vector 3 0)) (quotient (vector-length #(1 2 3 4 5)) 2))', '(3 2)'),
    ('(vector-ref #(a b c) 0)', 'a'),
    ('(vector-ref #(a b c) 2)', 'c'),
    ('(vector-ref #(a b c) 1.0)', 'b'),
    ('(let ((v (vector 1 2 3))) (list (vector-set! v 0 9) v))', '(() #(9 2 3))'),
    ('(let ((v (make-vector 2))) (list (vector-fill! v 7) v))', '(() #(7 7))'),
    ('(vector-map inc #(1 2 3))', '#(2 3 4)'),
    ('(vector-map + #(1 2) #(10 20 30))', '#(11 22)'),
    ('(vector-map inc #())', '#()'),
    ('(let ((acc (quote ()))) (vector-for-each (lambda (x) (set! acc (cons x acc))) #(1 2 3)) acc)', '(3 2 1)'),
    ('(vector-for-each + #(1) #(2))', '()'),
    ('(vector-copy #(1 2 3))', '#(1 2 3)'),
    ('(vector-copy #(1 2 3) 1)', '#(2 3)'),
    ('(vector-copy #(1 2 3) 1 2)', '#(2)'),
    ('(vector-copy #(1 2 3) 2 1)', '#()'),
    ('(let* ((a (vector 1 2)) (b (vector-copy a))) (vector-set! b 0 9) (list a b))', '(#(1 2) #(9 2))'),
    ('(vector? #(1))', '#t'),
    ("(vector? '(1))", '#f'),
    ('(vector? "v")', '#f'),
])
def test_vector_builtins(src, want):
    assert wv(src) == want


@pytest.mark.parametrize('src, msg', [
    ('(vector-ref #(a b c) 3)', 'vector-ref: index 3 out of range [0, 3)'),
    ('(vector-ref #(a b c) -1)', 'vector-ref: index -1 out of range [0, 3)'),
    ('(vector-ref #() 0)', 'vector-ref: index 0 out of range [0, 0)'),
    ('(vector-ref #(a) 0.5)', 'vector-ref: expected an index, got 0.5'),
    ('(vector-ref #(a) "0")', 'vector-ref: expected an index, got "0"'),
    ("(vector-ref '(a) 0)", 'vector-ref: expected a vector, got (a)'),
    ('(vector-set! (vector) 0 1)', 'vector-set!: index 0 out of range [0, 0)'),
    ('(vector-set! (vector 1) (sqrt -1) 1)', 'vector-set!: expected an index, got NaN'),
    ('(vector-set! "s" 0 1)', 'vector-set!: expected a vector, got "s"'),
    ('(make-vector -1)', 'make-vector: expected an index, got -1'),
    ('(make-vector 1.5)', 'make-vector: expected an index, got 1.5'),
    ("(make-vector 'a)", 'make-vector: expected an index, got a'),
    ('(make-vector 1e300)', 'out of memory'),
    ('(vector-copy #(1 2 3) 0 4)', 'vector-copy: index 4 out of range [0, 3]'),
    ('(vector-copy #(1 2 3) -1)', 'vector-copy: index -1 out of range [0, 3]'),
    ('(vector-length 5)', 'vector-length: expected a vector, got 5'),
    ('(vector->list (list 1))', 'vector->list: expected a vector, got (1)'),
    ('(list->vector #(1))', 'list->vector: expected a list, got #(1)'),
    ('(vector-fill! 5 0)', 'vector-fill!: expected a vector, got 5'),
    ('(vector-map 5 #(1))', 'vector-map: expected a procedure, got 5'),
    ("(vector-map inc '(1))", 'vector-map: expected a vector, got (1)'),
    ('(vector-for-each inc 5)', 'vector-for-each: expected a vector, got 5'),
    ('(vector-map car #(1))', 'car: not a pair'),
    ('(vector-ref #(1))', 'vector-ref: expected 2 arg(s), got 1'),
    ('(vector-set! #(1) 0)', 'vector-set!: expected 3 arg(s), got 2'),
    ('(make-vector)', 'make-vector: expected 1 to 2 arg(s), got 0'),
])
def test_vector_errors(src, msg):
    assert err(src) == msg


def test_vector_for_each_walks_a_snapshot():
    # f may change the vector; the walk sees the elements it started with
    assert ev('(define v (vector 1 2 3)) (define seen (quote ())) '
              '(vector-for-each (lambda (x) (vector-set! v 2 99) (set! seen (cons x seen))) v) (list seen v)') \
        == '((3 2 1) #(1 2 99))'


# ── Equality, JSON, the sequence builtins ────────────────────────────────

@pytest.mark.parametrize('src, want', [
    ('(equal? #(1 (2 "x")) #(1 (2 "x")))', '#t'),
    ('(equal? #(1 2) #(1 2 3))', '#f'),
    ('(equal? #(1 2) #(1 3))', '#f'),
    ("(equal? #(1 2) '(1 2))", '#f'),
    ('(equal? #() #())', '#t'),
    ('(equal? (list #(1)) (list #(1)))', '#t'),
    ('(equal? #(#(1)) #(#(2)))', '#f'),
    ('(let ((v (vector 1))) (equal? v v))', '#t'),
    ("(member #(2) (list #(1) #(2)))", '(#(2))'),
    ('(json-encode #(1 "two" #t))', '"[1, \\"two\\", true]"'),
    ('(json-encode #())', '"[]"'),
    ("(json-encode #((a 1) (b 2)))", '"[[\\"a\\", 1], [\\"b\\", 2]]"'),
    ("(json-encode '((k #(1 2))))", '"{\\"k\\": [1, 2]}"'),
    ('(json-encode (hash "k" #(1)))', '"{\\"k\\": [1]}"'),
    ('(length #(1 2 3))', '3'),
    ('(length #())', '0'),
    ('(map inc #(1 2))', '(2 3)'),
    ("(map + #(1 2 3) '(10 20))", '(11 22)'),
    ('(map inc #())', '()'),
    ("(let ((n 0)) (for-each (lambda (x) (set! n (+ n x))) #(1 2 3)) n)", '6'),
    ("(let ((n 0)) (for-each (lambda (x y) (set! n (+ n (* x y)))) #(1 2) '(3 4)) n)", '11'),
    ('(filter-map (lambda (x) (and (odd? x) x)) #(1 2 3))', '(1 3)'),
])
def test_vectors_elsewhere(src, want):
    assert wv(src) == want


def test_equality_of_deep_vectors_does_not_overflow():
    assert ev('(define (deep n) (let loop ((i 0) (acc 0)) (if (< i n) (loop (+ i 1) (vector acc)) acc))) '
              '(equal? (deep 50000) (deep 50000))') == '#t'


@pytest.mark.parametrize('src, msg', [
    ('(hash-set! (make-hash) #(1) 1)', 'hash: unhashable key #(1)'),
    ('(save-model "never-written.json" #(1))', 'save-model: cannot serialize #(1)'),
    ('(+ 1 #(1))', None),                      # a numeric builtin refuses it (its own message)
    ('(tensor #(1 2))', 'tensor: elements must be numbers or non-empty nested lists of numbers'),
    ('(car #(1))', 'car: not a pair'),
    ('(sort #(2 1))', 'sort: expected a list, got #(2 1)'),
])
def test_vectors_are_refused_clearly(src, msg):
    m = err(src)
    assert 'internal error' not in m
    assert '#(' in m or msg is not None
    if msg is not None:
        assert m == msg


# ── Layout: pretty printer, rusty fmt, REPL lexer and indenter ───────────

def test_pretty_printing_breaks_a_vector_like_a_list():
    v = value("'#(alpha beta (gamma delta) #(1 2))")
    assert pretty_string(v, 80) == '#(alpha beta (gamma delta) #(1 2))'
    assert pretty_string(v, 20) == '#(alpha\n  beta\n  (gamma delta)\n  #(1 2))'
    assert ev('(pretty-string #() 2)') == '#()'


def test_rusty_fmt_keeps_and_aligns_vector_literals():
    src = '(define v   #( 1  2\n3))\n(list #(define x\ny))\n'
    assert fmt_string(src) == '(define v #(1 2\n            3))\n(list #(define x\n        y))\n'
    assert fmt_string(fmt_string(src)) == fmt_string(src)


def test_the_repl_lexer_and_indenter_know_the_literal():
    from pygments.token import Punctuation

    from rusty.repl.indent import indent_for, paren_pairs, status
    from rusty.repl.lexer import RustyLexer
    toks = list(RustyLexer(builtins=frozenset()).get_tokens('#(1 a)'))
    assert toks[0] == (Punctuation, '#(')
    assert status('#(1') == 'open' and status('#(1)') == 'complete'
    assert indent_for('(list #(1 2') == 8
    assert paren_pairs('#(1 (2))') == {1: 7, 7: 1, 4: 6, 6: 4}


# ── Natives take numbers only ────────────────────────────────────────────

@pytest.mark.rustc
def test_a_native_refuses_a_vector(tmp_path, monkeypatch):
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))
    s = session()
    s.run('(defrust twice (x) (* 2 x))', '<t>')
    with pytest.raises(RustyError) as e:
        s.run('(twice #(1))', '<t>')
    assert e.value.message == 'twice: expected a number, got #(1)'


def test_the_write_form_reads_back():
    v = value('(vector 1 "a\\"b" \'c (list 2 (vector)))')
    s = session()
    assert s.run("(equal? (quote %s) %s)" % (write_form(v), write_form(v)), '<t>') is True
    assert sym('c') in v.items


@pytest.mark.parametrize('src, want', [
    ('(let ((x 5) (l (list 1 2))) `(a #(1 ,x ,@l) ,x))', '(a #(1 5 1 2) 5)'),
    ('(define (f) `#(0 0)) (define a (f)) (vector-set! a 0 1) (list a (f))', '(#(1 0) #(0 0))'),
    ('`#()', '#()'),
    ("(defmacro mk (x) (list 'vector-ref #(10 20 30) x)) (mk 1)", '20'),
    ('(defmacro vv () #(1 2)) (let ((a (vv))) (vector-set! a 0 9) (list a (vv)))', '(#(9 2) #(1 2))'),
    ('(eval #(1 2))', '#(1 2)'),
])
def test_vectors_in_templates_macros_and_eval(src, want):
    assert wv(src) == want
