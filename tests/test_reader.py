"""docs/reference.md §2 Syntax (lexical syntax and the reader): tokens, sugar, strictness, spans."""
import math

import pytest

from rusty.errors import IncompleteInput, ReadError, Span
from rusty.reader import read
from rusty.values import List, NilType, Symbol

from helpers import ev, out, run_capture, session


# ── a type-strict view of read data ──────────────────────────────────────

def N(x):
    """A number read: an exact integer (a Python int) or a float, kept apart."""
    return ('num', type(x).__name__, x)


def Y(name):
    return ('sym', name)


def S(text):
    return ('str', text)


def B(b):
    return ('bool', b)


def norm(x):
    """Read data as tagged tuples / Python lists (bool and float kept apart)."""
    if x is True or x is False:
        return ('bool', x)
    if type(x) is float or type(x) is int:
        return ('num', type(x).__name__, x)
    if isinstance(x, str):
        return ('str', x)
    if isinstance(x, Symbol):
        return ('sym', x.name)
    if isinstance(x, List):
        return [norm(e) for e in x]
    raise AssertionError('unexpected value read: %r' % (x,))


def toks(text):
    return norm(read(text))


def Q(kind, d):
    return [Y(kind), d]


# ── token table rows (docs/reference.md §2) ───────────────────────────────

@pytest.mark.parametrize('src,expected', [
    ('42', 42), ('-7', -7), ('1.', 1.0), ('1e-20', 1e-20), ('2.5E+3', 2500.0),
    ('7e9', 7000000000.0), ('1e400', math.inf), ('0', 0), ('3.25', 3.25),
    ('-1e400', -math.inf), ('1e-400', 0.0), ('0.1', 0.1), ('007', 7), ('1E3', 1000.0),
    ('2e-0', 2.0), ('12345678901234567890', 12345678901234567890), ('-0', 0), ('1.0', 1.0),
])
def test_numbers(src, expected):
    assert toks(src) == [N(expected)]


def test_an_integer_literal_of_any_length_reads_exactly():
    # past Python's default 4300-digit limit of int <-> str conversions
    assert toks('9' * 5000) == [N(10 ** 5000 - 1)]
    assert ev('(+ 1 %s)' % ('9' * 5000)) == '1' + '0' * 5000


def test_minus_zero_reads_as_negative_zero():
    [x] = read('-0.0')
    assert isinstance(x, float) and x == 0.0 and math.copysign(1.0, x) == -1.0


@pytest.mark.parametrize('src', ['+5', '.5', '-', '-x', '-.5', '1.2.3', '+', '...', '.', '->>',
                                 'list->tensor', 'set!', 'λ', 'a#b', 'x;y', '1..', '..5'])
def test_symbols(src):
    assert toks(src) == [Y(src)]


@pytest.mark.parametrize('src,expected', [
    ('2elephants', [N(2), Y('elephants')]),
    ('1e', [N(1), Y('e')]),
    ('2e+', [N(2), Y('e+')]),
    ('1abc', [N(1), Y('abc')]),
    ('-1-2', [N(-1), N(-2)]),
    ('1;x', [N(1)]),
    ('abc;x', [Y('abc;x')]),
    ('[a b]', [Y('[a'), Y('b]')]),
    ('[1 2]', [Y('[1'), N(2), Y(']')]),
    ('#true', [B(True), Y('rue')]),
    ('#x', [Y('#'), Y('x')]),
    ("a'b", [Y('a'), Q('quote', Y('b'))]),
    ('abc"d"', [Y('abc'), S('d')]),
    ('#t', [B(True)]),
    ('#f', [B(False)]),
    ('#fa', [B(False), Y('a')]),
    ('#', [Y('#')]),
    ('# t', [Y('#'), Y('t')]),
    ('1e5x', [N(1e5), Y('x')]),
    ('1.5e', [N(1.5), Y('e')]),
    ('1e+5+', [N(1e5), Y('+')]),
    ('1-2', [N(1), N(-2)]),
    ('2(3)', [N(2), [N(3)]]),
    ('a(b)c', [Y('a'), [Y('b')], Y('c')]),
    ('x"s"y', [Y('x'), S('s'), Y('y')]),
    ('a,b', [Y('a'), Q('unquote', Y('b'))]),
    ('a`b', [Y('a'), Q('quasiquote', Y('b'))]),
    ('-a1', [Y('-a1')]),
    ('a-1', [Y('a-1')]),
    ('x1.2.3', [Y('x1.2.3')]),
])
def test_odd_tokens(src, expected):
    assert toks(src) == expected


