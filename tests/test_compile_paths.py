"""The compiler to Python (rusty/compile/) against the reference: the same
programs run in a session with RUSTY_SPECIALIZE=0 (the reference evaluator
alone) and in one with compiled lambdas, and, for the inline builtins, against
the builtin itself called through the generic path. Values must agree
bitwise (floats: sign of zero, NaN-ness and payload), errors by message,
position and backtrace."""
import math
import struct

import pytest

from rusty.errors import RustyError
from rusty.frames import bindings
from rusty.printer import write_form
from rusty.runtime import Session
from rusty.compile.inline import INLINE
from rusty.values import EMPTY, NIL, List, make_list, sym
from rusty.compile.entry import direct_of, leaf_of

NAN = float('nan')
VALUES = [0.0, -0.0, math.inf, -math.inf, NAN, math.copysign(NAN, -1.0), 1.0, -1.0, 2.0, 3.0, 2.5, 1e308,
          'abc', '', sym('a'), EMPTY, make_list([1.0, 2.0]), make_list([sym('p'), 1.0, 'q', 2.0, 3.0]),
          NIL, True, False,
          # exact integers: small, past 2**53, beyond the f64 range (mixed kinds convert to ±inf)
          0, 1, -1, 2, 7, 2 ** 53 + 1, 10 ** 20, -(10 ** 400)]
UNARY = sorted(n for n, spec in INLINE.items() if spec[0] == 1)
BINARY = sorted(n for n, spec in INLINE.items() if spec[0] == 2)

# Every place a fast node can compute an inline builtin: as the call node, as
# an inlined operand of a call, of a `let` and of an `if` test, with operands
# read from local slots one frame out and from global cells.
SHAPES = [
    '(define (call-node a b) (OP ARGS))',
    '(define (operand a b) (id (OP ARGS)))',
    '(define (let-init a b) (let ((r (OP ARGS))) r))',
    '(define (if-test a b) (if (OP ARGS) (quote yes) (quote no)))',
    '(define (outer-frame a b) ((lambda () (OP ARGS))))',
    '(define (globals a b) (OP GARGS))',
    '(define (tail-operand a b) (id2 b (OP ARGS)))',
    '(define (outer-operand a b) ((lambda () (id (OP ARGS)))))',
    '(define (global-operand a b) (id (OP GARGS)))',
    '(define (set-value a b) (let ((r 0)) ((lambda () (set! r (OP ARGS)))) r))',
    # inline calls nested in inline calls, computed in one node
    '(define (nested-operand a b) (id (not (OP ARGS))))',
    '(define (nested-call a b) (not (not (OP ARGS))))',
    '(define (nested-if a b) (if (not (not (OP ARGS))) (quote yes) (quote no)))',
    '(define (nested-outer a b) ((lambda () (id (not (OP ARGS))))))',
    '(define (nested-globals a b) (id (not (OP GARGS))))',
]

# Binary operators with a constant operand (the templates specialise on an
# exact integer constant, exact in f64 or not, and on a float constant).
CONSTANTS = ['0', '1', '-3', '2.5', '0.0', '-0.0', '9007199254740993', '(quote x)']
CONST_SHAPES = ['(define (const-right-%d a b) (OP a %s))' % (k, c) for k, c in enumerate(CONSTANTS)] + [
    '(define (const-left-%d a b) (OP %s a))' % (k, c) for k, c in enumerate(CONSTANTS)] + [
    '(define (const-test-%d a b) (if (OP a %s) (quote yes) (quote no)))' % (k, c) for k, c in enumerate(CONSTANTS)]


def shapes_for(nargs: int) -> list:
    return SHAPES + CONST_SHAPES if nargs == 2 else SHAPES


def bits(x):
    """A value as comparable data: floats by their bits, lists element-wise,
    everything else by identity (strings by text)."""
    if x.__class__ is float:
        return ('float', struct.pack('<d', x))
    if x.__class__ is int:
        return ('int', x)
    if x.__class__ is List:
        return ('list', tuple(bits(e) for e in x))
    if x.__class__ is str:
        return ('str', x)
    return ('obj', id(x))


def frame_shown(entry) -> tuple:
    """A backtrace entry's frame (its 4th element) as its variables' names
    and write forms: fast and reference paths record the same frames."""
    if len(entry) < 4:
        return ()
    return (tuple((n, write_form(v)) for n, v in bindings(entry[3])),)


def outcome(fn):
    """('value', bits) or ('error', message, line, col, backtrace)."""
    try:
        return ('value', bits(fn()))
    except RustyError as e:
        where = (e.span.line, e.span.col) if e.span is not None else None
        trace = [tuple((x.line, x.col) if x is not None and hasattr(x, 'line') else x for x in entry[:3])
                 + frame_shown(entry) for entry in e.trace]      # (call site, name[, entry site][, frame])
        assert 'internal error' not in e.message, e.message
        return ('error', e.message, where, trace)


def session(monkeypatch, fast: bool) -> Session:
    """A session on the reference alone, or one compiling every lambda on its first call."""
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session()
    monkeypatch.delenv('RUSTY_SPECIALIZE')
    monkeypatch.delenv('RUSTY_COMPILE_CALLS')
    return s


def outcomes_both_ways(monkeypatch, defs: str, warm, src: str) -> list:
    """src's outcome on the reference, then on the compiler, each in a
    session that has run defs and each warm-up expression twice (so the
    definitions are compiled and linked before src runs)."""
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(defs, '<defs>')
        for w in warm:
            s.run(w, '<warm>')
            s.run(w, '<warm>')
        got.append(outcome(lambda: s.run(src, '<prog>')))
    return got


def program(op: str, nargs: int) -> str:
    args = ' '.join('ab'[:nargs])
    gargs = ' '.join(['ga', 'gb'][:nargs])
    lines = ['(define (id x) x)', '(define (id2 x y) y)']
    lines += [shape.replace('OP', op).replace('GARGS', gargs).replace('ARGS', args) for shape in shapes_for(nargs)]
    return '\n'.join(lines)


@pytest.fixture(scope='module')
def pair():
    mp = pytest.MonkeyPatch()
    try:
        yield session(mp, False), session(mp, True)
    finally:
        mp.undo()


def run_all(s, op, nargs, pairs):
    """Outcome of every shape on every argument pair, in session s."""
    s.run(program(op, nargs), '<diff>')
    found = []
    names = [shape.split()[1][1:] for shape in shapes_for(nargs)]
    for a, b in pairs:
        s.genv.define(sym('ga'), a)
        s.genv.define(sym('gb'), b)
        for name in names:
            proc = s.genv.lookup(sym(name))
            found.append(((name, repr(a), repr(b)), outcome(lambda: s.call(proc, [a, b]))))
    return found


