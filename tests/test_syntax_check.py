"""Syntax is checked when a form is read in (rusty/syntax.py): every special
form in a top-level form, nested lambda bodies included, has its table shape
before any of the form runs; eval's datum and each macro expansion are checked
when they are made. Messages name the form's grammar from the forms table."""
import io
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import dv, err, ev, out, run_capture
from repl_driver import CTRL_D, ENTER, drive, lines, private_home
from rusty import eval as evaluator
from rusty.errors import EvalError, RustyError
from rusty.reader import read
from rusty.runtime import Session, stdlib_forms
from rusty.syntax import check, problem
from rusty.values import sym


def rusty(*args, stdin=None):
    p = subprocess.run([sys.executable, '-m', 'rusty', *args], capture_output=True, text=True,
                       input=stdin, timeout=60)
    return p.returncode, p.stdout, p.stderr


# ── The manual's examples ────────────────────────────────────────────────

@pytest.mark.parametrize('src,msg', [
    ('(if 1 2 3 4)', 'if: expected (if test then [else]), got 4 parts'),
    ('(define z 1 (f))', 'define: expected (define name value), got 3 parts'),
])
def test_the_manual_examples(src, msg):
    assert err(src) == msg


def test_the_examples_in_batch_mode_point_at_the_form():
    assert rusty('-e', '(if 1 2 3 4)') == (1, '', 'Error: if: expected (if test then [else]), got 4 parts\n'
                                                  '  at <expr>:1:1\n'
                                                  '  1 | (if 1 2 3 4)\n'
                                                  '    | ^^^^^^^^^^^^\n')


def test_every_form_names_its_own_grammar():
    table = {
        '(define (f))': 'define: expected (define (name . params) body...), got 1 part',
        '(def f)': 'def: expected (def name value), got 1 part',
        '(lambda (x))': 'lambda: expected (lambda params body...), got 1 part',
        '(set! x 1 2)': 'set!: expected (set! name value), got 3 parts',
        '(let ((a 1)))': 'let: expected (let ((name expr)...) body...), got 1 part',
        '(let loop ((a 1)))': 'let: expected (let loop ((var init)...) body...), got 2 parts',
        '(letrec* ((a 1)))': 'letrec*: expected (letrec* ((name expr)...) body...), got 1 part',
        '(do ((i 0)))': 'do: expected (do ((var init [step])...) (test result...) body...), got 1 part',
        '(when 1)': 'when: expected (when test body...), got 1 part',
        '(match 1)': 'match: expected (match expr (pattern body...)...), got 1 part',
        '(try-catch 1 (e) 2 3)': 'try-catch: expected (try-catch body (err) handler), got 4 parts',
        "(quote a b)": 'quote: expected (quote datum), got 2 parts',
        '(eval 1 2)': 'eval: expected (eval expr), got 2 parts',
        '(load-relative "a" "b")': 'load: expected (load-relative path), got 2 parts',
        '(defrust f (x))': 'defrust: expected (defrust name (params...) body), got 2 parts',
        '(defrust*)': 'defrust*: at least one function required',     # its own message
        '(eval-when)': 'eval-when: expected (eval-when (phase...) form...), got 0 parts',
    }
    assert {src: err(src) for src in table} == table


# ── Checked when read in, not when run ───────────────────────────────────

def test_a_malformed_form_in_a_body_that_never_runs_is_reported_at_that_form(tmp_path):
    prog = tmp_path / 'prog.lisp'
    prog.write_text('(display "start")\n'
                    '(define (never-called x)\n'
                    '  (let ((a 1) (b))\n'
                    '    (+ a b)))\n'
                    '(display "end")\n')
    assert rusty(str(prog)) == (1, 'start', 'Error: let: each binding must be (name expr)\n'
                                            '  at %s:3:15\n'
                                            '  3 |   (let ((a 1) (b))\n'
                                            '    |               ^^^\n' % prog)


def test_nothing_of_a_malformed_top_level_form_runs():
    assert run_capture('(display 1) (begin (display 2) (lambda () (if)))') == \
        ('1', 'if: expected (if test then [else]), got 0 parts')
    assert run_capture('(display 1) (define (f) (display 2) (cond (else 1) (2 3)))') == \
        ('1', 'cond: else must be the last clause')


def test_deeply_nested_lambda_bodies_are_walked():
    src = '(define (f) (lambda (a) (lambda (b) (map (lambda (c) (when c)) b))))'
    assert err(src) == 'when: expected (when test body...), got 1 part'


@pytest.mark.parametrize('src', [
    "'(if 1 2 3 4)", "(quote (let x))", "`(if ,@(list 1) 2 3 4)", "(case 1 ((if) 1))",
    "(match '(if) ((if) 1))", "(match 1 ('(let) 2) (_ 3))", "(cond ((quote (if)) 1))",
])
def test_quoted_data_and_templates_are_not_code(src):
    Session().run(src)          # no error


