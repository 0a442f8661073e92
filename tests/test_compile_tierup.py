"""The tier-up (rusty/compile/tierup.py): when a lambda leaves the reference
for compiled code. Time is the test's own: a clock only `(spend S)` moves, so
nothing here depends on how fast the machine is."""
import shutil

from rusty.compile import link, tierup
from rusty.compile.entry import Entry, direct_of
from rusty.reader import read
from rusty.runtime import Session
from rusty.values import Builtin, sym


def timed_session(monkeypatch, budget, sample=4, reads=None, cache=None, bank=0.0, call=0.0):
    """A session tiering up by time on the test's clock, where every lambda
    must spend `budget` seconds on the reference to be compiled (looked up
    in the disk cache `cache` first, if given; `reads`: counts the clock's readings;
    `bank`: the allowance for compiling ahead of that, tierup.BANK, none by default; `call`: what
    the generic path of a warm call costs, tierup.CALL, nothing by default)."""
    monkeypatch.delenv('RUSTY_COMPILE_CALLS', raising=False)
    monkeypatch.delenv('RUSTY_SPECIALIZE', raising=False)
    monkeypatch.setenv('RUSTY_CODE_CACHE', '1' if cache else '0')
    if cache:
        monkeypatch.setenv('RUSTY_CACHE_DIR', str(cache))
    now = [0.0]

    def clock():
        if reads is not None:
            reads.append(1)
        return now[0]
    monkeypatch.setattr(tierup, 'CLOCK', clock)
    monkeypatch.setattr(tierup, 'CPU', lambda: now[0])
    monkeypatch.setattr(tierup, 'elsewhere', lambda: 0.0)     # (compiles take real time: not this clock's)
    monkeypatch.setattr(tierup, 'SAMPLE', sample)
    monkeypatch.setattr(tierup, 'ELAPSED', lambda: now[0])
    monkeypatch.setattr(tierup, 'BANK', bank)
    monkeypatch.setattr(tierup, 'CALL', call)
    monkeypatch.setattr(link, 'STATS', link.Stats())
    monkeypatch.setattr(link, 'PAYBACK', 1.0)
    monkeypatch.setattr(link, 'size', lambda body: 1.0)
    monkeypatch.setattr(link, 'PER_FORM', budget)
    monkeypatch.setattr(link, 'PER_FORM_LOADED', budget / 10)
    s = Session()

    def spend(seconds):
        now[0] += seconds
        return seconds
    s.genv.define(sym('spend'), Builtin('spend', spend, 1, 1))
    return s


def compiled(s, name) -> bool:
    return isinstance(s.genv.lookup(sym(name)).code, Entry)


def test_a_lambda_is_compiled_once_its_time_pays_for_compiling_it(monkeypatch):
    s = timed_session(monkeypatch, budget=0.1)
    s.run('(define (f) (spend 0.001))')
    for _ in range(60):             # 60 ms on the reference: compiling (100 ms) does not pay yet
        s.run('(f)')
    assert link.STATS.compiled == 0 and not compiled(s, 'f')
    for _ in range(140):            # 200 ms: it pays
        s.run('(f)')
    assert link.STATS.compiled == 1 and compiled(s, 'f')


def test_a_warm_call_by_compiled_code_counts_what_its_generic_path_costs(monkeypatch):
    # f runs 0.1 ms a call; called by compiled code the reference's way (support.call_any), its generic
    # path costs 0.1 ms more (CALL), which a compiled f's direct call skips: 60 calls (12 ms) pay for
    # compiling it (10 ms). Called by the reference, or with no CALL, 60 (6 ms) do not.
    from rusty.compile import support
    for call, compiled_caller, paid in ((0.0001, True, True), (0.0001, False, False), (0.0, True, False)):
        s = timed_session(monkeypatch, budget=0.01, call=call)
        s.run('(define (f) (spend 0.0001))')
        f = s.genv.lookup(sym('f'))
        for _ in range(60):
            if compiled_caller:
                support.call_any(s.genv.lookup(sym('f')), [], None, False, s.depth.n, s.depth)
            else:
                s.run('(f)')
        assert compiled(s, 'f') is paid and f is s.genv.lookup(sym('f'))


