"""Training benchmarks: one SGD step of the MLP SMALL and MEDIUM
workloads with graph-grad and graph-compile-grad, the update written in rusty,
against PyTorch float64 (1 thread and default threads) in the same run; the
kernel call alone; and where the time of a compiled SMALL step goes.

    python3 benchmarks/bench_training.py [--quick] [--mallopt] [--trainers]

It also times trainers (graph-compile-train: the whole step loop in one native
call) with SGD and Adam against PyTorch's own torch.optim.SGD / torch.optim.Adam
loops, 1 thread, in the same run; `--trainers` runs only those rows.

Prints markdown tables (run.py embeds them and reads the goal rows). Uses
RUSTY_CACHE_DIR if set, else a private temporary JIT cache. Needs rustc.

How: each contender trains the whole workload (1000 SMALL / 100 MEDIUM steps)
from the same start, interleaved round by round; per-step time = the run's
time / steps, minimum over the rounds (median beside). The rusty runs are one
`Session.run` each, so the evaluator, the kernel calls and the update are all
inside the figure. Every run's final loss is checked.

--mallopt first raises glibc's malloc trim and mmap thresholds (mallopt), for
comparison: by default a 128 KiB buffer of MEDIUM (a gradient, the updated
weights) may be a fresh mmap whose pages fault in on first touch. Measured
alone, allocating the MEDIUM kernel's three result arrays together costs ~90 µs
by default and ~6 µs with the raised thresholds; in a whole step the gain is
smaller (0-30 µs here, within this shared machine's noise).
"""
from __future__ import annotations

import cProfile
import ctypes
import io
import os
import pstats
import shutil
import sys
import tempfile
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from benchlib import Stat, fmt_ratio, fmt_time, interleave, md_table  # noqa: E402

WORKLOADS = {            # name -> (m, k, n, steps, expected final loss, digits checked)
    'SMALL': (8, 16, 8, 1000, 0.35312804084655014, None),
    'MEDIUM': (64, 256, 64, 100, 30.441642167811, 13),
}
GOALS = {               # (path, workload) -> speed-up over PyTorch on 1 thread
    ('graph-compile-grad', 'SMALL'): 20.0, ('graph-compile-grad', 'MEDIUM'): 1.5,
    ('graph-grad', 'SMALL'): 2.0, ('graph-grad', 'MEDIUM'): 1.0,
}

# The data, the loss and the training loop, in rusty. `train` runs `steps`
# SGD steps with `step` (graph-grad or a compiled kernel) and returns the loss
# at the final weights.
PROGRAM = '''
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define loss
  (lambda (x W b t nn)
    (tensor-sum (tensor-div (tensor-mul (tensor-sub (relu (tensor-add (matmul x W) b)) t)
                                        (tensor-sub (relu (tensor-add (matmul x W) b)) t))
                            nn))))
(define x (matrix {m} {k} 0))
(define t (matrix {m} {n} 5))
(define W0 (matrix {k} {n} 3))
(define b0 (val 1 0))
(define nn (* {m} {n}))
(define (train step W b steps)
  (if (= steps 0)
      (car (step x W b t nn))
      (let ((r (step x W b t nn)))
        (train step (tensor-sub W (tensor-mul 0.01 (nth r 2))) (- b (* 0.01 (nth r 3)))
               (- steps 1)))))
(define (by-graph-grad x W b t nn) (graph-grad loss x W b t nn))
(define kernel (graph-compile-grad loss x W0 b0 t nn))
'''

# For the breakdown: the same loop with the kernel's result precomputed (loop
# and update only), and with the update dropped too (loop only).
BREAKDOWN = '''
(define r0 (kernel x W0 b0 t nn))
(define (train-update W b steps)
  (if (= steps 0)
      (car r0)
      (let ((r r0))
        (train-update (tensor-sub W (tensor-mul 0.01 (nth r 2))) (- b (* 0.01 (nth r 3)))
                      (- steps 1)))))
(define (train-loop W b steps)
  (if (= steps 0)
      (car r0)
      (let ((r r0))
        (train-loop W b (- steps 1)))))
'''

NOOP = '''
#[no_mangle]
pub unsafe extern "C" fn rusty_bench_noop(inp: *const *const f64, out: *const *mut f64,
    mm: extern "C" fn(*const f64, usize, *const f64, usize, *mut f64, usize, usize, usize)) {}
'''


def val(i, off):
    return (((7 * i + off) % 17) - 8) / 8