def test_the_unquoted_parts_of_a_template_are_code():
    assert err('`(a ,(if))') == 'if: expected (if test then [else]), got 0 parts'
    assert err('`(a (b ,@(let ())))') == 'let: expected (let ((name expr)...) body...), got 1 part'
    assert err('(define (f) `(1 `(2 ,(when))))') == 'when: expected (when test body...), got 0 parts'


def test_special_forms_are_recognised_by_name_even_where_a_local_has_the_name():
    assert ev('(define (f do) (+ do 1)) (f 1)') == '2'
    assert err('(define (f if) (if 1))') == 'if: expected (if test then [else]), got 1 part'


# ── Macros ───────────────────────────────────────────────────────────────

def test_a_macro_call_is_not_checked_until_expanded():
    assert ev("(defmacro q (x) (list 'quote x)) (q (if 1 2 3 4))") == '(if 1 2 3 4)'
    assert ev("(defmacro q (x) (list 'quote x)) (define (f) (q (let))) (f)") == '(let)'


def test_a_library_macro_call_is_not_checked_and_the_library_is_not_made_for_it():
    s = Session()
    cell = s.genv.cells[sym('dotimes')]
    was_pending = cell.pending is not None      # (made at start-up with the fast paths off)
    assert s.genv.is_macro(sym('dotimes')) and not s.genv.is_macro(sym('map'))
    assert (cell.pending is not None) == was_pending        # asking made nothing
    s.out = io.StringIO()
    s.run('(dotimes (i 2) (display i))')
    assert s.out.getvalue() == '01'


def test_a_pending_macro_is_known_without_making_it():
    from rusty.resolve import GlobalEnv, Pending
    genv = GlobalEnv()
    genv.cell(sym('m')).defer(Pending(lambda: 1 / 0, macro=True))
    genv.cell(sym('f')).defer(Pending(lambda: 1 / 0))
    assert genv.is_macro(sym('m')) and not genv.is_macro(sym('f')) and not genv.is_macro(sym('zz'))


def test_a_macro_defined_later_in_the_same_text_is_a_macro_there():
    assert ev("(define (f) (q (if))) (defmacro q (x) (list 'quote x)) (f)") == '(if)'
    assert ev("(begin (defmacro q (x) (list 'quote x)) (q (if)))") == '(if)'


def test_a_local_binding_hides_a_macro_name():
    src = "(defmacro q (x) (list 'quote x)) (define (f q) (q (if)))"
    assert err(src) == 'if: expected (if test then [else]), got 0 parts'
    assert err("(defmacro q (x) 1) (let ((q car)) (q (when)))") == 'when: expected (when test body...), got 0 parts'


def test_an_expansion_is_checked_when_expanded_at_the_call():
    src = "(defmacro bad (x) (list 'if x))\n(define (f) (bad 1))\n(display \"ran\")\n(f)\n"
    status, o, e = rusty('-', stdin=src)
    assert (status, o) == (1, 'ran')
    assert e.startswith('Error: if: expected (if test then [else]), got 1 part\n'
                        '  at <stdin>:2:13\n'), e
    assert dv("(defmacro bad (x) (list 'if x)) (try-catch (bad 1) (e) e)") == \
        '"if: expected (if test then [else]), got 1 part"'


# ── eval, eval-string, load ──────────────────────────────────────────────

def test_eval_checks_its_datum_before_running_it():
    assert out("(try-catch (eval '(begin (display 1) (lambda () (if)))) (e) (display e))") == \
        'if: expected (if test then [else]), got 0 parts'


def test_eval_string_and_load_check_each_form(tmp_path):
    assert dv('(try-catch (eval-string "(display 1) (let)") (e) e)') == \
        '"let: expected (let ((name expr)...) body...), got 0 parts"'
    lib = tmp_path / 'lib.lisp'
    lib.write_text('(define ok 1)\n(define (g) (if))\n')
    assert run_capture('(load "%s") ok' % lib) == ('', 'if: expected (if test then [else]), got 0 parts')
    assert err('(load "%s") (g)' % lib) == 'if: expected (if test then [else]), got 0 parts'


def test_the_repl_reports_a_malformed_form_before_running_it(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)
    o, _ = drive('(define (f) (display "x") (if 1 2 3 4))' + ENTER + '(f)' + ENTER + CTRL_D)
    body = lines(o)
    assert body[:4] == ['Error: if: expected (if test then [else]), got 4 parts',
                        '  at <repl:1>:1:27',
                        '  1 | (define (f) (display "x") (if 1 2 3 4))',
                        '    |                           ^^^^^^^^^^^^']
    assert "Error: Undefined: 'f'" in o          # the definition never ran


