"""docs/reference.md §7 Errors and error reports, §9 The command line: batch-mode error reports, exactly."""
import io

import pytest

from rusty import cli


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Write NAME with TEXT in a temp dir and run `rusty NAME` in-process: (status, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def go(text, name='prog.lisp'):
        (tmp_path / name).write_text(text, encoding='utf-8')
        o, e = io.StringIO(), io.StringIO()
        status = cli.main([name], stdout=o, stderr=e)
        return status, o.getvalue(), e.getvalue()
    return go


def run_expr(expr):
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['-e', expr], stdout=o, stderr=e)
    return status, o.getvalue(), e.getvalue()


def test_demo_example_verbatim(run):
    status, o, e = run('(define (f x) (/ x 0))\n(define (g y) (+ 1 (f y)))\n(g 2)\n', 'demo.lisp')
    assert status == 1
    assert o == ''
    assert e == ('Error: Division by zero\n'
                 '  at demo.lisp:1:15\n'
                 '  1 | (define (f x) (/ x 0))\n'
                 '    |               ^^^^^^^\n'
                 'Backtrace (innermost last):\n'
                 '  demo.lisp:3:1 in g\n'
                 '  demo.lisp:2:20 in f\n')


def test_no_backtrace_header_without_frames(run):
    status, o, e = run('(display "x")\n(car 5)\n')
    assert (status, o) == (1, 'x')
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:2:1\n'
                 '  2 | (car 5)\n'
                 '    | ^^^^^^^\n'
                 '  hint: car got 5\n')


def test_expr_source_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, o, e = run_expr("(car '())")
    assert status == 1
    assert e == ("Error: car: not a pair\n"
                 "  at <expr>:1:1\n"
                 "  1 | (car '())\n"
                 "    | ^^^^^^^^^\n"
                 "  hint: car got ()\n")


def test_undefined_points_at_the_symbol(run):
    status, o, e = run('(+ 1 zzqnope)\n')
    assert e == ("Error: Undefined: 'zzqnope'\n"
                 '  at prog.lisp:1:6\n'
                 '  1 | (+ 1 zzqnope)\n'
                 '    |      ^^^^^^^\n')


def test_usage_error_points_at_the_special_form(run):
    status, o, e = run('(define x 1)\n  (if)\n')
    assert e == ('Error: if: expected (if test then [else]), got 0 parts\n'
                 '  at prog.lisp:2:3\n'
                 '  2 |   (if)\n'
                 '    |   ^^^^\n')


def test_error_call_position(run):
    status, o, e = run('(define (check v)\n  (if (< v 0) (error "negative:" v) v))\n(check -1)\n')
    assert e == ('Error: negative: -1\n'
                 '  at prog.lisp:2:15\n'
                 '  2 |   (if (< v 0) (error "negative:" v) v))\n'
                 '    |               ^^^^^^^^^^^^^^^^^^^^^\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:3:1 in check\n')


def test_marker_under_tabs(run):
    status, o, e = run('(define\ty\t(car 5))\n')
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:11\n'
                 '  1 | (define\ty\t(car 5))\n'
                 '    |        \t \t^^^^^^^\n'
                 '  hint: car got 5\n')


def test_marker_width_follows_line_number_digits(run):
    text = '\n' * 11 + '(car 5)\n'
    status, o, e = run(text)
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:12:1\n'
                 '  12 | (car 5)\n'
                 '     | ^^^^^^^\n'
                 '  hint: car got 5\n')


def test_multiline_form_marks_to_end_of_line(run):
    text = '(define (f x)\n  (+ x\n     "a"))\n(f 1)\n'
    status, o, e = run(text)
    assert e == ('Error: +: expected a number, got "a"\n'
                 '  at prog.lisp:2:3\n'
                 '  2 |   (+ x\n'
                 '    |   ^^^^\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:4:1 in f\n')


def test_columns_count_code_points(run):
    status, o, e = run('(list "λλ" (car 5))\n')
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:12\n'
                 '  1 | (list "λλ" (car 5))\n'
                 '    |            ^^^^^^^\n'
                 '  hint: car got 5\n')


