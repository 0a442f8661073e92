"""docs/reference.md §5 Special forms: every special form, its semantics and its usage messages."""
import pytest

from helpers import dv, err, ev, out, run_capture


# ── usage messages (docs/reference.md §5), all in one table ───────────────

USAGE = [
    # define / def
    ('(define)', 'define: expected (define name value), got 0 parts'),
    ('(define x)', 'define: expected (define name value), got 1 part'),
    ('(define 5 1)', 'define: first arg must be symbol or list'),
    ('(define "x" 1)', 'define: first arg must be symbol or list'),
    ('(define (5 x) 1)', 'define: first arg must be symbol or list'),
    ('(define ("f") 1)', 'define: first arg must be symbol or list'),
    ('(define () 1)', 'define: empty signature'),
    ('(def)', 'def: expected (def name value), got 0 parts'),
    ('(def x)', 'def: expected (def name value), got 1 part'),
    # set! / set
    ('(set!)', 'set!: expected (set! name value), got 0 parts'),
    ('(set! x)', 'set!: expected (set! name value), got 1 part'),
    ('(define x 1) (set! x 1 2)', 'set!: expected (set! name value), got 3 parts'),
    ('(set! 5 1)', 'set!: name must be a symbol, got 5'),
    ('(set! (x) 1)', 'set!: name must be a symbol, got (x)'),
    ('(set)', 'set: expected (set name value), got 0 parts'),
    ('(set x)', 'set: expected (set name value), got 1 part'),
    ('(set x 1 2)', 'set: expected (set name value), got 3 parts'),
    ('(set "x" 1)', 'set: name must be a symbol, got "x"'),
    # lambda / fn / λ
    ('(lambda (x))', 'lambda: expected (lambda params body...), got 1 part'),
    ('(lambda)', 'lambda: expected (lambda params body...), got 0 parts'),
    ('(fn (x))', 'lambda: expected (lambda params body...), got 1 part'),
    ('(λ (x))', 'lambda: expected (lambda params body...), got 1 part'),
    ('(lambda (1) 1)', 'params must be symbols'),
    ('(lambda (a "b") 1)', 'params must be symbols'),
    ('(fn ((a)) 1)', 'params must be symbols'),
    ('(lambda (a .) 1)', "malformed rest param after '.'"),
    ('(lambda (a . b c) 1)', "malformed rest param after '.'"),
    ('(lambda (.) 1)', "malformed rest param after '.'"),
    ('(λ (a . b c) 1)', "malformed rest param after '.'"),
    ('(define (f a . b c) 1)', "malformed rest param after '.'"),
    ('(define (f 1) 1)', 'params must be symbols'),
    # let family
    ('(let ((x 1)))', 'let: expected (let ((name expr)...) body...), got 1 part'),
    ('(let)', 'let: expected (let ((name expr)...) body...), got 0 parts'),
    ('(let 5 1)', 'let: bindings must be a list ((name expr)...), got 5'),
    ('(let (x) 1)', 'let: each binding must be (name expr)'),
    ('(let ((1 2)) 1)', 'let: each binding must be (name expr)'),
    ('(let (5) 1)', 'let: each binding must be (name expr)'),
    ('(let loop ((i 0)))', 'let: expected (let loop ((var init)...) body...), got 2 parts'),
    ('(let loop ((1 0)) 1)', 'let: each binding must be (name expr)'),
    ('(let* ((x 1)))', 'let*: expected (let* ((name expr)...) body...), got 1 part'),
    ('(let* 5 1)', 'let*: bindings must be a list ((name expr)...), got 5'),
    ('(let* (x) 1)', 'let*: each binding must be (name expr)'),
    ('(let* ((1 2)) 1)', 'let*: each binding must be (name expr)'),
    ('(letrec ((x 1)))', 'letrec: expected (letrec ((name expr)...) body...), got 1 part'),
    ('(letrec 5 1)', 'letrec: bindings must be a list ((name expr)...), got 5'),
    ('(letrec (x) 1)', 'letrec: each binding must be (name expr)'),
    ('(letrec* ((x 1)))', 'letrec*: expected (letrec* ((name expr)...) body...), got 1 part'),
    ('(letrec* 5 1)', 'letrec*: bindings must be a list ((name expr)...), got 5'),
    ('(letrec* (x) 1)', 'letrec*: each binding must be (name expr)'),
    # do
    ('(do)', 'do: expected (do ((var init [step])...) (test result...) body...), got 0 parts'),
    ('(do ((i 0)))', 'do: expected (do ((var init [step])...) (test result...) body...), got 1 part'),
    ('(do 5 (#t))', 'do: expected ((var init [step])...), got 5'),
    # conditionals
    ('(if)', 'if: expected (if test then [else]), got 0 parts'),
    ('(if #t)', 'if: expected (if test then [else]), got 1 part'),
    ('(when #t)', 'when: expected (when test body...), got 1 part'),
    ('(when)', 'when: expected (when test body...), got 0 parts'),
    ('(unless #f)', 'unless: expected (unless test body...), got 1 part'),
    ('(unless)', 'unless: expected (unless test body...), got 0 parts'),
    ('(quote)', 'quote: expected (quote datum), got 0 parts'),
    ('(quote a b)', 'quote: expected (quote datum), got 2 parts'),
    ('(eval-when 5 1)', 'eval-when: phase spec must be a list'),
    ('(eval-when "p" 1)', 'eval-when: phase spec must be a list'),
    # try-catch
    ('(try-catch 1 (e))', 'try-catch: expected (try-catch body (err) handler), got 2 parts'),
    ('(try-catch 1)', 'try-catch: expected (try-catch body (err) handler), got 1 part'),
    ('(try-catch)', 'try-catch: expected (try-catch body (err) handler), got 0 parts'),
    ('(try-catch 1 e 2)', 'try-catch: the error variable must be (name), got e'),
    ('(try-catch 1 (e f) 2)', 'try-catch: the error variable must be (name), got (e f)'),
    ('(try-catch 1 (5) 2)', 'try-catch: the error variable must be (name), got (5)'),
    ('(try-catch 1 () 2)', 'try-catch: the error variable must be (name), got ()'),
    # match
    ('(match 5)', 'match: expected (match expr (pattern body...)...), got 1 part'),
    ('(match)', 'match: expected (match expr (pattern body...)...), got 0 parts'),
    ("(match '(1 2) ((a .) 1))", "match: malformed rest pattern after '.'"),
    ("(match '(1 2) ((a . b c) 1))", "match: malformed rest pattern after '.'"),
    # quasiquote / eval
    ('(quasiquote)', 'quasiquote: expected (quasiquote template), got 0 parts'),
    ('(quasiquote a b)', 'quasiquote: expected (quasiquote template), got 2 parts'),
    ('(eval)', 'eval: expected (eval expr), got 0 parts'),
    ('(eval 1 2)', 'eval: expected (eval expr), got 2 parts'),
    # defmacro
    ('(defmacro m (x))', 'defmacro: expected (defmacro name (params...) body...), got 2 parts'),
    ('(defmacro m)', 'defmacro: expected (defmacro name (params...) body...), got 1 part'),
    ('(defmacro)', 'defmacro: expected (defmacro name (params...) body...), got 0 parts'),
    ('(defmacro 5 (x) x)', 'defmacro: name must be a symbol, got 5'),
    ('(defmacro (m) (x) x)', 'defmacro: name must be a symbol, got (m)'),
    ('(defmacro m x x)', 'defmacro: params must be a list of symbols, got x'),
    ('(defmacro m (1) 1)', 'defmacro: params must be a list of symbols, got (1)'),
    ('(defmacro m (a . b c) 1)', 'defmacro: params must be a list of symbols, got (a . b c)'),
    ('(define-macro m (x))', 'defmacro: expected (defmacro name (params...) body...), got 2 parts'),
    ('(defmacro m (x) (eval-when (compile) 1))', 'defmacro: body must have an expression after any eval-when blocks'),
    ('(defmacro m (x) (eval-when (a) 1) (eval-when (b) 2))', 'defmacro: body must have an expression after any eval-when blocks'),
    # load
    ('(load)', 'load: expected (load path), got 0 parts'),
    ('(load 5)', 'load: expects 1 string argument'),
    ('(load "a" "b")', 'load: expected (load path), got 2 parts'),
    ("(load 'a)", 'load: expects 1 string argument'),
    ('(load-relative)', 'load: expected (load-relative path), got 0 parts'),
    ('(load-relative 5)', 'load: expects 1 string argument'),
]


