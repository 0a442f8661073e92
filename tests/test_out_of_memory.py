"""Running out of memory loses nothing: under `ulimit -v` a program that fills
memory (and keeps it, in a global) ends with `Error: out of memory`, never a
host traceback or a dead evaluation thread; the REPL goes on with every
definition, and can fill memory and recover again. Real processes: the limit
is the process's."""
import os
import resource
import subprocess
import sys

import pexpect

import pytest

from rusty import apply, errors

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 700_000 * 1024          # bytes of address space (ulimit -v 700000)
FILL = '(let loop ((i 0)) (hash-set! h i (list i i)) (loop (+ i 1)))'


def _cap():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, resource.RLIM_INFINITY))


def _env(tmp_path):
    e = dict(os.environ)
    e['PYTHONPATH'] = REPO + os.pathsep + e.get('PYTHONPATH', '')
    e.update(HOME=str(tmp_path), NO_COLOR='1', PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color')
    return e


def batch(tmp_path, program):
    return subprocess.run([sys.executable, '-m', 'rusty', '-e', program], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=90, cwd=REPO, preexec_fn=_cap)


def test_a_global_that_fills_memory_ends_with_the_error(tmp_path):
    r = batch(tmp_path, '(define h (make-hash)) ' + FILL)
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith('Error: out of memory\n'), r.stderr
    assert 'Traceback' not in r.stderr and 'internal error' not in r.stderr
    assert 'Exception ignored' not in r.stderr


def test_try_catch_binds_out_of_memory_and_the_program_goes_on(tmp_path):
    r = batch(tmp_path, '(define h (make-hash)) (define m (try-catch %s (e) e)) '
                        '(set! h #f) (list m (+ 1 2))' % FILL)
    assert r.returncode == 0, r.stderr
    assert r.stdout == '(out of memory 3)\n'    # batch prints the display form


def test_the_repl_keeps_its_definitions_through_two_fills(tmp_path):
    child = pexpect.spawn(sys.executable, ['-m', 'rusty'], env=_env(tmp_path), cwd=REPO, encoding='utf-8',
                          timeout=90, dimensions=(40, 120), preexec_fn=_cap)
    try:
        child.expect('rusty>')
        for line in ['(define (sq x) (* x x))', '(define h (make-hash))']:
            child.send(line + '\r')
            child.expect('rusty>')
        for round_ in (1, 2):
            child.send(FILL + '\r')
            child.expect('Error: out of memory')
            child.expect('rusty>')
            child.send('(sq %d)\r' % (6 + round_))
            child.expect('=> %d' % (6 + round_) ** 2)
            child.expect('rusty>')
            child.send('(> (hash-count h) 1000)\r')     # the global kept what it held
            child.expect('=> #t')
            child.expect('rusty>')
            child.send('(define h (make-hash))\r')      # let it go: the next fill starts afresh
            child.expect('rusty>')
        child.send('(sq 12)\r')
        child.expect('=> 144')
        before = child.before
        assert 'internal error' not in before and 'Traceback' not in before
    finally:
        child.sendeof()
        child.close(force=True)



class _Failing:
    """A procedure whose body runs out of memory."""
    name = 'f'

    @staticmethod
    def code(fr):
        raise MemoryError


def test_the_run_loop_gives_back_the_reserve_when_memory_runs_out():
    # CPython 3.11 allocates while leaving an except block by re-raising and
    # retries forever when it cannot, so the first handler frees the reserve.
    errors.hold_reserve()
    assert errors.RESERVE[1] is not None
    with pytest.raises(MemoryError):
        apply.run(_Failing(), [], None, apply.Depth(100))
    assert errors.RESERVE[1] is None
    errors.hold_reserve()


PROGRAMS = [
    '(define (fill h) (let loop ((i 0)) (hash-set! h i (list i i)) (loop (+ i 1))))',
    '(define (pairs x) (let ((y (car x))) (list y (+ y 1) (map (lambda (z) (* z y)) x))))',
    '(define (maker n) (lambda (k) (set! n (+ n k)) (vector n k)))',
    '(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))',
]


@pytest.mark.parametrize('program', PROGRAMS)
def test_every_handler_of_compiled_code_gives_back_the_reserve_first(program):
    # The same 3.11 retry, in generated code: its functions are large, so a
    # failure inside a handler (building the arguments of the call that would
    # give back) needs a new int to leave by, and would spin while memory is
    # full. So each handler's first statement frees the reserve, allocating nothing.
    import ast
    from rusty.runtime import Session
    from rusty.values import sym
    s = Session()
    if s.unit.compile_lambda is None:
        pytest.skip('the compiler is off (RUSTY_SPECIALIZE=0)')
    s.run(program)
    tree = ast.parse(s.python_source(s.genv.lookup(sym(program.split()[1].strip('(')))))
    handlers = [n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)]
    assert handlers
    for h in handlers:
        first = ast.unparse(h.body[0])
        assert first == ('if e.__class__ is MemoryError or e.__class__ is SystemError:\n'
                         '    RESERVE[1] = None'), first