def test_number_with_two_dots_then_more():
    # the scanned run `1.2.3` becomes a symbol; what follows starts a new token
    assert toks('1.2.3 4') == [Y('1.2.3'), N(4)]


@pytest.mark.parametrize('ws', [' ', '\t', '\n', '\r'])
def test_whitespace_chars(ws):
    assert toks('a%sb' % ws) == [Y('a'), Y('b')]


@pytest.mark.parametrize('ch', ['\u00a0', '\u2003', '\u000b', '\u000c', '\u3000'])
def test_other_unicode_spaces_are_symbol_chars(ch):
    assert toks('a%sb' % ch) == [Y('a%sb' % ch)]


def test_symbols_are_case_sensitive():
    a, b = read('Abc abc')
    assert a is not b and a.name == 'Abc' and b.name == 'abc'


def test_symbols_are_interned():
    a, b = read('foo foo')
    assert a is b


def test_comment_to_end_of_line():
    assert toks('1 ; two (\n3') == [N(1), N(3)]
    assert toks('; only a comment') == []
    assert toks(';x\n;y\n') == []


def test_comment_only_at_token_start():
    assert toks('(a;b c)') == [[Y('a;b'), Y('c')]]


def test_block_and_datum_comments_amend_section_1():
    # block and datum comments (docs/reference.md §2); tests/test_lib_reader.py covers them in full
    assert toks('#|x|#') == []
    assert toks('#;a') == []
    assert toks('#x a#|b') == [Y('#'), Y('x'), Y('a#|b')]


# ── strings (docs/reference.md §2) ────────────────────────────────────────

@pytest.mark.parametrize('src,expected', [
    (r'"a\nb"', 'a\nb'), (r'"a\tb"', 'a\tb'), (r'"a\rb"', 'a\rb'),
    (r'"\""', '"'), (r'"\\"', '\\'), (r'"\q"', 'q'), (r'"\u0041"', 'u0041'),
    (r'"\0"', '0'), ('"raw\nnewline"', 'raw\nnewline'), ('""', ''),
    ('"λ😀"', 'λ😀'), (r'"a\\nb"', 'a\\nb'), (r'"\;"', ';'),
])
def test_string_escapes(src, expected):
    assert toks(src) == [S(expected)]


def test_unterminated_string_extends_to_end_of_input():
    assert toks('"abc') == [S('abc')]
    assert toks('x "abc\n(def') == [Y('x'), S('abc\n(def')]
    assert toks('"ends with escaped quote\\"') == [S('ends with escaped quote"')]


def test_unterminated_string_inside_list_is_an_unclosed_paren():
    with pytest.raises(IncompleteInput) as e:
        read('(a "b)')
    assert e.value.message == "unexpected end of input: a '(' is never closed"


def test_parens_and_comments_inside_strings_are_text():
    assert toks('"(;)"') == [S('(;)')]


# ── reader: data, sugar (docs/reference.md §2) ────────────────────────────

def test_lists_and_nesting():
    assert toks('(a (b 1) "c" #t)') == [[Y('a'), [Y('b'), N(1)], S('c'), B(True)]]
    assert toks('()') == [[]]
    assert toks('(())') == [[[]]]


def test_read_returns_a_list_of_forms():
    forms = read('1 2 3')
    assert isinstance(forms, List) and len(forms) == 3
    assert isinstance(read(''), List) and len(read('')) == 0


def test_empty_form_reads_as_an_empty_list_not_nil():
    [x] = read('()')
    assert isinstance(x, List) and len(x) == 0 and not isinstance(x, NilType)


@pytest.mark.parametrize('src,kind', [
    ("'a", 'quote'), ('`a', 'quasiquote'), (',a', 'unquote'), (',@a', 'unquote-splicing'),
    ("' a", 'quote'), (',@ a', 'unquote-splicing'), ("'\n a", 'quote'),
])
def test_sugar(src, kind):
    assert toks(src) == [Q(kind, Y('a'))]