# ── PyTorch ──────────────────────────────────────────────────────────────

def torch_trainer(m, k, n, steps, optimizer=None):
    """Functions training the workload in PyTorch float64 (returning the final
    loss) and computing one gradient. The update is the hand-written SGD step
    the rusty loops mirror, or with `optimizer` = (name, kwargs) a torch.optim
    optimizer's step, as a PyTorch user writes it."""
    import torch

    def mat(r, c, off):
        return torch.tensor([val(i, off) for i in range(r * c)], dtype=torch.float64).reshape(r, c)
    x, t, W0 = mat(m, k, 0), mat(m, n, 5), mat(k, n, 3)
    nn = float(m * n)

    def loss_of(W, b):
        d = torch.relu(x @ W + b) - t
        return (d * d / nn).sum()

    def train():
        W = W0.clone().requires_grad_(True)
        b = torch.tensor(val(1, 0), dtype=torch.float64, requires_grad=True)
        if optimizer is not None:
            return optimized(W, b)
        for _ in range(steps):
            loss = loss_of(W, b)
            loss.backward()
            with torch.no_grad():
                W -= 0.01 * W.grad
                b -= 0.01 * b.grad
            W.grad = None
            b.grad = None
        with torch.no_grad():
            return loss_of(W, b).item()

    def optimized(W, b):
        opt = getattr(torch.optim, optimizer[0])([W, b], **optimizer[1])
        for _ in range(steps):
            opt.zero_grad()
            loss_of(W, b).backward()
            opt.step()
        with torch.no_grad():
            return loss_of(W, b).item()

    def grad_only():
        W = W0.clone().requires_grad_(True)
        b = torch.tensor(val(1, 0), dtype=torch.float64, requires_grad=True)
        loss_of(W, b).backward()
    return train, grad_only


# ── rusty ────────────────────────────────────────────────────────────────

def session_for(m, k, n):
    from rusty.runtime import Session
    s = Session(out=io.StringIO())
    s.run(PROGRAM.format(m=m, k=k, n=n), '<bench>')
    return s


def checked(name, got, want, digits, problems):
    """Record a problem if a final loss is not the expected one."""
    if digits is None:
        ok = got == want
    else:
        ok = abs(got - want) < 0.5 * 10.0 ** (-(digits - 2))
    if not ok:
        problems.append('%s: final loss %r, expected %r' % (name, got, want))
    return ok


def with_lanes(lanes, fn):
    """fn run with RUSTY_MM_THREADS=lanes (None: unset), restored after."""
    def run():
        old = os.environ.get('RUSTY_MM_THREADS')
        if lanes is None:
            os.environ.pop('RUSTY_MM_THREADS', None)
        else:
            os.environ['RUSTY_MM_THREADS'] = lanes
        try:
            return fn()
        finally:
            if old is None:
                os.environ.pop('RUSTY_MM_THREADS', None)
            else:
                os.environ['RUSTY_MM_THREADS'] = old
    return run


def with_torch_threads(threads, fn):
    import torch

    def run():
        torch.set_num_threads(threads)
        return fn()
    return run


def train_workload(name, runs, problems, torch_ok, default_threads):
    """Per-step Stats (seconds) of every contender on one workload, and the final losses."""
    m, k, n, steps, want, digits = WORKLOADS[name]
    s = session_for(m, k, n)
    losses = {}

    def rusty(step):
        def run():
            losses[label_of[step]] = s.run('(train %s W0 b0 %d)' % (step, steps), '<bench>')
        return run
    label_of = {'by-graph-grad': 'graph-grad', 'kernel': 'graph-compile-grad'}
    contenders = {
        'graph-grad': rusty('by-graph-grad'),
        'graph-compile-grad': rusty('kernel'),
        'graph-grad, 1 lane': with_lanes('1', rusty('by-graph-grad')),
        'graph-compile-grad, 1 lane': with_lanes('1', rusty('kernel')),
    }
    if m * k * n < 65536:
        # under the row-band crossover the lane setting changes nothing: don't time it twice
        del contenders['graph-grad, 1 lane'], contenders['graph-compile-grad, 1 lane']
    if torch_ok:
        train, _ = torch_trainer(m, k, n, steps)

        def torch_run(threads, label):
            def run():
                losses[label] = train()
            return with_torch_threads(threads, run)
        contenders['PyTorch, 1 thread'] = torch_run(1, 'PyTorch')
        contenders['PyTorch, %d threads' % default_threads] = torch_run(default_threads, 'PyTorch')
    for fn in contenders.values():      # warm up: compile, fill caches, check
        fn()
    for path in ('graph-grad', 'graph-compile-grad'):
        checked('%s %s' % (name, path), losses[path], want, digits, problems)
    times = interleave(contenders, runs)
    return {c: Stat([t / steps for t in ts]) for c, ts in times.items()}, losses, s