def test_within_the_allowance_a_lambda_is_compiled_once_it_has_run_a_little(monkeypatch):
    # compiling costs 10 ms, the allowance 15 ms: after EVIDENCE (2 ms) on the reference, not 10 ms (16 calls: 8 ms)
    s = timed_session(monkeypatch, budget=0.01, bank=0.015)
    s.run('(define (f) (spend 0.0005)) (define (g) (spend 0.0005)) (define (h) (spend 0.0005))')
    for _ in range(16):
        s.run('(f)')
    assert compiled(s, 'f')
    link.STATS.saved = 0.014            # (code loaded from the cache that took that much to compile: spent)
    for _ in range(8):
        s.run('(g)')
    assert not compiled(s, 'g')
    for _ in range(40):                 # 20 ms: it pays for itself
        s.run('(g)')
    assert compiled(s, 'g')


def test_the_allowance_grows_with_the_time_the_program_has_run(monkeypatch):
    s = timed_session(monkeypatch, budget=0.01, bank=0.0)
    s.run('(define (f) (spend 0.0005)) (define (g) (spend 0.0005)) (define (slow) (spend 1.0))')
    for _ in range(16):
        s.run('(f)')
    assert not compiled(s, 'f')         # no allowance yet: 8 ms do not pay for 10 ms
    s.run('(slow)')                     # a second run: SHARE of it may go to compiling ahead
    for _ in range(16):
        s.run('(g)')
    assert compiled(s, 'g')


def test_the_time_counted_is_the_lambdas_own(monkeypatch):
    # caller spends 2 ms of its own in 200 calls, and 400 ms in the calls of leaf it makes.
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (leaf) (spend 0.001)) (define (caller) (spend 0.00001) (leaf) (leaf) 0)')
    for _ in range(200):
        s.run('(caller)')
    assert compiled(s, 'leaf') and not compiled(s, 'caller')


def test_the_calls_of_a_loop_are_sampled_at_every_place(monkeypatch):
    # A loop calling f then g, both hot: samples at a fixed interval could see only one of them.
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (f) (spend 0.001)) (define (g) (spend 0.001))')
    s.run('(let loop ((i 0)) (if (< i 300) (begin (f) (g) (loop (+ i 1))) i))')
    assert compiled(s, 'f') and compiled(s, 'g')


def test_the_warm_up_reads_the_clock_for_a_few_calls_only(monkeypatch):
    # Between samples a warm call runs the reference's body and reads no clock.
    reads = []
    s = timed_session(monkeypatch, budget=1000.0, sample=64, reads=reads)
    s.run('(define (f x) (spend 0.000001) x)')
    s.run('(let loop ((i 0)) (if (< i 3000) (loop (+ (f i) 1)) i))')
    assert link.STATS.compiled == 0
    assert len(reads) < 3000 // 10, len(reads)


def test_a_sample_times_a_few_of_the_calls_it_makes_and_extrapolates(monkeypatch):
    # run makes 1000 warm calls of f at each call: its own time is its share of what it saw.
    s = timed_session(monkeypatch, budget=0.5, sample=2)
    s.run('(define (f) (spend 0.001)) '
          '(define (run n) (spend 0.0001) (do ((i 0 (+ i 1))) ((= i n) n) (f) (spend 0.0001)))')
    s.run('(run 1000)')
    assert not compiled(s, 'run')   # its own 100 ms, and 1 s in f


def test_a_second_run_loads_what_the_first_compiled_and_compiles_nothing(monkeypatch, tmp_path):
    # caller's own time (15 ms) never pays: not even once hot, which it calls, runs compiled
    # (loaded from the cache from its first calls in the second run, compiled late in the first).
    program = ('(define (hot) (spend 0.001)) (define (caller) (spend 0.00005) (hot) 0) '
               '(let loop ((i 0)) (if (< i 300) (begin (caller) (loop (+ i 1))) i))')
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run(program)
    assert (link.STATS.compiled, link.STATS.loaded) == (1, 0)
    second = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    second.run(program)
    assert (link.STATS.compiled, link.STATS.loaded) == (0, 1)
    assert compiled(second, 'hot') and not compiled(second, 'caller')


