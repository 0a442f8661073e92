"""Faster compiled code on the shapes programs write (compile/calls.py,
support.py and the define of a lambda form), each against the reference:
the same values, errors and backtraces with RUSTY_SPECIALIZE=0, and the
fast path pinned as taken (no way out through run or the reference)."""
from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.values import sym

from test_compile_paths import outcomes_both_ways, runs_counted, session


def outcome(s, src: str):
    """The printed value of src, or its error's message, position and backtrace."""
    try:
        return write_form(s.run(src, '<prog>'))
    except RustyError as e:
        return ('error', str(e), getattr(e, 'span', None) and tuple(e.span), tuple(
            (b.name, tuple(b.span) if b.span else None) for b in getattr(e, 'backtrace', None) or ()))


def both_ways(monkeypatch, defs: str, *srcs) -> list:
    """Each src's outcome after defs, on the reference and compiled (asserted equal)."""
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(defs, '<defs>')
        got.append([outcome(s, src) for src in srcs])
    assert got[0] == got[1]
    return got[1]


LOOPING = ('(define count-down (lambda (n acc) (if (= n 0) acc (count-down (- n 1) (+ acc (car (list 1)))))))'
           '(define nth (lambda (l i) (if (= i 0) (car l) (nth (cdr l) (- i 1)))))')


def test_a_define_of_a_lambda_form_names_its_values_as_a_define_of_a_function_does(monkeypatch):
    # the name is the lambda's own from the start: its self tail calls are a loop
    # (no pending tail call through run), as `(define (f …) …)`'s are
    from rusty.compile import support
    assert both_ways(monkeypatch, LOOPING, '(count-down 3000 0)', '(nth (list 1 2 3) 2)', '(nth (list 1 2) 5)',
                     'count-down', '(let ((g (lambda (x) x))) g)')[:2] == ['3000', '3']
    s = session(monkeypatch, True)
    s.run(LOOPING + '(define (via n) (+ 0 (count-down n 0) (nth (list 1 2 3 4) 3))) (via 2) (via 2)', '<t>')
    assert s.genv.lookup(sym('count-down')).name == 'count-down'
    entered = runs_counted(monkeypatch, support)
    assert s.run('(via 5000)', '<t>') == 5004
    assert entered == []


def test_a_malformed_lambda_form_in_a_define_fails_as_before(monkeypatch):
    got = both_ways(monkeypatch, '(define ok 1)', '(define f (lambda x))', '(define f (lambda (1) x))',
                    '(define f (lambda (x . ) x))', '(begin (define g (fn (x) x)) (g 4))')
    assert got[-1] == '4' and all(g[0] == 'error' for g in got[:3])


NAMED_LETS = ['(let loop ((i 0) (acc 0)) (if (< i 2000) (loop (+ i 1) (+ acc i)) acc))',
              '(let loop ((i 0)) (if (< i 5) (loop (+ i 1)) (car i)))',
              '(let loop ((i 0)) (when (= i 3) (set! loop (lambda (j) (list j i)))) (if (< i 6) (loop (+ i 1)) i))',
              '(let loop ((i 0) (j 1)) (if (< i 3) (loop (+ i 1)) j))',
              '(begin (define n 0) (dotimes (i 50) (set! n (+ n i))) n)',
              '(dotimes (i 50) (when (= i 40) (vector-ref (vector) i)))',
              '(let ((f (lambda () 1))) (let loop ((i 0)) (if (< i 3) (loop (+ i (f))) i)))']


def test_a_named_let_compiled_on_its_own_loops_on_its_calls_of_itself(monkeypatch):
    # a loop read from its frame (its code compiled apart from the code around it) is
    # the lambda value running: its tail calls of itself are the loop, entered once
    from rusty.compile import support
    got = both_ways(monkeypatch, '(define (id x) x)', *NAMED_LETS)
    assert got[0] == '1999000' and got[1][0] == 'error' and got[2] == '(4 3)' and got[4] == '1225'
    assert got[5][0] == 'error' and got[6] == '3'
    entered = []
    real = support.enter

    def counting(fn, D, end, fr):
        entered.append(fn.__name__)
        return real(fn, D, end, fr)
    monkeypatch.setattr(support, 'enter', counting)
    s = session(monkeypatch, True)
    assert s.run(NAMED_LETS[0], '<t>') == 1999000 and s.run(NAMED_LETS[4], '<t>') == 1225
    assert len(entered) == 2 and all(n.startswith('f_loop') for n in entered), entered


CLOSURES = ('(define (apply-to f x) (f x))'
            '(define (make-adder n) (lambda (x) (+ x n)))'
            '(define (make-bad) (lambda (y) (car y)))'
            '(define (outer a) ((lambda () (list (car a)))))'
            '(define (named a) (let loop ((i a) (acc 0)) (if (< i 1) (car acc) (loop (- i 1) (+ acc i)))))'
            '(define (cps n k) (if (< n 1) (k 0) (cps (- n 1) (lambda (v) (k (+ v 1))))))'
            '(define (via f x) (+ 0 (apply-to f x)))')


