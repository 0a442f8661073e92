"""Small rusty programs drawn by hypothesis, for comparing the fast path with
the reference evaluator (tests/test_paths_agree.py). Each program is the
SHOW prelude followed by a few scenarios; every scenario is a handful of
top-level forms built around drawn expressions, and ends by showing values
(some wrapped in `try-catch`, some left to fail with a report). Programs end
by construction: the only recursions and loops count a bounded number down.
"""
from hypothesis import strategies as st

# Writes a value so that what printing hides shows: exact or float, the sign
# of a float zero, strings in write form; lists element by element.
SHOW = '''(define (show-item x)
  (cond ((pair? x) (display "(") (for-each show-item x) (display ")"))
        ((number? x)
         (display (repr x))
         (display (if (exact? x) "e" "f"))
         (when (and (inexact? x) (= x 0)) (display (if (< (atan2 x -1) 0) "-" "+"))))
        (else (display (repr x))))
  (display " "))
(define (show x) (show-item x) (newline))
'''

SMALL_INTS = st.integers(-3, 3).map(str)
BIG_INTS = st.sampled_from(['9007199254740993', '-9007199254740993', '12345678901234567890123',
                            '-340282366920938463463374607431768211456', '4611686018427387904'])
FLOATS = st.sampled_from(['0.5', '-0.0', '0.0', '2.0', '1.0', '-1.0', '-1.5', '1e308', '0.1', '1e-300'])
ODD_ATOMS = st.sampled_from(['#t', '#f', '"s"', "'a", "'()"])       # type errors in arithmetic
NUMBER_LITERALS = st.one_of(SMALL_INTS, SMALL_INTS, BIG_INTS, FLOATS)
ARGUMENTS = st.one_of(NUMBER_LITERALS, NUMBER_LITERALS, NUMBER_LITERALS, ODD_ATOMS)

ARITH = ['+', '-', '*', '+', '-', '*', '/', 'max', 'min', 'abs', 'quotient', 'modulo', 'expt']
COMPARE = ['<', '>', '<=', '>=', '=']


@st.composite
def number_expr(draw, names, depth=2):
    """Numeric expression text over `names` (mostly numbers; now and then a
    value of another kind, for the type errors)."""
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        pick = draw(st.integers(0, 19))
        if pick == 0:
            return draw(ODD_ATOMS)
        if names and pick < 9:
            return draw(st.sampled_from(names))
        return draw(NUMBER_LITERALS)
    sub = number_expr(names, depth - 1)
    kind = draw(st.sampled_from(['arith', 'arith', 'arith', 'if', 'let', 'let*', 'cond', 'call']))
    if kind == 'arith':
        op = draw(st.sampled_from(ARITH))
        low, high = {'abs': (1, 1), 'quotient': (2, 2), 'modulo': (2, 2), 'expt': (2, 2), '/': (2, 3)}.get(op, (0, 3))
        if draw(st.integers(0, 15)) == 0:       # the wrong count now and then
            low, high = 0, 4
        args = draw(st.lists(sub, min_size=low, max_size=high))
        if op == 'expt' and len(args) == 2:       # a bounded exponent (exact powers grow fast)
            if draw(st.integers(0, 4)) == 0:
                args = [draw(st.sampled_from(['2', '-3', '10'])), draw(st.sampled_from(['64', '100']))]
            else:
                args[1] = draw(st.sampled_from(['0', '1', '2', '3', '-1', '0.5', '2.0', '-0.0']))
        return '(%s)' % ' '.join([op] + args)
    if kind == 'if':
        return '(if %s %s %s)' % (draw(bool_expr(names, depth - 1)), draw(sub), draw(sub))
    if kind in ('let', 'let*'):
        fresh = 'v%d' % draw(st.integers(0, 3))
        inner = number_expr(names + [fresh], depth - 1)
        return '(%s ((%s %s)) %s)' % (kind, fresh, draw(sub), draw(inner))
    if kind == 'cond':
        return '(cond (%s %s) (%s %s) (else %s))' % (draw(bool_expr(names, depth - 1)), draw(sub),
                                                      draw(bool_expr(names, depth - 1)), draw(sub), draw(sub))
    return '(%s %s)' % (draw(st.sampled_from(['abs', '- ', 'square', 'inc', 'floor', 'round'])), draw(sub))


