"""docs/reference.md §5 Special forms: defmacro / define-macro, eval-when, hygiene renaming, expansion, data -> code."""
import re

import pytest

from helpers import dv, err, ev, out


def test_defmacro_returns_nil_and_binds_a_macro():
    assert ev('(type-of (defmacro m (x) x))') == 'nil'
    assert ev('(defmacro m (x) x) (type-of m)') == 'macro'
    assert ev('(define-macro m (x) x) (type-of m)') == 'macro'
    assert ev('(defmacro m (x) x) (macro? m)') == '#t'


def test_arguments_arrive_unevaluated_as_data():
    assert ev('(defmacro m (x) (list (quote quote) x)) (m (car 5))') == '(car 5)'
    assert ev("(defmacro m (x) (list 'quote (type-of x))) (m ())") == 'list'
    assert ev("(defmacro m (x) (list 'quote (type-of x))) (m \"s\")") == 'string'
    assert ev("(defmacro m (. xs) (list 'quote xs)) (m a b c)") == '(a b c)'
    assert ev("(defmacro m (a . xs) (list 'quote xs)) (m a)") == '()'


def test_expansion_evaluated_in_callers_environment():
    assert ev("(defmacro m () 'x) (let ((x 42)) (m))") == '42'
    assert ev("(defmacro m () '(define zqmac 7)) (define (f) (m) zqmac) (f)") == '7'


def test_expansion_happens_every_time():
    assert out('(defmacro m () (display "x") 1) (define (f) (m)) (f) (f) (f)').count('x') == 3


def test_late_binding_macro_redefinition():
    assert ev('(defmacro m () 1) (define (f) (m)) (defmacro m () 2) (f)') == '2'
    assert ev('(defmacro h (a) 1) (define (h a) a) (h 5)') == '5'
    src = "(define (h a) a) (define (u) (h undefined-name)) (defmacro h (a) `(quote ,a)) (u)"
    assert ev(src) == 'undefined-name'


def test_macro_returning_procedure_value_expands_to_nil():
    assert ev('(defmacro m () car) (type-of (m))') == 'nil'
    assert ev('(defmacro m () (lambda (x) x)) (type-of (m))') == 'nil'


def test_macro_returning_list_with_procedure_value():
    # the builtin inside becomes (), so the call head is Nil
    assert err('(defmacro m () (list car (quote (quote (1 2))))) (m)') == 'Not callable: ()'


def test_macro_returning_data_atoms():
    assert ev('(defmacro m () 5) (m)') == '5'
    assert dv('(defmacro m () "s") (m)') == '"s"'
    assert ev('(defmacro m () #f) (m)') == '#f'
    assert ev('(defmacro m () (nil)) (type-of (m))') == 'nil'


def test_eval_when_definitions_visible_to_expander_only():
    src = ("(defmacro m (x) (eval-when (compile) (define (zqhelperfn y) (list 'quote y))) (zqhelperfn x)) ")
    assert ev(src + '(m abc)') == 'abc'
    assert err(src + '(m abc) zqhelperfn') == "Undefined: 'zqhelperfn'"


def test_eval_when_blocks_run_once_at_definition_in_order():
    src = ('(defmacro m () (eval-when (a) (display "1")) (eval-when (b) (display "2")) 3)')
    assert out(src) == '12'
    assert out(src + ' (m) (m)') == '12'
    assert ev(src + ' (m)') == '3'


def test_eval_when_frame_is_child_of_defining_environment():
    src = ("(define base 10) (defmacro m () (eval-when (c) (define k (+ base 1))) k) (m)")
    assert ev(src) == '11'


def test_macro_environment_is_defining_one():
    assert ev('(define (f) (defmacro zqlocalmac () 1) (zqlocalmac)) (f)') == '1'


def test_macro_defined_in_frame_is_local():
    assert err('(define (f) (defmacro zqlocalmac () 1) 1) (f) (zqlocalmac)') == "Undefined: 'zqlocalmac'"


# ── hygiene renaming: the spec's swap! and every binder of the table ─────

def test_swap_example():
    src = ("(defmacro swap! (a b) `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp))) "
           "(define tmp 1) (define y 2) (swap! tmp y) (list tmp y)")
    assert ev(src) == '(2 1)'