def test_sugar_on_lists_and_nested_sugar():
    assert toks("'(1 2)") == [Q('quote', [N(1), N(2)])]
    assert toks("''a") == [Q('quote', Q('quote', Y('a')))]
    assert toks('`(a ,b ,@c)') == [Q('quasiquote', [Y('a'), Q('unquote', Y('b')), Q('unquote-splicing', Y('c'))])]
    assert toks("'()") == [Q('quote', [])]


def test_comma_space_at_is_unquote_of_symbol_at():
    assert toks(', @a') == [Q('unquote', Y('@a'))]


def test_printer_never_abbreviates_sugar():
    assert out("(display ''a)") == '(quote a)'
    assert out("(display '`(a ,b ,@c))") == '(quasiquote (a (unquote b) (unquote-splicing c)))'


def test_no_dotted_pairs():
    assert toks('(a . b)') == [[Y('a'), Y('.'), Y('b')]]
    assert out("(display '(b . 2))") == '(b . 2)'
    assert ev("(length '(a . b))") == '3'
    assert ev("(cadr '(a . b))") == '.'


# ── strictness (docs/reference.md §2) ─────────────────────────────────────

UNCLOSED = "unexpected end of input: a '(' is never closed"
STRAY = "unexpected ')' with no matching '('"
TOO_DEEP = 'nesting too deep (over 8000 levels) — refusing to parse'


@pytest.mark.parametrize('src', ['(', '(a', '(a (b)', '((', "'(", '(a "b', '(;)', '(\n', '(1 2 3) (4'])
def test_unclosed_paren(src):
    with pytest.raises(IncompleteInput) as e:
        read(src)
    assert e.value.message == UNCLOSED
    assert isinstance(e.value, ReadError)


@pytest.mark.parametrize('src', [')', '(a))', '1 )', ') (', '(a) ) (b'])
def test_stray_close_paren(src):
    with pytest.raises(ReadError) as e:
        read(src)
    assert e.value.message == STRAY
    assert not isinstance(e.value, IncompleteInput)


@pytest.mark.parametrize('src,s', [
    ("'", "'"), ('`', '`'), (',', ','), (',@', ',@'),
    ("(a ')", "'"), ('(a `)', '`'), ('(a ,)', ','), ('(a ,@)', ',@'),
    ("'  ", "'"), ("' ; comment", "'"), ("(')", "'"),
])
def test_sugar_without_datum(src, s):
    with pytest.raises(ReadError) as e:
        read(src)
    assert e.value.message == "'%s' must be followed by a datum" % s


def test_nesting_8000_reads_fine():
    [x] = read('(' * 8000 + ')' * 8000)
    depth = 0
    while isinstance(x, List) and len(x):
        depth += 1
        x = x.car
    assert depth + 1 == 8000


def test_nesting_8001_is_refused():
    with pytest.raises(ReadError) as e:
        read('(' * 8001 + ')' * 8001)
    assert e.value.message == TOO_DEEP


def test_nesting_100000_gives_the_message_not_recursion_error():
    with pytest.raises(ReadError) as e:
        read('(' * 100000 + ')' * 100000)
    assert e.value.message == TOO_DEEP


def test_nesting_counts_depth_not_total_parens():
    text = ' '.join(['(' * 4000 + ')' * 4000] * 5)
    assert len(read(text)) == 5


def test_deep_quote_nesting_within_cap_reads():
    text = "'" * 3000 + 'a'
    [x] = read(text)
    assert isinstance(x, List)


@pytest.mark.parametrize('src,msg', [
    ('(display "ran") (', UNCLOSED),
    ('(display "ran") )', STRAY),
    ('(display "ran") (define x 1) \'', "''' must be followed by a datum"),
    ('(display "ran")' + '(' * 8001 + ')' * 8001, TOO_DEEP),
], ids=['unclosed', 'stray', 'sugar', 'too-deep'])
def test_a_syntax_error_anywhere_means_nothing_runs(src, msg):
    got_out, got_msg = run_capture(src)
    assert got_msg == msg
    assert got_out == ''