@st.composite
def bool_expr(draw, names, depth=1):
    """A test: n-ary comparisons (one to three operands, rarely none), and,
    or, not and the numeric predicates."""
    sub = number_expr(names, max(depth - 1, 0))
    kind = draw(st.sampled_from(['cmp', 'cmp', 'cmp', 'and', 'or', 'not', 'pred']))
    if kind == 'cmp':
        low = 0 if draw(st.integers(0, 20)) == 0 else 1
        args = draw(st.lists(sub, min_size=low, max_size=3))
        return '(%s)' % ' '.join([draw(st.sampled_from(COMPARE))] + args)
    if kind in ('and', 'or'):
        parts = draw(st.lists(bool_expr(names, max(depth - 1, 0)) if depth > 0 else sub, min_size=0, max_size=3))
        return '(%s)' % ' '.join([kind] + parts)
    if kind == 'not':
        return '(not %s)' % draw(bool_expr(names, max(depth - 1, 0)) if depth > 0 else sub)
    return '(%s %s)' % (draw(st.sampled_from(['zero?', 'positive?', 'negative?', 'even?', 'odd?'])), draw(sub))


# Operand pairs that collide often (equal values of both kinds, signed
# zeros, the first integer f64 cannot hold and its float neighbour).
OPERANDS = st.sampled_from(['0', '1', '-1', '2', '0.0', '-0.0', '1.0', '2.0', '0.5', '-2.5', '9007199254740993',
                            '9007199254740992.0', '(expt 10 30)', '1e30', '#t', '"s"', "'()"])
# Each operator as the compiled code meets it: alone, n-ary, with a constant
# operand, and as the test of if, cond, when, and, or.
OPERATOR_SHAPES = ['(OP a b)', '(OP a b c)', '(OP a)', '(OP a 1)', '(OP 2.5 a)', '(OP a -0.0)', '(OP)',
                   "(if (OP a b) 'y 'n)", "(cond ((OP a b) 'y) (else 'n))", "(when (OP a b c) 'y)",
                   "(and (OP a b) 'y)", "(or (OP a b) 'n)", "(if (not (OP a b)) 'y 'n)", '(list (OP (OP a b) c))']
OPERATORS = ['+', '-', '*', '/', '<', '>', '<=', '>=', '=', 'zero?', 'max', 'min', 'abs', 'quotient', 'modulo',
             'mod', 'number->string', 'exact', 'inexact', 'floor', 'round', 'not', 'eq?', 'equal?', 'neq',
             'add', 'lt', 'even?', 'number?']


def observe(draw, expr: str) -> str:
    """A form that shows expr's value, its error caught or (sometimes) not."""
    if draw(st.integers(0, 2)) == 0:
        return '(show %s)' % expr
    return '(show (try-catch %s (e) (list (quote caught) e)))' % expr


# ── Scenarios: each draws the forms of one small program part ───────────

@st.composite
def arith_function(draw, k):
    body = draw(number_expr(['a', 'b', 'c'], 3))
    calls = draw(st.lists(st.tuples(ARGUMENTS, ARGUMENTS, ARGUMENTS), min_size=1, max_size=3))
    forms = ['(define (f%d a b c) %s)' % (k, body)]
    # called directly and from one frame deeper (for the backtrace)
    forms.append('(define (g%d a b c) (list (f%d a b c)))' % (k, k))
    forms += [observe(draw, '(%s%d %s)' % (draw(st.sampled_from('fg')), k, ' '.join(args))) for args in calls]
    return forms


@st.composite
def operators(draw, k):
    """A function applying one to three operators, each in every shape and
    each caught alone, called on every pair of a few colliding operands."""
    ops = draw(st.lists(st.sampled_from(OPERATORS), min_size=1, max_size=3, unique=True))
    parts = ['(try-catch %s (e) e)' % shape.replace('OP', op) for op in ops for shape in OPERATOR_SHAPES]
    values = ' '.join(draw(st.lists(OPERANDS, min_size=1, max_size=7, unique=True)))
    return ['(define (ops%d a b c) (list %s))' % (k, ' '.join(parts)),
            '(for-each (lambda (a) (for-each (lambda (b) (show (ops%d a b %s))) (list %s))) (list %s))'
            % (k, draw(OPERANDS), values, values)]