@pytest.mark.parametrize('src,msg', USAGE, ids=[u[0] for u in USAGE])
def test_usage_errors(src, msg):
    assert err(src) == msg


def test_usage_errors_are_caught_before_the_form_runs():
    # The whole form is checked before any of it runs: try-catch cannot catch it ...
    assert run_capture('(display 1) (try-catch (begin (display 2) (if)) (e) e)') == \
        ('1', 'if: expected (if test then [else]), got 0 parts')
    # ... but code made at run time is checked when eval is given it, catchably.
    assert dv("(try-catch (eval '(if)) (e) e)") == '"if: expected (if test then [else]), got 0 parts"'


# ── define, def, set!, set (docs/reference.md §5) ─────────────────────────

def test_define_forms():
    assert ev('(define x 5) x') == '5'
    assert ev('(define (f a b . rest) (list a b rest)) (f 1 2 3 4)') == '(1 2 (3 4))'
    assert ev('(define (f . all) all) (f 1 2)') == '(1 2)'
    assert ev('(define (f) 7) (f)') == '7'
    assert ev('(type-of (define x 1))') == 'nil'
    assert ev('(type-of (define (f) 1))') == 'nil'


def test_def_forms():
    assert ev('(def x 5) x') == '5'
    assert ev('(def sq (x) (* x x)) (sq 3)') == '9'
    assert ev('(def f () 1) (f)') == '1'
    assert ev('(def f (a . r) r) (f 1 2 3)') == '(2 3)'
    assert ev('(def f (x) (define y 1) (+ x y)) (f 1)') == '2'
    assert ev('(type-of (def x 1))') == 'nil'