def test_after_a_number_of_calls_every_call_counts(monkeypatch):
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '3')
    monkeypatch.delenv('RUSTY_SPECIALIZE', raising=False)
    s = Session()
    s.run('(define (f a) (+ a 1))')
    for i in range(3):
        assert s.run('(f %d)' % i) == i + 1 and not compiled(s, 'f')
    assert s.run('(f 3)') == 4 and compiled(s, 'f')


def test_the_compile_cost_estimate_starts_from_the_prior_and_learns():
    st = link.Stats()
    assert st.per_form() == link.PER_FORM and st.per_form_loaded() == link.PER_FORM_LOADED
    st.cost, st.forms = 1.0, link.PRIOR_FORMS           # measured: as many forms as the prior weighs
    st.seconds = 3.0                                    # (by the clock, on a busy machine: not the cost)
    assert abs(st.per_form() - (1.0 / link.PRIOR_FORMS + link.PER_FORM) / 2) < 1e-15
    st.cost, st.forms = 0.0, 0
    st.saved, st.saved_forms = 1.0, 100 * link.PRIOR_FORMS    # (from the disk cache's entries)
    assert abs(st.per_form() - 1.0 / (100 * link.PRIOR_FORMS)) < link.PER_FORM / 50


def test_the_size_of_a_body_is_a_fixed_part_and_one_per_form():
    # (measured: compiling grows as the body does; a large body weighed more was never compiled)
    def body(n):
        return read('(' + ' '.join(['(f)'] * n) + ')', '<t>').car
    sizes = [link.size(body(n)) for n in (1, 1000, 3000, 5000)]
    assert sizes[0] == link.MIN_FORMS + 3
    assert sizes[1:] == [link.MIN_FORMS + 2 * n + 1 for n in (1000, 3000, 5000)]


def test_a_value_made_once_its_lambda_is_compiled_is_linked_as_it_is_made(monkeypatch):
    # Linking a value costs about what making a Python function does (link.Linker): a closure the
    # reference makes once its lambda is compiled runs compiled from its first call, even called once.
    # (adder costs too much to compile, its closures' time counted: compiled, it would make them compiled)
    s = timed_session(monkeypatch, budget=0.02)
    monkeypatch.setattr(link, 'size', lambda body: 1e6 if sym('huge') in list(body) else 1.0)
    s.run('(define huge 0) (define (adder n) huge (lambda (x) (spend 0.001) (+ x n)))')
    s.run('(let loop ((i 0)) (if (< i 200) (begin ((adder i) i) ((adder i) i) (loop (+ i 1))) i))')
    assert link.STATS.compiled == 1 and not compiled(s, 'adder')     # (the maker stays on the reference)
    s.run('(define once (adder 1)) (define often (adder 2))')
    assert compiled(s, 'once') and compiled(s, 'often')
    assert s.run('(once 1)') == 2 and s.run('(often 1)') == 3


def test_the_values_of_a_lambda_share_its_globals_and_watchers(monkeypatch):
    # One maker, one set of globals and one watcher of each cell per compiled lambda, not per value.
    s = timed_session(monkeypatch, budget=0.02)
    monkeypatch.setattr(link, 'size', lambda body: 1e6 if sym('huge') in list(body) else 1.0)
    s.run('(define huge 0) (define (g x) x) (define (adder n) huge (lambda (x) (spend 0.001) (g (+ x n))))')
    s.run('(let loop ((i 0)) (if (< i 200) (begin ((adder i) i) (loop (+ i 1))) i))')
    assert link.STATS.compiled == 1
    s.run('(define a (adder 1)) (define b (adder 2))')
    fa, fb = direct_of(s.genv.lookup(sym('a'))), direct_of(s.genv.lookup(sym('b')))
    assert fa is not fb and fa.__code__ is fb.__code__ and fa.__globals__ is fb.__globals__
    plus, g = s.genv.cell(sym('+')), s.genv.cell(sym('g'))
    before = len(plus.watch or ()), len(g.watch or ())
    assert before >= (1, 1)         # (OK assumes `+` is the builtin; `g` called: a Deopt)
    s.run('(define fs (map adder (iota 100)))')
    assert (len(plus.watch or ()), len(g.watch or ())) == before
    assert s.run('(a 1)') == 2 and s.run('(b 1)') == 3 and s.run('((car (cdr fs)) 1)') == 2


