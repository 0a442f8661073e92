"""The Pygments lexer for rusty: token classes follow docs/reference.md §2 Syntax exactly
(the reader's own token rules), it never loses text, and it is registered
as `rusty` for pygmentize."""
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String

from rusty.repl.lexer import SPECIAL_FORMS, RustyLexer


def toks(text):
    return [(t, v) for t, v in RustyLexer(stripnl=False, ensurenl=False).get_tokens(text) if v.strip()]


@pytest.mark.parametrize('text, expected', [
    ('(if x 1 2)', [(Punctuation, '('), (Keyword, 'if'), (Name, 'x'), (Number, '1'), (Number, '2'),
                    (Punctuation, ')')]),
    ('(map car xs)', [(Punctuation, '('), (Name.Builtin, 'map'), (Name.Builtin, 'car'), (Name, 'xs'),
                      (Punctuation, ')')]),
    ('#t #f #x', [(Keyword.Constant, '#t'), (Keyword.Constant, '#f'), (Name, '#'), (Name, 'x')]),
    ('-7 1e-20 2.5E+3 .5 -x 1.2.3', [(Number, '-7'), (Number, '1e-20'), (Number, '2.5E+3'), (Name, '.5'),
                                     (Name, '-x'), (Name, '1.2.3')]),
    ('2elephants', [(Number, '2'), (Name, 'elephants')]),
    ('abc;x 1;x', [(Name, 'abc;x'), (Number, '1'), (Comment.Single, ';x')]),
    ("'sym `(a ,b ,@c)", [(Operator, "'"), (String.Symbol, 'sym'), (Operator, '`'), (Punctuation, '('),
                          (Name, 'a'), (Operator, ','), (Name, 'b'), (Operator, ',@'), (Name, 'c'),
                          (Punctuation, ')')]),
    ('(define (sq x) x)', [(Punctuation, '('), (Keyword, 'define'), (Punctuation, '('),
                           (Name.Function, 'sq'), (Name, 'x'), (Punctuation, ')'), (Name, 'x'),
                           (Punctuation, ')')]),
    ('(case k ((1) x))', [(Punctuation, '('), (Keyword, 'case'), (Name, 'k'), (Punctuation, '('),
                          (Punctuation, '('), (Number, '1'), (Punctuation, ')'), (Name, 'x'),
                          (Punctuation, ')'), (Punctuation, ')')]),
    ('(define-macro m (a) a)', [(Punctuation, '('), (Keyword, 'define-macro'), (Name.Function, 'm'),
                                (Punctuation, '('), (Name, 'a'), (Punctuation, ')'), (Name, 'a'),
                                (Punctuation, ')')]),
    ('(defrust fib (n) n)', [(Punctuation, '('), (Keyword, 'defrust'), (Name.Function, 'fib'),
                             (Punctuation, '('), (Name, 'n'), (Punctuation, ')'), (Name, 'n'),
                             (Punctuation, ')')]),
])
def test_token_classes(text, expected):
    assert toks(text) == expected


def test_strings_with_escapes():
    assert toks(r'"a\n\"b\\"') == [(String, '"a'), (String.Escape, r'\n'), (String.Escape, r'\"'),
                                   (String, 'b'), (String.Escape, '\\\\'), (String, '"')]


def test_an_unterminated_string_runs_to_the_end():
    assert toks('(display "abc ) ; x') == [(Punctuation, '('), (Name.Builtin, 'display'),
                                          (String, '"abc ) ; x')]


def test_parens_and_semicolons_inside_strings_are_string_text():
    assert toks('"(;)"') == [(String, '"(;)"')]


def test_special_form_list_matches_the_evaluator():
    from rusty.runtime import Session
    assert SPECIAL_FORMS == frozenset(Session.special_names)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='()\'`,@";\\ \n\t#tf0123456789.-eEabcλ[]', max_size=60))
def test_the_lexer_never_loses_or_invents_text(text):
    lexer = RustyLexer(stripnl=False, ensurenl=False)
    assert ''.join(v for _t, v in lexer.get_tokens(text)) == text


def test_registered_as_a_pygments_lexer():
    from pygments.lexers import get_lexer_by_name
    assert isinstance(get_lexer_by_name('rusty'), RustyLexer)


def test_pygmentize_uses_it(tmp_path):
    # through the installed entry point, as `pygmentize -l rusty` finds it
    f = tmp_path / 'x.lisp'
    f.write_text('(define x "s")\n')
    out = subprocess.run([sys.executable, '-m', 'pygments', '-l', 'rusty', '-f', 'raw', str(f)],
                         capture_output=True, text=True, timeout=60).stdout
    assert "Token.Keyword\t'define'" in out and "Token.Name.Function\t'x'" in out


def test_other_lisps_keep_dot_lisp_files(tmp_path):
    # `pygmentize -N foo.lisp` names the lexer pygments picks for the file name:
    # *.lisp is only a secondary (alias_filenames) match for rusty, so Common Lisp keeps it
    assert '*.lisp' not in RustyLexer.filenames and '*.lisp' in RustyLexer.alias_filenames
    run = [sys.executable, '-m', 'pygments', '-N']
    guess = subprocess.run(run + ['foo.lisp'], capture_output=True, text=True, timeout=60).stdout
    assert guess.strip() == 'common-lisp'


def test_filename_lookup_with_rusty_as_a_plugin(monkeypatch):
    # the same choice in process, with the lexer offered as a plugin whether or not it is installed
    import pygments.lexers as lexers
    monkeypatch.setattr(lexers, 'find_plugin_lexers', lambda: iter([RustyLexer]))
    assert lexers.get_lexer_for_filename('foo.lisp').aliases[0] == 'common-lisp'
    assert isinstance(lexers.get_lexer_for_filename('foo.rsy'), RustyLexer)
    assert isinstance(lexers.get_lexer_by_name('rusty'), RustyLexer)


def test_highlighting_styles_have_no_yellow_or_white_text():
    from rusty.repl.style import TOKEN_STYLES, UI_STYLES
    for style in list(TOKEN_STYLES.values()) + list(UI_STYLES.values()):
        for word in style.split():
            assert word not in ('ansiyellow', 'ansiwhite', 'ansibrightyellow', 'ansibrightwhite'), style
            assert not word.startswith(('bg:', '#')), style