def test_set_forms_return_nil():
    assert ev('(define x 1) (type-of (set! x 2))') == 'nil'
    assert ev('(type-of (set y 2))') == 'nil'


# ── lambda (docs/reference.md §5) ─────────────────────────────────────────

def test_lambda_aliases():
    assert ev('((fn (x) (* x 2)) 4)') == '8'
    assert ev('((λ (x) (* x 3)) 4)') == '12'
    assert ev('((lambda (a b . rest) (list a b rest)) 1 2)') == '(1 2 ())'
    assert ev('((lambda args (length args)) 1 2 3)') == '3'


# ── let family and do (docs/reference.md §5) ──────────────────────────────

def test_let_inits_evaluated_in_outer_env_left_to_right():
    assert ev('(define x 1) (let ((x 2) (y x)) y)') == '1'
    assert out('(let ((a (display 1)) (b (display 2))) 0)') == '12'
    assert ev('(let ((x 1) (y 2)) (define z 3) (+ x y z))') == '6'
    assert ev('(let () 5)') == '5'


def test_named_let():
    assert ev('(let loop ((i 0) (acc 0)) (if (= i 5) acc (loop (+ i 1) (+ acc i))))') == '10'
    assert ev('(define x 100) (let loop ((x 1) (y x)) y)') == '100'
    assert ev('(let loop () 3)') == '3'
    assert ev('(let loop ((i 0)) (if (< i 3) (loop (+ i 1)) loop))') == '#<lambda (i)>'


def test_named_let_binds_loop_in_a_new_frame():
    assert ev("(define loop 'outer) (let loop ((i 0)) i) loop") == 'outer'


def test_let_star():
    assert ev('(define p 10) (let* ((p (+ p 1)) (q (* p 2))) (+ p q))') == '33'
    assert ev('(let* ((a 1) (b (+ a 1)) (c (* b 10))) c)') == '20'
    assert ev('(let* () 4)') == '4'


