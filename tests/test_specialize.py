"""The evaluator's specialised nodes (rusty/specialize.py) against the
generic paths they shortcut: same values, same errors, late binding kept."""
import pytest

from rusty import specialize
from rusty.errors import RustyError
from tests.helpers import session

LISTS = ['()', "'(a)", "'(a b)", "'(a b c)", "'(a b c d)", "'(a b c d e)", '"abc"', '7']
INDICES = ['0', '1', '2', '3', '4', '-1', '-0.0', '2.5', '(/ 0 0)', '"x"']


def outcome(s, src):
    try:
        return 'value', s.run(src, '<test>')
    except RustyError as e:
        return 'error', e.message


@pytest.mark.parametrize('lst', LISTS)
def test_inline_nth_matches_the_builtin(lst):
    s = session()
    s.run('(define (inline l i) (nth l i)) (define (swapped l i) (nth i l))', '<test>')
    for i in INDICES:
        want = outcome(s, '(apply nth (list %s %s))' % (lst, i))
        assert outcome(s, '(inline %s %s)' % (lst, i)) == want, (lst, i)
        assert outcome(s, '(swapped %s %s)' % (lst, i)) == outcome(
            s, '(apply nth (list %s %s))' % (i, lst)), (lst, i)
    assert any('.cdr.cdr.car' in src for src in specialize._factories)    # the inline path ran


def test_inline_nth_sees_a_redefinition():
    s = session()
    s.run("(define (f l) (nth l 1)) (define l '(a b c))", '<test>')
    assert s.run('(f l)', '<test>').name == 'b'
    s.run('(define (nth l i) "mine")', '<test>')
    assert s.run('(f l)', '<test>') == 'mine'


def test_global_operands_are_read_when_called():
    s = session()
    s.run('(define (add3 a b c) (+ a (+ b c))) (define (f) (add3 x y 1)) (define x 1) '
          '(define y 2)', '<test>')
    assert s.run('(f)', '<test>') == 4.0
    s.run('(define y 10) (set! x 5)', '<test>')
    assert s.run('(f)', '<test>') == 16.0


def test_undefined_global_operand_reports_like_the_generic_path():
    s = session()
    s.run('(define (g a b) a) (define (f) (g 1 zzqnope))', '<test>')
    with pytest.raises(RustyError) as e:
        s.run('(f)', '<test>')
    assert "Undefined: 'zzqnope'" in str(e.value)
    assert e.value.span is not None and e.value.span.col == 37     # the name itself
    s.run('(define zzqnope 3)', '<test>')
    assert s.run('(f)', '<test>') == 1.0
