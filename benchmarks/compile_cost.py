"""What lowering costs against CPython's own compile() of what it writes.

    python3 benchmarks/compile_cost.py [--profile N] [--only NAME,…] [--repeat R]

Runs every program of the fresh-process suite (benchmarks/programs/**, quick
arguments, in this process) with every lambda compiled at its first call
(RUSTY_COMPILE_CALLS=0), and times, for each lambda lowered there, the
lowering (compile/lower.py: Lisp to the Python `ast`) and `compile()` of the
module it gives, each the least CPU time of R runs (time.process_time: the
machine may be loaded), with the collector paused as link.lowered pauses it. Prints per program and in all: lambdas, forms,
milliseconds lowering, milliseconds compiling and their ratio (the goal: lowering ≤ 3× compile()). `--profile N` re-lowers every
lambda under cProfile and prints the N functions of most own time.
"""
from __future__ import annotations

import cProfile
import gc
import io
import os
import pstats
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from suite_programs import PROGRAMS  # noqa: E402

GOAL = 3.0


def collect(group, name, args, sink):
    """Run one program, appending (lower's arguments, forms) for each lambda it lowers."""
    from rusty import cli
    from rusty.compile import link, support

    real = link.lowered

    def spy(params, rest, body, lscope, span, unit, lname, *more, **kw):
        sink.append(((unit, params, rest, body, lscope, span, lname), support.form_count(body)))
        return real(params, rest, body, lscope, span, unit, lname, *more, **kw)
    link.lowered = spy
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        with tempfile.TemporaryDirectory() as scratch:      # (the scripts write files where they run)
            os.chdir(scratch)
            path = os.path.join(HERE, 'programs', group, name + '.lisp')
            status = cli.main([path] + args.split(), stdout=out, stderr=err, stdin=io.StringIO())
    finally:
        os.chdir(here)
        link.lowered = real
    if status != 0:
        sys.stderr.write('%s: exit %d: %s\n' % (name, status, err.getvalue()[-300:]))


def timed(fn, repeat):
    """The least seconds of `repeat` calls of fn, and its last result."""
    best, r = None, None
    for _ in range(repeat):
        t = time.process_time()
        r = fn()
        t = time.process_time() - t
        best = t if best is None or t < best else best
    return best, r


def measure(lambdas, repeat):
    """(lambdas lowered, refused, forms, seconds lowering, seconds compiling)."""
    from rusty.compile.link import FILENAME
    from rusty.compile.lower import Unsupported, lower
    n = refused = forms = 0
    low_s = comp_s = 0.0
    for args, size in lambdas:
        def lowering():
            try:
                return lower(*args)[0]
            except Unsupported:
                return None
        gc.disable()        # (as link.lowered lowers and compiles: the nodes all live until compiled)
        try:
            t, mod = timed(lowering, repeat)
            if mod is None:
                refused += 1
                continue
            try:
                c, _ = timed(lambda: compile(mod, FILENAME, 'exec', dont_inherit=True), repeat)
            except (RecursionError, SyntaxError, ValueError):
                refused += 1
                continue
            finally:
                mod = None
        finally:
            gc.enable()
        n += 1
        forms += size
        low_s += t
        comp_s += c
    return n, refused, forms, low_s, comp_s


def profile(lambdas, top):
    from rusty.compile.lower import Unsupported, lower
    prof = cProfile.Profile()
    prof.enable()
    for args, _ in lambdas:
        try:
            lower(*args)
        except Unsupported:
            pass
    prof.disable()
    pstats.Stats(prof, stream=sys.stdout).sort_stats('tottime').print_stats(top)


def option(argv, flag, default=None):
    return argv[argv.index(flag) + 1] if flag in argv else default


def main(argv):
    os.environ['RUSTY_COMPILE_CALLS'] = '0'
    os.environ['RUSTY_CODE_CACHE'] = '0'        # (lowered here, not loaded from the disk cache)
    os.environ.setdefault('RUSTY_SPECIALIZE', '1')
    repeat = int(option(argv, '--repeat', '3'))
    only = set(filter(None, option(argv, '--only', '').split(',')))
    everything = []
    totals = [0, 0, 0, 0.0, 0.0]
    print('%-20s %7s %7s %7s %10s %10s %7s' % ('program', 'lambdas', 'refused', 'forms', 'lower ms',
                                                'compile ms', 'ratio'))
    for group, name, _, quick, _, _ in PROGRAMS:
        if only and name not in only:
            continue
        lambdas = []
        collect(group, name, quick, lambdas)
        row = measure(lambdas, repeat)
        everything += lambdas
        totals = [a + b for a, b in zip(totals, row)]
        n, refused, forms, low_s, comp_s = row
        print('%-20s %7d %7d %7d %10.1f %10.1f %7.2f' % (name, n, refused, forms, low_s * 1e3, comp_s * 1e3,
                                                         low_s / comp_s if comp_s else 0.0))
    n, refused, forms, low_s, comp_s = totals
    print('%-20s %7d %7d %7d %10.1f %10.1f %7.2f' % ('all', n, refused, forms, low_s * 1e3, comp_s * 1e3,
                                                     low_s / comp_s if comp_s else 0.0))
    if n:
        print('per lambda: lowering %.2f ms, compile() %.2f ms; per form: lowering %.3f ms; goal: ratio <= %.1f'
              % (low_s / n * 1e3, comp_s / n * 1e3, low_s / max(forms, 1) * 1e3, GOAL))
    top = option(argv, '--profile')
    if top:
        profile(everything, int(top))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
