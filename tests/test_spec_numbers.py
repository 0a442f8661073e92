"""docs/reference.md §6.1 Numbers: numeric builtins (IEEE corner cases, Python-math pitfalls) and grad."""
import time

import pytest

from helpers import err, ev, value

NAN = '(sqrt -1)'


@pytest.mark.parametrize('src,v', [
    # + and *: left folds from 0 / 1
    ('(+)', '0'), ('(*)', '1'), ('(+ 1 2 3)', '6'), ('(* 2 3 4)', '24'), ('(+ 5)', '5'), ('(* 5)', '5'),
    ('(+ 0.1 0.2 0.3)', '0.6000000000000001'), ('(+ -0.0)', '0'),
    # - : a − (b + c …)
    ('(- 5)', '-5'), ('(- 10 1 2)', '7'), ('(- 0.1 0.1 0.2)', '-0.20000000000000004'), ('(- 1 2)', '-1'),
    ('(- -5)', '5'),
    # / : a / (b · c …)
    ('(/ 6 3)', '2'), ('(/ 1 3)', '0.3333333333333333'), ('(/ 0.1 0.1 0.1)', '9.999999999999998'),
    ('(/ 0 5)', '0'), ('(/ 1 1e-200 1e-200)', 'inf'), ('(/ -1 1e-200 1e-200)', '-inf'),
    ('(/ 1 -1e-200 1e-200)', '-inf'), ('(/ 1e400 2)', 'inf'),
    # mod: C fmod
    ('(mod -7 3)', '-1'), ('(mod 7 -3)', '1'), ('(mod 5.5 2)', '1.5'), ('(mod 7 3)', '1'),
    ('(mod -7 -3)', '-1'), ('(mod 1e400 2)', 'NaN'), ('(mod 5 1e400)', '5'), ('(mod 0.3 0.1)', '0.09999999999999998'),
    # expt: C pow
    ('(expt 2 10)', '1024'), ('(expt 0 -1)', 'inf'), ('(expt -8 0.5)', 'NaN'), ('(expt 2 0.5)', '1.4142135623730951'),
    ('(expt 10.0 400)', 'inf'), ('(expt 10 400)', '1' + '0' * 400), ('(expt 0 0)', '1'), ('(expt -2 3)', '-8'), ('(expt 2 -1075)', '0'),
    ('(expt (- 0.0) -1)', '-inf'), ('(expt (- 0.0) -2)', 'inf'), ('(expt 1 (sqrt -1))', '1'),
    ('(expt (sqrt -1) 0)', '1'), ('(expt -1 1e400)', '1'), ('(expt 10 -400)', '0'), ('(expt -10.0 401)', '-inf'),
    ('(expt 0.5 -2000)', 'inf'),
    # exp / log / sqrt
    ('(exp 1000)', 'inf'), ('(exp -1000)', '0'), ('(exp 0)', '1'), ('(exp 1)', '2.718281828459045'),
    ('(exp 1e400)', 'inf'), ('(exp -1e400)', '0'),
    ('(log 0)', '-inf'), ('(log -1)', 'NaN'), ('(log 1e400)', 'inf'), ('(log 1)', '0'), ('(log -0.0)', '-inf'),
    ('(log 10)', '2.302585092994046'), ('(log -1e400)', 'NaN'),
    ('(sqrt -1)', 'NaN'), ('(sqrt 16)', '4'), ('(sqrt 1e400)', 'inf'), ('(sqrt 2)', '1.4142135623730951'),
    ('(sqrt -1e400)', 'NaN'),
    # trig
    ('(sin 0)', '0'), ('(sin 1e400)', 'NaN'), ('(sin -1e400)', 'NaN'), ('(cos 1e400)', 'NaN'),
    ('(tan 1e400)', 'NaN'), ('(sin 1)', '0.8414709848078965'), ('(cos 0)', '1'),
    ('(atan 1)', '0.7853981633974483'), ('(atan 1e400)', '1.5707963267948966'), ('(atan -1e400)', '-1.5707963267948966'),
    ('(atan2 1 1)', '0.7853981633974483'), ('(atan2 0 -1)', '3.141592653589793'),
    ('(atan2 (- 0.0) -1)', '-3.141592653589793'), ('(atan2 1e400 1e400)', '0.7853981633974483'), ('(atan2 0 0)', '0'),
    # floor / ceiling / round / abs
    ('(floor 2.5)', '2'), ('(floor -2.5)', '-3'), ('(ceiling 2.1)', '3'), ('(ceiling -2.1)', '-2'),
    ('(floor 1e400)', 'inf'), ('(floor -1e400)', '-inf'), ('(ceiling 1e400)', 'inf'), ('(floor (sqrt -1))', 'NaN'),
    ('(ceiling (sqrt -1))', 'NaN'), ('(floor 1e300)', str(int(1e300))), ('(ceiling -0.5)', '0'),
    ('(round 1.5)', '2'), ('(round 2.5)', '3'), ('(round -1.5)', '-2'), ('(round -2.5)', '-3'),
    ('(round 0.49999999999999994)', '0'), ('(round 0.5)', '1'), ('(round -0.5)', '-1'), ('(round 1e400)', 'inf'),
    ('(round (sqrt -1))', 'NaN'), ('(round 4503599627370497)', '4503599627370497'), ('(round -0.4)', '0'),
    ('(round 2.4)', '2'), ('(round 1e300)', str(int(1e300))), ('(round -1e400)', '-inf'),
    ('(abs -5)', '5'), ('(abs (- 0))', '0'), ('(abs -1e400)', 'inf'), ('(abs (sqrt -1))', 'NaN'),
    # max / min
    ('(max 1 2 3)', '3'), ('(min 3 1 2)', '1'), ('(max)', '-inf'), ('(min)', 'inf'),
    ('(max 1 (sqrt -1) 3)', '3'), ('(max (sqrt -1))', '-inf'), ('(min (sqrt -1) 2)', '2'), ('(min (sqrt -1))', 'inf'),
    ('(max -5)', '-5'), ('(max 1e400 1)', 'inf'),
    # gcd
    ('(gcd 12 18)', '6'), ('(gcd 0 0)', '0'), ('(gcd -12 18)', '6'), ('(gcd 12.7 18.9)', '6'), ('(gcd 12 18 8)', '2'),
    ('(gcd 0 5)', '5'), ('(gcd 7 13)', '1'),
    # predicates
    ('(zero? 0)', '#t'), ('(zero? -0.0)', '#t'), ('(zero? 1e-300)', '#f'), ('(positive? 0)', '#f'),
    ('(positive? 1e-300)', '#t'), ('(negative? -0.0)', '#f'), ('(negative? -1)', '#t'),
    ('(positive? (sqrt -1))', '#f'), ('(negative? (sqrt -1))', '#f'), ('(zero? (sqrt -1))', '#f'),
    ('(odd? -3)', '#t'), ('(even? 2.5)', '#t'), ('(odd? 2.5)', '#f'), ('(odd? -2.5)', '#f'), ('(even? -2.5)', '#t'),
    ('(odd? 1e400)', '#f'), ('(even? 1e400)', '#f'), ('(even? (sqrt -1))', '#f'), ('(odd? (sqrt -1))', '#f'),
    ('(even? 0)', '#t'), ('(odd? 3.9)', '#t'), ('(even? -1e400)', '#f'), ('(even? 1e300)', '#t'),
    ('(number? 1)', '#t'), ('(number? "1")', '#f'), ('(number? (sqrt -1))', '#t'), ("(number? '(1))", '#f'),
    # aliases
    ('(add 1 2)', '3'), ('(sub 5 1)', '4'), ('(mul 2 3)', '6'), ('(div 6 3)', '2'), ('(sub 10 1 2)', '7'),
    ('(gt 2 1)', '#t'), ('(lt 2 1)', '#f'), ('(ge 2 2)', '#t'), ('(le 3 2)', '#f'),
])
def test_numeric_builtins(src, v):
    assert ev(src) == v


