"""docs/reference.md §4 Evaluation, deep recursion, at the edges: every depth up to the limit works through
every builtin that calls back into Lisp, past it comes the exact error (never
a signal), running out of memory is the error `out of memory`, and a small
address space (`ulimit -v`) still starts, with the limit lowered and said."""
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from rusty import worker
from rusty.errors import RustyError
from rusty.runtime import Session
from rusty.values import Builtin, sym

REPO = Path(__file__).resolve().parents[1]
LIMIT_MSG = ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
             'rewrite with an accumulator / tail call')

# Recursion through each builtin that calls back: (g n) recurses n levels, each
# level one depth unit spent in the procedure the builtin calls.
THROUGH = {
    'map': '(define (f n) (if (= n 0) (probe) (car (map f (list (- n 1)))))) (define (g n) (f n))',
    'filter': '(define (f n) (if (= n 0) (probe) (car (filter f (list (- n 1)))))) (define (g n) (f n))',
    'for-each': '(define (f n) (if (= n 0) (probe) (begin (for-each f (list (- n 1))) 1))) (define (g n) (f n))',
    'foldl': '(define (f n a) (if (= n 0) (probe) (foldl f 0 (list (- n 1))))) (define (g n) (f n 0))',
    'foldr': '(define (f n a) (if (= n 0) (probe) (foldr f 0 (list (- n 1))))) (define (g n) (f n 0))',
    'apply': '(define (f n) (if (= n 0) (probe) (+ 1 (apply f (list (- n 1)))))) (define (g n) (f n))',
    'sort': '(define (f a b) (if (= a 0) (probe) (car (sort (list 1 (- a 1)) f)))) (define (g n) (f n 1))',
    'tensor-map': '(define (f n) (if (= n 0) (probe) (tensor-ref (tensor-map f (tensor (list (- n 1)))) 0))) '
                  '(define (g n) (f n))',
    'eval': "(define (f n) (if (= n 0) (probe) (+ 1 (eval (list 'f (- n 1)))))) (define (g n) (f n))",
    'try-catch': '(define (f n) (if (= n 0) (probe) (+ 1 (try-catch (f (- n 1)) (e) (error e))))) (define (g n) (f n))',
    'macro': '(defmacro m (x) (list (quote +) 1 x)) (define (f n) (if (= n 0) (probe) (m (f (- n 1))))) '
             '(define (g n) (f n))',
    'plain': '(define (f n) (if (= n 0) (probe) (+ 1 (f (- n 1))))) (define (g n) (f n))',
}


def rusty_proc(args, env=None, input=None, timeout=300, limit_as=None):
    """Run `python3 -m rusty ARGS` as a real process (optionally under ulimit -v)."""
    e = dict(os.environ)
    e['PYTHONPATH'] = str(REPO) + os.pathsep + e.get('PYTHONPATH', '')
    e.pop('RUSTY_RECURSION_LIMIT', None)
    e.update(env or {})

    def cap():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    return subprocess.run([sys.executable] + list(args), input=input, capture_output=True,
                          text=True, env=e, timeout=timeout, cwd=str(REPO), preexec_fn=cap)


def _stack_pointer() -> int:
    """This thread's stack pointer, from the kernel (the read syscall in progress)."""
    with open('/proc/thread-self/syscall') as fh:
        return int(fh.read().split()[-2], 16)


def _can_read_stack_pointer() -> bool:
    try:
        return _stack_pointer() > 0
    except (OSError, ValueError, IndexError):
        return False


# ── The per-level stack the sizing rests on ──────────────────────────────

@pytest.mark.skipif(not _can_read_stack_pointer(), reason='needs /proc/thread-self/syscall')
@pytest.mark.parametrize('name', sorted(THROUGH))
def test_each_callback_builtin_fits_the_per_level_stack(name):
    d, per_level = _stack_per_unit(THROUGH[name])
    assert d == 1000                            # one depth unit per level
    assert per_level < worker.BYTES_PER_LEVEL, (name, per_level)


def _stack_per_unit(program: str) -> tuple:
    """(depth units, stack bytes per unit) between `(g 1)` and `(g 1001)` of
    program, measured where each reaches `(probe)`."""
    samples = []

    def probe():
        samples.append((_stack_pointer(), s.depth.n))
        return 0.0
    s = Session()
    s.genv.define(sym('probe'), Builtin('probe', probe, 0, 0, False, '', '', ()))
    s.run(program, '<test>')
    s.run('(g 1)', '<test>')
    s.run('(g 1001)', '<test>')
    (sp1, d1), (sp2, d2) = samples
    return d2 - d1, (sp1 - sp2) / (d2 - d1)


