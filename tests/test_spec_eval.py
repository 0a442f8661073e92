"""docs/reference.md §4 Evaluation: dispatch, environments, arity, proper tail calls, deep recursion."""
import os
import subprocess
import sys
from pathlib import Path

import pytest


from helpers import dv, err, ev, out, run_capture

REPO = Path(__file__).resolve().parents[1]
LIMIT_MSG = ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
             'rewrite with an accumulator / tail call')


def rusty_proc(args, env=None, input=None, timeout=120):
    """Run `python3 -m rusty ARGS` as a real process."""
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    e.pop('RUSTY_RECURSION_LIMIT', None)
    e.update(env or {})
    return subprocess.run([sys.executable, '-m', 'rusty'] + list(args), input=input, capture_output=True,
                          text=True, env=e, timeout=timeout, cwd=str(REPO))


# ── forms and dispatch (docs/reference.md §4) ─────────────────────────────

@pytest.mark.parametrize('src,v', [
    ('42', '42'), ('"s"', '"s"'), ('#t', '#t'), ('#f', '#f'), ('()', '()'),
])
def test_self_evaluating(src, v):
    assert dv(src) == v


def test_empty_form_evaluates_to_nil():
    assert ev('(type-of ())') == 'nil'


@pytest.mark.parametrize('src,msg', [
    ('(5 1)', 'Not callable: 5'),
    ('(() 1)', 'Not callable: ()'),
    ("('() 1)", 'Not callable: ()'),
    ('("s" 1)', 'Not callable: "s"'),
    ("('(1 \"x\") 0)", 'Not callable: (1 "x")'),
    ('(#t)', 'Not callable: #t'),
    ("('sym)", 'Not callable: sym'),
    ('(defmacro m () 1) ((car (list m)))', 'Not callable: #<macro ()>'),
    ('(defmacro m (a b . c) 1) ((if #t m m) 1)', 'Not callable: #<macro (a b)>'),
])
def test_not_callable(src, msg):
    assert err(src) == msg


def test_unbound_head_raises_before_arguments_are_evaluated():
    o, e = run_capture('(zzqundefined (display "evaluated"))')
    assert e == "Undefined: 'zzqundefined'"
    assert o == ''


def test_arguments_evaluated_left_to_right_after_head():
    assert out('((begin (display "h") list) (display 1) (display 2) (display 3))') == 'h123'


def test_special_forms_cannot_be_shadowed():
    assert ev('(define (f do) (+ do 1)) (f 1)') == '2'
    assert ev('(define do 5) do') == '5'
    assert ev('(define do 5) (do ((i 0 (+ i 1))) ((= i 2) (+ do i)))') == '7'
    assert ev("(let ((if (lambda (a b c) 'shadowed))) (if #f 1 2))") == '2'
    assert ev("(define (quote x) 'mine) (quote abc)") == 'abc'


def test_special_form_names_have_no_value():
    assert err("(map eval '(1))") == "Undefined: 'eval'"
    assert err('(list if)').startswith("Undefined: 'if'")


def test_special_form_name_defined_as_variable_is_usable_as_value():
    assert ev("(define eval (lambda (x) (* x 10))) (map eval '(1 2))") == '(10 20)'


def test_macro_dispatch_by_current_binding():
    assert ev('(defmacro m (x) (list (quote quote) x)) (m (a b))') == '(a b)'


# ── environments (docs/reference.md §4) ───────────────────────────────────

def test_define_binds_in_current_frame_example():
    src = '(define x 10) (define (f) (display x) (define x 2) (display x)) (f)'
    assert out(src) == '102'
    assert ev(src + ' x') == '10'


def test_internal_define_shadows_only_within_activation():
    src = '(define y 1) (define (f) (define y 5) y) (list (f) y)'
    assert ev(src) == '(5 1)'


def test_set_bang_assigns_nearest_binding():
    assert ev('(define x 1) (define (f) (set! x 2)) (f) x') == '2'
    assert ev('(define x 1) (define (f) (let ((x 0)) (set! x 5) x)) (list (f) x)') == '(5 1)'
    assert ev('(define (counter) (let ((n 0)) (lambda () (set! n (+ n 1)) n))) '
              '(define c (counter)) (c) (c) (c)') == '3'


def test_set_bang_without_binding():
    assert err('(set! zzqnotbound 1)') == "set!: undefined variable 'zzqnotbound'"
    assert err('(define (f) (set! zzqlocal 1)) (f)') == "set!: undefined variable 'zzqlocal'"


