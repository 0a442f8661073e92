"""A direct call's failure reported by its caller's one handler
(compile/sites.py, compile/call_lines.py): each call has a line of its own
that names its site and the lambda it called, so a failure in a callee gets
the backtrace entry run would give it, at that call's site, with no `try`
around the call. Each case against the reference (values, messages,
positions, backtrace entries and their frames), the callers pinned as
compiled and as written so."""
import ast
import collections

import pytest

from rusty.compile.entry import direct_of
from rusty.values import Builtin, sym

from test_compile_paths import outcome, session

CALLEES = '(define (g x) (car x)) (define (h x y) (+ x (car y)))'

# One function, many direct calls (of other globals, of itself, of a
# parameter, of a named let's loop and of a local define; in lets, in an
# integer copy); `(f k)` fails in the callee of call site k alone.
SITES = CALLEES + '''
(define (f k)
  (let ((a (g (list k)))
        (b (h k (list k))))
    (+ a b
       (g (if (= k 1) 5 (list k)))
       (h k (if (= k 2) 7 (list k)))
       (let ((c (* k 2))) (g (if (= k 3) c (list c))))
       (let loop ((i 0)) (if (< i 2) (+ 1 (loop (+ i 1))) (g (if (= k 4) i (list i)))))
       (ap (lambda (v) (g v)) (if (= k 5) k (list k))))))
(define (ap p v) (+ 0 (p v) (p (list v))))
(define (w n) (if (= n 0) (car n) (+ (w 0) (w (- n 1)))))
(define (u n) (if (< n 2) (car n) (+ (u (- n 1)) (u (- n 2)))))
(define (local n) (define (in x) (car x)) (+ (in (list n)) (in (if (= n 9) n (list n)))))
(define cnt 0)
(define (gg x) (set! cnt (+ cnt 1)) (car x))
(define (tl x) (gg x))
(define (via x) (+ 1 (tl x)))
(define (kn n) (define (in2 k) (if (= k 0) (car k) (in2 (- k 1)))) (in2 n))
'''
WARM = ['(f 0)', '(w 0)', '(list (w 1) (w 2))', '(local 1)', '(u 1)', '(via (list 1))', '(kn 0)']


def outcomes(monkeypatch, srcs, defs=SITES, warm=WARM, tools=False,
             compiled=('f', 'g', 'h', 'w', 'u', 'ap', 'local', 'gg', 'tl', 'via', 'kn')):
    """Each src's outcome on the reference and compiled, after defs and the
    warm-up (rusty/compile: every lambda compiled at its first call; those
    named `compiled` asserted so)."""
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        if tools:
            assert s.tools is not None      # (the session's tools: frames of lets shown, the gate open)
        warmed(s, defs, warm)
        got.append([outcome(lambda: s.run(src, '<prog>')) for src in srcs])
        if fast:
            for n in compiled:
                assert direct_of(s.genv.lookup(sym(n))) is not None, n
    return got


def warmed(s, defs, warm):
    """Session s after defs and the warm-up runs (their failures expected)."""
    s.run(defs, '<defs>')
    for w in warm:
        try:
            s.run(w, '<warm>')
        except Exception:
            pass
    return s


FAILING = ['(f 1)', '(f 2)', '(f 3)', '(f 4)', '(f 5)', '(w 3)', '(u 6)', '(local 9)', '(ap g 5)', '(ap car 5)',
           '(via 5)', '(tl 5)', '(kn 3)']


@pytest.mark.parametrize('tools', [False, True], ids=['plain', 'tools'])
def test_a_failure_in_a_callee_is_reported_at_its_own_call_site(monkeypatch, tools):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '2000')
    ref, fast = outcomes(monkeypatch, FAILING + ['(f 0)', '(w 0)'], tools=tools)
    assert ref == fast
    assert [o[0] for o in ref] == ['error'] * len(FAILING) + ['error', 'error']
    sites = [o[3][-2][0] for o in ref[:5]]      # (the level f's call entered: that call's site)
    assert len(set(sites)) == 5, sites          # five calls, five sites


def test_the_calls_have_no_try_of_their_own(monkeypatch):
    s = warmed(session(monkeypatch, True), SITES, WARM)
    assert 'D.tails' in s.python_source(s.genv.lookup(sym('tl')))      # (a tail call made directly)
    for n in ('f', 'w', 'u', 'ap', 'local', 'tl', 'via', 'kn'):
        src = s.python_source(s.genv.lookup(sym(n)))
        tree = ast.parse(src)
        functions = sum(1 for x in ast.walk(tree) if x.__class__ is ast.FunctionDef)
        raised = [x.body[-1].exc.func.id for x in ast.walk(tree) if x.__class__ is ast.ExceptHandler]
        assert 'CALL_FAILED' not in src, (n, src)
        assert raised.count('FAILED') == functions and set(raised) <= {'FAILED', 'LOCATED'}, (n, raised)
        assert '(d + 1, ' in src or '(d, ' in src, n      # (a call made directly)


OWN = '''
(define count 0)
(define (g x) (set! count (+ count 1)) (car x))
(define (h x y) (set! count (+ count 1)) (+ x (car y)))
(define (o1 x y) (+ (g x) (car y)))
(define (o2 x y) (list (g x) (car y) (g x)))
(define (o3 x y) (g (car y)))
(define (o4 x y) (let ((r (g x))) (+ r y)))
(define (o5 x y) (+ (h 1 x) (h 2 x) (car y)))
'''


