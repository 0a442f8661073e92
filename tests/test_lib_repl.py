"""The REPL (docs/reference.md §8) echoes the write form; inputs are named <repl:N>;
exit ends the session; an open block comment continues the input."""
import pytest

from repl_driver import CTRL_D, ENTER, drive, lines, private_home


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def session(*inputs, **kw):
    out, repl = drive(''.join(i + ENTER for i in inputs) + CTRL_D, **kw)
    return lines(out), repl


@pytest.mark.parametrize('src,shown', [
    ('(list "a b" \'c "42" 42)', '=> ("a b" c "42" 42)'),       # the write form (docs/reference.md §3)
    ('"hi"', '=> "hi"'),
    ('"tab\\there\\nnew \\"q\\" back\\\\slash"', '=> "tab\\there\\nnew \\"q\\" back\\\\slash"'),
    ("'sym", '=> sym'), ('1.5', '=> 1.5'), ('#t', '=> #t'), ("'()", '=> ()'),
    ('(hash "a" 1 \'b "x")', '=> #hash(("a" 1) (b "x"))'),
    ('(list (list "nested" "deep"))', '=> (("nested" "deep"))'),
    ('car', '=> #<builtin:car>'),
])
def test_results_are_echoed_in_write_form(src, shown):
    body, _ = session(src)
    assert body[0] == shown


def test_printing_itself_is_unchanged_in_the_repl():
    body, _ = session('(begin (print (list "a b" 1)) (display (list "a b")) (newline) 5)')
    assert body[:3] == ['(a b 1)', '("a b")', '=> 5']


def test_inputs_are_named_repl_n_and_earlier_frames_quote_their_line():
    body, _ = session('(define (f x)\n(car x))', '1', '(+ 1 (f 5))')     # auto-indented by 2
    report = body[body.index('Error: car: not a pair'):]
    assert report[:7] == [
        'Error: car: not a pair',
        '  at <repl:1>:2:3',
        '  2 |   (car x))',
        '    |   ^^^^^^^',
        '  hint: car got 5',
        'Backtrace (innermost last):',
        '  <repl:3>:1:6 in f',
    ]


def test_repl_numbers_count_complete_inputs_only():
    # a multi-line input is one input; meta-commands and blank lines are not counted as code
    body, _ = session('(+ 1\n2)', '', '(car 1)')
    assert body[1] == 'Error: car: not a pair'
    assert body[2] == '  at <repl:2>:1:1'


def test_command_line_args_are_empty_in_the_repl():
    body, _ = session('(command-line-args)')
    assert body[0] == '=> ()'


def test_exit_ends_the_session_with_its_status():
    out, repl = drive('(define x 1)' + ENTER + '(exit 3)' + ENTER + 'x' + ENTER)
    body = lines(out)
    assert body == ['', 'Goodbye.', '']


def test_exit_status_from_run():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    import io
    from rusty.repl.session import Repl
    with create_pipe_input() as inp:
        repl = Repl(input=inp, output=DummyOutput(), out=io.StringIO(), color=False)
        inp.send_text('(exit 4)' + ENTER)
        assert repl.run() == 4
    with create_pipe_input() as inp:
        repl = Repl(input=inp, output=DummyOutput(), out=io.StringIO(), color=False)
        inp.send_text('(try-catch (exit) (e) 1)' + ENTER + '2' + ENTER + CTRL_D)
        assert repl.run() == 0


def test_a_bad_exit_status_is_an_ordinary_error():
    body, _ = session('(exit 300)', '7')
    assert body[0] == 'Error: exit: expected an integer 0-255, got 300'
    assert '=> 7' in body


def test_open_block_comment_continues_the_input():
    body, _ = session('(+ 1 #| a comment (', 'still |# 2)')
    assert body[0] == '=> 3'


def test_datum_comment_in_the_repl():
    body, _ = session("(list 1 #;(2 3) 4)")
    assert body[0] == '=> (1 4)'