def test_a_loop_made_at_each_call_is_linked_as_it_is_made_once_compiled(monkeypatch):
    # A named let's values (one per call of count-to, on the reference) are linked as they are
    # made (waiting for a sample, one in 64 calls, would leave most on the reference).
    # (count-to costs too much to compile, its loops' time counted: compiled, it would make them compiled)
    s = timed_session(monkeypatch, budget=0.02, sample=64)
    monkeypatch.setattr(link, 'size', lambda body: 1e6 if sym('huge') in list(body) else 1.0)
    s.run('(define huge 0) (define (count-to n) huge (let loop ((i 0)) (spend 0.0001) (if (< i n) (loop (+ i 1)) i)))')
    for _ in range(100):
        assert s.run('(count-to 20)') == 20
    assert link.STATS.compiled == 1
    linked = []
    real = link.link
    monkeypatch.setattr(link, 'link', lambda *a, **k: linked.append(1) or real(*a, **k))
    for n in range(1, 6):
        assert s.run('(count-to 20)') == 20 and len(linked) == n


def test_the_values_made_while_a_lambda_warms_past_a_few_share_one_code(monkeypatch):
    # A function per value warming is an allocation per value and a cycle (value, its code) the
    # collector must free: past tierup.FEW values, they share the lambda's one; they still count.
    s = timed_session(monkeypatch, budget=0.05)
    monkeypatch.setattr(link, 'size', lambda body: 1e6 if sym('huge') in list(body) else 1.0)
    s.run('(define huge 0) (define (adder n) huge (lambda (x) (spend 0.0001) (+ x n)))')
    s.run('(define fs (map adder (iota 40)))')
    codes = [v.code for v in s.run('fs')]
    assert len(set(map(id, codes[:tierup.FEW]))) == tierup.FEW and len(set(map(id, codes[tierup.FEW:]))) == 1
    s.run('(define (all k) (if (> k 0) (begin (for-each (lambda (f) (f 1)) fs) (all (- k 1))) k))')
    assert s.run('(all 100)') == 0 and s.run('((car (cdr fs)) 1)') == 2     # (400 ms on the reference: it pays)
    assert link.STATS.compiled == 1
    s.run('(define k (adder 5))')
    assert compiled(s, 'k') and s.run('(k 1)') == 6


def test_a_maker_called_often_counts_the_time_of_the_closures_it_makes(monkeypatch):
    # adder's own time is next to nothing, its closures' (each called once) 200 ms: compiling
    # adder pays, and the closures it makes from then on are born compiled (no link per value).
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (adder n) (lambda (x) (spend 0.001) (+ x n)))')
    s.run('(let loop ((i 0)) (if (< i 200) (begin ((adder i) i) (loop (+ i 1))) i))')
    assert compiled(s, 'adder')
    s.run('(define k (adder 5))')
    assert compiled(s, 'k') and s.run('(k 1)') == 6


def test_a_maker_not_much_larger_than_the_hot_loop_it_makes_is_compiled_instead(monkeypatch):
    # count-to's loop is hot first (its time is count-to's too): count-to, as large, is compiled in
    # its stead and makes its loops compiled; the loop's forms are lowered once, not twice.
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (count-to n) (let loop ((i 0)) (spend 0.0001) (if (< i n) (loop (+ i 1)) i)))')
    for _ in range(40):
        assert s.run('(count-to 20)') == 20
    assert link.STATS.compiled == 1 and compiled(s, 'count-to')


def test_a_maker_much_larger_than_the_hot_loop_it_makes_is_not_compiled_for_it(monkeypatch):
    s = timed_session(monkeypatch, budget=0.02)
    monkeypatch.setattr(link, 'size', lambda body: 3.0 if sym('big') in list(body) else 1.0)
    s.run('(define big 0) (define (count-to n) big (let loop ((i 0)) (spend 0.0001) (if (< i n) (loop (+ i 1)) i)))')
    for _ in range(20):
        assert s.run('(count-to 20)') == 20
    assert link.STATS.compiled == 1 and not compiled(s, 'count-to')


def test_a_maker_called_once_is_not_charged_for_its_loop(monkeypatch):
    # once's loop is one value, called 200 times: it is compiled, once (its own time nil) is not.
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (once) (let loop ((i 0)) (spend 0.001) (if (< i 200) (loop (+ i 1)) i)))')
    assert s.run('(once)') == 200
    assert link.STATS.compiled == 1 and not compiled(s, 'once')