@st.composite
def top_level_arith(draw, k):
    forms = ['(define x%d %s)' % (k, draw(ARGUMENTS))]
    forms.append(observe(draw, draw(number_expr(['x%d' % k], 2))))
    forms.append(observe(draw, draw(bool_expr(['x%d' % k], 2))))
    return forms


@st.composite
def counter(draw, k):
    start, step = draw(ARGUMENTS), draw(ARGUMENTS)
    times = draw(st.integers(1, 4))
    return ['(define (make-counter%d start step) (let ((n start)) (lambda () (set! n (+ n step)) n)))' % k,
            '(define c%d (make-counter%d %s %s))' % (k, k, start, step),
            '(define d%d (make-counter%d 0 1))' % (k, k),
            observe(draw, '(list %s (d%d))' % (' '.join(['(c%d)' % k] * times), k))]


@st.composite
def tail_loop(draw, k):
    n = draw(st.sampled_from(['0', '1', '5', '17', '2500', '-3', '4.0', '"x"']))
    step = '(+ acc %s)' % draw(number_expr(['i'], 1))     # grows at most polynomially
    loop = draw(st.sampled_from([
        # a named let in a function
        '(define (loop%d n) (let lp ((i n) (acc 0)) (if (<= i 0) acc (lp (- i 1) STEP))))',
        # self tail recursion of a global function
        '(define (loop%d-go i acc) (if (<= i 0) acc (loop%d-go (- i 1) STEP)))\n'
        '(define (loop%d n) (loop%d-go n 0))',
        # a tail call from a cond clause
        '(define (loop%d-go i acc) (cond ((<= i 0) acc) (else (loop%d-go (- i 1) STEP))))\n'
        '(define (loop%d n) (loop%d-go n 0))',
    ]))
    loop = loop.replace('%d', str(k)).replace('STEP', step)
    return [loop, observe(draw, '(loop%d %s)' % (k, n))]


@st.composite
def mutual(draw, k):
    n = draw(st.sampled_from(['0', '1', '10', '11', '1501', '-2', '3.0', '#f']))
    small = draw(st.sampled_from(['0', '3', '40', '-1', '2.5']))
    return ['(define (ev%d? n) (if (<= n 0) #t (od%d? (- n 1))))' % (k, k),
            '(define (od%d? n) (if (<= n 0) #f (ev%d? (- n 1))))' % (k, k),
            # not tail: the depth grows and the backtrace shows the chain
            '(define (up%d n) (if (<= n 0) (quote bottom) (list (down%d (- n 1)))))' % (k, k),
            '(define (down%d n) (if (<= n 0) (car n) (up%d (- n 1))))' % (k, k),
            observe(draw, '(list (ev%d? %s) (od%d? %s))' % (k, n, k, n)),
            observe(draw, '(up%d %s)' % (k, small))]


@st.composite
def higher_order(draw, k):
    items = draw(st.lists(NUMBER_LITERALS, min_size=0, max_size=5))
    if draw(st.integers(0, 6)) == 0:
        items.append(draw(ODD_ATOMS))
    lst = '(list %s)' % ' '.join(items)
    fn = draw(number_expr(['x'], 2))
    test = draw(bool_expr(['x'], 1))
    kind = draw(st.sampled_from(['map', 'filter', 'apply', 'sort', 'sort-default', 'foldl', 'for-each']))
    expr = {
        'map': '(map (lambda (x) %s) xs%d)' % (fn, k),
        'filter': '(filter (lambda (x) %s) xs%d)' % (test, k),
        'apply': '(apply %s xs%d)' % (draw(st.sampled_from(['+', '*', 'max', 'list', '-', '<'])), k),
        'sort': '(sort xs%d (lambda (a b) (%s a b)))' % (k, draw(st.sampled_from(['<', '>', '<=']))),
        'sort-default': '(sort xs%d)' % k,
        'foldl': '(foldl (lambda (x acc) (+ acc %s)) 0 xs%d)' % (fn, k),
        'for-each': '(let ((total 0)) (for-each (lambda (x) (set! total (+ total %s))) xs%d) total)' % (fn, k),
    }[kind]
    return ['(define xs%d %s)' % (k, lst), '(define (h%d) %s)' % (k, expr), observe(draw, '(h%d)' % k)]


