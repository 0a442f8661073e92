"""Every builtin added beyond the original language (listed in docs/reference.md §6 with the rest) carries a signature, a one-line doc and
at least one example, and every example holds (expression -> write form)."""
import io
from importlib import import_module

import pytest

from rusty.printer import write_form
from rusty.runtime import Session

MODULES = ('integers', 'randomness', 'text', 'hashes', 'scripts')
NEW_IN_LISTS_AND_STRINGS = ('map', 'for-each', 'string-split', 'json-decode')


def specs():
    out = []
    for m in MODULES:
        out += import_module('rusty.builtins.' + m).TABLE.specs
    for m in ('lists', 'strings', 'json_text'):
        out += [s for s in import_module('rusty.builtins.' + m).TABLE.specs if s[0] in NEW_IN_LISTS_AND_STRINGS]
    return out


@pytest.mark.parametrize('spec', specs(), ids=lambda s: s[0])
def test_documented_with_examples_that_hold(spec):
    name, _fn, _lo, _hi, doc, sig, _host, _shown, examples = spec
    assert sig.startswith('(' + name) and sig.endswith(')')
    assert doc and '\n' not in doc
    assert examples
    for expr, want in examples:
        s = Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO(''))
        assert write_form(s.run(expr, '<example>')) == want, expr


# ── map and for-each over several lists (docs/reference.md §6.3) ──────────

@pytest.mark.parametrize('src,want', [
    ("(map + '(1 2 3) '(10 20))", '(11 22)'),
    ("(map list '(a b c) '(1 2 3) '(x y z))", '((a 1 x) (b 2 y) (c 3 z))'),
    ("(map + '(1 2) '())", '()'), ("(map + '(1 2) (nil))", '()'),
    ("(map (lambda (x) (* x x)) '(1 2 3))", '(1 4 9)'),
])
def test_map_over_several_lists(src, want):
    assert write_form(Session(out=io.StringIO()).run(src, '<t>')) == want


def test_for_each_over_several_lists_and_errors():
    s = Session(out=io.StringIO())
    assert write_form(s.run("(for-each (lambda (a b) (display (list a b))) '(1 2 3) '(x y))", '<t>')) == '()'
    assert s.out.getvalue() == '(1 x)(2 y)'
    from helpers import err
    assert err('(map car)') == 'map: expected at least 2 arg(s), got 1'
    assert err('(for-each car)') == 'for-each: expected at least 2 arg(s), got 1'
    assert err("(map + '(1) 5)") == 'map: expected a list, got 5'
    assert err("(for-each + 5 '(1))") == 'for-each: expected a list, got 5'
    assert err("(map 5 '(1) '(2))") == 'map: expected a procedure, got 5'


def test_multi_list_map_matches_a_reference_built_from_one_list_map():
    s = Session(out=io.StringIO())
    ref = ('(define (ref f a b) (if (or (null? a) (null? b)) (list)'
           ' (cons (f (car a) (car b)) (ref f (cdr a) (cdr b)))))')
    s.run(ref, '<t>')
    for a, b in (('(iota 5)', '(iota 3)'), ("'()", '(iota 2)'), ('(range 3 9)', '(range 10 20)')):
        assert s.run('(equal? (map - %s %s) (ref - %s %s))' % (a, b, a, b), '<t>') is True


# ── No host error escapes the new builtins, whatever the arguments ───────

ODD_VALUES = ('0', '-0', '-1', '1.5', '1e300', '(sqrt -1)', '(exp 1000)', '""', '"a"', '"\\\\"', "'s", '#t',
              '(nil)', "'()", "'(1 2)", "'((a 1))", 'car', '(lambda (x) x)', "(zeros '(2))", '(hash 1 2)',
              '(string-append "a" (code-char 0))')


def test_new_builtins_raise_only_rusty_errors():
    from itertools import product
    from rusty.errors import RustyError
    s = Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO(''))
    skip = {'exit', 'read-line', 'read-stdin', 'random-seed!'}
    names = sorted({spec[0] for spec in specs()} - skip)
    checked = 0
    for name in names:
        for n in range(0, 4):
            pool = ODD_VALUES if n < 2 else ODD_VALUES[::2] if n == 2 else ODD_VALUES[:4]
            for args in product(pool, repeat=n):
                try:
                    s.run('(%s %s)' % (name, ' '.join(args)), '<fuzz>')
                except RustyError as e:
                    assert 'internal error' not in e.message, (name, args, e.message)
                checked += 1
    assert checked > 5000
