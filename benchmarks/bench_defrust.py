"""defrust benchmarks: native fib(30) against the same Rust
called directly through ctypes, cold compile time, the cost of a cache hit in
a new process, the per-call overhead of a one-argument native, and peers
(interpreted rusty, CPython, Numba when importable).

    python3 benchmarks/bench_defrust.py [--quick]

Uses a private temporary JIT cache. Prints one table; timings are the best of
several runs (the machine is shared). Needs rustc on PATH.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

FIB = '(if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))'
DEFRUST_FIB = '(defrust fib (n) %s)' % FIB

# The same recursion, hand-written, with the same ABI and no guard.
RAW_FIB = '''\
#[no_mangle]
pub extern "C" fn rusty_raw_fib(args: *const f64, len: usize) -> f64 {
    fib(unsafe { *args })
}

fn fib(n: f64) -> f64 {
    if n < 2.0 { n } else { fib(n - 1.0) + fib(n - 2.0) }
}
'''


def best(fn, runs=5):
    """Best wall time of `runs` calls of fn(), in seconds."""
    out = float('inf')
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def best_pair(fa, fb, runs):
    """Best times of fa() and fb(), measured interleaved (load on a shared
    machine then hits both alike)."""
    ta = tb = float('inf')
    for _ in range(runs):
        t = time.perf_counter()
        fa()
        ta = min(ta, time.perf_counter() - t)
        t = time.perf_counter()
        fb()
        tb = min(tb, time.perf_counter() - t)
    return ta, tb


def defs_of(name, params, body):
    from rusty.reader import read
    return [(name, params, read(body, '<bench>').car)]


def run_process(args, env):
    """Run a fresh process; its standard output."""
    proc = subprocess.run(args, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError('%s failed: %s' % (args, proc.stderr.strip()))
    return proc.stdout


def process_pair(a, b, env, runs):
    """Best wall times of fresh processes running a and b, interleaved."""
    def timed(args):
        return lambda: run_process(args, env)
    return best_pair(timed(a), timed(b), runs)


# In a fresh process: the time the first (cached) defrust takes, imports of
# the jit package included, after the reader and values are loaded.
HIT_IN_NEW_PROCESS = """\
import time
from rusty.reader import read
f = read(%r).car
t = time.perf_counter()
from rusty.jit.codegen import compile_defrust
compile_defrust([(f.cdr.car.name, ['n'], f.cdr.cdr.cdr.car)])
print(time.perf_counter() - t)
""" % DEFRUST_FIB


def runtime_session():
    """A rusty Session if the evaluator is usable, else None."""
    try:
        import io
        from rusty.runtime import Session
        s = Session(out=io.StringIO())
        s.run('(+ 1 2)', '<bench>')
        return s
    except Exception:
        return None


def main(argv):
    quick = '--quick' in argv
    runs = 3 if quick else 7
    if shutil.which('rustc') is None:
        print('bench_defrust: rustc not on PATH; skipped')
        return 0
    cache = tempfile.mkdtemp(prefix='rusty-bench-cache-')
    os.environ['RUSTY_CACHE_DIR'] = cache
    try:
        return run(runs, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def run(runs, cache):
    from rusty.jit import build
    from rusty.jit.codegen import compile_defrust
    rows = []

    # ── cold compile (rustc -vV already done: it is once per process) ──
    build.toolchain_id()
    colds = []
    for i in range(3):
        name = 'fib%d' % i
        t = time.perf_counter()
        compile_defrust(defs_of(name, ['n'], FIB.replace('fib', name)))
        colds.append(time.perf_counter() - t)
    t = time.perf_counter()
    [fib] = compile_defrust(defs_of('fib', ['n'], FIB))
    cold = min(min(colds), time.perf_counter() - t)
    t = time.perf_counter()
    compile_defrust(defs_of('fib', ['n'], FIB))
    hit_in_process = time.perf_counter() - t

    # ── fib(30): native vs the same Rust through ctypes ──
    raw_lib = build.build_and_load(RAW_FIB, 'rusty_raw_fib')
    raw = raw_lib.symbol('rusty_raw_fib')
    raw.restype = ctypes.c_double
    buf = (ctypes.c_double * 1)(30.0)
    n1 = ctypes.c_size_t(1)
    assert fib.call([30.0]) == raw(buf, n1) == 832040.0
    t_native, t_raw = best_pair(lambda: fib.call([30.0]), lambda: raw(buf, n1), runs * 3)
    rows.append(('fib(30) native (Native.call)', ms(t_native), 'raw Rust/ctypes ' + ms(t_raw),
                 '%.2fx' % (t_native / t_raw), '<= 1.3x'))

    session = runtime_session()
    if session is not None:
        session.run(DEFRUST_FIB, '<bench>')
        t_eval, t_raw2 = best_pair(lambda: session.run('(fib 30)', '<bench>'),
                                   lambda: raw(buf, n1), runs * 3)
        t_raw = min(t_raw, t_raw2)
        t_run = best(lambda: session.run('(+ 1 2)', '<bench>'), runs * 3)
        rows.append(('fib(30) via evaluator, less run()', ms(t_eval - t_run),
                     'raw Rust/ctypes ' + ms(t_raw), '%.2fx' % ((t_eval - t_run) / t_raw), '<= 1.3x'))
        rows.append(('  Session.run fixed cost', ms(t_run), '', '', ''))
        session.run('(define (ifib n) %s)' % FIB.replace('fib', 'ifib'), '<bench>')
        t_interp = best(lambda: session.run('(ifib 22)', '<bench>'), max(1, runs // 3))
        t_nat22 = best(lambda: fib.call([22.0]), runs)
        rows.append(('fib(22) interpreted', ms(t_interp), 'native ' + ms(t_nat22),
                     '%.0fx' % (t_interp / t_nat22), ''))

    def pyfib(n):
        return n if n < 2 else pyfib(n - 1) + pyfib(n - 2)
    t_py = best(lambda: pyfib(30.0), max(1, runs // 3))
    rows.append(('fib(30) CPython', ms(t_py), 'native ' + ms(t_native),
                 '%.0fx' % (t_py / t_native), ''))
    try:
        import numba

        @numba.njit(cache=False)
        def nbfib(n):
            return n if n < 2 else nbfib(n - 1) + nbfib(n - 2)
        nbfib(2.0)
        t_nb = best(lambda: nbfib(30.0), runs)
        rows.append(('fib(30) Numba', ms(t_nb), 'native ' + ms(t_native),
                     '%.2fx' % (t_native / t_nb), ''))
    except ImportError:
        rows.append(('fib(30) Numba', 'n/a', '(numba not installed)', '', ''))

    # ── per-call overhead of a one-argument native ──
    [ident] = compile_defrust(defs_of('ident', ['x'], 'x'))
    call = ident.call
    args = [1.5]
    n = 100000

    def loop_calls():
        for _ in range(n):
            call(args)

    def loop_empty():
        for _ in range(n):
            pass
    per_call = (best(loop_calls, runs) - best(loop_empty, runs)) / n
    rows.append(('per-call overhead, 1 arg', us(per_call), '', '', '<= 3 us'))

    # ── compile times ──
    rows.append(('cold compile (fib)', ms(cold), '', '', ''))
    rows.append(('cache hit, same process', ms(hit_in_process), '', '', ''))

    # ── cache hit in a new process vs plain start-up ──
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=cache)
    py = sys.executable
    cli_ok = subprocess.run([py, '-m', 'rusty', '-e', '1'], env=env,
                            capture_output=True).returncode == 0
    if cli_ok:
        plain = [py, '-m', 'rusty', '-e', '1']
        hit = [py, '-m', 'rusty', '-e', DEFRUST_FIB]
        level = 'rusty -e'
    else:
        plain = [py, '-c', 'import rusty.reader, rusty.values']
        hit = [py, '-c', 'from rusty.reader import read\n'
                         'from rusty.jit.codegen import compile_defrust\n'
                         'f = read(%r).car\n'
                         'compile_defrust([(f.cdr.car.name, ["n"], f.cdr.cdr.cdr.car)])'
               % DEFRUST_FIB]
        level = 'API'
    run_process(hit, env)   # warm the cache and the toolchain memo
    t_plain, t_hit = process_pair(plain, hit, env, runs * 2)
    rows.append(('cache hit, new process (%s)' % level, '%+.1f ms' % ((t_hit - t_plain) * 1e3),
                 'start-up ' + ms(t_plain), '', '< 60 ms'))
    inner = min(float(run_process([py, '-c', HIT_IN_NEW_PROCESS], env)) for _ in range(runs))
    rows.append(('cache hit, new process (jit only)', ms(inner), 'incl. jit imports', '', '< 60 ms'))

    print_table(rows, session is not None)
    return 0


def ms(s):
    return '%.1f ms' % (s * 1e3) if s < 10 else '%.2f s' % s


def us(s):
    return '%.2f us' % (s * 1e6)


def print_table(rows, evaluator):
    head = ('defrust', 'time', 'peer', 'ratio', 'goal')
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
    line = '  '.join('%-*s' % (w, h) for w, h in zip(widths, head))
    print(line)
    print('-' * len(line))
    for r in rows:
        print('  '.join('%-*s' % (w, c) for w, c in zip(widths, r)))
    if not evaluator:
        print('(evaluator not usable: natives timed through the Python API only)')


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