def test_a_failure_of_its_own_code_beside_a_call_is_the_functions_own(monkeypatch):
    srcs = ["(o1 (list 1) 2)", "(o2 (list 1) 2)", "(o3 (list 1) 2)", "(o4 (list 1) 'a)", "(o5 (list 1) 'b)",
            "(o1 5 2)", "(o4 5 1)", "(o1 (list 1) (list 2))"]
    warm = ["(o1 (list 1) (list 2))", "(o2 (list 1) (list 2))", "(o3 (list 1) (list 2))", "(o4 (list 1) 2)",
            "(o5 (list 1) 2)"]
    ref, fast = outcomes(monkeypatch, srcs, OWN, warm, compiled=('g', 'h', 'o1', 'o2', 'o3', 'o4', 'o5'))
    assert ref == fast
    assert [o[0] for o in ref] == ['error'] * 7 + ['value']
    assert [len(o[3]) for o in ref[:5]] == [1, 1, 1, 1, 1]      # (the function's own entry only)


DEEP = '''
(define (two n) (if (= n 0) 0 (+ (two 0) (two (- n 1)))))
(define (a n) (if (= n 0) 0 (+ 1 (b (- n 1)))))
(define (b n) (if (= n 0) 0 (+ (a 0) (a (- n 1)))))
(define (in-let n) (if (= n 0) 0 (let ((x (in-let (- n 1)))) (+ x 1))))
(define (caught n) (try-catch (two n) (e) e))
'''


@pytest.mark.parametrize('n', [298, 299, 300, 301, 1000])
def test_deep_recursion_hits_the_limit_from_compiled_code_as_the_reference(monkeypatch, n):
    monkeypatch.setenv('RUSTY_RECURSION_LIMIT', '300')
    srcs = ['(two %d)' % n, '(a %d)' % n, '(in-let %d)' % n, '(caught %d)' % n]
    ref, fast = outcomes(monkeypatch, srcs, DEEP, ['(two 2)', '(a 3)', '(in-let 2)', '(caught 2)'],
                         compiled=('two', 'a', 'b', 'in-let', 'caught'))
    assert ref == fast
    if n == 1000:
        assert ref[0][0] == 'error' and 'recursion limit exceeded (depth 300)' in ref[0][1]
        assert ref[3][0] == 'value'


def test_ctrl_c_in_a_callee_is_reported_at_the_call_as_the_reference(monkeypatch):
    # KeyboardInterrupt raised in a callee (as Ctrl-C's signal handler raises
    # it, between two steps of the callee's code) becomes `interrupted` with the
    # backtrace entries of the levels it left, both ways alike
    def boom(x):
        if x == 3:
            raise KeyboardInterrupt
        return x
    defs = '(define (g x) (+ 1 (stop x))) (define (f x) (+ (g 1) (g x) (g 2)))'
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.genv.define(sym('stop'), Builtin('stop', boom, 1, 1))
        s.run(defs, '<defs>')
        s.run('(f 1)', '<warm>')
        s.run('(f 1)', '<warm>')
        got.append(outcome(lambda: s.run('(f 3)', '<prog>')))
        if fast:
            assert direct_of(s.genv.lookup(sym('f'))) is not None
    assert got[0] == got[1] and got[0][0] == 'error' and got[0][1] == 'interrupted', got


@pytest.mark.parametrize('program,args', [('earley', '5 1'), ('boyer', '0 1'), ('matrix', '5 5 1')])
def test_every_call_made_directly_has_a_line_of_its_own_naming_what_it_calls(monkeypatch, program, args):
    # whatever the passes made of the code (copies, fused temporaries, shared
    # names), each direct call (or tail call made directly) sits on a line of
    # its own, which the handler's table maps to a name the function can read
    import io
    import os
    from rusty import cli
    from rusty.compile import call_lines
    seen, real = [], call_lines.place

    def spy(fdef, table, consts, found):
        real(fdef, table, consts, found)
        seen.append((fdef, found))
    monkeypatch.setattr(call_lines, 'place', spy)
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CODE_CACHE', '0')
    path = os.path.join(os.path.dirname(__file__), '..', 'benchmarks', 'programs', 'classics', program + '.lisp')
    assert cli.main([path] + args.split(), stdout=io.StringIO(), stderr=io.StringIO(), stdin=io.StringIO()) == 0
    calls = 0
    for fdef, found in seen:
        lines = collections.Counter(getattr(x, 'lineno', None) for x in ast.walk(fdef))
        functions = [fdef] + [x for x in ast.walk(fdef) if x.__class__ is ast.FunctionDef and x is not fdef]
        for f in functions:
            names = {x.id for x in ast.walk(f) if x.__class__ is ast.Name} | {a.arg for a in f.args.args}
            for c in ast.walk(f):
                if c.__class__ is ast.Call and getattr(c, 'site_lam', None) is not None:
                    calls += 1
                    py = found.get(c.lineno)
                    py = py if py.__class__ is str else py[0]
                    assert py == c.site_lam.id and py in names, (ast.unparse(c), py)
                    assert lines[c.lineno] == 1, ast.unparse(c)      # (nothing else on its line)
    assert calls > 10


def test_a_failed_tail_call_made_directly_is_no_longer_counted_as_running(monkeypatch):
    # D.tails bounds the tail calls made directly that run at once: one that
    # failed (caught within the same top-level form) is counted off
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.genv.define(sym('tails'), Builtin('tails', lambda s=s: s.depth.tails, 0, 0))
        s.run(SITES, '<defs>')
        s.run('(via (list 1))', '<warm>')
        got.append(outcome(lambda: s.run('(define (c) (try-catch (via 5) (e) e)) (list (c) (c) (tails))', '<prog>')))
    assert got[0] == got[1] and got[0][0] == 'value', got