def pairs_for(nargs):
    if nargs == 1:
        return [(a, 0.0) for a in VALUES]
    return [(a, b) for a in VALUES for b in VALUES]


@pytest.mark.parametrize('op', UNARY + BINARY)
def test_inline_builtin_matches_the_reference_evaluator(pair, op):
    ref, fast = pair
    nargs = INLINE[op][0]
    pairs = pairs_for(nargs)
    want = run_all(ref, op, nargs, pairs)
    got = run_all(fast, op, nargs, pairs)
    bad = [(k, w, g) for (k, w), (_, g) in zip(want, got) if w != g]
    assert bad == [], bad[:5]


@pytest.mark.parametrize('op', UNARY + BINARY)
def test_inline_builtin_matches_the_builtin_called_generically(pair, op):
    _, fast = pair
    nargs = INLINE[op][0]
    fast.run(program(op, nargs), '<diff>')
    builtin = fast.genv.lookup(sym(op))
    for a, b in pairs_for(nargs):
        args = [a, b][:nargs]
        want = outcome(lambda: fast.call(builtin, args))
        fast.genv.define(sym('ga'), a)
        fast.genv.define(sym('gb'), b)
        for shape in SHAPES:
            name = shape.split()[1][1:]
            got = outcome(lambda: fast.call(fast.genv.lookup(sym(name)), [a, b]))
            if name == 'if-test' and want[0] == 'value':    # the test's truth picks the branch
                branch = sym('no') if want[1] == bits(False) else sym('yes')
                assert got == ('value', bits(branch)), (op, a, b, got, want)
                continue
            if want[0] == 'error':        # positions: the builtin alone has none
                assert got[:2] == want[:2], (op, name, a, b, got, want)
            elif name.startswith('nested'):   # wrapped in `not`: their values are checked above
                assert got[0] == 'value', (op, name, a, b, got, want)
            else:
                assert got == want, (op, name, a, b, got, want)


@pytest.mark.parametrize('op', UNARY + BINARY)
def test_inline_builtin_with_the_wrong_arity_fails_alike(monkeypatch, op):
    nargs = INLINE[op][0]
    wrong = [n for n in (0, 1, 2, 3) if n != nargs]
    src = ''.join('(define (w%d a b c) (%s %s))\n' % (n, op, ' '.join('abc'[:n])) for n in wrong)
    src += ''.join('(define (v%d a b c) (id (%s %s)))\n' % (n, op, ' '.join('abc'[:n])) for n in wrong)
    src += '(define (id x) x)'
    results = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(src, '<arity>')
        results.append([outcome(lambda: s.run('(%s%d 1 2 3)' % (k, n), '<call>'))
                        for k in 'wv' for n in wrong])
    assert results[0] == results[1]


# ── Whole programs both ways ─────────────────────────────────────────────