def test_negative_zero_results_keep_their_sign():
    assert ev('(atan2 (- 0.0) -1)') == '-3.141592653589793'
    assert ev('(atan2 (* -1 0.0) -1)') == '-3.141592653589793'
    assert ev('(atan2 (sqrt (- 0.0)) -1)') == '-3.141592653589793'
    assert ev('(atan2 (abs (- 0.0)) -1)') == '3.141592653589793'
    # an exact integer has no sign of zero: (- 0) and a float rounded to 0 are the exact 0
    assert ev('(atan2 (- 0) -1)') == '3.141592653589793'
    assert ev('(atan2 (round -0.4) -1)') == '3.141592653589793'
    assert ev('(atan2 (ceiling -0.5) -1)') == '3.141592653589793'


def test_results_are_exact_integers():
    for src in ('(floor 2.5)', '(round 2.5)', '(gcd 12 18)', '(+ 1 2)', '(expt 2 10)', '(length (list 1))'):
        v = value(src)
        assert type(v) is int, (src, v)
    for src in ('(+ 1 2.0)', '(sqrt 16)', '(expt 2 0.5)', '(/ 1 4)', '(floor 1e400)', '(gcd 12.0 18)'):
        v = value(src)
        assert type(v) is float, (src, v)


@pytest.mark.parametrize('src,msg', [
    ('(-)', '- requires at least 1 arg'),
    ('(sub)', '- requires at least 1 arg'),
    ('(/)', '/ requires at least 2 args'),
    ('(/ 1)', '/ requires at least 2 args'),
    ('(div 1)', '/ requires at least 2 args'),
    ('(/ 1 0)', 'Division by zero'),
    ('(/ 1 -0.0)', 'Division by zero'),
    ('(/ 1 2 0)', 'Division by zero'),
    ('(/ 0 0)', 'Division by zero'),
    ('(div 1 0)', 'Division by zero'),
    ('(/ 1 0 1e400)', 'Division by zero'),
    ('(mod 1 0)', 'mod: division by zero'),
    ('(mod 1 -0.0)', 'mod: division by zero'),
    ('(mod 1)', 'mod: expected 2 arg(s), got 1'),
    ('(mod 1 2 3)', 'mod: expected 2 arg(s), got 3'),
    ('(expt 1)', 'expt: expected 2 arg(s), got 1'),
    ('(atan2 1)', 'atan2: expected 2 arg(s), got 1'),
    ('(abs)', 'abs: expected 1 arg(s), got 0'),
    ('(abs 1 2)', 'abs: expected 1 arg(s), got 2'),
    ('(sqrt)', 'sqrt: expected 1 arg(s), got 0'),
    ('(round 1 2)', 'round: expected 1 arg(s), got 2'),
    ('(gcd 5)', 'gcd: expected at least 2 arg(s), got 1'),
    ('(gcd)', 'gcd: expected at least 2 arg(s), got 0'),
    ('(zero?)', 'zero?: expected 1 arg(s), got 0'),
    ('(odd? 1 2)', 'odd?: expected 1 arg(s), got 2'),
    ('(number?)', 'number?: expected 1 arg(s), got 0'),
    ('(now-micros 1)', 'now-micros: expected 0 arg(s), got 1'),
    ('(+ 1 "a")', '+: expected a number, got "a"'),
    ("(+ 'x)", '+: expected a number, got x'),
    ('(* 2 #t)', '*: expected a number, got #t'),
    ("(- '(1))", '-: expected a number, got (1)'),
    ('(/ 1 "2")', '/: expected a number, got "2"'),
    ('(abs "a")', 'abs: expected a number, got "a"'),
    ('(sqrt (nil))', 'sqrt: expected a number, got ()'),
    ('(mod "a" 2)', 'mod: expected a number, got "a"'),
    ('(expt 2 "a")', 'expt: expected a number, got "a"'),
    ('(max 1 "a")', 'max: expected a number, got "a"'),
    ('(min "a")', 'min: expected a number, got "a"'),
    ('(gcd 1 "a")', 'gcd: expected a number, got "a"'),
    ('(zero? "a")', 'zero?: expected a number, got "a"'),
    ('(odd? "a")', 'odd?: expected a number, got "a"'),
    ('(round car)', 'round: expected a number, got #<builtin:car>'),
    ('(atan2 1 \'y)', 'atan2: expected a number, got y'),
    ('(add 1 "a")', 'add: expected a number, got "a"'),
])
def test_numeric_errors(src, msg):
    assert err(src) == msg