def test_set_assigns_nearest_or_defines_in_current_frame():
    assert ev('(define x 1) (define (f) (set x 3)) (f) x') == '3'
    assert ev('(set zzqfresh 4) zzqfresh') == '4'
    assert ev('(define (f) (set zzqinner 5) zzqinner) (f)') == '5'
    assert err('(define (f) (set zzqinner 5) zzqinner) (f) zzqinner') == "Undefined: 'zzqinner'"


def test_late_binding_of_globals():
    assert ev('(define (g) 1) (define (c) (g)) (define r (c)) (define (g) 2) (list r (c))') == '(1 2)'
    assert ev('(define (c) (zzqlater)) (define (zzqlater) 7) (c)') == '7'


def test_redefinition_as_macro_is_seen_by_existing_callers():
    src = "(define (h a) a) (define (u) (h undefined-name)) (defmacro h (a) `(quote ,a)) (u)"
    assert ev(src) == 'undefined-name'


def test_closures_capture_their_environment():
    assert ev('(define (adder n) (lambda (v) (+ v n))) ((adder 3) 4)') == '7'
    assert ev('(define fs (map (lambda (i) (lambda () i)) (list 1 2 3))) (map (lambda (f) (f)) fs)') == '(1 2 3)'


def test_frames_not_created_by_begin_if_and_friends():
    assert ev('(define (f) (begin (define zb 1)) zb) (f)') == '1'
    assert ev('(define (f) (if #t (define zb 2)) zb) (f)') == '2'
    assert ev('(define (f) (when #t (define zb 3)) zb) (f)') == '3'
    assert ev('(define (f) (and (define zb 4)) zb) (f)') == '4'
    assert ev('(define (f) (cond (#t (define zb 5))) zb) (f)') == '5'
    assert ev('(begin (define zqtop 6)) zqtop') == '6'


def test_let_frames_hold_defines():
    assert err('(let () (define zqinlet 1)) zqinlet') == "Undefined: 'zqinlet'"
    assert err('(try-catch (error "x") (e) (define zqhandler 1)) zqhandler') == "Undefined: 'zqhandler'"
    assert err('(match 1 (x (define zqmatchvar 1))) zqmatchvar') == "Undefined: 'zqmatchvar'"


# ── application and arity (docs/reference.md §4) ──────────────────────────

@pytest.mark.parametrize('src,msg', [
    ('((lambda (x) x))', 'lambda: expected 1 args, got 0'),
    ('((lambda (x) x) 1 2)', 'lambda: expected 1 args, got 2'),
    ('((lambda () 1) 1)', 'lambda: expected 0 args, got 1'),
    ('((lambda (a b . r) a) 1)', 'lambda: expected at least 2 args, got 1'),
    ('((lambda (a . r) a))', 'lambda: expected at least 1 args, got 0'),
    ('(define (f a b) a) (f 1 2 3)', 'f: expected 2 args, got 3'),
    ('(defmacro m (a) a) (m)', 'm: expected 1 args, got 0'),
    ('(defmacro m (a . r) a) (m)', 'm: expected at least 1 args, got 0'),
    ('(defmacro m () 1) (m 1 2)', 'm: expected 0 args, got 2'),
])
def test_arity_errors(src, msg):
    assert err(src) == msg


def test_rest_parameters():
    assert ev('((lambda (a . r) r) 1)') == '()'
    assert ev('((lambda (a . r) (type-of r)) 1)') == 'list'
    assert ev('((lambda (a . r) r) 1 2 3)') == '(2 3)'
    assert ev('((lambda args args))') == '()'
    assert ev('((lambda args (type-of args)))') == 'list'
    assert ev('((lambda args args) 1 2)') == '(1 2)'
    assert ev('((lambda (. args) args) 1 2)') == '(1 2)'


def test_duplicate_parameters_later_wins():
    assert ev('((lambda (a a) a) 1 2)') == '2'


def test_body_forms_in_order_last_value():
    assert out('((lambda () (display 1) (display 2)))') == '12'
    assert ev('((lambda () 1 2 3))') == '3'


# ── proper tail calls (docs/reference.md §4) ──────────────────────────────

@pytest.mark.slow
def test_million_iteration_tail_loop():
    assert ev('(define (loop n acc) (if (= n 0) acc (loop (- n 1) (+ acc 1)))) (loop 1000000 0)') == '1000000'


def test_mutual_tail_recursion_in_process():
    src = ('(define (ev? n) (if (= n 0) #t (od? (- n 1)))) (define (od? n) (if (= n 0) #f (ev? (- n 1)))) '
           '(ev? 300001)')
    assert ev(src) == '#f'