def kernel_alone(name, s, torch_ok, default_threads, runs):
    """Rows timing one gradient computation alone (no update, no loop)."""
    from rusty.graph import builtins as GB
    from rusty.printer import display_form
    m, k, n, steps, _, _ = WORKLOADS[name]
    kern = s.run('kernel', '<bench>')
    args = [s.run(v, '<bench>') for v in ('x', 'W0', 'b0', 't', 'nn')]
    f = s.run('loss', '<bench>')
    reps = 2000 if name == 'SMALL' else 50

    def loop(fn):
        def run():
            for _ in range(reps):
                fn()
        return run
    contenders = {
        'grad-kernel from Python (NativeGrad.call)': loop(lambda: kern.call(args)),
        'grad-kernel from rusty (in a named-let loop)': lambda: s.run('(let loop ((i %d)) (if (= i 0) 0 (begin '
                                                '(kernel x W0 b0 t nn) (loop (- i 1)))))' % reps,
                                                '<bench>'),
        'graph-grad from Python (cached plan)': loop(lambda: GB.gradient(f, args, display_form)),
    }
    if torch_ok:
        _, grad_only = torch_trainer(m, k, n, steps)
        contenders['PyTorch forward+backward, 1 thread'] = with_torch_threads(1, loop(grad_only))
    times = interleave(contenders, runs)
    return {c: Stat([t / reps for t in ts]) for c, ts in times.items()}


def small_breakdown(s, runs):
    """Where the time of a compiled SMALL step goes (seconds per step)."""
    from rusty.jit import build
    s.run(BREAKDOWN, '<bench>')
    kern = s.run('kernel', '<bench>')
    args = [s.run(v, '<bench>') for v in ('x', 'W0', 'b0', 't', 'nn')]
    steps = 2000
    g = kern.call.__globals__          # the call path's cells (see grad_call.grad_caller)
    fn, bridge_fn = g['fn'], g['bridge_fn']
    kern.call(args)
    # Copies of the pointer arrays, the results pointing at buffers kept alive
    # here (the call path repoints its own at fresh arrays on every call).
    inp = (ctypes.c_void_p * 5)(*g['inp'])
    outp = (ctypes.c_void_p * 6)(*g['outp'])
    keep = [array('d', [0.0]) * 128 for _ in range(3)]
    for slot, buf in zip((1, 2, 4), keep):
        outp[slot] = buf.buffer_info()[0]
    noop = build.build_and_load(NOOP, 'rusty_bench_noop').symbol('rusty_bench_noop')
    noop.restype = None

    def loop(fn_):
        def run():
            for _ in range(steps):
                fn_()
        return run
    times = interleave({
        'step': lambda: s.run('(train kernel W0 b0 %d)' % steps, '<bench>'),
        'update': lambda: s.run('(train-update W0 b0 %d)' % steps, '<bench>'),
        'loop': lambda: s.run('(train-loop W0 b0 %d)' % steps, '<bench>'),
        'kernel': lambda: s.run('(let loop ((i %d)) (if (= i 0) 0 (begin (kernel x W0 b0 t nn) '
                                '(loop (- i 1)))))' % steps, '<bench>'),
        'constant': lambda: s.run('(let loop ((i %d)) (if (= i 0) 0 (begin b0 (loop (- i 1)))))'
                                  % steps, '<bench>'),
        'call': loop(lambda: kern.call(args)),
        'raw': loop(lambda: fn(inp, outp, bridge_fn)),
        'noop': loop(lambda: noop(inp, outp, bridge_fn)),
        'empty': loop(lambda: None),
    }, runs)
    t = {c: Stat(ts).min / steps for c, ts in times.items()}
    empty = t['empty']
    call, raw, nop = t['call'] - empty, t['raw'] - empty, t['noop'] - empty
    from_rusty = t['kernel'] - t['constant']
    rows = [
        ('the rusty loop: call `train`, `if`, `let`, counter', t['loop'], ''),
        ('the update in rusty: 2 `nth`, `tensor-mul`, `tensor-sub`, `*`, `-`', t['update'] - t['loop'], ''),
        ('the kernel call as seen from rusty', from_rusty, 'split below'),
        ('  evaluator: evaluate 6 operands, dispatch to the native-grad', from_rusty - call, ''),
        ('  checks, marshalling, result arrays and the result list (Python)', call - raw, ''),
        ('  the ctypes foreign call itself (same ABI, empty body)', nop, ''),
        ('  the kernel: forward + backward in Rust', raw - nop, ''),
        ('unattributed (step − the three parts above)', t['step'] - t['update'] - from_rusty, ''),
        ('total: one compiled SMALL step', t['step'], ''),
    ]
    return rows, t['step']