@pytest.mark.parametrize('form', ['letrec', 'letrec*'])
def test_letrec(form):
    src = ('(%s ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1))))) '
           '(od? (lambda (n) (if (= n 0) #f (ev? (- n 1)))))) (ev? 10))' % form)
    assert ev(src) == '#t'
    assert ev('(%s ((a b) (b 1)) (type-of a))' % form) == 'nil'
    assert ev('(%s ((a 1) (b (+ a 1))) b)' % form) == '2'
    assert ev('(define x 5) (%s ((x 1) (y x)) y)' % form) == '1'


def test_do_loop():
    assert ev('(do ((i 0 (+ i 1)) (acc 0 (+ acc i))) ((= i 5) acc))') == '10'
    assert ev('(type-of (do ((i 0 (+ i 1))) ((= i 3))))') == 'nil'
    assert out('(do ((i 0 (+ i 1))) ((= i 3)) (display i))') == '012'
    assert ev('(do ((i 0 (+ i 1)) (k 7)) ((= i 3) k))') == '7'
    assert ev('(do ((i 0 (+ i 1))) ((= i 2) 1 2 3))') == '3'


def test_do_steps_assigned_together():
    assert ev('(do ((a 1 b) (b 2 a) (n 0 (+ n 1))) ((= n 3) (list a b)))') == '(2 1)'


def test_do_inits_in_outer_environment():
    assert ev('(define i 10) (do ((i 0 (+ i 1)) (j i)) (#t j))') == '10'


def test_do_frame_is_mutated_not_recreated():
    src = ("(define fs '()) (do ((i 0 (+ i 1))) ((= i 3)) (set! fs (cons (lambda () i) fs))) "
           "(map (lambda (f) (f)) fs)")
    assert ev(src) == '(3 3 3)'


def test_do_test_evaluated_first():
    assert out('(do ((i 0 (+ i 1))) (#t (display "end")) (display "body"))') == 'end'


# ── conditionals and sequencing (docs/reference.md §5) ────────────────────

def test_if():
    assert ev('(if #t 1 2)') == '1'
    assert ev('(if #f 1 2)') == '2'
    assert ev('(type-of (if #f 1))') == 'nil'
    assert err('(if #t 1 2 3)') == 'if: expected (if test then [else]), got 4 parts'
    assert out('(if #t (display "a") (display "b"))') == 'a'


def test_cond():
    assert ev('(cond (#f 1) (else 2))') == '2'
    assert ev('(cond (5))') == '5'
    assert ev("(cond (#f 1) ('x))") == 'x'
    assert ev('(type-of (cond))') == 'nil'
    assert ev('(type-of (cond (#f 1)))') == 'nil'
    assert ev('(type-of (cond (else)))') == 'nil'
    assert err("(cond 5 () (#t 'x))") == 'cond: each clause must be (test body...), got 5'
    assert err("(cond (#t 1) ())") == 'cond: each clause must be (test body...), got ()'
    assert err("(cond (else 'e) (#t 't))") == 'cond: else must be the last clause'
    assert ev('(cond (#t 1 2 3))') == '3'
    assert out('(cond ((display "a") (display "b")) (else (display "c")))') == 'ab'
    assert ev("(define else #f) (cond (else 'fired))") == 'fired'


def test_cond_has_no_arrow_syntax():
    assert err('(cond (1 => 2))').startswith("Undefined: '=>'")
    assert ev('(define => 9) (cond (1 => 2))') == '2'


def test_when_unless():
    assert ev('(when #t 1 2)') == '2'
    assert ev('(type-of (when #f 1))') == 'nil'
    assert ev('(unless #f 1 2)') == '2'
    assert ev('(type-of (unless 0 1))') == 'nil'
    assert ev('(when 0 1)') == '1'
    assert out('(when #f (display "x")) (unless #t (display "y"))') == ''


@pytest.mark.parametrize('src,v', [
    ('(and)', '#t'), ('(or)', '#f'), ('(and 1 2)', '2'), ('(and 1 #f 3)', '#f'), ('(or #f 3)', '3'),
    ('(or #f #f)', '#f'), ("(and 1 '())", '()'), ('(and #f (car 5))', '#f'), ('(or 1 (car 5))', '1'),
    ('(or () 1)', '()'), ('(and 0 "")', '""'), ('(or #f #f 0)', '0'),
])
def test_and_or(src, v):
    assert dv(src) == v