# The library functions whose loop runs in a host primitive calling back: each
# level is two depth units (f, and the library's lambda calling the primitive).
LIBRARY_THROUGH = {
    'any?': '(define (f n) (if (= n 0) (probe) (begin (any? f (list (- n 1))) 1))) (define (g n) (f n))',
    'all?': '(define (f n) (if (= n 0) (probe) (begin (all? f (list (- n 1))) 1))) (define (g n) (f n))',
    'find': '(define (f n) (if (= n 0) (probe) (begin (find f (list (- n 1))) 1))) (define (g n) (f n))',
    'count': '(define (f n) (if (= n 0) (probe) (+ 1 (count f (list (- n 1)))))) (define (g n) (f n))',
    'take-while': '(define (f n) (if (= n 0) (probe) (begin (take-while f (list (- n 1))) 1))) (define (g n) (f n))',
    'drop-while': '(define (f n) (if (= n 0) (probe) (begin (drop-while f (list (- n 1))) 1))) (define (g n) (f n))',
    'zip-with': '(define (f n m) (if (= n 0) (probe) (begin (zip-with f (list (- n 1)) (list 0)) 1))) '
                '(define (g n) (f n 0))',
}


@pytest.mark.skipif(not _can_read_stack_pointer(), reason='needs /proc/thread-self/syscall')
@pytest.mark.parametrize('name', sorted(LIBRARY_THROUGH))
def test_each_library_callback_fits_the_per_level_stack(name):
    d, per_unit = _stack_per_unit(LIBRARY_THROUGH[name])
    assert d == 2000                            # two depth units per level
    assert per_unit < worker.BYTES_PER_LEVEL, (name, per_unit)