def profile_small(s):
    """Top entries by own time of 2,000 compiled SMALL steps, on the evaluation thread."""
    prof = cProfile.Profile()

    def go():
        prof.enable()
        try:
            s._run('(train kernel W0 b0 2000)', '<bench>')
        finally:
            prof.disable()
    s.worker.call(go)
    st = pstats.Stats(prof)
    rows = []
    total = sum(v[2] for v in st.stats.values())
    for (file, line, fname), (cc, nc, tt, ct, _) in sorted(st.stats.items(), key=lambda e: -e[1][2])[:8]:
        where = '%s:%d(%s)' % (os.path.relpath(file, ROOT) if file.startswith(ROOT) else file,
                               line, fname)
        rows.append(('`%s`' % where, nc, '%.3f' % tt, '%.0f%%' % (100 * tt / total if total else 0)))
    return rows


# ── Trainers: the whole step loop in one native call ─────────────────────

TRAINER_GOALS = {        # (optimizer, workload) -> speed-up over PyTorch's optimizer on 1 thread
    ('sgd', 'SMALL'): 20.0, ('adam', 'SMALL'): 20.0,
    ('sgd', 'MEDIUM'): 2.0, ('adam', 'MEDIUM'): 2.0,
}
TRAINER_OPTIMIZERS = {'sgd': ('(sgd 0.01)', 'SGD', {'lr': 0.01}),
                      'adam': ('(adam 0.001)', 'Adam', {'lr': 0.001})}
TRAINERS = '''
(define sgd-trainer (graph-compile-train loss '(W b) (sgd 0.01) x W0 b0 t nn))
(define adam-trainer (graph-compile-train loss '(W b) (adam 0.001) x W0 b0 t nn))
(define sgd-reference (graph-train loss '(W b) (sgd 0.01) x W0 b0 t nn))
(define adam-reference (graph-train loss '(W b) (adam 0.001) x W0 b0 t nn))
'''


def trainer_rows(runs, torch_ok, problems):
    """(per-step rows, goal rows) of compiled trainers against PyTorch's optimizers."""
    rows, goals = [], []
    for name, (m, k, n, steps, want, digits) in WORKLOADS.items():
        s = session_for(m, k, n)
        s.run(TRAINERS, '<bench>')
        losses, contenders = {}, {}
        for opt, (_, torch_name, kwargs) in TRAINER_OPTIMIZERS.items():
            def rusty(opt=opt):
                losses[opt] = s.run('(begin (trainer-reset! %s-trainer) (train! %s-trainer %d) '
                                    '(train! %s-trainer 0))' % (opt, opt, steps, opt), '<bench>')
            contenders['graph-compile-train %s' % opt] = rusty
            if m * k * n >= 65536:      # over the crossover: the lane setting matters
                contenders['graph-compile-train %s, 1 lane' % opt] = with_lanes('1', rusty)
            if torch_ok:
                train, _ = torch_trainer(m, k, n, steps, (torch_name, kwargs))

                def torch_run(train=train, opt=opt):
                    losses['torch ' + opt] = train()
                contenders['PyTorch %s, 1 thread' % torch_name] = with_torch_threads(1, torch_run)
        for fn in contenders.values():      # warm up, and check the losses
            fn()
        checked('%s trainer sgd' % name, losses['sgd'], want, digits, problems)
        for opt in TRAINER_OPTIMIZERS:      # the reference gives the same bits
            ref = s.run('(begin (train! %s-reference %d) (train! %s-reference 0))'
                        % (opt, steps, opt), '<bench>')
            if ref != losses[opt]:
                problems.append('%s %s: compiled %r, graph-train %r' % (name, opt, losses[opt], ref))
        stats = {c: Stat([t / steps for t in ts]) for c, ts in interleave(contenders, runs).items()}
        for c, st in stats.items():
            opt = 'sgd' if 'sgd' in c or 'SGD' in c else 'adam'
            loss = losses[opt] if c.startswith('graph') else losses.get('torch ' + opt)
            rows.append(('%s (%d×%d·%d×%d, %d steps)' % (name, m, k, k, n, steps), c,
                         '%s (%s)' % (fmt_time(st.min), fmt_time(st.median)), repr(loss)))
        if torch_ok:
            for opt, (_, torch_name, _) in TRAINER_OPTIMIZERS.items():
                ours = min(st.min for c, st in stats.items()
                           if c.startswith('graph-compile-train %s' % opt))
                ratio = stats['PyTorch %s, 1 thread' % torch_name].min / ours
                target = TRAINER_GOALS[(opt, name)]
                goals.append(('graph-compile-train %s %s vs PyTorch 1 thread' % (opt, name),
                              fmt_ratio(ratio), '≥ %g×' % target,
                              'met' if ratio >= target else 'missed'))
    return rows, goals