def _chain(n):
    return '(define (f n)\n  (if (= n 0) (car 5) (+ 1 (f (- n 1)))))\n(f %d)\n' % n


def test_backtrace_exactly_ten_frames_not_elided(run):
    status, o, e = run(_chain(9))
    lines = e.splitlines()
    assert lines[4] == '  hint: car got 5'
    assert lines[5] == 'Backtrace (innermost last):'
    assert lines[6] == '  prog.lisp:3:1 in f'
    assert lines[7:] == ['  prog.lisp:2:28 in f'] * 9


def test_backtrace_elides_over_ten_frames(run):
    status, o, e = run(_chain(14))
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:2:15\n'
                 '  2 |   (if (= n 0) (car 5) (+ 1 (f (- n 1)))))\n'
                 '    |               ^^^^^^^\n'
                 '  hint: car got 5\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:3:1 in f\n'
                 '  prog.lisp:2:28 in f\n'
                 '  prog.lisp:2:28 in f\n'
                 '  ... 5 more\n'
                 + '  prog.lisp:2:28 in f\n' * 7)


def test_backtrace_eleven_frames(run):
    status, o, e = run(_chain(10))
    lines = e.splitlines()
    assert lines[6:10] == ['  prog.lisp:3:1 in f', '  prog.lisp:2:28 in f', '  prog.lisp:2:28 in f', '  ... 1 more']
    assert len(lines[10:]) == 7


def test_tail_calls_are_eliminated_from_the_backtrace(run):
    text = '(define (g x) (car x))\n(define (f x) (g x))\n(define (h x) (+ 1 (f x)))\n(h 5)\n'
    status, o, e = run(text)
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:15\n'
                 '  1 | (define (g x) (car x))\n'
                 '    |               ^^^^^^^\n'
                 '  hint: car got 5\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:4:1 in h\n'
                 '  prog.lisp:2:15 in g\n')


def test_tail_loop_leaves_one_frame(run):
    text = '(define (loop n) (if (= n 0) (car n) (loop (- n 1))))\n(loop 50)\n'
    status, o, e = run(text)
    lines = e.splitlines()
    assert lines[4] == '  hint: car got 0'
    assert lines[5] == 'Backtrace (innermost last):'
    assert len(lines) == 7
    assert lines[6].endswith(' in loop')


def test_builtin_called_procedure_shows_the_builtin_call(run):
    text = '(define (f x) (car x))\n(map f (list 1))\n'
    status, o, e = run(text)
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:15\n'
                 '  1 | (define (f x) (car x))\n'
                 '    |               ^^^^^^^\n'
                 '  hint: car got 1\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:2:1 in f\n')


def test_lambda_names(run):
    text = ('(define named (lambda (x) (car x)))\n'
            '(define (outer) (+ 1 ((lambda (y) (+ 1 (named y))) 5)))\n'
            '(outer)\n')
    status, o, e = run(text)
    assert e.endswith('Backtrace (innermost last):\n'
                      '  prog.lisp:3:1 in outer\n'
                      '  prog.lisp:2:22 in lambda\n'
                      '  prog.lisp:2:40 in named\n')


def test_named_let_frame_name(run):
    text = '(define (f)\n  (+ 0 (let walk ((i 0)) (if (= i 2) (car i) (+ 1 (walk (+ i 1)))))))\n(f)\n'
    status, o, e = run(text)
    lines = e.splitlines()
    assert lines[4] == '  hint: car got 2'
    assert lines[6] == '  prog.lisp:3:1 in f'
    assert all(line.endswith(' in walk') for line in lines[7:])
    assert len(lines[7:]) == 3


def test_def_frame_name(run):
    status, o, e = run('(def f (x) (car x))\n(+ 1 (f 2))\n')
    assert e.endswith('Backtrace (innermost last):\n  prog.lisp:2:6 in f\n')


