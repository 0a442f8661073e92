"""(doc 'name) for the special forms (docs/reference.md §5 Special forms): every one has a signature, a
description and examples, and every example holds (run here)."""
import io

import pytest

from rusty import forms
from rusty.docs import SPECIAL_FORM_DOCS, Doc, special_form_doc
from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session

EXAMPLES = [(name, expr, want) for name in forms.NAMES for expr, want in forms.entry(name).examples]
NEEDS_RUSTC = set(forms.names_with('defrust') + forms.names_with('defrust*'))


@pytest.mark.parametrize('name', forms.NAMES)
def test_every_special_form_is_documented(name):
    e = forms.entry(name)
    assert e.name == name
    assert e.sig.startswith(('(%s ' % name, '(%s)' % name)), e.sig
    assert len(e.doc) > 20 and e.doc.endswith('.')
    assert e.examples and all(type(x) is str and type(r) is str for x, r in e.examples)
    assert SPECIAL_FORM_DOCS[name] == (e.sig, e.doc)
    assert special_form_doc(name) == Doc(e.sig, e.doc, e.examples)


@pytest.mark.parametrize('name, expr, want', [
    pytest.param(n, x, w, marks=[pytest.mark.rustc] if n in NEEDS_RUSTC else [])
    for n, x, w in EXAMPLES])
def test_every_example_holds(name, expr, want):
    s = Session(out=io.StringIO())
    if want.startswith('error: '):
        with pytest.raises(RustyError) as e:
            s.run(expr, '<doc>')
        assert 'error: ' + e.value.message == want
        return
    assert write_form(s.run(expr, '<doc>')) == want


def test_aliases_are_documented_under_their_own_name():
    e = forms.entry('fn')
    assert e.sig == '(fn params body...)'
    assert e.doc.startswith('Alias of lambda. ')
    assert e.examples[0][0] == '((fn (x y) (+ x y)) 1 2)'
    assert forms.entry('letrec*').sig == '(letrec* ((name expr)...) body...)'
    assert forms.entry('define-macro').examples[0][0].startswith('(begin (define-macro my-unless')


def test_the_write_form_helper_can_tell_strings_apart():
    assert write_form(['a b'][0]) == '"a b"'
    assert write_form(Session(out=io.StringIO()).run('(list "a\\nb" (quote c) 1)')) == '("a\\nb" c 1)'


def test_a_wrong_example_would_fail():
    s = Session(out=io.StringIO())
    assert write_form(s.run('(case 1 ((1) 2))', '<doc>')) != '3'


def test_not_a_special_form():
    assert forms.entry('car') is None and special_form_doc('car') is None
