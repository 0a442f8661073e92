"""docs/reference.md §6.10 Discovering names: (doc 'name) for every name, and every example in it holds.

Each name's examples run in order in one fresh session (a later example may use
what an earlier one wrote, e.g. a file), from a private working directory, and
the result's write form (docs/reference.md §3) must be the documented text exactly; a result
`error: MSG` means the example raises MSG.
"""
import io
import os

import pytest

from helpers import out, value
from rusty import docs
from rusty.errors import RustyError
from rusty.printer import display_form
from rusty.runtime import Session
from rusty.values import Builtin, Lambda, List, Macro

try:   # the write form arrives with printer.write_form (another branch); until then, the write form of docs/reference.md §3 by hand
    from rusty.printer import write_form
except ImportError:
    _ESCAPES = {'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r'}

    def write_form(x):
        if x.__class__ is str:
            return '"' + ''.join(_ESCAPES.get(c, c) for c in x) + '"'
        if x.__class__ is List:
            return '(' + ' '.join(write_form(e) for e in x) + ')'
        return display_form(x)

NEEDS_RUSTC = {'graph-compile', 'graph-compile-grad', 'defrust', 'defrust*', 'graph-compile-train', 'train!'}


def fresh():
    return Session(out=io.StringIO())


def all_names():
    """Every name `(apropos "")` lists."""
    s = fresh()
    s.run('(apropos "")', '<test>')
    names = [line[2:] for line in s.out.getvalue().splitlines()]
    assert names and all(line.startswith('  ') for line in s.out.getvalue().splitlines())
    return names


def documented(name):
    return docs.entry(fresh(), name)


def _param(name):
    marks = [pytest.mark.rustc] if name in NEEDS_RUSTC else []
    return pytest.param(name, marks=marks, id=name)


# ── Every name has documentation ─────────────────────────────────────────

@pytest.mark.parametrize('name', all_names())
def test_every_listed_name_has_doc(name):
    s = fresh()
    text = s.run("(doc '%s)" % name if name != 'λ' else '(doc (string->symbol "λ"))', '<test>')
    assert text.__class__ is str and text.strip()
    first = text.split('\n')[0]
    assert first.startswith('(') or first.startswith(',') or first.startswith("'") or first.startswith('`')


@pytest.mark.parametrize('name', [n for n in all_names() if n not in fresh().special_names])
def test_builtins_and_stdlib_have_signature_prose_and_examples(name):
    d = documented(name)
    assert d is not None
    assert d.sig.startswith('(') and name in d.sig
    assert d.text.strip()
    assert len(d.examples) >= 1


# ── Every example holds ──────────────────────────────────────────────────

def run_examples(examples, tmp_path):
    s = fresh()
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        for expr, want in examples:
            try:
                got = write_form(s.run(expr, '<doc>'))
            except RustyError as e:
                got = 'error: ' + e.message
            assert 'internal error' not in got
            assert got == want, 'example %s' % expr
    finally:
        os.chdir(old)


@pytest.mark.parametrize('name', [_param(n) for n in all_names()])
def test_examples_hold(name, tmp_path):
    d = documented(name)
    run_examples(d.examples if d else (), tmp_path)


def test_example_checker_catches_a_wrong_result(tmp_path):
    with pytest.raises(AssertionError):
        run_examples((('(+ 1 2)', '4'),), tmp_path)
    with pytest.raises(AssertionError):
        run_examples((('(car 5)', '1'),), tmp_path)


# ── The text of (doc 'name) and (help 'name) ─────────────────────────────

def test_doc_of_a_builtin_exact():
    assert value("(doc 'car)") == ("(car lst)\nFirst element of a list.\n"
                                   "  (car '(1 2 3)) ⇒ 1\n  (car '()) ⇒ error: car: not a pair")


def test_doc_of_a_stdlib_function_is_its_docstring():
    assert value("(doc 'iota)") == "(iota n)\nThe numbers 0 to n-1: (range 0 n).\n  (iota 4) ⇒ (0 1 2 3)"


def test_doc_of_a_special_form_starts_with_its_signature():
    assert value("(doc 'if)").startswith('(if test then [else])\n')


def test_doc_of_a_user_lambda():
    assert value('(define (f x) "Doubles x." (* 2 x)) (doc \'f)') == 'Doubles x.'
    assert value("(define (g x) x) (doc 'g)") is False
    assert value("(define v 5) (doc 'v)") is False
    assert value("(doc 'no-such-name)") is False


def test_doc_accepts_a_string_and_rejects_other_values():
    assert value('(doc "car")') == value("(doc 'car)")
    s = fresh()
    with pytest.raises(RustyError) as e:
        s.run('(doc 5)', '<test>')
    assert 'internal error' not in e.value.message
    assert e.value.message.startswith('doc: ')


def test_redefined_name_has_the_new_meaning():
    assert value('(define (sum xs) "mine" 0) (doc \'sum)') == 'mine'


def test_help_prints_describe_line_then_doc():
    assert out("(help 'cadr)") == ("cadr: #<lambda (x)>\n(cadr x)\nThe second element: (car (cdr x)).\n"
                                   "  (cadr '(1 2 3)) ⇒ 2\n")
    text = out("(help 'car)")
    assert text == ('car: #<builtin:car>\n(car lst)\nFirst element of a list.\n'
                    "  (car '(1 2 3)) ⇒ 1\n  (car '()) ⇒ error: car: not a pair\n")


def test_help_on_a_special_form():
    assert out("(help 'let)").startswith('let: special form\n(let ((name expr)...) body...)')


def test_help_without_doc_prints_only_describe_line():
    assert out('(define zq 1) (help \'zq)') == 'zq: 1\n'


# ── The structured docstring round-trips ─────────────────────────────────

def test_parse_and_format_round_trip():
    d = docs.Doc('(f x)', 'Line one.\nLine two.', (('(f 1)', '2'), ('(f "a ⇒ b")', 'error: f: no')))
    assert docs.parse_doc(docs.format_doc(d)) == d


def test_every_stdlib_docstring_reads_back_unchanged():
    s = fresh()
    for name in s.global_names():
        v = s.global_value(name)
        if v.__class__ in (Lambda, Macro):
            text = docs.docstring(v)
            assert text is not None, name
            assert docs.format_doc(docs.parse_doc(text)) == text, name
        else:
            assert v.__class__ is Builtin


def test_docstring_is_not_evaluated_each_call():
    # a docstring before the body is skipped, but a string as the only or last form is the value
    assert value('(define (f) "doc" 5) (f)') == 5.0
    assert value('(define (f) "only") (f)') == 'only'
    assert value('(define (f) 1 "last") (f)') == 'last'