PROGRAMS = [
    # nth with every index kind on lists of every length, both argument orders
    ''.join("(define (nth-at l i) (nth l i)) (define (nth-swapped l i) (nth i l)) "
            "(list %s)" % ' '.join('(try-catch (nth-at %s %s) (e) e) (try-catch (nth-swapped %s %s) (e) e)'
                                   % (lst, i, i, lst)
                                   for lst in ["'()", "'(a)", "'(a b)", "'(a b c d)", "'(a b c d e)", '"abc"', '7']
                                   for i in ['0', '1', '2', '3', '4', '-1', '-0.0', '3.0', '2.5', '(sqrt -1)', '"x"'])),
    # first and rest (inlined like car and cdr) on every kind of value
    "(define (f x) (list (try-catch (first x) (e) e) (try-catch (rest x) (e) e))) "
    "(list (f '(1 2)) (f '(1)) (f '()) (f (nil)) (f 5) (f #(1)) (f \"ab\"))",
    # late binding: redefining an inlined builtin is seen at once
    "(define (f l) (nth l 1)) (define l '(a b c)) (define before (f l)) "
    '(define (nth l i) "mine") (list before (f l))',
    "(define (g a b) (+ a b)) (define x (g 1 2)) (define (+ a b) (list a b)) (list x (g 1 2))",
    # ... also one nested in another inlined call: the inner builtin's replacement runs once
    "(define n 0) (define (id x) x) (define (f l) (id (not (= 1 (car l))))) (define r1 (f '(1))) "
    "(define (car l) (set! n (+ n 1)) 2) (list r1 (f '(1)) n (not (= 1 (car '(1)))) n)",
    "(define n 0) (define (f l) (if (not (< 0 (car (cdr l)))) 'a 'b)) (define r1 (f '(1 2))) "
    "(define (cdr l) (set! n (+ n 1)) '(-5)) (list r1 (f '(1 2)) n)",
    # global operands are read when called
    '(define (add3 a b c) (+ a (+ b c))) (define (f) (add3 x y 1)) (define x 1) (define y 2) '
    '(define r1 (f)) (define y 10) (set! x 5) (list r1 (f))',
    # a name that became dyn through eval of a define in a frame
    '(define k 1) (define (outer) (define (inner) k) (eval (quote (define k 2))) (inner)) (list (outer) k)',
    # deep non-tail recursion and tail loops
    '(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1))))) (down 3000)',
    '(define (loop i acc) (if (< i 1000) (loop (+ i 1) (+ acc i)) acc)) (loop 0 0)',
    # set! of a slot 0, 1 and 2 frames out, with inline and called values
    '(define (mk) (let ((n 0)) (let ((m 1)) (lambda (k) (set! k (+ k 1)) (set! n (+ n m)) '
    '(set! m (* m 2)) (list k n m))))) (define d (mk)) (list (d 0) (d 5) (d -0.0))',
    '(define (mk) (let ((n 0)) (let ((m 1)) (lambda () (let ((z 0)) (set! n (+ n m)) (set! m (list n)) '
    '(list n m)))))) (define d (mk)) (list (d) (d))',
    # ... and of a name a run-time define made dyn: by name, the frame's own binding
    '(define (mk) (let ((n 0)) (lambda (shadow) (if shadow (define n 100)) (set! n (+ n 1)) n))) '
    '(define c (mk)) (list (c #f) (c #f) (c #t) (c #f))',
    # an outer slot inside an inlined operand, then made dyn
    '(define (mk) (let ((n 1)) (lambda (s) (if s (define n 10)) (list (+ n 1) (* 2 n))))) '
    '(define c (mk)) (list (c #f) (c #t) (c #f))',
    # cond: inline and called tests, clauses without a body, else with and without one
    "(define (c x) (cond ((number? x) (list 'num x)) ((eq? x 'a) 'sym-a) ((member x '(1 2))) "
    "((string? x) (string-append x \"!\")) ((< 0 (length x)) 'nonempty) (else))) "
    "(list (c 1) (c 'a) (c \"s\") (c '(1)) (c '()) (c '(9)))",
    "(define (c x) (cond ((null? x) 'empty) ((pair? x)) ((not x) 'false))) (list (c '()) (c '(1)) (c #f) (c 0))",
    "(define g 5) (define (c x) (let ((y 2)) ((lambda () (cond ((< x y) 'lt) ((= x g) 'is-g) (else 'other)))))) "
    "(list (c 1) (c 5) (c 9))",
    "(define (c x) (cond ((> x 0) 'pos))) (define r1 (c 1)) (define (> a b) #f) (list r1 (c 1))",
    "(define (c n acc) (cond ((= n 0) acc) (else (c (- n 1) (+ acc 1))))) (c 5000 0)",
    "(define (c x) (cond (else 'e) ((car x) 'never))) (c 1)",
    # when/unless/and/or with inline tests; the last operand of and/or stays a tail call
    "(define (w x) (list (when (< x 1) 'lt 'small) (unless (< x 1) 'ge) (when (pair? x) 1) (unless (null? x) 2)))"
    " (list (w 0) (w 5))",
    "(define (a x y) (list (and (number? x) (< x y) (+ x y)) (or (null? x) (eq? x 'k) (list x)) (and) (or)"
    " (and (< x y)) (or (> x y)) (and (member x '(1)) (= x 1)) (or (member x '(2)) (= x 1))))"
    " (list (a 1 2) (a 3 2) (a 1 1))",
    '(define (f n) (or (= n 0) (f (- n 1)))) (define (g n) (and (> n -1) (if (= n 0) (quote done) (g (- n 1))))) '
    '(list (f 3000) (g 3000))',
    "(define (w x) (when (> x 0) 'pos)) (define r1 (w 1)) (define (> a b) #f) (list r1 (w 1))",
    "(define (a x) (and (> x 0) 'pos)) (define r1 (a 1)) (define (> a b) #f) (list r1 (a 1))",
    '(let ((i 0) (n 0)) (while (< i 10) (set! n (+ n i)) (set! i (+ i 1))) (dotimes (k 5) (set! n (+ n k))) n)',
    # equality and type tests inlined, with every kind of operand
    "(define (f x y) (list (eq? x y) (equal? x y) (eq x 'a) (number? x) (symbol? x) (string? x))) "
    "(list (f 'a 'a) (f 'a 'b) (f 1 1) (f \"s\" \"s\") (f '(1) '(1)) (f car car) (f 'a \"a\"))",
    # a global lambda called as an operand is applied in place: in call operands, let inits, set!
    # values, tests and non-tail branches; tail loops inside it; deep non-tail recursion through it
    '(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y)))) '
    '(tak 12 8 4)',
    "(define (sq x) (* x x)) (define (f a) (let ((b (sq a)) (c (list (sq (+ a 1))))) (set! a (sq b)) "
    "(list a b c (if (< (sq a) 10) (sq 2) (sq 3)) (cond ((< (sq a) 0) 'neg) (else (sq 4))) "
    "(and (< (sq 1) 2) (+ 1 (sq 5)))))) (list (f 1) (f 2))",
    '(define (cnt n acc) (if (= n 0) acc (cnt (- n 1) (+ acc 1)))) (define (f) (list (+ 1 (cnt 500 0)))) (f)',
    "(define (merge a b) (cond ((null? a) b) ((null? b) a) ((< (car b) (car a)) (cons (car b) (merge a (cdr b)))) "
    "(else (cons (car a) (merge (cdr a) b))))) (merge '(1 3 5 7) '(2 4 6 8 9))",
    '(define (down n) (if (= n 0) (quote ()) (cons n (down (- n 1))))) (length (down 1500))',
    # ... and late binding: the operand's head redefined as a builtin, a macro, another arity, variadic
    "(define (g x) (list x)) (define (f x) (list 0 (g x))) (define r1 (f 1)) (define g car) "
    "(define r2 (f '(5))) (defmacro g (x) (list 'quote x)) (define r3 (f 1)) (define (g . xs) xs) "
    "(define r4 (f 1)) (define (g) 'none) (list r1 r2 r3 r4 (try-catch (f 1) (e) e))",
    "(define (g x) (set! g (lambda (y) (list 'new y))) x) (define (f x) (+ 1 (g x))) "
    "(list (f 1) (try-catch (f 1) (e) e))",
    # tests calling a global lambda (or a non-predicate builtin) are applied in place too
    "(define (pos? x) (< 0 x)) (define (t x) (list (if (pos? x) 'p 'n) (if (pos? (- x 5)) 'big) (if (car (list x)) 1 2)"
    " (cond ((pos? x) 'c-p) (else 'c-n)) (when (pos? x) 'w) (unless (pos? x) 'u) (and (pos? x) (pos? (+ x 1)))"
    " (or (pos? x) (pos? (+ x 1)) 'none))) (define r1 (list (t 1) (t -5) (t 0) (t 9))) (define pos? zero?)"
    " (define r2 (t 0)) (defmacro pos? (x) #f) (list r1 r2 (t 1))",
    "(define (even2? n) (if (= n 0) #t (odd2? (- n 1)))) (define (odd2? n) (if (= n 0) #f (even2? (- n 1)))) "
    "(define (count-even l) (cond ((null? l) 0) ((even2? (car l)) (+ 1 (count-even (cdr l)))) "
    "(else (count-even (cdr l))))) (count-even (iota 300))",
]