def test_and_or_short_circuit_output():
    assert out('(and (display 1) #f (display 2))') == '1'
    assert out('(or #f (display 1) (display 2))') == '1'


def test_begin():
    assert ev('(type-of (begin))') == 'nil'
    assert ev('(begin 1 2)') == '2'
    assert out('(begin (display 1) (display 2))') == '12'


def test_quote():
    assert ev("(quote (a b))") == '(a b)'
    assert ev("(type-of '())") == 'list'
    assert ev("(quote 5)") == '5'
    assert ev("''a") == '(quote a)'


def test_eval_when_outside_defmacro_is_begin():
    assert ev('(eval-when (compile) 1 2)') == '2'
    assert ev('(type-of (eval-when ()))') == 'nil'
    assert ev('(eval-when (anything "goes" 1) (define zqew 4)) zqew') == '4'


# ── try-catch (docs/reference.md §5) ──────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ('(try-catch (car 5) (e) e)', '"car: not a pair"'),
    ('(try-catch (error "bad" 42) (e) e)', '"bad 42"'),
    ('(try-catch 1 (e) 2)', '1'),
    ('(try-catch (zzqundef) (e) e)', '"Undefined: \'zzqundef\'"'),
    ('(try-catch ((lambda (x) x)) (e) e)', '"lambda: expected 1 args, got 0"'),
    ('(try-catch (+ 1 "a") (e) e)', '"+: expected a number, got "a""'),
    ('(try-catch (eval-string "(+ 1") (e) e)', '"unexpected end of input: a \'(\' is never closed"'),
    ('(try-catch (car 5) (e) (string? e))', '#t'),
    ('(try-catch (try-catch (car 5) (e) (error "inner:" e)) (e) e)', '"inner: car: not a pair"'),
    ('(try-catch (error "x") (e) (try-catch (cdr 5) (e) e))', '"cdr: not a pair"'),
    ("(try-catch (error '(1 \"a\")) (e) e)", '"(1 a)"'),
])
def test_try_catch(src, v):
    assert dv(src) == v


def test_try_catch_handler_frame_and_body_output():
    assert out('(try-catch (begin (display "a") (car 5) (display "b")) (e) (display "h"))') == 'ah'
    assert ev('(define e 1) (try-catch (car 5) (e) e) e') == '1'


# ── match (docs/reference.md §5) ──────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ("(match 5 (5 'five) (_ 'other))", 'five'),
    ("(match '(1 2) ((a b) (+ a b)) (_ 'none))", '3'),
    ("(match '(1 2 3) ((h . t) t))", '(2 3)'),
    ('(match "x" ((? number?) \'n) ((? string?) \'s))', 's'),
    ("(match 1 (_ 'any))", 'any'),
    ('(match 5 (x (+ x 1)))', '6'),
    ("(match '(1 2) ((a a) a))", '2'),
    ("(match 1.0 (1 'one))", 'one'),
    ("(match -0.0 (0 'z))", 'z'),
    ("(match \"ab\" (\"ab\" 'y) (_ 'n))", 'y'),
    ("(match \"ab\" (\"ac\" 'y) (_ 'n))", 'n'),
    ("(match #f (#t 'a) (#f 'b))", 'b'),
    ("(match 0 (#f 'a) (_ 'b))", 'b'),
    ("(match '() (#f 'a) (_ 'b))", 'b'),
    ("(match 'foo ('foo 1) (_ 2))", '1'),
    ("(match 'bar ((quote foo) 1) (_ 2))", '2'),
    ("(match '(1 2) ('(1 2) 'yes))", 'yes'),
    ("(match \"foo\" ('foo 1) (_ 2))", '2'),
    ("(match '(1 2 3) ((cons h t) (list h t)))", '(1 (2 3))'),
    ("(match '(1) ((cons h t) t))", '()'),
    ("(match '() ((cons h t) 1) (_ 2))", '2'),
    ("(match (nil) ((cons h t) 1) (_ 2))", '2'),
    ("(match '(1 2 3) ((a . rest) rest))", '(2 3)'),
    ("(match '(1) ((a b . rest) 1) (_ 2))", '2'),
    ("(match '(1 2) ((a b . rest) rest))", '()'),
    ("(match '(1 2 3) ((a b) 1) (_ 2))", '2'),
    ("(match '() (() 1) (_ 2))", '1'),
    ("(match (nil) (() 1) (_ 2))", '2'),
    ("(match (nil) ((a . r) 1) (_ 2))", '2'),
    ("(match '(list 1 2) ((list a b) b))", '2'),
    ("(match '(1 2) ((list a b) 1) (_ 2))", '2'),
    ("(match '(1 (2 3)) ((a (b c)) (+ a b c)))", '6'),
    ("(match '(1 (2 3)) ((a (b)) 1) (_ 2))", '2'),
    ("(match '(1 \"s\" x) ((1 \"s\" 'x) 'all))", 'all'),
    ("(match '(1 2) ((_ _) 'two))", 'two'),
    ("(match '(5) (((? number?)) 'num))", 'num'),
    ("(match '(1 2 3) ((cons 1 (cons b _)) b))", '2'),
    ("(match 5 (5))", '()'),
])
def test_match(src, v):
    assert ev(src) == v