# ── One message both ways ────────────────────────────────────────────────

MALFORMED = ['(if)', '(if 1 2 3 4)', '(define x)', '(define 5 1)', '(define () 1)', '(define (f 1) 1)',
             '(def x)', '(def 5 (x) 1)', '(set! 5 1)', '(set x)', '(lambda (x))', '(lambda (a . b c) 1)',
             '(let 5 1)', '(let ((1 2)) 1)', '(let loop 5 1)', '(let* (x) 1)', '(letrec ((a)) 1)',
             '(do)', '(do 5 (#t))', '(do ((i)) (#t))', '(do () ())', '(when)', '(unless 1)', '(quote)',
             '(quasiquote 1 2)', '(eval)', '(eval-when 5 1)', '(try-catch 1 e 2)', '(match 1)',
             "(match 1 ((a . b c) 1))", '(match 1 5)', '(case)', '(case 1 (1 2))', '(case 1 (else 1) ((2) 3))',
             '(cond 5)', '(cond (else 1) (2))', '(defmacro m (x))', '(defmacro 5 (x) x)', '(defmacro m x x)',
             '(defmacro m (x) (eval-when () 1))', '(load)', '(load-relative 1 2)', '(defrust f (x))',
             '(defrust 5 (x) x)', '(defrust* (f x))']


@pytest.mark.parametrize('src', MALFORMED)
def test_the_compile_time_message_is_the_check_message(src):
    """A form reaching the compiler unchecked (made from data) fails with the
    message the check gives when it is read in."""
    s = Session()
    form = read(src).car
    with pytest.raises(EvalError) as checked:
        check(form)
    assert problem(form) == checked.value.message
    code = evaluator.comp(form, None, False, None, s.unit)
    with pytest.raises(RustyError) as compiled:
        s._call(code, None)
    assert compiled.value.message == checked.value.message


# ── The check as a function ──────────────────────────────────────────────

def test_check_is_a_pure_function_of_the_form():
    form = read('(define (f)\n  (let ((x)) x))', 'buf.lisp').car
    with pytest.raises(EvalError) as e:
        check(form)
    assert e.value.message == 'let: each binding must be (name expr)'
    sp = e.value.span
    assert (sp.file, sp.line, sp.col, sp.end_line, sp.end_col) == ('buf.lisp', 2, 9, 2, 12)
    assert check(read("(q (if))").car, is_macro=lambda s: s.name == 'q') is None
    with pytest.raises(EvalError):
        check(read("(q (if))").car, is_macro=lambda s: s.name == 'q', local_names=[sym('q')])


def test_code_made_from_data_points_at_the_given_span():
    form = read('(list (if))', 'buf.lisp').car
    with pytest.raises(EvalError) as e:
        check(form, span='CALL', use_spans=False)
    assert e.value.span == 'CALL'


def test_the_standard_library_passes_the_check():
    forms = list(stdlib_forms().cells())
    macros = {c.car.cdr.car for c in forms if c.car.car in (sym('defmacro'), sym('define-macro'))}
    for c in forms:
        check(c.car, c.span, lambda s: s in macros)


def test_the_examples_and_golden_programs_pass_the_check():
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    files = sorted(root.glob('repl.lisp-examples/*.lisp'))
    assert files
    for path in files:
        text = path.read_text(encoding='utf-8')
        s = Session(out=io.StringIO())
        from rusty.runtime import macro_test
        forms = read(text, str(path))
        is_macro = macro_test(s.genv, forms)
        for c in forms.cells():
            check(c.car, c.span, is_macro)


ATOMS = st.sampled_from(['1', 'x', '"s"', '#t', '()', '.', 'else', '_', '?', "'a"])
HEADS = st.sampled_from(['define', 'def', 'lambda', 'fn', 'let', 'let*', 'letrec', 'do', 'if', 'cond',
                         'case', 'when', 'and', 'match', 'try-catch', 'quote', 'quasiquote', 'unquote',
                         'eval', 'eval-when', 'defmacro', 'load', 'defrust', 'defrust*', 'set!', 'f', 'cons'])


def _forms():
    return st.recursive(ATOMS, lambda inner: st.builds(
        lambda h, xs: '(' + ' '.join([h] + xs) + ')', HEADS, st.lists(inner, max_size=4)), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(_forms())
def test_any_form_is_accepted_or_gets_a_rusty_error(src):
    try:
        form = read(src).car
    except RustyError:
        return
    try:
        check(form, is_macro=lambda s: False)
    except EvalError as e:
        assert e.message and 'internal error' not in e.message
        return
    evaluator.comp(form, None, False, None, FUZZ_SESSION.unit)     # a checked form compiles


FUZZ_SESSION = Session(out=io.StringIO())