ERRORS = [
    # a tail call of a lambda whose code makes no tail call of another's (its function called directly):
    # failing in it, in its self tail loop, in the pending tail call it returns
    '(define (leaf x) (car x)) (define (h x) (leaf x)) (h (list 1)) (h 5)',
    '(define (leaf n) (if (< n 1) (car n) (leaf (- n 1)))) (define (h n) (leaf n)) (h (quote (1))) (h 3)',
    '(define (g x) (car x)) (define (leaf f x) (f x)) (define (h x) (leaf g x)) (h (list 1)) (h 5)',
    '(define (leaf x) (+ 1 (cadr x))) (define (h x) (if (> (length x) 1) (leaf x) (h (cons 0 x)))) (h (list 1)) (h (list "a"))',
    '(define (g a b) a) (define (f) (g 1 zzqnope)) (f)',
    '(define (f x) (car x)) (define (h x) (+ 1 (f x))) (h 5)',
    '(define (f x) (+ x "s")) (define (h x) (* 2 (f x))) (h 1)',
    '(define (f x) (nth x 7)) (f (list 1 2))',
    '(define (f x) (first x)) (define (h x) (list (f x))) (h 5)',
    '(define (f a b) (/ a b)) (list (f 1 0))',
    '(define (f n) (if (< n 1) (car n) (f (- n 1)))) (f 3)',
    '(define (f n) (+ 1 (f n))) (f 1)',
    '(define (f) (undefined-thing 1 2)) (f)',
    '(define (f) (3 1 2)) (f)',
    '(define (mk) (let ((n 0)) (lambda () (set! n (+ n "x"))))) ((mk))',
    '(define (mk) (let ((n 0)) (lambda () (let ((k 1)) (set! n (car n)))))) ((mk))',
    '(define (f n) (set! n (cdr n)) n) (f 5)',
    '(define (mk) (let ((n 0)) (lambda () (let ((k 1)) (set! k (+ n zzqnope)))))) ((mk))',
    '(define (f a) (list (+ a 1) (+ zzqnope 1))) (f 1)',
    "(define (c x) (cond ((< x 1) 'small) (else 'big))) (c 'a)",
    "(define (c x) (cond ((number? x) 1) ((< (car x) 1) 'small))) (c '(a))",
    "(define (c x) (cond ((eq? x zzqnope) 1))) (c 'a)",
    "(define (w x) (when (< x 1) 'small)) (w 'a)",
    "(define (w x) (unless (< (car x) 1) 'big)) (w 5)",
    "(define (a x) (and (number? x) (< x 'b))) (a 1)",
    "(define (a x) (or (null? x) (< (cdr x) 1))) (a '(1 2))",
    # operands are evaluated left to right: an earlier one fails before a later one's inline part
    '(define (h a b) a) (define (t x) (h zzz (car x))) (t 5)',
    '(define (t x) (let ((a zzz) (b (car x))) a)) (t 5)',
    '(define (t x) (if (< zzz (car x)) 1 2)) (t 5)',
    '(define (t x) (+ zzz (car x))) (t 5)',
    # a lambda applied in place as an operand: its errors, backtraces, the depth limit, an
    # undefined head (read before the operands), an arity mismatch
    '(define (g x) (car x)) (define (f x) (cons 1 (g x))) (define (h x) (list (f x))) (h 5)',
    '(define (down n) (if (= n 0) (quote ()) (cons n (down (- n 1))))) (down 5000)',
    '(define (f x) (cons 1 (undefined-fn (car x)))) (f 5)',
    '(define (g a b) a) (define (f x) (+ 1 (g x))) (f 1)',
    '(define (g x) (+ x "s")) (define (f x) (let ((a (g x))) a)) (f 1)',
    "(define (p? x) (car x)) (define (t x) (if (p? x) 1 2)) (list (t '(#f)) (t 5))",
    "(define (p? x) (car x)) (define (t x) (cond ((p? (cdr x)) 1) (else 2))) (t '(1))",
    "(define (p? x) (car x)) (define (t x) (when (p? x) 1)) (t nopez)",
    "(define (p? a b) a) (define (t x) (or (p? x) 1)) (t 1)",
]

# ... and an earlier one's effects happen before a later one fails
_LOGGED = ("(define log '()) (define (g) (set! log (cons 1 log)) 1) (define (h a b) a) "
           "(define (t x) %s) (list (try-catch (t 5) (e) (quote caught)) log)")
PROGRAMS += [_LOGGED % body for body in ('(h (g) (car x))', '(let ((a (g)) (b (car x))) a)',
                                          '(if (< (g) (car x)) 1 2)', '(h 1 (h (g) (car x)))',
                                          '(cond ((< (g) (car x)) 1) (else 2))',
                                          '(and (< (g) (car x)) 1)', '(h (g) (h (car x) 1))',
                                          '(cons (g) (h (car x) 1))', '(list (h (g) 1) (h (car x) 1))')]