def test_a_tail_call_of_a_compiled_closure_is_a_direct_call_failing_as_the_reference(monkeypatch):
    # the closure's function called at the caller's depth (no pending tail call
    # through run); a failure in it reported with its own frame, as run reports it
    for src in ['(apply-to (make-adder 2) 5)', '(apply-to (make-bad) 5)', '(via (make-bad) 7)', '(outer 5)',
                '(outer (list 3))', '(named 4)', '(cps 50 (lambda (v) v))', '(cps 3 (lambda (v) (car v)))',
                '(apply-to (lambda (z) (vector-ref (vector) z)) 2)']:
        ref, fast = outcomes_both_ways(monkeypatch, CLOSURES, ['(via (make-adder 1) 1)', '(cps 2 (lambda (v) v))'], src)
        assert ref == fast, src
    from rusty.compile import support
    s = session(monkeypatch, True)
    s.run(CLOSURES + '(via (make-adder 1) 1) (via (make-adder 1) 1)', '<t>')
    entered = runs_counted(monkeypatch, support)
    assert s.run('(via (make-adder 3) 4)', '<t>') == 7 and entered == []


MUTUAL = ('(define (ev? n) (if (= n 0) #t (od? (- n 1))))'
          '(define (od? n) (if (= n 0) #f (ev? (- n 1))))'
          '(define (via n) (list (ev? n)))')


def test_tail_calls_made_directly_are_bounded(monkeypatch):
    # mutual tail calls of globals that are no leaves: direct while fewer than TAIL_HOPS
    # run at once, then one pending tail call through run (the host stack stays bounded)
    from rusty.compile import support
    from rusty.compile.calls import TAIL_HOPS
    entered = []
    real = support.enter

    def counting(fn, D, end, fr):
        entered.append(fn.__name__)
        return real(fn, D, end, fr)
    monkeypatch.setattr(support, 'enter', counting)     # (the functions' Entries, made at linking)
    s = session(monkeypatch, True)
    s.run(MUTUAL + '(via 3) (via 3)', '<t>')
    del entered[:]
    assert write_form(s.run('(via 50)', '<t>')) == '(#t)' and entered == ['f_via']
    n = 20 * TAIL_HOPS
    del entered[:]
    assert write_form(s.run('(via %d)' % n, '<t>')) == '(#t)'
    assert n // (TAIL_HOPS + 1) <= len(entered) - 1 <= n // TAIL_HOPS + 1, len(entered)
    assert s.run('(via 200000)', '<t>').car is True and s.depth.tails == 0
    both_ways(monkeypatch, MUTUAL + '(define (bad n) (if (= n 0) (car n) (od? (- n 1))))'
              '(define (od2? n) (if (= n 0) (bad 0) (ev? (- n 1))))', '(via 777)', '(bad 3)', '(od2? 301)')


DIFFERENCES = '(define (f1 a) (- a)) (define (f3 a b c) (- a b c)) (define (f4 a b c d) (- a b c d))'
SAMPLES = ['0', '7', '-3', '9007199254740993', '(expt 10 400)', '0.0', '-0.0', '2.5', '+inf.0', '(- +inf.0)',
           '(/ 0.0 0.0)', '"s"', "'x"]


def test_a_difference_of_one_three_or_four_numbers_is_computed_as_the_builtin_does(monkeypatch):
    # (- a) and (- a b c …) computed in place on exact integers or floats: bit for bit the
    # builtin's value (floats: a minus the sum of the rest from 0.0), its error otherwise
    import itertools
    srcs = ['(f1 %s)' % a for a in SAMPLES]
    srcs += ['(f3 %s %s %s)' % abc for abc in itertools.product(SAMPLES[:11:2], SAMPLES[1:12:3], SAMPLES[:8:3])]
    srcs += ['(f4 %s %s %s %s)' % abcd for abcd in [('1', '2', '3', '4'), ('1.5', '-0.0', '0.0', '2.0'),
                                                  ('1', '2', '3.0', '4'), ('"a"', '1', '2', '3')]]
    for src in srcs:
        ref, fast = outcomes_both_ways(monkeypatch, DIFFERENCES, ['(f1 1)', '(f3 1 2 3)', '(f4 1 2 3 4)'], src)
        assert ref == fast, src
    s = session(monkeypatch, True)
    s.run(DIFFERENCES + '(f1 1) (f3 1 2 3)', '<t>')
    assert 'return -v_a_1 if ' in s.python_source(s.genv.lookup(sym('f1')))
    assert 'return v_a_1 - (v_b_2 + v_c_3)' in s.python_source(s.genv.lookup(sym('f3')))