# Each case loops N times through one tail position, under a recursion limit of
# 1000: with proper tail calls it finishes; without, it hits the limit.
TAIL_N = 5000
TAIL_CASES = {
    'lambda-body': "(define (f n) (if (= n 0) 'done (f (- n 1))))",
    'def-body': "(def f (n) (if (= n 0) 'done (f (- n 1))))",
    'define-lambda-value': "(define f (lambda (n) (if (= n 0) 'done (f (- n 1)))))",
    'if-then': "(define (f n) (if (> n 0) (f (- n 1)) 'done))",
    'if-else': "(define (f n) (if (= n 0) 'done (f (- n 1))))",
    'let': "(define (f n) (let ((m n)) (if (= m 0) 'done (f (- m 1)))))",
    'let*': "(define (f n) (let* ((m n) (k m)) (if (= k 0) 'done (f (- k 1)))))",
    'letrec': "(define (f n) (letrec ((m n)) (if (= m 0) 'done (f (- m 1)))))",
    'letrec*': "(define (f n) (letrec* ((m n)) (if (= m 0) 'done (f (- m 1)))))",
    'named-let-body': "(define (f n) (let lp ((m n)) (if (= m 0) 'done (lp (- m 1)))))",
    'named-let-first-call': "(define (f n) (if (= n 0) 'done (let lp ((m (- n 1))) (f m))))",
    'begin': "(define (f n) (begin 1 (if (= n 0) 'done (f (- n 1)))))",
    'cond': "(define (f n) (cond ((= n 0) 'done) (else 1 (f (- n 1)))))",
    'cond-test-clause': "(define (f n) (cond ((= n 0) 'done) (#t (f (- n 1)))))",
    'match': "(define (f n) (match n (0 'done) (k 1 (f (- k 1)))))",
    'when': "(define (f n) (if (= n 0) 'done (when #t 1 (f (- n 1)))))",
    'unless': "(define (f n) (if (= n 0) 'done (unless #f 1 (f (- n 1)))))",
    'and': "(define (f n) (if (= n 0) 'done (and #t (f (- n 1)))))",
    'or': "(define (f n) (if (= n 0) 'done (or #f (f (- n 1)))))",
    'try-catch-handler': "(define (f n) (if (= n 0) 'done (try-catch (error \"x\") (e) (f (- n 1)))))",
    'eval': "(define (f n) (if (= n 0) 'done (eval (list 'f (- n 1)))))",
    'macro-expansion': "(defmacro callf (x) (list 'f x)) (define (f n) (if (= n 0) 'done (callf (- n 1))))",
    'mutual': "(define (f n) (if (= n 0) 'done (g (- n 1)))) (define (g n) (f n))",
    'mutual-via-helper': "(define (f n) (if (= n 0) 'done (h n))) (define (h n) (f (- n 1)))",
}

# Non-tail positions must count depth: under the same limit they fail.
NONTAIL_CASES = {
    'argument': "(define (f n) (if (= n 0) 'done (car (list (f (- n 1))))))",
    'try-catch-body': "(define (f n) (try-catch (if (= n 0) 'done (f (- n 1))) (e) e))",
    'do-result': "(define (f n) (do () (#t (if (= n 0) 'done (f (- n 1))))))",
    'do-body': "(define (f n) (define r 'done) (do ((i 0 (+ i 1))) ((= i 1) r) (if (> n 0) (set! r (f (- n 1))))))",
    'map': "(define (f n) (if (= n 0) 'done (car (map f (list (- n 1))))))",
    'apply': "(define (f n) (if (= n 0) 'done (apply f (list (- n 1)))))",
    'foldl': "(define (f n) (if (= n 0) 'done (foldl (lambda (e acc) (f e)) 0 (list (- n 1)))))",
    'for-each': "(define r 'done) (define (f n) (if (= n 0) 'done (begin (for-each (lambda (x) (set! r (f x))) (list (- n 1))) r)))",
    'sort': "(define (f n) (if (= n 0) 'done (car (sort (list 1 2) (lambda (a b) (f (- n 1)) #t)))))",
}


def _batch_program(cases, n):
    lines = []
    for name, defs in cases.items():
        body = '(begin %s (f %d))' % (defs, n)
        lines.append('(println "%s" (try-catch (eval-string %s) (e) e))' % (name, _lisp_string(body)))
    return '\n'.join(lines)


