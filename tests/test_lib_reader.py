"""docs/reference.md §2 Syntax: nestable block comments `#| |#` and datum comments `#;`, with the
exact parse errors and their positions."""
import pytest

from rusty.errors import IncompleteInput, ReadError
from rusty.reader import open_depth, read
from rusty.repl import indent

from helpers import ev


def read_error(text):
    with pytest.raises(ReadError) as info:
        read(text, 't.lisp')
    e = info.value
    return e.message, (e.span.line, e.span.col, e.span.end_col)


@pytest.mark.parametrize('src,want', [
    ('(+ 1 #;(* 2 3) 4)', '5'),
    ('#| a #| b |# c |# 7', '7'),
    ('(list 1 #|x|# 2)', '(1 2)'),
    ('(list 1 #| (+ 1\n 2) "|# 2)', '(1 2)'),   # inside a comment a quote is not a string
    ('(list #;1 2 #;3)', '(2)'),
    ("#;'a 5", '5'),
    ("'#;a b", 'b'),                 # the quote waits for the datum after the skipped one
    ('(list #;#;1 2 3)', '(3)'),     # two datum comments skip two data
    ('(list #;#|c|# 1 2)', '(2)'),   # a block comment is not a datum
    ('(list 1#|x|#2)', '(1 2)'),
    ('(list (quote a#|b))', '(a#|b)'),   # inside a symbol # is an ordinary character
    ('(list #x)', None),
])
def test_comments_evaluate(src, want):
    if want is None:
        assert read(src).car.cdr.car.name == '#'       # elsewhere # keeps its meaning (docs/reference.md §2)
    else:
        assert ev(src) == want


def test_block_comment_nests_and_counts_lines():
    forms = read('#| one\n#| two\n|# three\n|#\n  x', 'f')
    assert forms.car.name == 'x'
    assert (forms.span.line, forms.span.col) == (5, 3)


def test_unclosed_block_comment_error_at_the_opening():
    assert read_error('(+ 1\n  #| 2 #| 3 |#') == (
        "unexpected end of input: a '#|' comment is never closed", (2, 3, 5))
    with pytest.raises(IncompleteInput):
        read('#| open', 't')


@pytest.mark.parametrize('src,pos', [('#;', (1, 1, 3)), ('(1 #;)', (1, 4, 6)), ('1 #;  ', (1, 3, 5))])
def test_datum_comment_without_datum(src, pos):
    assert read_error(src) == ("unexpected end of input: '#;' has no datum to comment out", pos)


def test_sugar_before_missing_datum_keeps_its_message():
    assert read_error("#; '")[0] == "''' must be followed by a datum"


def test_repl_waits_for_an_open_block_comment():
    assert open_depth('#| a (')[1] is True
    assert indent.status('(+ 1 #| )') == 'open'
    assert indent.status('(+ 1 #| ) |# 2)') == 'complete'


def test_the_lexer_colours_block_and_datum_comments():
    from pygments.token import Comment
    from rusty.repl.lexer import RustyLexer
    toks = list(RustyLexer(builtins=frozenset()).get_tokens_unprocessed('(+ 1 #| a #| b |# c |# #;2 3) #| open'))
    assert (5, Comment.Multiline, '#| a #| b |# c |#') in toks
    assert (23, Comment.Special, '#;') in toks
    assert toks[-1] == (30, Comment.Multiline, '#| open')
    assert ''.join(t for _, _, t in toks) == '(+ 1 #| a #| b |# c |# #;2 3) #| open'