def test_type_errors_before_division_by_zero_not_required_but_message_exact():
    assert err('(/ "a" 1)') == '/: expected a number, got "a"'


def test_now_micros():
    before = time.time() * 1e6
    v = value('(now-micros)')
    after = time.time() * 1e6
    assert type(v) is int
    assert before - 2e6 <= v <= after + 2e6


# ── grad (docs/reference.md §6.1) ─────────────────────────────────────────

@pytest.mark.parametrize('src,v', [
    ('((grad (lambda (x) (* x x))) 3)', '6'),
    ('((grad (lambda (x) (sin x))) 0)', '1'),
    ('((grad (lambda (x y) (* x y))) 2 5)', '5'),
    ('((grad (lambda (x) (+ x 5))) 1)', '1'),
    ('((grad (lambda (x) (+ 5 7))) 1)', '0'),
    ('((grad (lambda (x) x)) 9)', '1'),
    ('((grad (lambda (x) 4)) 9)', '0'),
    ('((grad (lambda (x y) y)) 9 1)', '0'),
    ('((grad (lambda (x) (- x))) 2)', '-1'),
    ('((grad (lambda (x) (- 5 x))) 2)', '-1'),
    ('((grad (lambda (x) (- x 5))) 2)', '1'),
    ('((grad (lambda (x) (/ x))) 2)', '-0.25'),
    ('((grad (lambda (x) (/ x 3))) 7)', '0.3333333333333333'),
    ('((grad (lambda (x) (/ 1 x))) 4)', '-0.0625'),
    ('((grad (lambda (x) (/ x 2 4))) 1)', '0.125'),
    ('((grad (lambda (x) (expt x 3))) 2)', '12'),
    ('((grad (lambda (x) (expt x 0.5))) 4)', '0.25'),
    ('((grad (lambda (x) (sqrt x))) 4)', '0.25'),
    ('((grad (lambda (x) (sqrt x))) 3)', '0.2886751345948129'),
    ('((grad (lambda (x) (exp x))) 0)', '1'),
    ('((grad (lambda (x) (log x))) 2)', '0.5'),
    ('((grad (lambda (x) (cos x))) 0)', '0'),
    ('((grad (lambda (x) (tan x))) 0)', '1'),
    ('((grad (lambda (x) (atan x))) 1)', '0.5'),
    ('((grad (lambda (x) (if (< x 0) (- x) x))) -3)', '-1'),
    ('((grad (lambda (x) (if (< x 0) (- x) x))) 3)', '1'),
    ('((grad (lambda (x) (if (< x 0) x))) 3)', '0'),
    ('((grad (lambda (x) (* x x x))) 0.1)', '0.030000000000000006'),
    ('((grad (lambda (x) (* (sin x) x))) 1)', '1.3817732906760363'),
    ('((grad (lambda (x) (* x (sin x) (exp x)))) 0.7)', '3.2835438079902035'),
    ('((grad (lambda (x) (/ (sin x) x))) 0.3)', '-0.09910288804064193'),
    ('((grad (lambda (x) (sin (* x x)))) 0)', '0'),
    ('((grad (lambda (x) (+ (* 2 x) (* x 3)))) 10)', '5'),
    ('(define k 3) ((grad (lambda (x) (* k x))) 2)', '3'),
    ('(define (mk k) (grad (lambda (x) (* k x)))) ((mk 4) 1)', '4'),
    ('((grad (grad (lambda (x) (* x x x)))) 2)', '12'),
])
def test_grad(src, v):
    assert ev(src) == v


