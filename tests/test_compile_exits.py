"""The one way out of a compiled call site (compile/exits.py): when what the
code assumed of a call no longer holds, the whole call form runs on the
reference in frames of the compiled locals, written back after it. The
generic code of a site is those few statements, not the form compiled a
second time, so generated code grows linearly with nesting (docs/reference.md,
"Compiled code": the compiler may not change what a program does)."""
import ast
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fuzz_redefine import run    # noqa: E402

SHOW = '(define (show v) (display v) (newline)) '


def lowered_module(monkeypatch, text: str, name: str):
    """The module lowered for global `name`'s lambda (compiled at its first call) when text runs."""
    from rusty.compile import link
    from rusty.compile.lower import lower
    from rusty.runtime import Session
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CODE_CACHE', '0')
    seen = {}
    real = link.lowered

    def spy(params, rest, body, lscope, span, unit, lname, *more, **kw):
        if lname == name:
            seen['mod'] = lower(unit, params, rest, body, lscope, span, lname)[0]
        return real(params, rest, body, lscope, span, unit, lname, *more, **kw)
    monkeypatch.setattr(link, 'lowered', spy)
    Session().run(text)
    return seen['mod']


def _lowered_nodes(monkeypatch, text: str, name: str) -> int:
    return sum(1 for _ in ast.walk(lowered_module(monkeypatch, text, name)))


def _nested(depth: int) -> str:
    body = 'p'
    for _ in range(depth):
        body = '(car (list %s))' % body
    return "(define (f p) %s) (f '%s)" % (body, '(' * depth + '1' + ')' * depth)


def test_generated_code_grows_linearly_with_nesting(monkeypatch):
    small = _lowered_nodes(monkeypatch, _nested(8), 'f')
    large = _lowered_nodes(monkeypatch, _nested(16), 'f')
    # Twice the forms: less than twice the code (each level adds the same);
    # a generic copy of the form beside every fast path made it 3x.
    assert large < 2.2 * small


@pytest.mark.parametrize('body, out', [
    # a global called after a call that redefines it: the rest runs on the reference
    ('(define (h x) (* x 10)) (define (flip) (set! h (lambda (x) (+ x 1))) 0)'
     ' (define (f x) (+ (flip) (h x) (h x))) (show (f 1)) (define (h x) (* x 10)) (show (f 1))',
     '4\n4\n'),
    # a builtin redefined by a callee between two of its inlined uses
    ('(define (flip) (set! car (lambda (p) 99)) 0)'
     " (define (f p) (list (car p) (flip) (car p))) (show (f '(1 2)))", '(1 0 99)\n'),
    # the exit writes back a local the reference set
    ('(define (flip) (set! h (lambda (x) 7)) 0) (define (h x) x)'
     ' (define (f x) (let ((y 1)) (flip) (set! y (+ y (h x))) (list x y))) (show (f 5))', '(5 8)\n'),
    # a global that became a macro mid-call, in tail position
    ('(defmacro twice (a) `(list ,a ,a)) (define (m a) 0) (define (flip) (set! m twice) 0)'
     ' (define (f x) (flip) (m x)) (show (f 3))', '(3 3)\n'),
    # an error raised on the reference after the exit: the reference's report
    ('(define (h x) x) (define (flip) (set! h (lambda (x) (car x))) 0)'
     ' (define (f x) (flip) (+ 1 (h x))) (show (f 3))', None),
])
def test_a_site_whose_assumptions_fail_runs_on_the_reference(body, out):
    text = SHOW + body
    compiled, reference = run(text, True), run(text, False)
    assert compiled == reference
    assert 'internal error:' not in compiled[2]
    if out is not None:
        assert compiled == (0, out, '')
    else:
        assert compiled[0] != 0 and 'car' in compiled[2]


def test_the_exit_is_taken_only_when_an_assumption_failed(monkeypatch):
    from rusty.compile import link, support
    from rusty.printer import print_form
    from rusty.runtime import Session
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CODE_CACHE', '0')
    taken = []
    real = support.reference_site

    def counted(key, f, d, D):
        taken.append(print_form(key[0]))
        return real(key, f, d, D)
    monkeypatch.setattr(support, 'reference_site', counted)
    monkeypatch.setattr(link, 'NAMESPACE', {})
    s = Session()
    s.run("(define (flip) (set! car (lambda (p) 99)) 0) (define (f p) (+ (car p) (car p)))")
    assert [s.run("(f '(1))") for _ in range(3)] == [2, 2, 2]
    assert taken == []
    s.run('(define (g p) (+ (flip) (car p)))')
    assert s.run("(g '(1))") == 99
    assert taken == ['(car p)']