@pytest.mark.parametrize('name,src,v', [
    ('let', "(defmacro m (e) `(let ((tmp 1)) (+ tmp ,e))) (define tmp 10) (m tmp)", '11'),
    ('let-inits-not-in-scope', "(defmacro m (e) `(let ((tmp tmp)) (+ tmp ,e))) (define tmp 10) (m 1)", '11'),
    ('named-let', "(defmacro m (e) `(let loop ((i 0)) (if (= i 3) ,e (loop (+ i 1))))) "
                  "(define (loop x) 'user) (define i 'ui) (m (list i (loop 1)))", '(ui user)'),
    ('let*', "(defmacro m (e) `(let* ((a 1) (b (+ a 1))) (list a b ,e))) (define a 100) (m a)", '(1 2 100)'),
    ('letrec', "(defmacro m (e) `(letrec ((f (lambda () (g))) (g (lambda () 5))) (list (f) ,e))) "
               "(define (g) 'user-g) (m (g))", '(5 user-g)'),
    ('letrec*', "(defmacro m (e) `(letrec* ((f (lambda () (g))) (g (lambda () 5))) (list (f) ,e))) "
                "(define (g) 'user-g) (m (g))", '(5 user-g)'),
    ('lambda', "(defmacro m (e) `((lambda (x) (+ x ,e)) 1)) (define x 10) (m x)", '11'),
    ('fn', "(defmacro m (e) `((fn (x) (+ x ,e)) 1)) (define x 10) (m x)", '11'),
    ('λ', "(defmacro m (e) `((λ (x) (+ x ,e)) 1)) (define x 10) (m x)", '11'),
    ('lambda-dotted', "(defmacro m (e) `((lambda (x . r) (list x r ,e)) 1 2)) (define x 'ux) (define r 'ur) "
                      "(m (list x r))", '(1 (2) (ux ur))'),
    ('lambda-bare', "(defmacro m (e) `((lambda xs (list xs ,e)) 1)) (define xs 'uxs) (m xs)", '((1) uxs)'),
    ('do', "(defmacro m (e) `(do ((i 0 (+ i 1))) ((= i 2) (list i ,e)))) (define i 'ui) (m i)", '(2 ui)'),
    ('nested-quasiquote-in-helper', "(defmacro m (e) (let ((body `(let ((tmp 1)) (+ tmp ,e)))) body)) "
                                    "(define tmp 10) (m tmp)", '11'),
    ('unquoted-binding-position-is-not-a-binder', "(defmacro m (v e) `(let ((,v 1)) ,e)) (m q (+ q 1))", '2'),
    ('nothing-under-unquote-rewritten', "(defmacro m () `(let ((tmp 1)) ,(list 'quote 'tmp))) (m)", 'tmp'),
    ('free-identifiers-not-protected', "(defmacro m () `(car xs)) (let ((xs '(7))) (m))", '7'),
    ('swap-with-local-tmp', "(defmacro sw (a b) `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp))) "
                            "(let ((tmp 1) (other 2)) (sw tmp other) (list tmp other))", '(2 1)'),
])
def test_hygiene(name, src, v):
    assert ev(src) == v


def test_renamed_identifier_replaced_inside_quote():
    v = ev("(defmacro m () `(let ((tmp 1)) 'tmp)) (symbol->string (m))")
    assert re.fullmatch(r'tmp__\d+', v), v


def test_renamed_names_are_consistent_in_scope():
    v = ev("(defmacro m () `(let ((tmp 1)) (list 'tmp tmp))) (m)")
    assert re.fullmatch(r'\((tmp__\d+) 1\)', v), v


def test_renaming_happens_once_at_definition():
    src = "(defmacro m () `(let ((tmp 1)) 'tmp)) (list (m) (m))"
    v = ev(src)
    a, b = v[1:-1].split(' ')
    assert a == b and a.startswith('tmp__')


def test_lambda_params_scope_only_the_body():
    # the template's `x` binds only inside the lambda; outside it is free
    src = "(defmacro m () `(list ((lambda (x) x) 1) x)) (define x 'outer) (m)"
    assert ev(src) == '(1 outer)'


def test_let_star_scope_includes_later_inits():
    src = "(defmacro m () `(let* ((a 1) (b a)) b)) (define a 'outer) (m)"
    assert ev(src) == '1'


def test_letrec_scope_includes_all_inits():
    src = "(defmacro m () `(letrec ((f (lambda () g)) (g 5)) (f))) (define g 'outer) (m)"
    assert ev(src) == '5'


def test_do_scope_includes_steps_test_results():
    src = "(defmacro m () `(do ((i 0 (+ i 1)) (acc '() (cons i acc))) ((= i 3) acc))) (define i 'outer) (m)"
    assert ev(src) == '(2 1 0)'


def test_named_let_name_renamed():
    src = "(defmacro m () `(let loop ((n 0)) (if (= n 2) (list 'loop) (loop (+ n 1))))) (m)"
    v = ev(src)
    assert re.fullmatch(r'\(loop__\d+\)', v), v


def test_renamed_symbols_use_the_gensym_counter_format():
    v = ev("(defmacro m () `(lambda (p) 'p)) (symbol->string ((m) 1))")
    assert re.fullmatch(r'p__\d+', v), v


# ── expansion in tail position, errors, positions ────────────────────────

def test_macro_expansion_errors_propagate():
    assert err('(defmacro m (x) `(car ,x)) (m 5)') == 'car: not a pair'
    assert err('(defmacro m () (car 5)) (m)') == 'car: not a pair'


def test_macro_using_stdlib_macro():
    assert ev("(defmacro twice (e) `(begin ,e ,e)) (define n 0) (twice (set! n (+ n 1))) n") == '2'


@pytest.mark.parametrize('template', ['`(lambda . z)', '`(fn . z)', '`(λ . z)'])
def test_a_dotted_lambda_template_is_a_usage_error_not_a_host_error(template):
    # hygiene renames a template's binders; `.` in the parameter place binds nothing
    assert err('(defmacro m () %s) (m)' % template) == "malformed rest param after '.'"
    assert err(template[1:]) == "malformed rest param after '.'"      # as when written directly


def test_a_macro_expanding_into_itself_stops_at_the_depth_limit_with_a_hint():
    """An expansion calling the macro again, in tail position too, nests: it
    counts toward the depth limit (it used to run until Python's own stack gave
    out, minutes later), and the report says which macro."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, RUSTY_RECURSION_LIMIT='2000')
    for program in ['(defmacro m (a) `(m ,a)) (m 1)',
                    '(defmacro m (a) `(begin (m ,a))) (define (f) (m 1)) (f)']:
        for fast in ('0', '1'):
            env['RUSTY_SPECIALIZE'] = fast
            p = subprocess.run([sys.executable, '-m', 'rusty', '-e', program], capture_output=True,
                               text=True, env=env, timeout=120)
            assert p.returncode == 1
            assert p.stderr.startswith('Error: recursion limit exceeded (depth 2000)'), p.stderr
            assert "hint: reached while expanding the macro 'm'" in p.stderr
            assert 'internal error' not in p.stderr