# What the compiler to Python does its own way: loops, closures, cells, frames.
PROGRAMS += [
    # closures made in a loop each keep their own iteration's variables
    "(define (k n) (let loop ((i 0) (fs '())) (if (< i n) (loop (+ i 1) (cons (lambda () i) fs)) "
    "(map (lambda (f) (f)) fs)))) (k 4)",
    "(define (k n) (let loop ((i 0) (fs '())) (if (< i n) (let ((j (* i i))) (loop (+ i 1) (cons (lambda () j) fs))) "
    "(map (lambda (f) (f)) fs)))) (k 4)",
    # a vector literal is a fresh vector each time
    '(define (v) #(1 2)) (define a (v)) (vector-set! a 0 9) (list (vector->list a) (vector->list (v)))',
    # an inlined builtin redefined while the function runs
    "(define (g) (set! + (lambda (a b) 'mine)) 1) (define (f x) (+ (g) x)) (f 1)",
    "(define (g) (define car cdr) 1) (define (f x) (list (g) (car x))) (f '(1 2))",
    # the copy of a body for exact integer arguments (kinds.specialize): other kinds, and kinds that change in a loop
    "(define (f a b) (if (< a b) (+ a b) (- a b))) "
    "(map (lambda (p) (try-catch (apply f p) (e) e)) '((1 2) (1.5 2) (2 1.5) (3 1) (#t 1) (\"a\" 1) (-0.0 0)))",
    "(define (loop i acc) (if (> i 10) acc (loop (+ i 1) (+ acc (if (= i 5) 0.5 i))))) (loop 0 0)",
    # ... the uncounted loop left off for the counted one, then failing: the report names the last hop's site
    "(define (f n acc) (if (= n 0) (car acc) (f (- n 1) (if (= n 3) 0.5 (+ acc 1))))) (f 6 0)",
    "(define (f n acc) (if (= n 0) acc (f (- n 1) (* acc 3)))) (list (f 100 1) (f 3 1.0) (f 3 -0.0))",
    "(define (g n) (if (< n 2) (car n) (+ (g (- n 1)) 1))) (try-catch (g 3) (e) e)",
    # ... a call of itself in the integer copy returning an exact integer while OK holds (kinds._ResultAudit):
    # OK failing in the middle of the recursion, other kinds of result, a failure below
    "(define (flip) (set! + (lambda (a b) (list 'sum a b))) 0) "
    "(define (g n) (if (< n 2) (begin (if (= n 0) (flip) 0) n) (+ (g (- n 1)) (g (- n 2))))) (list (g 4) (g 3))",
    "(define (g n) (if (< n 2) (if (= n 0) 0.5 n) (+ (g (- n 1)) (g (- n 2))))) (list (g 6) (g 1))",
    "(define (g n) (if (< n 2) (if (= n 0) \"s\" n) (+ (g (- n 1)) (g (- n 2))))) (try-catch (g 4) (e) e)",
    "(define (g n) (if (< n 2) (car n) (* (g (- n 1)) 2))) (try-catch (g 5) (e) e)",
    "(define (g n) (if (< n 2) n (- (g (- n 1)) (* 3 (g (- n 2)))))) (list (g 20) (g 21))",
    # ... a walk's integer copy per element (walks._loop), over a local a lambda captures: other kinds, failures
    "(define (f l p) (filter (lambda (x) (not (= 0 (mod x p)))) l)) "
    "(map (lambda (a) (try-catch (apply f a) (e) e)) '(((1 2 3 4 -5 6) 2) ((1 2.0 3) 2) ((1 2 3) 2.5) ((1 2) 0) "
    "((3 6 -9) -3) ((1 x 3) 2)))",
    "(define (f l k) (map (lambda (x) (+ (* x k) 1)) l)) (list (f '(1 2.5 -3) 2) (f '(1 2) 0.5) (f '() 1) "
    "(try-catch (f '(1 #t) 1) (e) e))",
    # ... a local a nested lambda reads is known; one it assigns is not
    "(define (f n) (let ((g (lambda () n))) (list (+ n 1) (g)))) (list (f 1) (f 1.5))",
    "(define (f n) (let ((bump (lambda () (set! n 2.5)))) (bump) (+ n 1))) (list (f 1) (f 2))",
    # ... a self tail loop of other kinds gets the uncounted copy too: it runs while OK holds at each hop
    "(define (f l) (let loop ((l l) (acc '())) (if (null? l) acc (begin (if (eq? (car l) 'boom) "
    "(set! cons (lambda (a b) (list 'mine a)))) (loop (cdr l) (cons (car l) acc)))))) (f '(a boom c d))",
    "(define (f l acc) (if (null? l) (car acc) (f (cdr l) (cons (car l) acc)))) (list (f '(1 2) '()) "
    "(try-catch (f '(1 . 2) '()) (e) e) (try-catch (f '() '()) (e) e))",
    # a named let's loop that escapes (returned, captured) is not released after it returns (lower.release)
    "(define (f) (let loop ((i 0)) (if (< i 3) (loop (+ i 1)) loop))) (define g (f)) "
    "(list (procedure? g) (eq? g (g 5)) (eq? g (g 1)) (procedure? ((f) 0)))",
    "(define (f) (let loop ((i 0) (fs '())) (if (< i 3) (loop (+ i 1) (cons (lambda () (loop 9 '())) fs)) fs))) "
    "(map (lambda (h) (length (h))) (f))",
    "(define (f n) (let loop ((i 0)) (if (< i n) (loop (+ i 1)) i))) (list (f 3) (f 0) (+ (f 2) (f 4)))",
    # ... nor one a macro's expansion captured (a global that became a macro after the caller was compiled)
    "(define (g x) x) (define (f) (let loop ((i 0)) (if (< i 1) (loop (+ i 1)) (g i)))) (f) "
    "(defmacro g (x) (list 'lambda '() (list 'loop 5))) (define h (f)) (procedure? ((h)))",
    # builtins called by builtins (fold, map, sort, apply): directly, with the reference's errors
    "(define (f l) (list (foldl + 0 l) (map abs l) (sort l <) (apply max l) (try-catch (map car l) (e) e) "
    "(try-catch (map cons l) (e) e) (try-catch (foldl - 0 (list 1 'a)) (e) e))) (f '(1 -2 3))",
    # a callee that starts after an inlined builtin changed returns a pending tail call: its caller finishes it
    "(define (f n) (if (= n 3) (set! + (lambda (a b) (list a b)))) (if (= n 0) 0 (+ 1 (f (- n 1))))) "
    "(try-catch (f 5) (e) e)",
    "(define (f n) (if (= n 3) (set! + (lambda (a b) (list a b)))) (if (= n 0) 0 (* 1 (+ 1 (f (- n 1)))))) "
    "(try-catch (f 2) (e) e)",
    # ... and one whose own ways return a pending tail call (a call of another lambda in tail position)
    "(define (g x) (* x 2)) (define (f n) (if (= n 0) (g 5) (+ 1 (f (- n 1))))) "
    "(define (h n) (let loop ((i n)) (if (= i 0) (g 1) (- (loop (- i 1)) 1)))) (list (f 3) (h 3))",
    # a self call from the integer copy passes INTS only where OK holds and every argument is an exact integer
    "(define (g) (set! + (lambda (a b) (list 'new a b))) 0) "
    "(define (f) (let up ((i 0) (k 5)) (if (< i 1) (list (g) (up 1 k)) (+ k i)))) (f)",
    "(define (g) (set! + (lambda (a b) (list 'new a b))) 0) "
    "(define (f i k) (if (< i 1) (list (g) (f 1 k)) (+ k i))) (f 0 5)",
    "(define (f n x) (if (< n 1) (+ x x) (list (f (- n 1) (if (= n 2) -0.0 x))))) "
    "(list (f 1 3) (f 3 3) (try-catch (f 3 'a) (e) e))",
    # a local head: a lambda of the arity is tested first, then a macro (its arguments never evaluated), the rest
    "(defmacro m (x) (list 'quote x)) (define (f g) (g zz-undefined)) (define (h) (let ((g m)) (g zz))) "
    "(list (f m) (f m) (h) (h) (try-catch (f (lambda (y) y)) (e) e))",
    "(define (f g x) (g x)) (list (f car '(1 2)) (f (lambda (y) (* y 2)) 5) (f (lambda (y) (* y 2)) 6) "
    "(try-catch (f (lambda (a b) a) 1) (e) e) (try-catch (f 5 1) (e) e) (try-catch (f car 1) (e) e))",
    # map, filter and for-each of a literal lambda whose body runs no Lisp code: a loop in place (walks.py)
    "(define (f l k) (list (map (lambda (x) (* x k)) l) (filter (lambda (x) (< x k)) l) "
    "(for-each (lambda (x) (+ x 1)) l) (map (fn (x) (if (and (< x 3) (or (= x 1) #f)) 'one (quote other))) l) "
    "(filter (λ (x) (not (= 0 (mod x 2)))) l))) (list (f '(1 2 3 4) 3) (f '() 1) (f '(2.5 -0.0) 1))",
    "(define (f l) (map (lambda (x) (+ x 1)) l)) (list (f '(1 2)) (f #(1 2)) (try-catch (f 5) (e) e) "
    "(try-catch (f '(1 a 3)) (e) e))",
    "(define (g l) (filter (lambda (x) (car x)) l)) (g '((1) (#f) (2)))",
    "(define (g l) (list 1 (filter (lambda (x) (car x)) l))) (g '((1) 5 (2)))",
    "(define (g l) (map (lambda (x) (mod x 0)) l)) (g '(4 5))",
    "(define (g l) (map (lambda (x) (+ x later-defined)) l)) (try-catch (g '(1)) (e) e)",
    "(define (g l) (map (lambda (x) (+ x later-defined)) l)) (define later-defined 10) (g '(1 2))",
    "(define (g l) (map (lambda (x) (* x 2)) l)) (define r1 (g '(1 2))) (set! map (lambda (f l) 'mine)) "
    "(list r1 (g '(1 2)))",
    "(define (g l) (map (lambda (x) (* x 2)) l)) (define r1 (g '(1 2))) (define (* a b) (list a b)) "
    "(list r1 (g '(1 2)))",
    "(define (g l) (map (lambda (x) (car x)) l)) (define (h l) (+ 1 (length (g l)))) (h '((1) (2) 3))",
    # ... not in place: a body calling Lisp code, two lists, a lambda of two parameters or with defines
    "(define (sq x) (* x x)) (define (g l) (list (map (lambda (x) (sq x)) l) (map (lambda (x y) (+ x y)) l l) "
    "(map (lambda (x) (define y 2) (* x y)) l) (for-each (lambda (x) (display x)) l))) (g '(1 2))",
    # once car or cdr of a local has a value, the local is a pair (kinds.py): until it is set again
    "(define (f x) (list (car x) (cdr x) (null? x) (pair? x) (eq? x '()))) "
    "(list (f '(1 2)) (f '(1)) (try-catch (f '()) (e) e) (try-catch (f 5) (e) e) (try-catch (f nil) (e) e))",
    "(define (f x) (let ((a (car x))) (set! x (cdr x)) (list a (pair? x) (null? x) (if (null? x) 0 (car x))))) "
    "(list (f '(1 2)) (f '(1)))",
    "(define (f x y) (list (cdr x) (if (< (car y) 0) (begin (set! x '()) (null? x)) (null? x)))) "
    "(list (f '(1) '(-1)) (f '(1) '(1)))",
    "(define (g n x) (list (+ n (car x)) (null? x) (pair? x) (cdr x))) "
    "(define (h n x) (list (+ n (car x)) (eq? x '()) (null? (cdr x)) (cdr (cdr x)))) "
    "(list (g 1 '(2)) (g 1 '(2 3)) (try-catch (g 1 '()) (e) e) (try-catch (g 1 7) (e) e) (h 1 '(2 3)) "
    "(try-catch (h 1 '(2)) (e) e))",
    # the function's own name redefined while it runs: a later self call (plain, tail) calls the new value
    "(define (f n) (if (= n 0) (begin (set! f (lambda (k) 100)) 0) (+ (f (- n 1)) (f 0)))) (list (f 2) (f 2))",
    "(define (f n) (if (= n 5) (set! f (lambda (k) 'new))) (if (= n 0) 'done (f (- n 1)))) (list (f 9) (f 9))",
    # one definition evaluated twice: each value calls what its name holds
    "(define src '(define (f n) (if (< n 1) (+ n 0.5) (f (- n 1))))) (eval src) (define f1 f) (define r1 (f1 2)) "
    "(eval src) (define f2 f) (define r2 (f2 2)) (define (+ a b) 'mine) (list r1 r2 (f1 3) (f2 3) (f 3))",
    "(define (f n) (if (< n 1) 'one (f (- n 1)))) (f 2) (define f1 f) (define (f n) 'two) (list (f1 3) (f 3))",
    # set! of a captured variable, of a global, of an undefined name
    '(define (mk) (let ((n 0)) (list (lambda () (set! n (+ n 1)) n) (lambda () n)))) '
    '(define p (mk)) ((car p)) ((car p)) (list ((cadr p)))',
    '(define g 1) (define (f) (set! g (+ g 1)) g) (list (f) (f) g)',
    '(define (f) (set! zzq-undefined 1)) (f)',
    # a global that becomes a macro after its caller was compiled
    "(define (g x) (list x)) (define (f x) (g (+ x 1))) (define r1 (f 1)) (defmacro g (x) (list 'quote x)) "
    "(list r1 (f 1))",
    # rest parameters, apply, named let whose name is assigned
    '(define (f a . r) (list a r)) (list (f 1) (f 1 2 3) (apply f (list 4 5)))',
    "(define (f n) (let loop ((i 0)) (if (= i 2) (set! loop (lambda (k) 'swapped))) (if (< i n) (loop (+ i 1)) i))) (f 5)",
    # mutual tail calls run in constant stack; a tail call to a builtin
    '(define (ev? n) (if (= n 0) #t (od? (- n 1)))) (define (od? n) (if (= n 0) #f (ev? (- n 1)))) (ev? 100001)',
    '(define (f l) (length l)) (f (list 1 2 3))',
    # a lambda's env seen by grad (its body is made anew from the frames)
    '(define (mk k) (let ((j 2)) (grad (lambda (x) (* k j x))))) ((mk 4) 1)',
    # outer reference frames: a lambda inside a top-level let, read and set
    "(define c (let ((n 0)) (lambda () (set! n (+ n 1)) n))) (c) (c)",
    # let* and letrec: an init sees the names bound before it (else the name further out), or NIL
    '(define (f a) (let* ((x (+ a 1)) (y (* x 2)) (x (+ x y))) (list x y))) (f 1)',
    '(define (g a) (let* ((h (lambda () z)) (z a)) (h))) (g 5)',
    '(define x 100) (define (m) (let* ((x (+ x 1)) (y (lambda () x))) (list x (y)))) (m)',
    '(define (k a) (letrec ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1))))) '
    '(od? (lambda (n) (if (= n 0) #f (ev? (- n 1)))))) (list (ev? a) (od? a)))) (k 7)',
    '(define (r) (letrec ((a b) (b 1)) (list a b))) (r)',
    '(define (u) (let* ((q zzz-undefined)) q)) (u)',
    '(define (u) (let* ((q (car 5))) q)) (u)',
    # internal defines: slots unbound until their define runs (read further out before)
    '(define (f a) (define (sq x) (* x x)) (define b (+ a 1)) (list (sq a) b)) (f 3)',
    '(define (g n) (define (helper k acc) (if (= k 0) acc (helper (- k 1) (+ acc k)))) (helper n 0)) (g 3000)',
    '(define x-outer 5) (define (h) (define y x-outer) (define x-outer 6) (list y x-outer)) (h)',
    '(define (early) (define a b) (define b 2) a) (early)',
    '(define (w a) (let ((z 1)) (define q (+ z a)) (def (r k) (* k q)) (r 2))) (w 4)',
    '(define (lp i) (define s (* i i)) (if (< i 5) (lp (+ i 1)) s)) (lp 0)',
    # large code: deep nesting and long chains compile once, in linear size
    '(define (g x) ' + '(+ 1 ' * 300 + 'x' + ')' * 300 + ') (list (g 1) (g 2.5))',
    '(define (g x) ' + '(list 1 ' * 100 + '(car x)' + ')' * 100 + ') (length (g (list 1)))',
    '(define (f x) (cond %s (else -1))) (list (f 5) (f 1999) (f 5000))'
    % ' '.join('((= x %d) %d)' % (i, i) for i in range(2000)),
    '(define (lp i acc) (if (< i 50) (lp (+ i 1) (+ acc ' + '(+ 1 ' * 30 + 'i' + ')' * 30 + ')) acc)) (lp 0 0)',
    # eval of a define making a global name dyn, read from compiled code
    '(define k 1) (define (get) k) (define (outer) (eval (quote (define k 2))) (get)) (list (get) (outer) (get))',
]


