"""docs/reference.md §7 Errors and error reports: reports point at the program's own code, with hint lines
and long lines windowed around the marker; the message (what try-catch sees)
never changes. Batch mode (stderr) and the REPL (stdout), exactly."""
import io
import re

import pytest

from helpers import value
from repl_driver import CTRL_D, ENTER, drive, lines, private_home
from rusty import cli
from rusty.builtins.args import short_write
from rusty.runtime import STDLIB_PATH
from rusty.values import make_list

STDLIB_LINES = open(STDLIB_PATH, encoding='utf-8').read().split('\n')
STDLIB_FRAME = re.compile(r'  <stdlib>:(\d+):(\d+) in (\S+)$')


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run `rusty prog.lisp` on TEXT in-process: (status, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def go(text, name='prog.lisp'):
        (tmp_path / name).write_text(text, encoding='utf-8')
        o, e = io.StringIO(), io.StringIO()
        status = cli.main([name], stdout=o, stderr=e)
        return status, o.getvalue(), e.getvalue()
    return go


def stdlib_frame(line, name):
    """A backtrace line naming a stdlib frame: checks that it points at a call in stdlib.lisp."""
    m = STDLIB_FRAME.match(line)
    assert m and m.group(3) == name, line
    src = STDLIB_LINES[int(m.group(1)) - 1]
    assert src[int(m.group(2)) - 1] == '(', line
    return True


# ── The failing form in the standard library ─────────────────────────────

def test_stdlib_failure_points_at_the_call_in_the_program(run):
    status, o, e = run('(define xs 5)\n(display (remove-duplicates xs))\n')
    lines_ = e.splitlines()
    assert status == 1
    assert lines_[:5] == ['Error: car: not a pair',
                          '  at prog.lisp:2:10',
                          '  2 | (display (remove-duplicates xs))',
                          '    |          ^^^^^^^^^^^^^^^^^^^^^^',
                          '  hint: car got 5']
    assert lines_[5] == 'Backtrace (innermost last):'
    assert stdlib_frame(lines_[6], 'loop') and len(lines_) == 7


def test_stdlib_frames_stay_in_the_backtrace_after_the_programs_frames(run):
    status, o, e = run('(define (mean xs)\n  (+ 0 (average)))\n(mean 1)\n')
    assert e.splitlines()[:5] == ['Error: Division by zero',
                                  '  at prog.lisp:2:8',
                                  '  2 |   (+ 0 (average)))',
                                  '    |        ^^^^^^^^^',
                                  'Backtrace (innermost last):']
    assert e.splitlines()[5:] == ['  prog.lisp:3:1 in mean', '  prog.lisp:2:8 in average']


def test_a_procedure_of_the_program_called_by_the_stdlib(run):
    # the failing form is the program's own: it is shown, and the stdlib frame between
    status, o, e = run('(define (bad x) (car x))\n(any? bad (list 1))\n')
    got = e.splitlines()
    assert got[:5] == ['Error: car: not a pair',
                       '  at prog.lisp:1:17',
                       '  1 | (define (bad x) (car x))',
                       '    |                 ^^^^^^^',
                       '  hint: car got 1']
    assert got[5:7] == ['Backtrace (innermost last):', '  prog.lisp:2:1 in any?']
    assert stdlib_frame(got[7], 'bad') and len(got) == 8


def test_through_a_builtin_inside_the_stdlib(run):
    status, o, e = run('(string-join (list "a" 2) ",")\n')
    got = e.splitlines()
    assert got[0].startswith('Error: string-append: ')
    assert got[1:4] == ['  at prog.lisp:1:1', '  1 | (string-join (list "a" 2) ",")',
                        '    | ' + '^' * 30]


def test_the_message_is_unchanged_for_try_catch():
    assert value('(try-catch (remove-duplicates 5) (e) e)') == 'car: not a pair'
    assert value('(try-catch (car (list)) (e) e)') == 'car: not a pair'
    assert value('(define (f x y) x) (try-catch (f 1) (e) e)') == 'f: expected 2 args, got 1'


# ── Hints ────────────────────────────────────────────────────────────────

@pytest.mark.parametrize('expr, hint', [
    ("(car '())", 'car got ()'),
    ('(car "abc")', 'car got "abc"'),
    ('(cdr 5)', 'cdr got 5'),
    ('(cdr (cdr (list 1)))', 'cdr got ()'),
    ('(nth (list 1 2) 5)', 'nth got (1 2)'),
    ('(list-tail (list "a") 3)', 'list-tail got ("a")'),
    ('(length 7)', 'length got 7'),
    ('(foldl + 0 ())', 'foldl got ()'),
    ('(apply + 1 "x\\ny")', 'apply got "x\\ny"'),
])
def test_list_builtins_show_the_offending_value(expr, hint, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    o, e = io.StringIO(), io.StringIO()
    assert cli.main(['-e', expr], stdout=o, stderr=e) == 1
    assert e.getvalue().splitlines()[4] == '  hint: ' + hint


def test_the_value_is_cut_to_60_characters():
    text = short_write(make_list([float(i) for i in range(100)]))
    assert len(text) == 60 and text == '(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22…'
    assert short_write('x' * 58) == '"' + 'x' * 58 + '"'
    assert short_write('x' * 59) == '"' + 'x' * 58 + '…'
    deep = make_list([])
    for _ in range(100000):
        deep = make_list([deep])
    assert short_write(deep) == '(' * 59 + '…'


def test_lambda_arity_error_shows_the_parameter_list(run):
    status, o, e = run('(define (f x y) x)\n(f 1)\n')
    assert e == ('Error: f: expected 2 args, got 1\n'
                 '  at prog.lisp:2:1\n'
                 '  2 | (f 1)\n'
                 '    | ^^^^^\n'
                 '  hint: f takes (x y)\n')


@pytest.mark.parametrize('src, hint', [
    ('(define (g a . more) a)\n(g)\n', 'g takes (a . more)'),
    ('((lambda (x) x))\n', 'lambda takes (x)'),
    ('(define h (lambda () 1))\n(h 1 2)\n', 'h takes ()'),
])
def test_arity_hint_variants(run, src, hint):
    status, o, e = run(src)
    assert e.splitlines()[4] == '  hint: ' + hint


def test_no_hint_when_the_message_shows_the_value(run):
    status, o, e = run('(+ 1 "a")\n')
    assert 'hint:' not in e


# ── Long lines ───────────────────────────────────────────────────────────

def test_a_long_line_is_windowed_around_the_marker(run):
    head = '(define xs (list ' + ' '.join(str(i) for i in range(40)) + ')) '
    status, o, e = run(head + '(car 5) ; ' + 'z' * 60 + '\n')
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:130\n'
                 '  1 | …25 26 27 28 29 30 31 32 33 34 35 36 37 38 39)) (car 5) ; '
                 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…\n'
                 '    |                                                 ^^^^^^^\n'
                 '  hint: car got 5\n')


def test_a_long_line_cut_only_on_the_left_near_its_end(run):
    status, o, e = run('(list ' + ' '.join(str(i) for i in range(60)) + ' (car 5))\n')
    got = e.splitlines()
    assert got[2] == ('  1 | …9 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 '
                      '56 57 58 59 (car 5))')
    assert got[3] == '    | ' + ' ' * 93 + '^^^^^^^'


def test_a_form_wider_than_the_window_keeps_its_start(run):
    status, o, e = run('(define (f a b) a) (f ' + ' '.join(str(i) for i in range(60)) + ')\n')
    got = e.splitlines()
    assert got[2] == ('  1 | …f a b) a) (f 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 '
                      '25 26 27 28 29 30 31 3…')
    assert got[3] == '    | ' + ' ' * 11 + '^' * 90     # to the window's edge
    assert len(got[2]) - len('  1 | ') == 102    # 100 columns and two …


def test_a_line_of_exactly_100_columns_is_not_cut(run):
    text = '(car 5)' + ' ' * 83 + '; 3456789'
    assert len(text) == 99
    status, o, e = run(text + 'x\n')
    assert e.splitlines()[2] == '  1 | ' + text + 'x'


# ── The same in the REPL ─────────────────────────────────────────────────

@pytest.fixture
def repl_home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def repl_report(keys):
    out, _ = drive(keys + CTRL_D)
    body = lines(out)
    return body[:body.index('')] if '' in body else body


def test_repl_stdlib_failure_and_hint(repl_home):
    got = repl_report('(remove-duplicates 5)' + ENTER)
    assert got[0] == 'Error: car: not a pair'
    assert re.fullmatch(r'  at <repl(:1)?>:1:1', got[1])
    assert got[2:6] == ['  1 | (remove-duplicates 5)', '    | ^^^^^^^^^^^^^^^^^^^^^', '  hint: car got 5',
                        'Backtrace (innermost last):']
    assert stdlib_frame(got[6], 'loop')


def test_repl_arity_hint(repl_home):
    got = repl_report('(define (f x y) x)' + ENTER + '(f 1)' + ENTER)
    assert got[0] == 'Error: f: expected 2 args, got 1'
    assert got[2:] == ['  1 | (f 1)', '    | ^^^^^', '  hint: f takes (x y)']


def test_repl_long_line_window(repl_home):
    line = '(list ' + ' '.join(str(i) for i in range(60)) + ' (car 5))'
    got = repl_report(line + ENTER)
    assert got[2] == ('  1 | …9 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 '
                      '56 57 58 59 (car 5))')
    assert got[3:] == ['    | ' + ' ' * 93 + '^^^^^^^', '  hint: car got 5']