def test_error_in_macro_expansion_reported_at_macro_call(run):
    text = '(defmacro m (x) `(car ,x))\n(list 1\n  (m 5))\n'
    status, o, e = run(text)
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:3:3\n'
                 '  3 |   (m 5))\n'
                 '    |   ^^^^^\n'
                 '  hint: car got 5\n')


def test_error_in_eval_code_reported_at_eval_form(run):
    status, o, e = run("(eval '(car 5))\n")
    assert e.startswith('Error: car: not a pair\n  at prog.lisp:1:1\n')


def test_parse_error_unclosed_innermost(run):
    status, o, e = run('(display "hi")\n(define (f x)\n  (g (h 1)\n')
    assert status == 1
    assert o == ''
    lines = e.splitlines()
    assert lines[0] == "Error: unexpected end of input: a '(' is never closed"
    assert lines[1] == '  at prog.lisp:3:3'
    assert lines[2] == '  3 |   (g (h 1)'
    assert 'Backtrace' not in e


def test_parse_error_stray_paren(run):
    status, o, e = run('(display "hi")\n(+ 1 2))\n')
    assert (status, o) == (1, '')
    assert e == ("Error: unexpected ')' with no matching '('\n"
                 '  at prog.lisp:2:8\n'
                 '  2 | (+ 1 2))\n'
                 '    |        ^\n')


def test_multi_line_message_written_as_is(run):
    status, o, e = run('(error "line one\\nline two")\n')
    assert e.startswith('Error: line one\nline two\n  at prog.lisp:1:1\n')


def test_unreadable_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['nofile.lisp'], stdout=o, stderr=e)
    assert (status, o.getvalue(), e.getvalue()) == \
        (1, '', 'Error reading nofile.lisp: No such file or directory (os error 2)\n')


def test_unreadable_file_invalid_utf8(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'bad.lisp').write_bytes(b'(display "\xff")\n')
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['bad.lisp'], stdout=o, stderr=e)
    assert (status, o.getvalue(), e.getvalue()) == \
        (1, '', 'Error reading bad.lisp: stream did not contain valid UTF-8\n')


def test_error_in_loaded_file_points_into_that_file(run, tmp_path):
    (tmp_path / 'lib.lisp').write_text('(define (bad) (car 5))\n')
    status, o, e = run('(load "lib.lisp")\n(bad)\n')
    assert e == ('Error: car: not a pair\n'
                 '  at lib.lisp:1:15\n'
                 '  1 | (define (bad) (car 5))\n'
                 '    |               ^^^^^^^\n'
                 '  hint: car got 5\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:2:1 in bad\n')


def test_report_goes_to_stderr_after_output(run):
    status, o, e = run('(display "a")\n(println "b")\n(car 5)\n(display "never")\n')
    assert o == 'ab\n'
    assert e.startswith('Error: car: not a pair\n')


def test_caught_errors_are_not_reported(run):
    status, o, e = run('(println (try-catch (car 5) (e) e))\n')
    assert (status, o, e) == (0, 'car: not a pair\n', '')


def test_function_called_from_macro_expansion_frame_at_macro_call(run):
    text = '(define (f x) (car x))\n(defmacro m (v) `(f ,v))\n(define (g) (+ 1 (m 5)))\n(g)\n'
    status, o, e = run(text)
    assert e == ('Error: car: not a pair\n'
                 '  at prog.lisp:1:15\n'
                 '  1 | (define (f x) (car x))\n'
                 '    |               ^^^^^^^\n'
                 '  hint: car got 5\n'
                 'Backtrace (innermost last):\n'
                 '  prog.lisp:4:1 in g\n'
                 '  prog.lisp:3:18 in f\n')


def test_error_inside_eval_string_text_points_into_the_string(run):
    status, o, e = run('(eval-string "(+ 1\\n (car 5))")\n')
    assert status == 1
    lines = e.splitlines()
    assert lines[0] == 'Error: car: not a pair'
    assert lines[1] == '  at <string>:2:2'
    assert lines[2] == '  2 |  (car 5))'
    assert lines[3] == '    |  ^^^^^^^'