@pytest.mark.parametrize('name,yes,no', [
    ('number?', '1', '"1"'), ('string?', '"s"', "'s"), ('boolean?', '#f', '0'), ('list?', "'(1)", '1'),
    ('symbol?', "'s", '"s"'), ('nil?', "'()", '0'), ('pair?', "'(1)", "'()"), ('zero?', '0', '1'),
    ('positive?', '2', '-2'), ('negative?', '-2', '0'),
])
def test_match_predicates(name, yes, no):
    assert ev("(match %s ((? %s) 'y) (_ 'n))" % (yes, name)) == 'y'
    assert ev("(match %s ((? %s) 'y) (_ 'n))" % (no, name)) == 'n'


@pytest.mark.parametrize('name', ['zero?', 'positive?', 'negative?'])
def test_match_numeric_predicates_false_for_non_numbers(name):
    assert ev("(match \"a\" ((? %s) 'y) (_ 'n))" % name) == 'n'
    assert ev("(match '(1) ((? %s) 'y) (_ 'n))" % name) == 'n'


def test_match_predicates_are_any_procedure():
    assert ev("(match 4 ((? even?) 'even) (_ 'other))") == 'even'
    assert ev("(match 5 ((? integer?) 1) (_ 2))") == '1'
    assert ev("(define (my? x) #t) (match 5 ((? my?) 1) (_ 2))") == '1'
    assert ev("(define (number? x) #f) (match 5 ((? number?) 1) (_ 2))") == '2'
    assert ev("(let ((big? (lambda (x) (> x 10)))) (match 50 ((? big?) 'big) (_ 'small)))") == 'big'
    assert ev("(match 3 ((? (lambda (x) (> x 2))) 'yes) (_ 'no))") == 'yes'
    assert ev("(define (f lim) (match 7 ((? (lambda (x) (< x lim))) 'under) (_ 'over))) (list (f 10) (f 5))") \
        == '(under over)'
    assert ev("(match '(1 2) (((? number? a) (? number? b)) (+ a b)) (_ 'no))") == '3'
    assert ev("(match 5 ((? number? (? positive?) x) (* x 2)) (_ 'no))") == '10'
    assert ev("(match -5 ((? number? (? positive?) x) (* x 2)) (_ 'no))") == 'no'
    assert ev("(match (nil) ((? list?) 1) (_ 2))") == '1'
    assert ev("(match (nil) ((? nil?) 1) (_ 2))") == '1'
    assert ev("(match (nil) ((? pair?) 1) (_ 2))") == '2'


def test_match_predicate_errors():
    assert err("(match 5 ((? qqqqqq) 1) (_ 2))") == "Undefined: 'qqqqqq'"
    assert err("(match 5 ((? evn?) 1) (_ 2))") == "Undefined: 'evn?' — did you mean 'even?'?"
    assert err("(match 5 ((? 5) 1) (_ 2))") == 'match: (? 5) needs a procedure'
    assert err("(define p \"x\") (match 5 ((? p) 1) (_ 2))") == 'match: (? p) needs a procedure'
    assert err("(match 5 ((? while) 1) (_ 2))") == 'match: (? while) needs a procedure'
    assert err("(match 5 ((? (lambda (x) (car x))) 1))") == 'car: not a pair'


