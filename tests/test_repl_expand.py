"""`,expand`: a macro call's expansion, one step of a derived special form
(each step evaluated against the form it rewrites, both paths), and a clear
word when there is nothing to expand."""
import pytest

from repl_driver import CTRL_D, ENTER, drive, lines, private_home
from rusty.forms import NAMES, TABLE
from rusty.printer import print_form
from rusty.reader import read
from rusty.repl.expand import PRIMITIVE, STEPS, one_step
from rusty.runtime import Session
from rusty.values import EMPTY, List, Symbol


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def run(*inputs):
    out, _ = drive(''.join(i + ENTER for i in inputs) + CTRL_D)
    return lines(out)[:-3]       # without '', 'Goodbye.', ''


def test_every_special_form_is_derived_or_primitive():
    assert set(STEPS) | set(PRIMITIVE) == set(NAMES)
    assert not set(STEPS) & set(PRIMITIVE)


def test_when_and_kin_show_their_one_step():
    assert run(',expand (when c a b)') == ['(if c (begin a b))',
                                           '; when is a special form: one step into simpler forms']
    assert run(',expand (unless c a)')[0] == '(if c () a)'
    assert run(',expand (let ((a 1) (b 2)) (+ a b))')[0] == '((lambda (a b) (+ a b)) 1 2)'
    assert run(',expand (and a b c)')[0] == '(if a (and b c) #f)'
    assert run(',expand (or a b)')[0] == '(let ((tmp a)) (if tmp tmp (or b)))'
    assert run(',expand (or tmp b)')[0] == '(let ((tmp1 tmp)) (if tmp1 tmp1 (or b)))'   # no capture
    assert run(',expand (cond (a 1) (b) (else 2))')[0] == '(if a 1 (cond (b) (else 2)))'
    assert run(',expand (define (f x) x)')[0] == '(define f (lambda (x) x))'


def test_macros_expand_and_other_forms_say_there_is_nothing_to_expand():
    assert run(',expand (-> 5 (+ 1) (* 2))') == ['(* (+ 5 1) 2)']
    assert run(',expand (+ 1 2)') == ['(+ 1 2)', '; not a macro call (+ is not a macro): nothing to expand']
    assert run(',expand 5') == ['5', '; not a macro call (not a list with a name first): nothing to expand']
    assert run(',expand (if a b)') == ['(if a b)', '; if is a primitive special form: nothing to expand']
    assert run(',expand (when)') == ['Error: when: expected (when test body...), got 0 parts']


PROGRAMS = [
    "(when (> 2 1) 'a 'b)", "(when #f 'a)", "(unless #f 1 2)", "(unless 1 2)",
    "(and)", "(and 1 2 3)", "(and 1 #f 3)", "(or)", "(or #f 3)", "(or #f #f)", "(or 1 (car 5))",
    "(cond)", "(cond ((< 5 0) 'neg) ((= 5 0) 'zero) (else 'pos))", "(cond ((assq 'b '((a 1) (b 2)))))",
    "(cond (#f 1))", "(cond (#f 1) (2))", "(cond (else))",
    "(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite) (else 'other))", "(case 'x ((a) 1) ((b) 2))",
    "(case '(1) (((1)) 'list) (else 'no))", "(case 1 ((1)))",
    "(let ((a 1) (b 2)) (+ a b))", "(let () 5)", "(let loop ((i 0) (acc 0)) (if (= i 5) acc (loop (+ i 1) (+ acc i))))",
    "(let* ((a 2) (b (* a 10))) (+ a b))", "(let* () 1)", "(let* ((a 1)) a)",
    "(letrec ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1))))) (od? (lambda (n) (if (= n 0) #f (ev? (- n 1)))))) (ev? 10))",
    "(letrec* ((a 1) (b (+ a 1))) b)",
    "(do ((i 0 (+ i 1)) (acc 0 (+ acc i))) ((= i 5) acc))", "(do ((i 0 (+ i 1))) ((= i 3)))",
    "(do ((i 0 (+ i 1)) (fs '() (cons (lambda () i) fs))) ((= i 3) (map (lambda (f) (f)) fs)))",
    "(do ((i 0 (+ i 1)) (j 10)) ((= i 2) (list i j)) (set! j (+ j 1)))",
    "(do ((a 1 b) (b 2 a) (n 0 (+ n 1))) ((= n 3) (list a b)))",
    "(begin (define (sq x) (* x x)) (sq 4))", "(begin (define (f . r) r) (f 1 2))",
    "(begin (def sq (x) (* x x)) (sq 3))", "(begin (def k 7) k)", "(begin (def g args args) (g 1 2))",
    "((fn (x) (* x 2)) 4)", "((λ (x) (* x 3)) 4)", "(eval-when (compile) 1 2)",
]


def outcome(session, text):
    try:
        return print_form(session.run(text, '<test>'))
    except Exception as e:      # a rusty error: its message
        return 'error: %s' % getattr(e, 'message', e)


def first_derived(form):
    """The first sub-form, outermost first, that is a derived special form."""
    todo = [form]
    while todo:
        x = todo.pop(0)
        if x.__class__ is List and x is not EMPTY:
            if x.car.__class__ is Symbol and x.car.name in STEPS and one_step(x) is not None:
                return x
            todo.extend(x)
    return None


# the manual's examples of the derived forms (those that have a step)
PROGRAMS += [expr for row in TABLE for expr, result in row.examples
             if row.names[0] in STEPS and not result.startswith('error')
             and first_derived(read(expr, '<test>').car) is not None]


@pytest.mark.parametrize('fast', [False, True], ids=['reference', 'fast'])
@pytest.mark.parametrize('program', PROGRAMS)
def test_each_step_means_what_the_form_means(program, fast, monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    form = read(program, '<test>').car
    inner = first_derived(form)
    assert inner is not None, program
    text = print_form(form)
    rewritten = text.replace(print_form(inner), print_form(one_step(inner)), 1)
    assert rewritten != text
    assert outcome(Session(), rewritten) == outcome(Session(), text)
