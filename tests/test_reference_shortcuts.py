"""The reference evaluator's shortcuts agree with its general steps: a call
site (call_sites.py) taking a builtin or a lambda in place, as
apply.apply_procedure does; `case` finding a clause in its table, as the walk
with equal? does; `set!` of a global in its cell, as the assignment by name."""
import pytest

from helpers import session_on_path
from rusty import apply
from rusty.errors import RustyError
from rusty.printer import write_form

CALLS = [
    # builtins: every argument count of the call sites (0-3 and more), arity and type errors
    '(list)', '(car (list 1 2))', '(car 1)', '(car)', '(car 1 2)', '(+)', '(+ 1)', '(+ 1 2)', '(+ 1.5 2)',
    '(+ 1 2 3)', '(+ 1 "a")', '(- 5)', '(- 1 2 3 4 5)', '(< 1 2)', '(< 2 1 0)', '(<)', '(* 2 3.0)',
    '(string-append "a" "b" "c" "d" "e")', '(substring "hello" 1 3)', '(substring "hello" 1 9)',
    '(vector-ref (vector 1 2) 5)', '(hash-ref (make-hash) 1)', '(equal? (list 1) (list 1.0))',
    # lambdas: a frame of just the arguments, a rest parameter, body defines, arity errors, a failing body
    '((lambda () 1))', '((lambda (x) x) 1)', '((lambda (x) x))', '((lambda (x) x) 1 2)',
    '((lambda (x y) (list y x)) 1 2)', '((lambda (a b c) (list c b a)) 1 2 3)',
    '((lambda (a b c d) (list a b c d)) 1 2 3 4)', '((lambda (a b c d) a) 1 2 3)',
    '((lambda (x . r) r) 1 2 3)', '((lambda r r))', '((lambda (x . r) r))',
    '((lambda (x) (define y 2) (+ x y)) 1)', '((lambda (x y z) (car x)) 1 2 3)',
    # not callable
    '(1 2)', '("s")', '(#t 1 2 3 4)',
]


def outcome(thunk):
    """('value', write form) or ('error', message, hints, the backtrace's procedure names)."""
    try:
        return ('value', write_form(thunk()))
    except RustyError as e:
        return ('error', e.message, list(e.hints), [entry[1] for entry in e.trace])


def parts(src: str) -> list:
    """The head and argument texts of a call written with no nested quote."""
    from rusty.reader import read
    return [write_form(x) for x in read(src, '<test>').car]


@pytest.mark.parametrize('src', CALLS)
def test_a_call_site_applies_as_apply_procedure_does(monkeypatch, src):
    s = session_on_path(monkeypatch, False)
    through_site = outcome(lambda: s.run(src, '<test>'))
    head, *args = [s.run(text, '<test>') for text in parts(src)]
    direct = outcome(lambda: apply.apply_procedure(head, args, None, False, s.depth))
    assert through_site == direct
    assert s.depth.n == 0


DATA = "((a b) 'ab) ((1 2.0) 'num) ((\"s\" \"t\") 'str) ((#t) 'true) ((()) 'empty) ((x a 3) 'x) ((0) 'zero)"
KEYS = ["'a", "'b", "'x", "'c", '1', '1.0', '2', '2.0', '3', '0', '-0.0', '"s"', '"a"', '#t', '#f', "'()",
        '(list 1)', '(vector 1)', '(sqrt -1)', '(string->symbol "a")']


@pytest.mark.parametrize('key', KEYS)
@pytest.mark.parametrize('default', ['', "(else 'other)"])
def test_case_by_its_table_chooses_as_the_walk_with_equal(monkeypatch, key, default):
    s = session_on_path(monkeypatch, False)
    by_case = s.run('(case %s %s %s)' % (key, DATA, default), '<test>')
    walk = s.run('''(let ((k %s))
                      (let loop ((clauses '(%s)))
                        (cond ((null? clauses) %s)
                              ((member k (car (car clauses))) (car (cdr (car clauses))))
                              (else (loop (cdr clauses))))))'''
                 % (key, DATA.replace("'", ''), "'other" if default else "'()"), '<test>')
    assert write_form(by_case) == write_form(walk)