def test_eval_string_is_strict_too():
    s = session()
    s.run('(define r (try-catch (eval-string "(display 1) (display 2) )") (e) e))', '<test>')
    assert s.out.getvalue() == ''
    assert ev('(try-catch (eval-string "(display 1) (display 2) )") (e) e)') == STRAY


def test_parse_error_is_catchable_through_eval_string():
    assert ev('(try-catch (eval-string "(+ 1") (e) e)') == UNCLOSED
    assert ev('(try-catch (eval-string ")") (e) e)') == STRAY
    assert ev('(try-catch (eval-string "\'") (e) e)') == "''' must be followed by a datum"


# ── source positions (docs/reference.md §2, §7) ───────────────────────────

def spans(text, file='<string>'):
    return [cell.span for cell in read(text, file).cells()]


def test_atom_spans_end_exclusive():
    a, b, c = spans('abc  42\n"s"', 'f.lisp')
    assert a == Span('f.lisp', 1, 1, 1, 4)
    assert b == Span('f.lisp', 1, 6, 1, 8)
    assert c == Span('f.lisp', 2, 1, 2, 4)


def test_one_char_atom_at_column_5_ends_at_6():
    [sp] = spans('    x')
    assert (sp.line, sp.col, sp.end_line, sp.end_col) == (1, 5, 1, 6)


def test_file_name_is_recorded():
    [sp] = spans('x', 'some/dir/prog.lisp')
    assert sp.file == 'some/dir/prog.lisp'
    [sp] = spans('x')
    assert sp.file == '<string>'


def test_list_span_and_element_spans():
    [top] = read('(f (g 1)\n   x)')
    [sp] = spans('(f (g 1)\n   x)')
    assert sp == Span('<string>', 1, 1, 2, 6)
    inner = [c.span for c in top.cells()]
    assert inner[0] == Span('<string>', 1, 2, 1, 3)
    assert inner[1] == Span('<string>', 1, 4, 1, 9)
    assert inner[2] == Span('<string>', 2, 4, 2, 5)
    g = top.cdr.car
    assert [c.span for c in g.cells()] == [Span('<string>', 1, 5, 1, 6), Span('<string>', 1, 7, 1, 8)]


def test_tabs_count_one_column():
    a, b = spans('\tx\t\ty')
    assert (a.col, a.end_col) == (2, 3)
    assert (b.col, b.end_col) == (5, 6)


def test_columns_count_code_points_not_bytes():
    a, b, c = spans('"λλ" é 😀x')
    assert (a.col, a.end_col) == (1, 5)
    assert (b.col, b.end_col) == (6, 7)
    assert (c.col, c.end_col) == (8, 10)


def test_lines_end_at_line_feeds():
    a, b, c = spans('a\n\nb\n  c')
    assert (a.line, b.line, c.line) == (1, 3, 4)
    assert c.col == 3


def test_multiline_string_span():
    [sp] = spans('  "a\nbc" ')
    assert sp == Span('<string>', 1, 3, 2, 4)


def test_unterminated_string_span_runs_to_end_of_input():
    x, s = spans('x "ab\ncd')
    assert s == Span('<string>', 1, 3, 2, 3)


def test_sugar_span_covers_the_quote_and_the_datum():
    [top] = read("(f 'abc)")
    q = top.cdr.car
    qspan = top.cdr.span
    assert (qspan.line, qspan.col, qspan.end_line, qspan.end_col) == (1, 4, 1, 8)
    assert norm(q) == Q('quote', Y('abc'))
    datum_span = q.cdr.span
    assert (datum_span.col, datum_span.end_col) == (5, 8)


def test_empty_list_form_has_a_span():
    [sp] = spans(' ()')
    assert (sp.col, sp.end_col) == (2, 4)


def test_number_and_boolean_spans():
    a, b, c = spans('-12.5 #t #f')
    assert (a.col, a.end_col) == (1, 6)
    assert (b.col, b.end_col) == (7, 9)
    assert (c.col, c.end_col) == (10, 12)


def test_spans_after_comment_lines():
    [sp] = spans('; header\n  ; more\n   (x)')
    assert sp == Span('<string>', 3, 4, 3, 7)


def test_positions_invisible_to_programs():
    assert ev("(equal? '(a (b)) (list 'a (list 'b)))") == '#t'
    assert ev("(quote (1 2))") == '(1 2)'