@pytest.mark.parametrize('src', PROGRAMS + ERRORS)
def test_program_runs_the_same_both_ways(monkeypatch, src):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '2000')
    got = [outcome(lambda: session(monkeypatch, fast).run(src, '<prog>')) for fast in (False, True)]
    assert got[0] == got[1]
    if src in ERRORS:
        assert got[0][0] == 'error'


@pytest.mark.parametrize('n', [498, 499, 500, 501])
def test_the_depth_limit_is_the_references(monkeypatch, n):
    # depth to limit-1 works, the error at the limit, at the same call
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '500')
    src = '(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1))))) (down %d)' % n
    got = [outcome(lambda: session(monkeypatch, fast).run(src, '<prog>')) for fast in (False, True)]
    assert got[0] == got[1]


def test_a_million_mutual_tail_calls_run_in_constant_stack(monkeypatch):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '1000')
    s = session(monkeypatch, True)
    s.run('(define (ev? n) (if (= n 0) #t (od? (- n 1)))) (define (od? n) (if (= n 0) #f (ev? (- n 1))))', '<t>')
    assert s.run('(ev? 1000000)', '<t>') is True
    assert direct_of(s.genv.lookup(sym('ev?'))) is not None


@pytest.mark.parametrize('src,runs', [
    ('(define (loop i acc) (if (< i 3000) (loop (+ i 1) (+ acc i)) acc)) (loop 0 0)', 1),
    ('(define (f n) (let lp ((i 0)) (if (< i n) (lp (+ i 1)) (car i)))) (f 10)', 1),
    ('(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1))))) (list (down 100) (map down (list 1 2)))', 104),
    ('(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1))))) (down 5000)', 1999),
])
def test_with_the_gate_shut_every_call_goes_through_run(monkeypatch, src, runs):
    # the compiled code's gate shut (as a tool's watcher shuts it): run sees
    # every non-tail call (and loops over the tail calls itself), nothing else changes
    from rusty import apply
    from rusty.compile.link import session_namespace
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '2000')
    want = outcome(lambda: session(monkeypatch, False).run(src, '<prog>'))
    s = session(monkeypatch, True)
    s.run('(define (warm x) x) (warm 1)', '<prog>')
    session_namespace(s.depth)['GATE'] = -1
    from rusty.compile import support
    from rusty import call_sites
    entered = runs_counted(monkeypatch, apply, support, call_sites)
    assert outcome(lambda: s.run(src, '<prog>')) == want
    assert len(entered) >= runs