def test_case_with_data_of_no_key_walks(monkeypatch):
    s = session_on_path(monkeypatch, False)
    src = "(map (lambda (k) (case k ((#(1) 1) 'one) ((a) 'a) (else 'other))) (list 1 'a (vector 1) 2))"
    assert write_form(s.run(src, '<test>')) == '(one a one other)'


@pytest.mark.parametrize('fast', [False, True])
def test_set_of_a_global_in_its_cell_or_by_name(monkeypatch, fast):
    s = session_on_path(monkeypatch, fast)
    src = '''(define n 1)
             (define (bump) (set! n (+ n 1)))
             (bump) (bump)
             (define (shadow) (eval '(define n 99)) (set! n 7) n)   ; a run-time binding: by name
             (define inner (shadow))
             (bump)
             (list n inner)'''
    assert write_form(s.run(src, '<test>')) == '(4 7)'
    assert outcome(lambda: s.run('(set! never-defined 1)', '<test>'))[1] == "set!: undefined variable 'never-defined'"


# A site that met a builtin calls it again without its tests (call_sites' `hit`), and a
# two-argument site holds a literal argument's value: each run twice at one site, the
# head rebound between the runs, must give what apply_procedure gives.
REPEATED = ['(+ x 1)', '(- 10 x)', '(* x y)', '(substring "hello" x y)', '(car x)', '(+ x "a")',
            '(< x 2.5)', '(list x "s" #t)', '(string-append "a" y)', '(cons #f x)']


@pytest.mark.parametrize('src', REPEATED)
@pytest.mark.parametrize('rebind', ['+', 'car', 'substring', '-'])
def test_a_call_site_called_again_and_rebound_applies_as_apply_procedure_does(monkeypatch, src, rebind):
    s = session_on_path(monkeypatch, False)
    s.run('(define (site x y) %s)' % src, '<test>')
    got, want = [], []
    for x, y in ((1, 3), (2, 4), (0, 2), ('"s"', 1)):
        for _ in range(2):
            got.append(outcome(lambda: s.run('(site %s %s)' % (x, y), '<test>'))[:3])     # (not site's frame)
            head, *args = [s.run(text, '<test>') for text in parts(src.replace('x', str(x)).replace('y', str(y)))]
            want.append(outcome(lambda: apply.apply_procedure(head, args, None, False, s.depth))[:3])
        s.run('(define %s (lambda args (list (quote rebound) args)))' % rebind, '<test>')
    assert got == want
    assert s.depth.n == 0


# cond of 2 or 3 clauses with bodies is written out (specials._cond_unrolled); a clause
# without a body keeps the walk: both must choose as nested ifs do, in tail position too.
CONDS = ['(cond ((< x 1) (quote a)) ((< x 2) (quote b)))',
         '(cond ((< x 1) (quote a)) ((< x 2) (quote b)) (else (f (- x 1))))',
         '(cond ((< x 1) (quote a)) ((< x 2) (quote b)) ((< x 3) (f 0)))',
         '(cond ((< x 1) (quote a)) ((< x 2) (quote b)) ((< x 3) (f 0)) (else (car x)))',
         '(cond ((< x 1) (quote a)) ((member x (list 2 3))) (else (quote c)))']


def as_ifs(src: str) -> str:
    """The cond `src` as nested ifs (a clause without a body gives its test's value)."""
    from rusty.reader import read
    clauses = list(read(src, '<test>').car.cdr)
    out = '()'
    for c in reversed(clauses):
        parts = [write_form(p) for p in c]
        if parts[0] == 'else':
            out = parts[1]
        elif len(parts) == 1:
            out = '(let ((v %s)) (if v v %s))' % (parts[0], out)
        else:
            out = '(if %s %s %s)' % (parts[0], parts[1], out)
    return out


@pytest.mark.parametrize('src', CONDS)
def test_cond_chooses_as_nested_ifs(monkeypatch, src):
    s = session_on_path(monkeypatch, False)
    s.run('(define (f x) %s) (define (g x) %s)' % (src, as_ifs(src)), '<test>')
    for x in ('0', '1', '2', '3', '4', '"s"'):
        assert outcome(lambda: s.run('(f %s)' % x, '<test>'))[:3] == outcome(lambda: s.run('(g %s)' % x, '<test>'))[:3]