@st.composite
def redefinition(draw, k):
    first, second = draw(number_expr(['x'], 1)), draw(number_expr(['x'], 1))
    arg = draw(NUMBER_LITERALS)
    params = draw(st.sampled_from(['(x)', '(x)', '(x y)', '(x . more)']))
    return ['(define (r%d x) %s)' % (k, first),
            '(define (use%d v) (+ 1 (r%d v)))' % (k, k),
            observe(draw, '(use%d %s)' % (k, arg)),
            '(define (r%d %s) %s)' % (k, params[1:-1], second),
            observe(draw, '(use%d %s)' % (k, arg)),
            '(define r%d (lambda (x) (quote replaced)))' % k,
            observe(draw, '(use%d %s)' % (k, arg))]


SHADOWS = [
    ['(define (sh%d a b) (let ((+ -)) (+ a b)))', '(sh%d 1 2)', '(sh%d 2.5 -0.0)'],
    ['(define (sh%d max) (+ max 1))', '(sh%d 9)', '(sh%d "m")'],
    ['(define (sh%d car) (car 5))', '(sh%d (lambda (v) (* v 2)))', '(sh%d 3)'],
    ['(define (sh%d x) (let* ((* +) (y (* x x))) (list y (* 2 3))))', '(sh%d 4)', '(sh%d #t)'],
    ['(define (sh%d l) (let ((car cdr) (cdr car)) (list (car l) (cdr l))))', "(sh%d '(1 2 3))", "(sh%d '())"],
]
GLOBAL_SHADOWS = [
    "(define (car x) (quote mine))",
    "(define (- a . rest) (list (quote minus) a rest))",
    "(define + *)",
    "(define (abs x) x)",
    "(define (not x) x)",
    "(define (length l) 99)",
    "(define (cadr l) (quote my-cadr))",
]


@st.composite
def shadowing(draw, k):
    """Builtins shadowed locally and globally; the global one after a
    function that uses it was defined (late binding), and the standard
    library keeps its own meaning (cadr still means car of cdr)."""
    local = draw(st.sampled_from(SHADOWS))
    forms = [local[0] % k] + [observe(draw, call % k) for call in local[1:]]
    if draw(st.booleans()):
        forms += ["(define (before%d l) (list (car l) (- 5 2) (+ 2 3) (abs -4) (not #f) (length l) (cadr l)))" % k,
                  observe(draw, "(before%d '(1 2))" % k),
                  draw(st.sampled_from(GLOBAL_SHADOWS)),
                  observe(draw, "(before%d '(1 2))" % k),
                  observe(draw, "(list (cadr '(1 2)) (sum '(1 2 3)) (last '(4 5)))")]
    return forms


@st.composite
def global_set(draw, k):
    init = draw(ARGUMENTS)
    deltas = draw(st.lists(ARGUMENTS, min_size=1, max_size=3))
    forms = ['(define g%d %s)' % (k, init),
             '(define (bump%d! d) (set! g%d (+ g%d d)) g%d)' % (k, k, k, k)]
    forms += [observe(draw, '(bump%d! %s)' % (k, d)) for d in deltas]
    forms.append('(set! g%d %s)' % (k, draw(ARGUMENTS)))
    forms.append(observe(draw, 'g%d' % k))
    if draw(st.integers(0, 4)) == 0:
        forms.append('(set! undefined-%d 1)' % k)
    return forms


@st.composite
def varargs(draw, k):
    calls = draw(st.lists(st.lists(NUMBER_LITERALS, max_size=3), min_size=1, max_size=3))
    forms = ['(define (va%d a . rest) (list a (length rest) (apply + rest)))' % k,
             '(define all%d (lambda args (apply max args)))' % k]
    forms += [observe(draw, '(%s%d %s)' % (draw(st.sampled_from(['va', 'all'])), k, ' '.join(c))) for c in calls]
    return forms


