"""docs/reference.md §5 Special forms: load and load-relative."""
import io

import pytest

from rusty import cli

from helpers import dv, err, ev, out

UNCLOSED = "unexpected end of input: a '(' is never closed"


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_load_returns_last_value_and_defines_globally(here):
    (here / 'lib.lisp').write_text('(define zqlib 41)\n(+ zqlib 1)\n')
    assert ev('(load "lib.lisp")') == '42'
    assert ev('(load "lib.lisp") zqlib') == '41'


def test_load_empty_file_is_nil(here):
    (here / 'empty.lisp').write_text('; nothing here\n')
    assert ev('(type-of (load "empty.lisp"))') == 'nil'


def test_load_evaluates_in_the_global_environment(here):
    (here / 'l.lisp').write_text('x\n')
    assert ev("(define x 'global) (let ((x 'local)) (load \"l.lisp\"))") == 'global'
    (here / 'd.lisp').write_text('(define zqdeep 5)\n')
    assert ev('(define (f) (let ((y 1)) (load "d.lisp"))) (f) zqdeep') == '5'


def test_load_output_in_order(here):
    (here / 'p.lisp').write_text('(display "b")\n')
    assert out('(display "a") (load "p.lisp") (display "c")') == 'abc'


def test_load_missing_file(here):
    assert err('(load "nope.lisp")') == "load: cannot read 'nope.lisp': No such file or directory (os error 2)"


def test_load_path_as_written(here):
    assert err('(load "./sub/../nope.lisp")') == \
        "load: cannot read './sub/../nope.lisp': No such file or directory (os error 2)"


def test_load_directory(here):
    (here / 'adir').mkdir()
    assert err('(load "adir")') == "load: cannot read 'adir': Is a directory (os error 21)"


def test_load_invalid_utf8(here):
    (here / 'bad.lisp').write_bytes(b'(display "\xff\xfe")\n')
    assert err('(load "bad.lisp")') == "load: cannot read 'bad.lisp': stream did not contain valid UTF-8"


@pytest.mark.parametrize('text,msg', [
    ('(display "ran")\n(define (f x)\n', UNCLOSED),
    ('(display "ran"))', "unexpected ')' with no matching '('"),
    ("(display \"ran\") '", "''' must be followed by a datum"),
])
def test_load_parse_error_means_nothing_ran(here, text, msg):
    (here / 'lib.lisp').write_text(text)
    assert err('(load "lib.lisp")') == 'load: lib.lisp: ' + msg
    assert out('(try-catch (load "lib.lisp") (e) 0)') == ''


def test_load_parse_error_message_uses_path_as_written(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'lib.lisp').write_text('(')
    assert err('(load "sub/lib.lisp")') == 'load: sub/lib.lisp: ' + UNCLOSED
    assert err('(load "./sub/lib.lisp")') == 'load: ./sub/lib.lisp: ' + UNCLOSED


def test_load_runtime_errors_propagate_unchanged(here):
    (here / 'lib.lisp').write_text('(display "a")\n(car 5)\n(display "b")\n')
    assert err('(load "lib.lisp")') == 'car: not a pair'
    assert out('(try-catch (load "lib.lisp") (e) 0)') == 'a'


def test_load_errors_are_catchable(here):
    assert dv('(try-catch (load "nope.lisp") (e) e)') == \
        '"load: cannot read \'nope.lisp\': No such file or directory (os error 2)"'


def test_load_resolves_against_current_directory(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load "b.lisp")\n')
    (here / 'b.lisp').write_text("'top-b\n")
    (here / 'sub' / 'b.lisp').write_text("'sub-b\n")
    assert ev('(load "sub/a.lisp")') == 'top-b'


# ── load-relative ────────────────────────────────────────────────────────

def test_load_relative_from_a_loaded_file(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load-relative "b.lisp")\n')
    (here / 'b.lisp').write_text("'top-b\n")
    (here / 'sub' / 'b.lisp').write_text("'sub-b\n")
    assert ev('(load "sub/a.lisp")') == 'sub-b'


def test_load_relative_innermost_file(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'deeper').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load-relative "deeper/b.lisp")\n')
    (here / 'sub' / 'deeper' / 'b.lisp').write_text('(load-relative "c.lisp")\n')
    (here / 'sub' / 'deeper' / 'c.lisp').write_text("'deep-c\n")
    (here / 'sub' / 'c.lisp').write_text("'sub-c\n")
    assert ev('(load "sub/a.lisp")') == 'deep-c'


def test_load_relative_after_nested_load_returns(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'deeper').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load-relative "deeper/b.lisp")\n(load-relative "c.lisp")\n')
    (here / 'sub' / 'deeper' / 'b.lisp').write_text('1\n')
    (here / 'sub' / 'deeper' / 'c.lisp').write_text("'deep-c\n")
    (here / 'sub' / 'c.lisp').write_text("'sub-c\n")
    assert ev('(load "sub/a.lisp")') == 'sub-c'


def test_load_relative_messages_begin_with_load(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load-relative "missing.lisp")\n')
    assert err('(load "sub/a.lisp")') == \
        "load: cannot read 'missing.lisp': No such file or directory (os error 2)"
    (here / 'sub' / 'p.lisp').write_text('(load-relative "bad.lisp")\n')
    (here / 'sub' / 'bad.lisp').write_text('(')
    assert err('(load "sub/p.lisp")') == 'load: bad.lisp: ' + UNCLOSED


def test_load_relative_from_script_on_command_line(here):
    (here / 'proj').mkdir()
    (here / 'proj' / 'main.lisp').write_text('(load-relative "helper.lisp")\n(println (helper))\n')
    (here / 'proj' / 'helper.lisp').write_text("(define (helper) 'helped)\n")
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['proj/main.lisp'], stdout=o, stderr=e)
    assert (status, o.getvalue(), e.getvalue()) == (0, 'helped\n', '')


def test_load_relative_in_expr_mode_uses_current_directory(here):
    (here / 'x.lisp').write_text("'cwd-x\n")
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['-e', '(println (load-relative "x.lisp"))'], stdout=o, stderr=e)
    assert (status, o.getvalue(), e.getvalue()) == (0, 'cwd-x\n', '')


def test_load_relative_absolute_path(here):
    (here / 'abs.lisp').write_text("'absolute\n")
    (here / 'sub').mkdir()
    (here / 'sub' / 'a.lisp').write_text('(load-relative "%s")\n' % (here / 'abs.lisp'))
    assert ev('(load "sub/a.lisp")') == 'absolute'


def test_load_is_not_a_tail_position_for_its_forms_but_works(here):
    (here / 'loop.lisp').write_text('(define (loop n) (if (= n 0) \'done (loop (- n 1))))\n(loop 20000)\n')
    assert ev('(load "loop.lisp")') == 'done'