def _lisp_string(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


@pytest.fixture(scope='module')
def tail_results():
    p = rusty_proc(['-'], env={'RUSTY_RECURSION_LIMIT': '1000'}, input=_batch_program(TAIL_CASES, TAIL_N))
    assert p.returncode == 0, p.stderr
    return dict(line.split(' ', 1) for line in p.stdout.splitlines())


@pytest.fixture(scope='module')
def nontail_results():
    p = rusty_proc(['-'], env={'RUSTY_RECURSION_LIMIT': '300'}, input=_batch_program(NONTAIL_CASES, 1000))
    assert p.returncode == 0, p.stderr
    return dict(line.split(' ', 1) for line in p.stdout.splitlines())


@pytest.mark.parametrize('name', sorted(TAIL_CASES))
def test_tail_position_runs_in_constant_depth(tail_results, name):
    assert tail_results.get(name) == 'done'


@pytest.mark.parametrize('name', sorted(NONTAIL_CASES))
def test_non_tail_position_counts_depth(nontail_results, name):
    assert nontail_results.get(name) == LIMIT_MSG % 300


# ── deep recursion (docs/reference.md §4; separate processes: a crash must not take pytest down) ──

COUNT_DOWN = '(define (count-down n) (if (= n 0) 0 (+ 1 (count-down (- n 1)))))'


@pytest.mark.slow
def test_non_tail_recursion_100000_deep_works():
    p = rusty_proc(['-e', COUNT_DOWN + ' (count-down 100000)'])
    assert (p.returncode, p.stdout, p.stderr) == (0, '100000\n', '')


@pytest.mark.slow
def test_default_limit_is_200000_and_the_error_is_exact_and_catchable():
    p = rusty_proc(['-e', COUNT_DOWN + ' (println (count-down 199000)) (try-catch (count-down 10000000) (e) e)'])
    assert (p.returncode, p.stderr) == (0, '')
    assert p.stdout == '199000\n' + LIMIT_MSG % 200000 + '\n'


def test_recursion_limit_env_respected():
    p = rusty_proc(['-e', COUNT_DOWN + ' (println (count-down 900)) (count-down 1100)'],
                   env={'RUSTY_RECURSION_LIMIT': '1000'})
    assert p.returncode == 1
    assert p.stdout == '900\n'
    assert p.stderr.startswith('Error: ' + LIMIT_MSG % 1000 + '\n')
    assert 'Traceback' not in p.stderr


@pytest.mark.slow
def test_recursion_limit_raised_above_default():
    p = rusty_proc(['-e', COUNT_DOWN + ' (count-down 250000)'], env={'RUSTY_RECURSION_LIMIT': '300000'})
    assert (p.returncode, p.stdout, p.stderr) == (0, '250000\n', '')


def test_macro_expansions_count_depth():
    # each expansion of `deep` runs `eval` of the next call inside its own body,
    # so the expansions are nested (active at the same time)
    src = ("(defmacro deep (n) (if (= n 0) 0 (+ 1 (eval (list 'deep (- n 1)))))) "
           "(println (deep 100)) (try-catch (deep 2000) (e) e)")
    p = rusty_proc(['-e', src], env={'RUSTY_RECURSION_LIMIT': '500'})
    assert p.returncode == 0, p.stderr
    assert p.stdout == '100\n' + LIMIT_MSG % 500 + '\n'


NEST = "(define (nest n acc) (if (= n 0) acc (nest (- n 1) (list acc))))"
DEEP_DATA_CASES = [
    ('equal', "(equal? (nest 100000 '(1)) (nest 100000 '(1)))", '#t'),
    ('equal-differ', "(equal? (nest 100000 '(1)) (nest 100000 '(2)))", '#f'),
    ('str', "(string-length (str (nest 100000 '(1))))", '8005'),
    ('json', "(string-length (json-encode (nest 100000 '(1))))", '200003'),
    ('flatten', "(flatten (nest 100000 '(1)))", '(1)'),
    ('eval', "(define (mk n acc) (if (= n 0) acc (mk (- n 1) (list '+ 1 acc)))) (eval (mk 100000 0))", '100000'),
    ('save-model', "(save-model (string-append (symbol->string (gensym)) \".tmp-model\") (nest 100000 '(1)))", '()'),
    ('member', "(member (nest 50000 '(1)) (list 1 (nest 50000 '(1))))", None),
]


@pytest.mark.slow
@pytest.mark.parametrize('name,expr,ok', DEEP_DATA_CASES, ids=[c[0] for c in DEEP_DATA_CASES])
def test_deep_data_works_or_gives_the_recursion_error(tmp_path, name, expr, ok):
    p = subprocess.run([sys.executable, '-m', 'rusty', '-e',
                        NEST + ' (define r (try-catch (begin %s) (e) (list \'error e))) (print r)' % expr],
                       capture_output=True, text=True, timeout=120, cwd=str(tmp_path),
                       env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert p.returncode == 0, p.stderr
    assert p.stderr == ''
    got = p.stdout.rstrip('\n')
    if got.startswith('(error '):
        assert got == '(error %s)' % (LIMIT_MSG % 200000)
    elif ok is not None:
        assert got == ok