def test_a_maker_called_again_after_its_loop_was_compiled_alone_is_compiled_then(monkeypatch):
    # again's loop is hot in again's first call and compiled alone (again is not charged yet);
    # again's second call makes a second loop value: the loop's time is again's too, and again,
    # as large, is compiled then (called rarely, it would reach no sample of its own).
    s = timed_session(monkeypatch, budget=0.02)
    s.run('(define (again) (let loop ((i 0)) (spend 0.001) (if (< i 40) (loop (+ i 1)) i)))')
    assert s.run('(again)') == 40
    assert link.STATS.compiled == 1 and not compiled(s, 'again')
    assert s.run('(again)') == 40
    assert link.STATS.compiled == 2 and compiled(s, 'again')
    assert s.run('(again)') == 40 and link.STATS.compiled == 2


def test_a_maker_larger_than_its_loop_is_charged_at_each_call_until_it_is_compiled(monkeypatch):
    # (sizes as measured: again's body is larger than its loop's) The loop is compiled alone in
    # again's first call; each later call makes a loop value and charges again with the loop's
    # time so far (it runs as long each call), so again is compiled once two charges reach its
    # budget; with one charge only it stayed on the reference, its loop reading its locals there.
    real = link.size
    s = timed_session(monkeypatch, budget=0.0004)
    monkeypatch.setattr(link, 'size', real)
    s.run('(define (again) (let ((a 1) (b 2) (c (* 2 3)) (d (+ 4 5)) (e (- 9 1)))'
          ' (let loop ((i 0)) (spend 0.001) (if (< i 40) (loop (+ i a)) (+ i b c d e)))))')
    assert s.run('(again)') == 65
    assert link.STATS.compiled == 1 and not compiled(s, 'again')
    assert s.run('(again)') == 65 and not compiled(s, 'again')
    assert s.run('(again)') == 65
    assert link.STATS.compiled == 2 and compiled(s, 'again')


def test_a_second_run_compiles_nothing_on_evidence_the_first_found_marginal(monkeypatch, tmp_path):
    # The first run looks f up (it ran long enough to pay for a load) and leaves it on the
    # reference; a second run with a little more time in f than compiling costs (a busy machine,
    # another sample) leaves it there too, until f has spent MARGIN times its budget.
    program = '(define (f) (spend 0.001)) (define (run n) (do ((i 0 (+ i 1))) ((= i n) n) (f)))'
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run(program + ' (run 30)')
    assert (link.STATS.compiled, link.STATS.loaded) == (0, 0)
    second = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    second.run(program + ' (run 80)')
    assert link.STATS.compiled == 0 and not compiled(second, 'f')
    second.run('(run 270)')             # 350 ms in all: more than MARGIN (6) times 50 ms
    assert link.STATS.compiled == 1 and compiled(second, 'f')
    fresh = timed_session(monkeypatch, budget=0.05, cache=tmp_path / 'other')
    fresh.run(program + ' (run 80)')    # (no earlier run: 80 ms pay for it)
    assert link.STATS.compiled == 1 and compiled(fresh, 'f')


def test_a_run_that_loaded_code_compiles_what_the_cache_misses_only_on_firm_evidence(monkeypatch, tmp_path):
    # The first run compiles h and never calls g; a second run loads h, and g (which the first
    # never looked up: its samples there may have said little) needs MARGIN times its budget.
    program = '(define (h) (spend 0.001)) (define (g) (spend 0.001)) (define (run f n) (do ((i 0 (+ i 1))) ((= i n) n) (f)))'
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run(program + ' (run h 80)')
    assert link.STATS.compiled == 1 and compiled(first, 'h')
    second = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    second.run(program + ' (run h 20) (run g 80)')
    assert link.STATS.loaded == 1 and link.STATS.compiled == 0 and not compiled(second, 'g')
    second.run('(run g 230)')           # 310 ms in all: more than MARGIN (6) times 50 ms
    assert link.STATS.compiled == 1 and compiled(second, 'g')