@st.composite
def arity(draw, k):
    n = draw(st.integers(0, 3))
    args = ' '.join(draw(st.lists(SMALL_INTS, min_size=n, max_size=n)))
    callee = draw(st.sampled_from(['two%d' % k, '(lambda (p q) (* p q))', 'lam%d' % k, 'wrap%d' % k]))
    return ['(define (two%d a b) (+ a b))' % k,
            '(define lam%d (lambda (p) p))' % k,
            '(define (wrap%d . xs) (apply two%d xs))' % (k, k),
            observe(draw, '(%s %s)' % (callee, args))]


MATCH_VALUES = ["5", "5.0", "'(1 2)", "'(1 2 3)", '"x"', "'seven", "'()", "#f", "12345678901234567890",
                "(vector 1 2)", "'((1 2) 3)"]
MATCH_CLAUSES = ["(5 'five)", "((a b) (+ a b))", "((h . t) t)", "((? number?) 'num)", "((? string?) 's)",
                 "((? even?) 'even)", "('seven 7)", "(() 'empty)", "(#f 'false)", "((cons h t) (list h t))",
                 "(((a b) c) (list a b c))", "((? (lambda (v) (equal? v 5.0))) 'five-ish)", "(x (list 'any x))",
                 "((a b ...) (list 'many a b))", "((p ... 5) (list 'to-five p))"]


@st.composite
def matching(draw, k):
    clauses = draw(st.lists(st.sampled_from(MATCH_CLAUSES), min_size=1, max_size=4, unique=True))
    value = draw(st.sampled_from(MATCH_VALUES))
    return ['(define (m%d v) (match v %s))' % (k, ' '.join(clauses)), observe(draw, '(m%d %s)' % (k, value))]


@st.composite
def vectors(draw, k):
    index = draw(st.sampled_from(['0', '1', '2', '3', '-1', '1.0', '1.5', '"i"', '99999999999999999999']))
    value = draw(NUMBER_LITERALS)
    return ['(define (vec%d i x) (let ((v #(10 20 30))) (vector-set! v i x) (list v (vector-ref v i))))' % k,
            observe(draw, '(vec%d %s %s)' % (k, index, value)),
            observe(draw, '(vec%d 0 %s)' % (k, value)),
            observe(draw, '(list (vector-length (make-vector 3 %s)) (vector->list (vector %s 1)))' % (value, value))]


@st.composite
def raising(draw, k):
    what = draw(st.sampled_from(['(error "bad" x)', '(error (quote oops) x "s")', '(assert (> x 0))',
                                 '(car x)', '(nth (list 1 2) x)', '(string-ref "abc" x)', '(list-ref (list 1) x)',
                                 '(hash-ref (make-hash) x)', '(x 1)', '(/ 1 x)', '(modulo 5 x)',
                                 '(exact x)', '(substring "hello" x)']))
    return ['(define (fail%d x) (list %s))' % (k, what),
            '(define (outer%d x) (let ((r (fail%d x))) r))' % (k, k),
            observe(draw, '(outer%d %s)' % (k, draw(ARGUMENTS))),
            observe(draw, '(try-catch (fail%d %s) (e) (string-append "got: " e))' % (k, draw(ARGUMENTS)))]


@st.composite
def strings(draw, k):
    a, b = draw(ARGUMENTS), draw(ARGUMENTS)
    exprs = ['(string-append "n=" (number->string %s))' % a, '(string-length (str %s %s))' % (a, b),
             '(string->number (number->string %s))' % a, '(substring "hello" %s)' % a,
             '(string-append "a" %s)' % b, '(format "~a/~s" %s %s)' % (a, b)]
    return ['(define (s%d) (list %s))' % (k, ' '.join(draw(st.lists(st.sampled_from(exprs), min_size=1,
                                                                      max_size=3)))),
            observe(draw, '(s%d)' % k)]


