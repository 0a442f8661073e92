"""Error reports in the REPL (docs/reference.md §7 Errors and error reports, §8 The REPL): on stdout, the caret
under the failing form exactly (after a tab, on a later line of the input, in
a function defined by an earlier input), colours only when asked, and the
REPL's own frames never in the backtrace."""
import re

import pytest

from repl_driver import CTRL_D, ENTER, drive, lines, paste, private_home


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def report(keys):
    out, _ = drive(keys + CTRL_D)
    body = lines(out)
    return body[:body.index('')] if '' in body else body


def test_the_section_14_1_example():
    assert report("(car '())" + ENTER) == [
        'Error: car: not a pair',
        '  at <repl:1>:1:1',
        "  1 | (car '())",
        '    | ^^^^^^^^^',
        '  hint: car got ()',
    ]


def test_caret_under_an_inner_form():
    assert report('(+ 1 (car 5))' + ENTER)[2:4] == [
        '  1 | (+ 1 (car 5))',
        '    |      ^^^^^^^',
    ]


def test_caret_under_an_undefined_symbol_with_suggestion():
    assert report('(filtr even? (list 1 2))' + ENTER) == [
        "Error: Undefined: 'filtr' — did you mean 'filter'?",
        '  at <repl:1>:1:2',
        '  1 | (filtr even? (list 1 2))',
        '    |  ^^^^^',
    ]


def test_caret_after_a_tab_keeps_the_tab():
    # A tab in the source is one column (docs/reference.md §2); the marker copies it, so the
    # caret sits under the form on any tab width.
    out = report(paste('(list\t(car 5))') + ENTER)
    assert out[1] == '  at <repl:1>:1:7'
    assert out[2] == '  1 | (list\t(car 5))'
    assert out[3] == '    |      \t^^^^^^^'


def test_caret_on_the_second_line_of_a_multi_line_input():
    out = report('(define (f x)' + ENTER + '(undefined-thing x))' + ENTER + '(f 1)' + ENTER)
    assert out == [
        "Error: Undefined: 'undefined-thing' (try (apropos \"undefined\"))",
        '  at <repl:1>:2:4',
        '  2 |   (undefined-thing x))',
        '    |    ^^^^^^^^^^^^^^^',
        'Backtrace (innermost last):',
        '  <repl:2>:1:1 in f',
    ]


def test_form_spanning_lines_is_marked_to_the_end_of_its_first_line():
    out = report('(+ 1' + ENTER + '"two")' + ENTER)
    assert out[:4] == [
        'Error: +: expected a number, got "two"',
        '  at <repl:1>:1:1',
        '  1 | (+ 1',
        '    | ^^^^',
    ]


def test_error_in_an_earlier_input_shows_that_inputs_line():
    out = report('(define (half x) (/ x 0))' + ENTER + '(+ 1 (half 4))' + ENTER)
    assert out == [
        'Error: Division by zero',
        '  at <repl:1>:1:18',
        '  1 | (define (half x) (/ x 0))',
        '    |                  ^^^^^^^',
        'Backtrace (innermost last):',
        '  <repl:2>:1:6 in half',
    ]


def test_remaining_forms_of_an_input_are_skipped_after_an_error():
    out, _ = drive('(define a 1) (car 5) (define a 2)' + ENTER + 'a' + ENTER + CTRL_D)
    body = lines(out)
    assert body[0] == 'Error: car: not a pair'
    assert body[1] == '  at <repl:1>:1:14'
    assert '=> 1' in body


def test_error_reports_go_to_stdout_and_carry_no_repl_frames():
    out, _ = drive('(define (f) (error "boom" 1))' + ENTER + '(f)' + ENTER + CTRL_D)
    body = lines(out)
    assert body[0] == 'Error: boom 1'
    assert body[-5:-3] == ['Backtrace (innermost last):', '  <repl:2>:1:1 in f']
    assert 'session.py' not in out and 'Traceback' not in out


def test_time_reports_carets_at_the_typed_columns():
    out = report(',time (car 5)' + ENTER)
    assert out[:4] == [
        'Error: car: not a pair',
        '  at <repl:1>:1:7',
        '  1 | ,time (car 5)',
        '    |       ^^^^^^^',
    ]


def test_colour_report_is_highlighted_with_a_bold_message_and_red_caret():
    out, _ = drive('(car 5)' + ENTER + CTRL_D, color=True)
    body = lines(out)
    assert body[0] == '\x1b[1mError: car: not a pair\x1b[0m'
    assert '\x1b[35m' in body[2] or '\x1b[36m' in body[2]            # `car` coloured as a builtin
    assert re.sub(r'\x1b\[[0-9;]*m', '', body[2]) == '  1 | (car 5)'
    assert body[3] == '    | \x1b[1;31m^^^^^^^\x1b[0m'


def test_no_colour_without_a_terminal_or_with_no_color(monkeypatch):
    import io
    from rusty.repl.style import color_wanted

    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv('NO_COLOR', raising=False)
    assert color_wanted(Tty()) and not color_wanted(io.StringIO())
    monkeypatch.setenv('NO_COLOR', '1')
    assert not color_wanted(Tty())
    out, _ = drive('(car 5)' + ENTER + CTRL_D)
    assert '\x1b' not in out