def test_a_second_run_of_a_script_doubts_what_the_cache_misses_from_its_start(monkeypatch, tmp_path):
    # The script's first run compiles h (g is not called: n-g is 0); its second run calls g first,
    # before anything is loaded: as the same script's second run (its file's name and text, the
    # prelude's '<…>' name aside: codecache.ran_before) it needs MARGIN times g's budget, as a run
    # that loaded code does. The same evidence compiles g with the same cache but no record of
    # the earlier run.
    script = ('(define (g) (spend 0.001)) (define (h) (spend 0.001)) '
              '(define (run f n) (do ((i 0 (+ i 1))) ((= i n) n) (f))) (run g n-g) (run h 80)')
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run('(define n-g 0)', '<prelude>')
    first.run(script, 'script.lisp')
    assert link.STATS.compiled == 1 and compiled(first, 'h')
    unmarked = tmp_path.parent / (tmp_path.name + '-unmarked')     # (the same cache, no record of the run)
    shutil.copytree(tmp_path, unmarked)
    runs = [p for p in unmarked.rglob('code-run-*')]
    assert len(runs) == 1
    runs[0].unlink()
    second = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    second.run('(define n-g 80)', '<prelude>')
    second.run(script, 'script.lisp')
    assert link.STATS.loaded == 1 and link.STATS.compiled == 0 and not compiled(second, 'g')
    other = timed_session(monkeypatch, budget=0.05, cache=unmarked)
    other.run('(define n-g 80)', '<prelude>')
    other.run(script, 'script.lisp')
    assert link.STATS.compiled == 1 and compiled(other, 'g')


def test_a_second_run_compiles_no_loop_on_evidence_the_first_found_marginal(monkeypatch, tmp_path):
    # osr.py's `do` loops as the lambdas above: looked up (10 ms) and left on the reference (60 ms
    # of 100) by the first run, a second with 150 ms leaves it there; a run with no earlier one compiles it.
    from rusty.compile import osr

    def session(cache):
        s = timed_session(monkeypatch, budget=0.1, cache=cache)
        monkeypatch.setattr(osr, 'perf_counter', tierup.CLOCK)
        return s
    loop = '(do ((i 0 (+ i 1))) ((= i n) i) (spend 0.001))'
    first = session(tmp_path)
    assert first.run('(define n 60) ' + loop) == 60
    assert link.STATS.loops == 0
    second = session(tmp_path)
    assert second.run('(define n 150) ' + loop) == 150
    assert link.STATS.loops == 0
    fresh = session(tmp_path / 'other')
    assert fresh.run('(define n 150) ' + loop) == 150
    assert link.STATS.loops == 1


def test_a_loop_is_not_charged_for_the_compiles_and_collections_in_its_iterations(monkeypatch, tmp_path):
    # osr.py's `do` loop: 60 ms of its own and 100 ms compiling (or collecting garbage) in its
    # iterations (tierup.elsewhere) do not pay for a 100 ms compile; 150 ms of its own do.
    from rusty.compile import osr
    s = timed_session(monkeypatch, budget=0.1)
    monkeypatch.setattr(osr, 'perf_counter', tierup.CLOCK)
    away = [0.0]
    monkeypatch.setattr(tierup, 'elsewhere', lambda: away[0])

    def compiling(seconds):
        away[0] += seconds
        return s.genv.lookup(sym('spend')).fn(seconds)
    s.genv.define(sym('compiling'), Builtin('compiling', compiling, 1, 1))
    s.run('(define (run n) (do ((i 0 (+ i 1))) ((= i n) i) (spend 0.001) (when (= i 30) (compiling 0.1))))')
    assert s.run('(run 60)') == 60 and link.STATS.loops == 0
    assert s.run('(run 150)') == 150 and link.STATS.loops == 1


def test_within_the_allowance_a_maker_takes_over_its_hot_loop_on_the_same_evidence(monkeypatch):
    # Compiling costs 100 ms, the allowance 1 s: count-to's loop (0.4 ms a call), hot after EVIDENCE (2 ms), has
    # count-to (as large, as hot: its loop's time is its own too) compiled in its stead, not
    # alone first and again inside count-to once count-to has spent half of 100 ms.
    s = timed_session(monkeypatch, budget=0.1, bank=1.0)
    s.run('(define (count-to n) (let loop ((i 0)) (spend 0.00002) (if (< i n) (loop (+ i 1)) i)))')
    for _ in range(40):
        assert s.run('(count-to 20)') == 20
    assert link.STATS.compiled == 1 and compiled(s, 'count-to')