@pytest.mark.parametrize('name', sorted(LIBRARY_THROUGH))
def test_every_library_callback_reaches_the_limit(name):
    limit = 10_000
    src = ('(define (probe) 7) %s (println (g %d)) (println (try-catch (g %d) (e) e)) (g %d)'
           % (LIBRARY_THROUGH[name], limit // 2 - 20, limit // 2 + 1, limit // 2 + 5))
    p = rusty_proc(['-m', 'rusty', '-e', src], env={'RUSTY_RECURSION_LIMIT': str(limit)})
    assert p.returncode == 1, (p.returncode, p.stderr[-500:])
    lines = p.stdout.split('\n')
    assert lines[1:] == [LIMIT_MSG % limit, '']


def test_stack_is_sized_from_the_limit():
    assert worker.stack_for(200_000) >= 200_000 * worker.BYTES_PER_LEVEL
    assert worker.levels_in(worker.stack_for(123_456)) == 123_456


# ── Depth up to the limit works; past it, the exact error ────────────────

@pytest.mark.slow
def test_sort_predicate_recursion_below_the_default_limit():
    # the case that crashed at depth ~199,000 (5.4 KiB of C stack per level)
    src = ('(define (f a b) (if (= a 0) #t (car (sort (list 1 (- a 1)) f)))) '
           '(println (f 199990 1)) (f 200001 1)')
    p = rusty_proc(['-m', 'rusty', '-e', src])
    assert p.returncode == 1, p.stderr[-500:]
    assert p.stdout == '199989\n'
    assert p.stderr.startswith('Error: ' + LIMIT_MSG % 200_000 + '\n')


@pytest.mark.parametrize('name', sorted(THROUGH))
def test_every_callback_builtin_reaches_the_limit(name):
    limit = 10_000
    src = ('(define (probe) 7) %s (println (g %d)) (println (try-catch (g %d) (e) e)) (g %d)'
           % (THROUGH[name], limit - 20, limit + 1, limit + 5))
    p = rusty_proc(['-m', 'rusty', '-e', src], env={'RUSTY_RECURSION_LIMIT': str(limit)})
    assert p.returncode == 1, (p.returncode, p.stderr[-500:])
    lines = p.stdout.split('\n')
    assert lines[1:] == [LIMIT_MSG % limit, '']
    assert lines[0].isdigit()                     # a value (which one depends on the builtin)
    assert p.stderr.startswith('Error: ' + LIMIT_MSG % limit + '\n')
    assert 'internal error' not in p.stderr


# ── Memory ───────────────────────────────────────────────────────────────

def test_gradual_out_of_memory_ends_the_run():
    # Cells only: a list of a billion distinct exact integers can exhaust the allocator's
    # small-object class so completely that CPython 3.11 spins in its exception unwinding
    # (the int of a handler's `lasti` cannot be allocated, and it retries forever).
    p = rusty_proc(['-m', 'rusty', '-e', "(define (grow acc) (grow (cons 0.5 acc))) (grow '())"],
                   limit_as=700_000_000)
    assert p.returncode == 1
    assert 'Error: out of memory\n' in p.stderr
    assert 'Traceback' not in p.stderr and 'Exception' not in p.stderr


def test_session_continues_after_out_of_memory():
    # what the REPL does after an error: the next input runs, definitions kept
    script = (
        'from rusty.runtime import Session\n'
        'from rusty.errors import RustyError\n'
        's = Session()\n'
        's.run("(define kept 41)", "<repl>")\n'
        's.run("(define (big s k) (if (= k 0) s (big (string-append s s) (- k 1))))", "<repl>")\n'
        's.run("(define (grow acc) (grow (cons (string-append (big \\"x\\" 20) \\"y\\") acc)))", "<repl>")\n'
        'try:\n'
        '    s.run("(grow (list))", "<repl>")\n'
        'except RustyError as e:\n'
        '    print(e.message)\n'
        'print(s.run("(+ kept 1)", "<repl>"))\n'
        'print(s.run("(length (iota 100000))", "<repl>"))\n')
    p = rusty_proc(['-c', script], limit_as=700_000_000)
    assert (p.returncode, p.stdout) == (0, 'out of memory\n42\n100000\n'), p.stderr[-800:]


def test_small_address_space_starts_and_bounds_nested_callbacks():
    # under ulimit -v 800000 the 1.6 GiB stack cannot be had: plain recursion
    # (no C stack) still reaches the default limit, and recursion through a
    # builtin's callback ends in the recursion error when the smaller stack is
    # full, instead of a segfault
    src = ('(define (f a b) (if (= a 0) #t (car (sort (list 1 (- a 1)) f)))) '
           '(define (g n) (if (= n 0) 0 (+ 1 (g (- n 1))))) '
           '(println (+ 1 2)) (println (g 199999)) (println (f 10000 1)) (f 100000000 1)')
    p = rusty_proc(['-m', 'rusty', '-e', src], limit_as=800_000 * 1024)
    assert p.returncode == 1, p.stderr[-800:]
    assert p.stdout == '3\n199999\n9999\n'
    first = p.stderr.split('\n')[0]
    assert first.startswith('Error: recursion limit exceeded (depth ')
    depth = int(first.split('(depth ')[1].split(')')[0])
    assert 10_000 < depth < 200_000
    assert first == 'Error: ' + LIMIT_MSG % depth


def test_worker_hands_back_a_rusty_error_when_memory_runs_out():
    w = worker.worker(1000)

    def hog():
        raise MemoryError()
    with pytest.raises(RustyError) as info:
        w.call(hog)
    assert info.value.message == 'out of memory'


def test_a_failed_frame_allocation_reads_as_out_of_memory():
    # CPython 3.11 reports a frame chunk it cannot allocate as this
    # SystemError (no MemoryError set): seen with the fast paths off when a
    # gradual allocation runs the address space out
    from rusty.apply import Depth, located
    from rusty.errors import is_out_of_memory
    from rusty.runtime import top_level_error
    frame_failure = SystemError('error return without exception set')
    assert is_out_of_memory(frame_failure) and is_out_of_memory(MemoryError())
    assert not is_out_of_memory(SystemError('something else'))
    assert top_level_error(frame_failure, Depth(10)).message == 'out of memory'
    assert located(frame_failure, None, Depth(10)).message == 'out of memory'
    assert top_level_error(SystemError('other'), Depth(10)).message.startswith('internal error: SystemError')


# ── Room for the heap under an address-space limit ───────────────────────

MIB = 1 << 20


def test_an_unlimited_address_space_gets_the_whole_stack():
    want = worker.stack_for(200_000)
    plenty = want + worker.HEAP_BASE + 200_000 * worker.HEAP_PER_LEVEL
    assert worker.stack_within(want, 200_000, left=plenty) == want
    assert worker.stack_within(want, 200_000, left=10 * plenty) == want
    if resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY:
        assert worker.address_space_left() is None
        assert worker.stack_within(want, 200_000) == want


def test_a_limited_stack_leaves_the_heap_room_for_the_limit():
    # 800,000 KiB less the ~19 MiB a fresh process has mapped: the stack
    # takes only what the heap of 200,000 plain levels does not need, and
    # still holds well over 10,000 nested callbacks
    want = worker.stack_for(200_000)
    left = 800_000 * 1024 - 19 * MIB
    stack = worker.stack_within(want, 200_000, left=left)
    assert stack + worker.HEAP_BASE + 200_000 * worker.HEAP_PER_LEVEL == left
    assert 10_000 < worker.levels_in(stack) < 200_000
    # a smaller limit asks for less heap, so gets more of the stack
    assert worker.stack_within(worker.stack_for(20_000), 20_000, left=left) == worker.stack_for(20_000)


def test_a_tiny_address_space_still_gets_a_floor_of_nested_callbacks():
    want = worker.stack_for(200_000)
    floor = worker.stack_for(worker.FLOOR_LEVELS)
    assert worker.stack_within(want, 200_000, left=100 * MIB) == floor
    assert worker.stack_within(want, 200_000, left=-5) == floor
    assert worker.stack_within(16 * MIB, 200_000, left=100 * MIB) == 16 * MIB   # never more than asked


def test_address_space_left_reads_the_limit():
    code = ('import resource\n'
            'resource.setrlimit(resource.RLIMIT_AS, (900 * 2**20, resource.RLIM_INFINITY))\n'
            'from rusty import worker\n'
            'print(worker.address_space_left())\n')
    p = rusty_proc(['-c', code])
    assert p.returncode == 0, p.stderr
    left = int(p.stdout)
    assert 500 * MIB < left < 900 * MIB        # the limit less what the process has mapped


# The heap one level of plain recursion takes (its Python frames, the Lisp
# frame, the argument list and numbers), measured as address space: the
# sizing above reserves HEAP_PER_LEVEL for each level up to the limit.
HEAP_PROBE = '''
import sys
from rusty.runtime import Session
from rusty.values import Builtin, sym
samples = []
def probe():
    with open('/proc/self/status') as fh:
        samples.append(int(next(l for l in fh if l.startswith('VmSize:')).split()[1]) << 10)
    return 0.0
s = Session()
s.genv.define(sym('probe'), Builtin('probe', probe, 0, 0, False, '', '', ()))
s.run(sys.argv[1], '<test>')
s.run('(g 1)', '<test>')
s.run('(g 50001)', '<test>')
print((samples[1] - samples[0]) // 50000)
'''


@pytest.mark.skipif(not os.path.exists('/proc/self/status'), reason='needs /proc/self/status')
@pytest.mark.parametrize('specialize', ['0', '1'])
def test_plain_recursion_fits_the_heap_reserved_per_level(specialize):
    p = rusty_proc(['-c', HEAP_PROBE, THROUGH['plain']], env={'RUSTY_SPECIALIZE': specialize})
    assert p.returncode == 0, p.stderr[-800:]
    per_level = int(p.stdout)
    assert 0 < per_level < worker.HEAP_PER_LEVEL, per_level


@pytest.mark.parametrize('limit_kib', [800_000, 1_200_000, 2_000_000])
def test_plain_recursion_reaches_the_default_depth_under_a_limit_with_the_fast_paths_off(limit_kib):
    # the evaluator without fast paths takes ~1.8 KiB of heap per level: a
    # stack that took all (2 GB) or half (1.2 GB, 800 MB) of what the limit
    # allowed ran it out of memory short of 200,000 levels
    src = '(define (g n) (if (= n 0) 0 (+ 1 (g (- n 1))))) (println (g 199999)) (g 200001)'
    p = rusty_proc(['-m', 'rusty', '-e', src], env={'RUSTY_SPECIALIZE': '0'}, limit_as=limit_kib * 1024)
    assert p.returncode == 1, p.stderr[-800:]
    assert p.stdout == '199999\n'
    assert p.stderr.startswith('Error: ' + LIMIT_MSG % 200_000 + '\n'), p.stderr[-800:]