def test_grad_returns_lambda_with_same_params():
    assert ev('(grad (lambda (x y) (* x y)))') == '#<lambda (x y)>'
    assert ev('(type-of (grad (lambda (x) x)))') == 'lambda'


@pytest.mark.parametrize('src,msg', [
    ('(grad 5)', 'grad: argument must be a lambda'),
    ('(grad car)', 'grad: argument must be a lambda'),
    ('(defmacro m (x) x) (grad m)', 'grad: argument must be a lambda'),
    ('(grad (lambda () 1))', 'grad: lambda must have at least one parameter'),
    ('(grad (lambda (x) 1 2))', 'grad: lambda body must be a single expression'),
    ('(grad (lambda (x) (abs x)))', "grad: unsupported operator 'abs' in body"),
    ('(grad (lambda (x) (+ 1 (foo x))))', "grad: unsupported operator 'foo' in body"),
    ('(grad (lambda (x) (expt x x)))', 'grad: expt only supports a constant numeric exponent'),
    ('(define n 2) (grad (lambda (x) (expt x n)))', 'grad: expt only supports a constant numeric exponent'),
])
def test_grad_errors(src, msg):
    assert err(src) == msg


# The derivative's exact shape: `grad` returns a lambda whose body *is* D(e);
# Lambda.body holds the body forms as data (rusty/values.py), so print it.