def trainer_section(runs, torch_ok, problems) -> list:
    rows, goals = trainer_rows(runs, torch_ok, problems)
    out = ['### Trainers: the whole step in one native call\n',
           'Per step: one `train!` of the whole workload from the same start (after '
           '`trainer-reset!`), against PyTorch\'s own optimizer loop (`zero_grad`, `backward`, '
           '`step`) on 1 thread; minimum over interleaved runs (median in brackets). Final '
           'losses are at the final weights (`(train! tr 0)`); the compiled trainers are '
           'checked against `graph-train`, bit for bit. For MEDIUM the better of the two lane '
           'settings counts, as above.\n',
           md_table(['workload', 'path', 'per step', 'final loss'], rows), '']
    if goals:
        out += [md_table(['comparison', 'speed-up', 'goal', 'verdict'], goals), '']
    return out


# ── Main ─────────────────────────────────────────────────────────────────

def raise_malloc_thresholds():
    """glibc: keep freed memory and serve big blocks from the heap (see --mallopt)."""
    libc = ctypes.CDLL(None)
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    return (libc.mallopt(M_TRIM_THRESHOLD, 256 << 20) == 1
            and libc.mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1)


def main(argv):
    quick = '--quick' in argv
    runs = 3 if quick else 9
    if '--mallopt' in argv and not raise_malloc_thresholds():
        print('bench_training: mallopt failed (not glibc?)')
        return 1
    if shutil.which('rustc') is None:
        print('bench_training: rustc not on PATH; skipped')
        return 0
    own_cache = None
    if not os.environ.get('RUSTY_CACHE_DIR'):
        own_cache = tempfile.mkdtemp(prefix='rusty-bench-cache-')
        os.environ['RUSTY_CACHE_DIR'] = own_cache
    try:
        if '--trainers' in argv:
            return run_trainers(runs)
        return run(runs, quick, '--mallopt' in argv)
    finally:
        if own_cache:
            shutil.rmtree(own_cache, ignore_errors=True)


def torch_info():
    """(torch importable, its default threads, its version)."""
    try:
        import torch
        return True, torch.get_num_threads(), torch.__version__
    except ImportError:
        return False, 0, 'not installed'


def run_trainers(runs):
    problems = []
    torch_ok, _, version = torch_info()
    out = ['PyTorch %s float64.\n' % version] + trainer_section(runs, torch_ok, problems)
    if problems:
        out.append('**Problems found:**\n' + ''.join('- %s\n' % p for p in problems))
    print('\n'.join(out))
    return 1 if problems else 0