def test_the_empty_list_pattern():
    assert ev("(match '() (() 'empty) (_ 'other))") == 'empty'
    assert ev("(match '(1) (() 'empty) (_ 'other))") == 'other'
    assert ev("(match (nil) (() 'empty) (_ 'other))") == 'other'
    assert ev("(match '() ('() 'empty) (_ 'other))") == 'empty'


def test_match_errors_and_evaluation():
    assert err("(match 7 ('seven 1))") == 'match: no clause matched 7'
    assert err('(match "s" (1 1))') == 'match: no clause matched "s"'
    assert err("(match '(1 \"a\") ((x) 1))") == 'match: no clause matched (1 "a")'
    assert ev("(define n 0) (match (begin (set! n (+ n 1)) n) (2 'a) (1 'b)) n") == '1'
    assert ev('(define x 1) (match 5 (x x))') == '5'
    assert ev('(define x 1) (match 5 (x x)) x') == '1'
    assert ev("(type-of (match 5 (5)))") == 'nil'


# ── quasiquote (docs/reference.md §5) ─────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ("(define xs '(2 3)) `(1 ,@xs 4)", '(1 2 3 4)'),
    ('`(a (b ,(+ 1 2)))', '(a (b 3))'),
    ('`(a `(b ,(+ 1 2)))', '(a (quasiquote (b 3)))'),
    ('`(1 ,@(nil) 2)', '(1 2)'),
    ("`(1 ,@'() 2)", '(1 2)'),
    ("`,@'(1 2)", '(unquote-splicing (quote (1 2)))'),
    ('`x', 'x'),
    ('`5', '5'),
    ('`,(+ 1 2)', '3'),
    ("`(,@'(1) ,@'(2 3))", '(1 2 3)'),
    ("`((,@'(1 2)))", '((1 2))'),
    ('(define x 5) `(x ,x "s")', '(x 5 "s")'),
    ("`()", '()'),
    ("(quasiquote (1 (unquote (+ 1 1))))", '(1 2)'),
])
def test_quasiquote(src, v):
    assert dv(src) == v


def test_quasiquote_results():
    assert ev("(type-of `())") == 'list'
    assert err('`(1 ,@5)') == ',@: expected list, got 5'
    assert err('`(1 ,@"s")') == ',@: expected list, got "s"'


def test_unquote_outside_quasiquote_is_an_ordinary_symbol():
    assert err('(unquote 1)').startswith("Undefined: 'unquote'")
    assert err(',x').startswith("Undefined: 'unquote'")
    assert err(',@x').startswith("Undefined: 'unquote-splicing'")
    assert ev('(define (unquote x) (* x 2)) (unquote 21)') == '42'


# ── eval (docs/reference.md §5) ───────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ("(eval '(+ 1 2))", '3'),
    ('(define (f a) (let ((b 1)) (eval \'(define a 99)) (+ a b))) (f 5)', '100'),
    ("(let ((x 5)) (eval 'x))", '5'),
    ("(eval 5)", '5'),
    ('(eval "s")', '"s"'),
    ("(eval ''a)", 'a'),
    ("(eval (list 'quote (list 1 2)))", '(1 2)'),
    ("(define (f) (eval '(define zqev 3)) zqev) (f)", '3'),
    ("(eval (list 'list 1 (list 'quote 'x)))", '(1 x)'),
])
def test_eval(src, v):
    assert dv(src) == v


def test_eval_define_binds_in_current_frame_only():
    assert err("(define (f) (eval '(define zqev 3))) (f) zqev") == "Undefined: 'zqev'"


def test_eval_data_to_code():
    assert err('(eval (list + 1 2))') == 'Not callable: ()'
    assert ev('(type-of (eval (nil)))') == 'nil'
    assert ev('(type-of (eval car))') == 'nil'
    assert ev("(type-of (eval '()))") == 'nil'
    assert ev('(type-of (eval (tensor 1)))') == 'nil'