@pytest.mark.parametrize('params,body,shape', [
    ('(x)', 'x', '1'), ('(x)', '5', '0'), ('(x y)', 'y', '0'),
    ('(x)', '(+ x 5)', '(+ 1)'), ('(x)', '(+ 5 7)', '0'), ('(x)', '(+ x x)', '(+ 1 1)'), ('(x y)', '(+ y x)', '(+ 1)'),
    ('(x)', '(- x)', '(- 1)'), ('(x)', '(- x 5)', '(- 1 0)'), ('(x y)', '(- 5 x y)', '(- 0 1 0)'),
    ('(x)', '(* x x)', '(+ (* 1 x) (* x 1))'), ('(x)', '(* 2 x)', '(+ (* 2 1))'), ('(x)', '(* 2 3)', '0'),
    ('(x y)', '(* x y)', '(+ (* 1 y))'),
    ('(x)', '(/ x)', '(- (/ 1 (* x x)))'), ('(x)', '(/ x 3)', '(/ (- (* 1 3) (* x 0)) (* 3 3))'),
    ('(x)', '(/ x 2 4)', '(/ (- (* 1 (* 2 4)) (* x 0)) (* (* 2 4) (* 2 4)))'),
    ('(x)', '(expt x 3)', '(* 3 (expt x 2) 1)'), ('(x)', '(expt x 0.5)', '(* 0.5 (expt x -0.5) 1)'),
    ('(x)', '(sqrt x)', '(/ 1 (* 2 (sqrt x)))'), ('(x)', '(exp x)', '(* (exp x) 1)'), ('(x)', '(log x)', '(/ 1 x)'),
    ('(x)', '(sin x)', '(* (cos x) 1)'), ('(x)', '(cos x)', '(* (- (sin x)) 1)'),
    ('(x)', '(tan x)', '(/ 1 (* (cos x) (cos x)))'), ('(x)', '(atan x)', '(/ 1 (+ 1 (* x x)))'),
    ('(x)', '(if (< x 0) (- x) x)', '(if (< x 0) (- 1) 1)'), ('(x)', '(if (< x 0) x)', '(if (< x 0) 1 0)'),
    ('(x)', '(sin (* x x))', '(* (cos (* x x)) (+ (* 1 x) (* x 1)))'),
    ('(x)', '(* x (sin x))', '(+ (* 1 (sin x)) (* x (* (cos x) 1)))'),
    ('(t)', '(* t t)', '(+ (* 1 t) (* t 1))'),
])
def test_grad_derivative_shapes(params, body, shape):
    from rusty.printer import print_form
    lam = value('(grad (lambda %s %s))' % (params, body))
    assert print_form(lam.body) == '(%s)' % shape