def run(runs, quick, mallopt):
    problems = []
    torch_ok, default_threads, torch_version = torch_info()
    out = []
    out.append('PyTorch %s float64; its default here is %d threads. rusty: row bands on native lanes, '
               'with the default lanes (RUSTY_MM_THREADS unset: %s) and with 1 lane. Per-step '
               'times are the minimum over %d interleaved runs of the whole training '
               '(median in brackets).%s\n' % (torch_version, default_threads, _lanes(), runs,
                                               ' **With --mallopt** (glibc malloc thresholds '
                                               'raised for the whole process).' if mallopt else ''))
    stats, losses, sessions = {}, {}, {}
    for name in WORKLOADS:
        stats[name], losses[name], sessions[name] = train_workload(
            name, runs, problems, torch_ok, default_threads)

    # Per-step times
    rows = []
    for name, (m, k, n, steps, want, digits) in WORKLOADS.items():
        for c, st in stats[name].items():
            base = c.split(',')[0]
            loss = losses[name].get(base)
            rows.append(('%s (%d×%d·%d×%d, %d steps)' % (name, m, k, k, n, steps), c,
                         '%s (%s)' % (fmt_time(st.min), fmt_time(st.median)),
                         repr(loss) if loss is not None else ''))
    out.append('### One SGD step (forward, backward, update)\n')
    out.append(md_table(['workload', 'path', 'per step', 'final loss'], rows))
    out.append('')

    # Goals: speed-ups over PyTorch on 1 thread
    if torch_ok:
        rows = []
        for (path, name), target in GOALS.items():
            st = stats[name]
            big = WORKLOADS[name][0] * WORKLOADS[name][1] * WORKLOADS[name][2] >= 65536
            ours = min(st[path].min, st[path + ', 1 lane'].min) if big else st[path].min
            ratio = st['PyTorch, 1 thread'].min / ours
            rows.append(('%s %s vs PyTorch 1 thread' % (path, name), fmt_ratio(ratio),
                         '≥ %g×' % target, 'met' if ratio >= target else 'missed'))
        for name in WORKLOADS:
            st = stats[name]
            ratio = st['PyTorch, %d threads' % default_threads].min / st['graph-compile-grad'].min
            rows.append(('graph-compile-grad %s vs PyTorch %d threads (both default)'
                         % (name, default_threads), fmt_ratio(ratio), '—', ''))
        out.append('### Speed-ups over PyTorch\n')
        out.append('For MEDIUM the better of the two lane settings counts (banding only '
                   'changes speed, never bits).\n')
        out.append(md_table(['comparison', 'speed-up', 'goal', 'verdict'], rows))
        out.append('')
        exact = losses['SMALL'].get('PyTorch')
        out.append('Final losses: SMALL %r on both rusty paths (PyTorch %r, %s); MEDIUM %r '
                   '(graph-grad) and %r (compiled), PyTorch %r.\n'
                   % (losses['SMALL']['graph-grad'], exact,
                      'the same bits' if exact == losses['SMALL']['graph-grad'] else 'differs',
                      losses['MEDIUM']['graph-grad'], losses['MEDIUM']['graph-compile-grad'],
                      losses['MEDIUM'].get('PyTorch')))

    out += trainer_section(runs, torch_ok, problems)

    # The gradient alone
    rows = []
    for name in WORKLOADS:
        for c, st in kernel_alone(name, sessions[name], torch_ok, default_threads,
                                  max(3, runs // 2)).items():
            rows.append((name, c, '%s (%s)' % (fmt_time(st.min), fmt_time(st.median))))
    out.append('### The gradient alone (one call, no update)\n')
    out.append(md_table(['workload', 'call', 'time'], rows))
    out.append('')

    # Where the time of a compiled SMALL step goes
    brow, step = small_breakdown(sessions['SMALL'], 3 * runs)
    out.append('### Where a compiled SMALL step goes\n')
    out.append('Each part measured on its own (min of interleaved runs, per step): the training '
               'loop with the kernel\'s result precomputed, with and without the update; a '
               'named-let loop calling the kernel, less the same loop evaluating a constant; '
               '`NativeGrad.call` from Python; the foreign call with its pointer arrays prebuilt; '
               'an empty function of the same ABI. Differences of minima, so on this shared '
               'machine a small part can come out a little off (even negative).\n')
    rows = [(what, fmt_time(t), '%.0f%%' % (100 * t / step)) for what, t, _ in brow]
    out.append(md_table(['part', 'per step', 'share'], rows))
    out.append('')
    if torch_ok:
        t1 = stats['SMALL']['PyTorch, 1 thread'].min
        out.append('50× PyTorch (1 thread, %s per step) would be %s per step; a compiled step '
                   'takes %s (%.1f×).\n' % (fmt_time(t1), fmt_time(t1 / 50), fmt_time(step),
                                           t1 / step))
    if not quick:
        out.append('cProfile of 2,000 compiled SMALL steps (evaluation thread; the profiler '
                   'inflates Python-level costs), top entries by own time:\n')
        out.append(md_table(['function', 'calls', 'tottime s', 'share'], profile_small(sessions['SMALL'])))
        out.append('')
    if problems:
        out.append('**Problems found:**\n' + ''.join('- %s\n' % p for p in problems))
    print('\n'.join(out))
    return 1 if problems else 0


def _lanes():
    from rusty.jit import bands
    return '%d lanes' % bands.lanes()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