def test_a_maker_an_earlier_run_left_on_the_reference_takes_over_only_on_its_full_evidence(monkeypatch, tmp_path):
    # The first run looks count-to up (9 ms: over the 5 ms a load costs) and leaves it on the
    # reference; its loop (4 ms) is not looked up. In a second run the loop, hot (50 ms), asks
    # count-to to take over: count-to has spent more than half of MARGIN (3) times its budget,
    # not all of it: it stays on the reference, as a doubted lambda does (never ahead of it).
    program = ('(define (count-to n) (spend 0.0005) (let loop ((i 0)) (spend 0.00002) (if (< i n) (loop (+ i 1)) i)))'
               ' (define (run k) (do ((j 0 (+ j 1))) ((= j k) j) (count-to 20)))')
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run(program + ' (run 10)')
    assert link.STATS.compiled == 0
    second = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    second.run(program + ' (run 130)')
    assert not compiled(second, 'count-to')


def do_session(monkeypatch, sample=10 ** 6, cache=None):
    """timed_session, compiling costing 10 ms, where a lambda gets no sample but its first call
    (its evidence beyond that can only come from a `do` loop of its body), and osr.py reads the clock."""
    from rusty.compile import osr
    s = timed_session(monkeypatch, budget=0.01, sample=sample, cache=cache)
    monkeypatch.setattr(osr, 'perf_counter', tierup.CLOCK)
    s.run('(define (f n) (do ((i 0 (+ i 1))) ((= i n) i) (spend 0.0001)))')
    return s


def test_a_loop_hot_over_many_short_runs_has_its_lambda_compiled_in_its_stead(monkeypatch):
    # f's loop runs 2 ms a call: hot (10 ms) over several calls, none of which ran long: f (as large,
    # and the loop's time is its own) is compiled instead, its loop inside it; the loop is not compiled
    # alone first and again inside f later. The call running then ends on the reference.
    s = do_session(monkeypatch)
    for _ in range(6):
        assert s.run('(f 20)') == 20
    assert link.STATS.loops == 0 and link.STATS.compiled == 1 and compiled(s, 'f')


def test_a_loop_hot_within_one_run_is_compiled_mid_run(monkeypatch):
    # One call of f whose loop alone runs 20 ms: the loop switches to compiled code mid-run (its lambda,
    # called once, may never be called again).
    s = do_session(monkeypatch)
    assert s.run('(f 200)') == 200
    assert link.STATS.loops == 1 and link.STATS.compiled == 0 and not compiled(s, 'f')


def test_a_loop_hot_over_many_runs_in_one_call_has_no_lambda_compiled(monkeypatch):
    # g, called once, runs its inner loop (2 ms a run) from an outer one: hot over many short runs, all
    # in the one call of g still running, which compiling g would not speed up: the loops are compiled.
    s = do_session(monkeypatch)
    s.run('(define (g k) (do ((j 0 (+ j 1))) ((= j k) j) (do ((i 0 (+ i 1))) ((= i 20) i) (spend 0.0001))))')
    assert s.run('(g 12)') == 12
    assert link.STATS.compiled == 0 and link.STATS.loops >= 1 and not compiled(s, 'g')


def test_a_loop_in_a_much_larger_lambda_is_compiled_alone(monkeypatch):
    # g is over TAKEOVER times as large as its loop: the loop hot over many short runs is compiled alone.
    monkeypatch.setattr(tierup, 'TAKEOVER', 0.5)
    s = do_session(monkeypatch)
    for _ in range(8):
        assert s.run('(f 20)') == 20
    assert link.STATS.loops == 1 and link.STATS.compiled == 0 and not compiled(s, 'f')


def test_a_second_run_loads_the_lambda_a_loop_had_compiled_and_compiles_nothing(monkeypatch, tmp_path):
    first = do_session(monkeypatch, cache=tmp_path)
    for _ in range(8):
        first.run('(f 20)')
    assert link.STATS.compiled == 1 and link.STATS.loops == 0
    second = do_session(monkeypatch, cache=tmp_path)
    for _ in range(8):
        assert second.run('(f 20)') == 20
    assert link.STATS.compiled == 0 and link.STATS.loops == 0 and link.STATS.loaded == 1 and compiled(second, 'f')
