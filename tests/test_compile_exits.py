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
    agrees(SHOW + body, out, 'car')


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


# ── the exit reads the compiled locals from its caller's frame ────────────

FLIP_CAR = "(define (flip) (set! car (lambda (p) 99)) 0) "     # (every later inlined car exits)


@pytest.mark.parametrize('body, out', [
    # the exited form sets a parameter and a let's local: both written back (the list exits too, reading them)
    ('(define (f x) (let ((y 1)) (flip) (car (begin (set! x 7) (set! y (+ y 1)) (list y))) (list x y)))'
     ' (show (f 5))', '(7 2)\n'),
    # an exit in a nested function sets a local of the enclosing one
    ("(define (f n) (let ((acc 0)) (define (add k) (car (begin (set! acc (+ acc k)) '(0))) acc) (add 1) (flip)"
     " (add 2) acc)) (show (f 0))", '3\n'),
    ("(define (f x) (let ((y 1)) (define (g) (flip) (car (begin (set! y 2) (set! x 3) '(0))) y)"
     " (let ((r (g))) (list r x y)))) (show (f 0))", '(2 3 2)\n'),
    # ... and one two functions out, from a lambda in a lambda
    ("(define (f n) (let ((acc n)) ((lambda (a) ((lambda (b) (flip) (car (begin (set! acc (+ acc a b)) '(0))))"
     " 2)) 1) acc)) (show (f 10))", '13\n'),
    # a builtin redefined mid-loop: the rest of the loop exits and sees the loop's locals
    ('(define (f n) (do ((i 0 (+ i 1)) (s 0 (+ s (car (list i))))) ((= i n) s) (if (= i 3) (flip))))'
     ' (show (f 6)) (show (f 6))', '300\n594\n'),
    ('(define (f n) (let loop ((i 0) (s 0)) (if (= i n) s (begin (if (= i 3) (flip))'
     ' (loop (+ i 1) (+ s (car (begin (set! n (+ n 0)) (list i))))))))) (show (f 6))', '300\n'),
    # a compiled closure the exited form calls sets the local, the form does not: the closure's value stays
    ("(define (f) (let ((x 1)) (let ((set-x (lambda (v) (set! x v)))) (flip) (car (begin (set-x 5) '(0))) x)))"
     ' (show (f))', '5\n'),
    # the form sets a local, then fails: caught in the function, which sees the local set
    ('(define (f) (let ((y 1)) (flip) (try-catch (car (begin (set! y 2) (vector-ref (vector) 0))) (e) y)))'
     ' (show (f))', '2\n'),
    # a body's define not yet run when the exit is taken: unbound there, as on the reference
    ("(define (f) (define a (begin (flip) (car (begin (set! b 4) '(1))))) (define b 2) (list a b)) (show (f))", None),
    ('(define (f) (define a (begin (flip) (car (list b)))) (define b 2) (list a b)) (show (f))', None),
])
def test_an_exit_writes_back_what_the_form_set(body, out):
    agrees(SHOW + FLIP_CAR + body, out, "'b'")


def agrees(text, out, failing):
    """text runs alike compiled and on the reference, to out (None: it fails, naming `failing`)."""
    compiled, reference = run(text, True), run(text, False)
    assert compiled == reference
    assert 'internal error:' not in compiled[2]
    if out is not None:
        assert compiled == (0, out, '')
    else:
        assert compiled[0] != 0 and failing in compiled[2]


def test_a_macro_expanded_at_run_time_sets_an_enclosing_local():
    text = (SHOW + '(defmacro setm (a) `(set! ,a 40)) (define (m a) 0) (define (flip) (set! m setm) 0)'
            ' (define (f x) (let ((y 1)) (define (g) (flip) (m y) (m x) y) (let ((r (g))) (list r x y)))) (show (f 3))')
    compiled, reference = run(text, True), run(text, False)
    assert compiled == reference == (0, '(40 40 40)\n', '')


def test_an_exit_names_no_local(monkeypatch):
    """However many locals are in sight, an exit is one short statement: it finds them in the frame."""
    lets = ' '.join('(v%d (+ x %d))' % (i, i) for i in range(20))
    text = ('(define (h x) x) (define (f x) (let (%s) (define (g y) (h (+ y v3))) (+ (g v1) (h v19))))'
            ' (f 1)' % lets)
    mod = lowered_module(monkeypatch, text, 'f')
    exits = [node for node in ast.walk(mod) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id in ('EXIT', 'EXPAND_EXIT')]
    assert exits
    for node in exits:
        assert not {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & {'v_v3_4', 'x', 'y'}
        assert sum(1 for _ in ast.walk(node)) <= 12, ast.unparse(node)