def runs_counted(monkeypatch, *modules) -> list:
    """The names of the lambdas `run` (as each module calls it) enters from now on."""
    from rusty import apply
    entered = []
    real = apply.run

    def counting(p, fr, site, D):
        entered.append(p.name)
        return real(p, fr, site, D)
    for module in modules:
        monkeypatch.setattr(module, 'run', counting)
    return entered


def test_a_tail_call_of_a_leaf_lambda_is_a_direct_call(monkeypatch):
    # a lambda whose code makes no tail call of another global's lambda (a leaf) and one that
    # does (h): a tail call of either calls its function (no pending tail call through run;
    # the bound on such calls running at once: test_compile_codegen.py)
    # (leaf is no small function computed in place: small.py)
    from rusty.compile import support
    s = session(monkeypatch, True)
    s.run('(define (leaf x) (if (pair? x) (car x) x)) (define (h x) (leaf x)) (define (top x) (h x))'
          '(define (via-h x) (+ 0 (h x))) (define (via-top x) (+ 0 (top x))) (via-top (list 1)) (via-top (list 1))'
          '(via-h (list 1))', '<t>')
    assert leaf_of(s.genv.lookup(sym('leaf'))) is not None and leaf_of(s.genv.lookup(sym('h'))) is None
    entered = runs_counted(monkeypatch, support)
    assert s.run('(via-h (list 7))', '<t>') == 7 and entered == []
    assert s.run('(via-top (list 8))', '<t>') == 8 and entered == []


def test_a_call_of_itself_known_to_return_an_exact_integer_while_ok_holds(monkeypatch):
    # fib's integer copy adds its calls' values under OK alone; a function that may return
    # another kind keeps the class tests
    s = session(monkeypatch, True)
    s.run('(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))'
          '(define (fibf n) (if (< n 2) 1.5 (+ (fibf (- n 1)) (fibf (- n 2)))))', '<t>')
    fib = s.python_source(s.genv.lookup(sym('fib')))
    assert ' if OK else ' in fib and fib.count('.__class__ is int and ') < s.python_source(
        s.genv.lookup(sym('fibf'))).count('.__class__ is int and ')
    assert ' if OK else ' not in s.python_source(s.genv.lookup(sym('fibf')))
    assert s.run('(list (fib 20) (fibf 5))', '<t>').car == 6765


def test_the_binding_forms_are_compiled(monkeypatch):
    s = session(monkeypatch, True)
    s.run('(define (f a) (let* ((x a) (y x)) (letrec ((g (lambda () y))) (let loop ((i 0)) (g)))))', '<t>')
    assert not s.python_source(s.genv.lookup(sym('f'))).startswith('# stays')


