"""The env of a lambda value compiled code makes (support.LazyEnv): no
frames built per value, the reference frames of the locals it sees built
when asked, from its function's cells, with their values then (grad, a
failure's frames); and named lets' loops and local functions whose values
hold no frames still freed without the collector where nothing holds them,
and kept where a pending tail call of a loop in them does."""

import pytest

from rusty.compile import support
from rusty.values import Lambda

from test_compile_paths import lambdas_left, outcomes_both_ways, session

MAKER = "(define (make k) (let ((j (* k 2))) (lambda (x) (+ (* k x x) j))))"


def test_closures_made_by_compiled_code_share_one_env_built_when_asked(monkeypatch):
    s = session(monkeypatch, True)
    s.run(MAKER)
    s.run('(make 1)')
    a, b = s.run('(make 3)'), s.run('(make 5)')
    assert a.__class__ is Lambda and a.env.__class__ is support.LazyEnv and a.env is b.env
    frames = support.env_of(a)             # [[E, make's scope, k], let's scope, j]
    assert frames[2:] == [6] and frames[0][2:] == [3] and frames[0][0] is None
    assert support.env_of(b)[2:] == [10]


def test_env_holds_the_values_the_locals_hold_when_asked(monkeypatch):
    """A set! after the closure was made is seen, as in the reference's shared frame."""
    s = session(monkeypatch, True)
    s.run("(define (make k) (let ((f (lambda (x) (+ x k)))) (set! k (* k 10)) f))")
    s.run('(make 1)')
    f = s.run('(make 2)')
    assert f.env.__class__ is support.LazyEnv and support.env_of(f)[2:] == [20]


def test_grad_of_a_closure_compiled_code_made_agrees(monkeypatch):
    want, got = outcomes_both_ways(monkeypatch, MAKER, ['(make 1)'], '(list ((grad (make 3)) 2) ((grad (make 0.5)) 4))')
    assert want[0] == 'value' and want == got


FAILS = ("(define (make k) (let ((j (list k))) (lambda (x) (let ((y (+ x 1))) (car (+ y j))))))"
         " (define (go k xs) (map (make k) xs))"
         " (define (make2 k) (let ((j (list k))) (let ((g (lambda (y) (car (+ y j))))) (lambda (x) (g (+ x 1))))))")


def test_a_closure_failing_shows_its_enclosing_frames_as_the_reference(monkeypatch):
    """Entered from the reference (map), its failure's frame and the frames
    around it are the reference's (outcome compares the backtrace's frames)."""
    want, got = outcomes_both_ways(monkeypatch, FAILS, ["(make 1)"], "(go 7 (list 1 2))")
    assert want[0] == 'error' and want == got


def enclosing_shown(monkeypatch, fast: bool, src: str) -> list:
    """The enclosing variables (,locals) of each frame of src's failure's backtrace."""
    from rusty.errors import RustyError
    from rusty.frames import outer_bindings
    from rusty.printer import write_form
    s = session(monkeypatch, fast)
    s.run(FAILS)
    s.run('(list (make 1) (make 1) (make2 1) (make2 1))')
    try:
        s.run(src)
    except RustyError as e:
        return [[(n, write_form(v)) for n, v in outer_bindings(entry[3])] for entry in e.trace if len(entry) > 3]
    raise AssertionError('no failure')


def test_a_failing_closure_entered_by_run_shows_its_enclosing_variables_as_the_reference(monkeypatch):
    """Called through run (at top level, in a let; or the closure it
    tail-calls directly), its frame's parents are the frames the
    reference's closure would have had."""
    for src in ("((make 7) 1)", "(let ((f (make 7))) (f 1))", "((make2 7) 1)"):
        want = enclosing_shown(monkeypatch, False, src)
        assert any(('k', '7') in shown for shown in want), want
        assert enclosing_shown(monkeypatch, True, src) == want


# Three loops, each tail-calling the one around it: past TAIL_HOPS direct
# tail calls a loop's call is left pending, holding a loop made in the
# outer one, whose function holds the outer loop's cell: the outer loop is
# kept (a release would leave the pending call a cleared variable).
NESTED = ("(define (f n) (let loop1 ((l1 (list n n)) (acc 0))"
          " (if (null? l1) acc (let loop2 ((k n) (acc acc))"
          " (if (= k 0) (loop1 (cdr l1) acc) (let loop3 ((m 2) (acc acc))"
          " (if (= m 0) (loop2 (- k 1) acc) (loop3 (- m 1) (+ acc 1)))))))))")


def test_loops_tail_calling_outer_loops_past_the_hops_agree(monkeypatch):
    from rusty.compile.calls import TAIL_HOPS
    n = 3 * TAIL_HOPS
    want, got = outcomes_both_ways(monkeypatch, NESTED, ['(f 2)'], '(list (f %d) (f 5) (f 0))' % n)
    assert want[0] == 'value' and want == got


# A body's local functions calling each other, one tail-called by the body:
# each freed once that call returned (calls._release_group), also the ones
# only called from the others, not in tail position; quicksort's partition.
GROUP = ("(define (f n) (define (up i) (if (< i n) (up (+ i 1)) i))"
         " (define (down j) (if (> j 0) (down (- j 1)) j))"
         " (define (go i j) (let ((a (up i)) (b (down j))) (if (< a b) (go (+ a 1) (- b 1)) (list a b))))"
         " (go 0 n))")


@pytest.mark.parametrize('program', [NESTED, GROUP], ids=['loops tail-calling outer loops',
                                                            "a body's local functions calling each other"])
def test_loops_and_local_functions_are_freed_without_the_collector(program, monkeypatch):
    s = session(monkeypatch, True)
    s.run(program + " (define (drive k) (when (> k 0) (f 3) (drive (- k 1))))")
    s.run('(drive 2)')
    assert lambdas_left(s, '(drive 40)') == 0


MUTUAL = ("(define (f n) (define (ev? k) (if (= k 0) #t (od? (- k 1))))"
          " (define (od? k) (if (= k 0) #f (ev? (- k 1)))) (list (ev? n) (od? n) (ev? (+ n 1))))")
ESCAPING = ("(define saved #f) (defmacro keep (i) `(begin (set! saved (lambda () (up 1))) ,i))"
            " (define (g n m) (define (up i) (if (< i n) (+ 1 (up (+ i 1))) (m i)))"
            " (define (go i) (up i)) (go 0))")


def test_freed_groups_compute_as_the_reference(monkeypatch):
    from rusty.compile.calls import TAIL_HOPS
    for defs, warm, src in ((GROUP, '(f 3)', '(list (f 0) (f 9) (f 4))'),
                            (MUTUAL, '(f 3)', '(list (f 0) (f 7) (f %d))' % (3 * TAIL_HOPS)),
                            (ESCAPING, '(g 3 -)', '(list (g 3 keep) (saved) (g 2 keep) (saved) (saved))')):
        want, got = outcomes_both_ways(monkeypatch, defs, [warm], src)
        assert want[0] == 'value' and want == got, (defs, want, got)