@st.composite
def bindings(draw, k):
    init = draw(NUMBER_LITERALS)
    kind = draw(st.sampled_from(['letrec', 'let*', 'do', 'named', 'begin', 'when', 'case', 'define']))
    body = draw(number_expr(['p', 'q'], 1))
    expr = {
        'letrec': '(letrec ((p %s) (q (lambda (z) (if (<= z 0) p (q (- z 1)))))) (q 3))' % init,
        'let*': '(let* ((p %s) (q (* p 2)) (p (+ q 1))) %s)' % (init, body),
        'do': '(do ((p 0 (+ p 1)) (q %s (+ q p))) ((>= p 4) %s))' % (init, body),
        'named': '(let walk ((p 3) (q %s)) (if (<= p 0) %s (walk (- p 1) (* q 2))))' % (init, body),
        'begin': '(begin (define p %s) (define q p) %s)' % (init, body),
        'when': '(let ((p %s) (q 1)) (list (when (> p 0) %s) (unless (> p 0) %s)))' % (init, body, body),
        'case': '(case %s ((0 1) (quote small)) ((2.0 -0.0) (quote float)) (else (quote other)))' % init,
        'define': '(let ((p %s)) (define q (* p 3)) (set! p (+ q 1)) (list p q))' % init,
    }[kind]
    return ['(define (b%d) %s)' % (k, expr), observe(draw, '(b%d)' % k)]


@st.composite
def closures(draw, k):
    """Captured variables set! one and two frames out, closures made in a
    loop, internal defines and an eval'd define shadowing a parameter."""
    init, d1, d2, x = (draw(ARGUMENTS) for _ in range(4))
    return ['(define (acc%d start) (let ((total start)) (lambda (d) ((lambda () (set! total (+ total d)))) total)))'
            % k,
            '(define a%d (acc%d %s))' % (k, k, init),
            observe(draw, '(list (a%d %s) (a%d %s))' % (k, d1, k, d2)),
            '(define (adders%d n) (map (lambda (i) (lambda (x) (+ x i n))) (list 1 2 3)))' % k,
            observe(draw, '(map (lambda (f) (f %s)) (adders%d %s))' % (x, k, d1)),
            '(define (inner%d x) (define y (* x 2)) (define (helper z) (+ y z)) (helper x))' % k,
            observe(draw, '(inner%d %s)' % (k, x)),
            "(define (evald%d a) (let ((b 1)) (eval '(define a 99)) (+ a b)))" % k,
            observe(draw, '(evald%d %s)' % (k, x))]


@st.composite
def macros(draw, k):
    """A macro used inside a function, and a function redefined as a macro
    under a caller compiled before (late binding)."""
    x = draw(ARGUMENTS)
    return ['(defmacro twice%d (e) `(begin ,e ,e))' % k,
            '(define (tw%d x) (let ((n 0)) (twice%d (set! n (+ n x))) n))' % (k, k),
            observe(draw, '(tw%d %s)' % (k, x)),
            '(define (hm%d a) a)' % k,
            '(define (um%d) (hm%d undefined-name))' % (k, k),
            observe(draw, '(um%d)' % k),
            '(defmacro hm%d (a) `(quote ,a))' % k,
            observe(draw, '(um%d)' % k)]


@st.composite
def templates(draw, k):
    """Quasiquote in a function (a splice of a non-list is an error) and
    try-catch around it in another."""
    a, b = draw(ARGUMENTS), draw(ARGUMENTS)
    return ['(define (tpl%d x y) `(x ,x ,@y #(,x) (n ,@(if (number? x) (list x) (quote ())))))' % k,
            observe(draw, '(tpl%d %s %s)' % (k, a, b)),
            observe(draw, '(tpl%d %s (list %s))' % (k, a, b)),
            '(define (caught%d x) (try-catch (list (car x) (tpl%d x x)) (e) (list (quote caught) e)))' % (k, k),
            observe(draw, '(caught%d %s)' % (k, a))]


SCENARIOS = [operators, operators, arith_function, arith_function, top_level_arith, counter, tail_loop, mutual, higher_order,
             redefinition, shadowing, global_set, varargs, arity, matching, vectors, raising, strings, bindings,
             closures, macros, templates]


@st.composite
def programs(draw):
    """A whole program: the SHOW prelude and one to four scenarios."""
    chosen = draw(st.lists(st.sampled_from(SCENARIOS), min_size=1, max_size=4))
    forms = []
    for k, scenario in enumerate(chosen):
        forms += draw(scenario(k))
    if draw(st.booleans()):     # the last value is printed by batch mode
        forms.append(draw(st.sampled_from(['(list 1 2.0 "s")', '2.0', '(- (expt 2 64))', '"done"', '#f'])))
    return SHOW + '\n'.join(forms) + '\n'