def test_the_generated_python_is_deterministic(monkeypatch):
    src = '(define (f a b) (let loop ((i a) (acc (list))) (if (< i b) (loop (+ i 1) (cons (car (list i)) acc)) acc)))'
    shown = []
    for _ in range(2):
        s = session(monkeypatch, True)
        s.run(src, '<t>')
        shown.append(s.python_source(s.genv.lookup(sym('f'))))
    assert shown[0] == shown[1] and 'while True' in shown[0] and 'def f_f(d, ' in shown[0]


def test_undefined_global_operand_reports_the_name_itself(monkeypatch):
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run('(define (g a b) a) (define (f) (g 1 zzqnope))', '<test>')
        with pytest.raises(RustyError) as e:
            s.run('(f)', '<test>')
        assert "Undefined: 'zzqnope'" in str(e.value)
        assert e.value.span is not None and e.value.span.col == 37
        s.run('(define zzqnope 3)', '<test>')
        assert s.run('(f)', '<test>') == 1.0


def test_the_switch_leaves_the_reference_alone(monkeypatch):
    # RUSTY_SPECIALIZE=0 is read when the session is made: no compiled lambda.
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run('(define (f a b) (if (< a b) a b)) (f 1 2)', '<test>')
        assert (s.unit.compile_lambda is not None) is fast
        assert (direct_of(s.genv.lookup(sym('f'))) is not None) is fast


def test_a_lambda_is_compiled_from_its_second_call(monkeypatch):
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '1')
    monkeypatch.delenv('RUSTY_SPECIALIZE', raising=False)
    s = Session()
    s.run('(define (f a) (+ a 1)) (f 1)', '<test>')
    assert direct_of(s.genv.lookup(sym('f'))) is None
    assert s.run('(f 2)', '<test>') == 3
    assert direct_of(s.genv.lookup(sym('f'))) is not None


def test_by_default_a_lambda_is_compiled_once_hot(monkeypatch):
    """Without RUSTY_COMPILE_CALLS, a lambda is compiled once its time on
    the reference pays for compiling it (link.PAYBACK): a few calls do not,
    a loop's iterations do, in a function called once or at top level."""
    monkeypatch.delenv('RUSTY_COMPILE_CALLS', raising=False)
    monkeypatch.delenv('RUSTY_SPECIALIZE', raising=False)
    s = Session()
    s.run('(define (f a) (if a (+ a 1) 0)) (f 1) (f 2) (f 3)', '<test>')
    assert direct_of(s.genv.lookup(sym('f'))) is None
    s.run('(define (g n) (let loop ((i 0) (t 0)) (if (< i n) (loop (+ i 1) (f t)) t)))', '<test>')
    assert s.run('(g 300000)', '<test>') == 300000
    assert direct_of(s.genv.lookup(sym('f'))) is not None
    assert s.run('(let loop ((i 0) (t 0)) (if (< i 200000) (loop (+ i 1) (+ t i)) t))') == 19999900000


def test_rusty_compile_0_is_the_switch_too(monkeypatch):
    monkeypatch.setenv('RUSTY_COMPILE', '0')
    assert Session().unit.compile_lambda is None


NATIVE_CALLS = ['(use-sq 3)', '(use-sq -0.0)', '(use-sq "s")', '(use-sq-none)', '(use-sq-two 1 2)',
                '(via-operand 4)', '(list (use-sq 1e200))']


@pytest.mark.rustc
@pytest.mark.parametrize('call', NATIVE_CALLS)
def test_native_calls_run_the_same_both_ways(monkeypatch, call):
    src = ('(defrust sq (x) (* x x)) (define (use-sq x) (sq x)) (define (use-sq-none) (sq)) '
           '(define (use-sq-two a b) (sq a b)) (define (id x) x) (define (via-operand x) (id (sq x)))')
    assert_calls_agree(monkeypatch, src, call)


def assert_calls_agree(monkeypatch, src, call):
    """`call` after `src` gives the same outcome on the reference and compiled."""
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(src, '<src>')
        got.append(outcome(lambda: s.run(call, '<call>')))
    assert got[0] == got[1]


GRAD_CALLS = ['(use 2 3)', '(use -0.0 3)', '(use "s" 3)', '(use1 1)', '(use3 1 2 3)', '(via-operand 2 5)']


@pytest.mark.rustc
@pytest.mark.parametrize('call', GRAD_CALLS)
def test_native_grad_calls_run_the_same_both_ways(monkeypatch, call):
    src = ('(define (f x y) (* x y)) (define k (graph-compile-grad f 2 3)) (define (use a b) (k a b)) '
           '(define (use1 a) (k a)) (define (use3 a b c) (k a b c)) (define (id x) x) '
           '(define (via-operand a b) (id (k a b)))')
    assert_calls_agree(monkeypatch, src, call)


def lambdas_left(s, text) -> int:
    """The Lambda values running text in session s leaves to the cycle collector."""
    import gc
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        s.run(text)
        gc.collect()
        return sum(1 for o in gc.garbage if o.__class__.__name__ == 'Lambda')
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_a_named_let_loop_is_freed_without_the_cycle_collector(monkeypatch):
    """A named let's loop (frame -> loop -> frame) in a compiled function is
    released when it returns: none left for the cycle collector."""
    s = session(monkeypatch, True)
    s.run("(define (split lst) (let loop ((lst lst) (a '()) (b '())) "
          "(if (null? lst) (list a b) (loop (cdr lst) b (cons (car lst) a))))) "
          "(define (twice lst) (let loop ((l lst) (n 0)) (if (null? l) n (loop (cdr l) (+ n 1)))))")
    s.run("(define (drive k) (when (> k 0) (split '(1 2 3 4)) (twice '(1 2)) (drive (- k 1)))) (drive 2)")

    assert lambdas_left(s, "(drive 50)") == 0
    # the reference makes such cycles: the test can tell
    assert lambdas_left(s, "(dotimes (i 50) ((lambda () (let loop ((i 0)) (if (< i 1) (loop 1) loop)))))") > 0


def test_constant_tests_compile_without_syntax_warnings(monkeypatch):
    """A test the passes fold to a literal (`(or)`, `(not 5)`) is decided,
    never written as `literal is False`: Python would warn on the user's
    terminal."""
    import warnings
    s = session(monkeypatch, True)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        got = s.run("(define (f a) (cond ((or) 0.0) ((not (or 9007199254740993)) (* a 0)) ((and) 5) (else a))) "
                    "(define (g a) (if (if a 5 #f) (or) (and 7))) (list (f 1) (g #t) (g #f))")
    assert write_form(got) == '(5 #f 7)'
    assert [w for w in seen if issubclass(w.category, SyntaxWarning)] == []
