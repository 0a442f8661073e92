"""The compiler against the reference on programs that redefine the globals
compiled functions use: a function replaced by another, by a macro (one that
set!s a local, reads it, quotes it), by a value, a builtin shadowed, a macro
turned back into a function; between calls, and while a compiled call is
running (a helper `flipN` that set!s a global to a macro, function or value,
called in the middle of a compiled body, in loops too). Each program runs as `rusty -e
PROGRAM` in this process with the fast path on (compiling from the first
call) and with RUSTY_SPECIALIZE=0; output, status and report must be
identical (`make fuzz` runs 20,000; tests/test_compile_deopt.py a few):

    python3 tests/fuzz_redefine.py [-n N] [--seed S]
"""
from __future__ import annotations

import argparse
import io
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

HELPERS = ['g0', 'g1', 'g2', 'car', 'abs', 'list']
FUNCTIONS = ['f0', 'f1', 'f2']
LOCALS = ['x', 'y']
ATOMS = ['0', '1', '2', '-3', '2.5', "'a", '"s"', "'(1 2)"]
# what a helper may become: (definition text, kind)
MACROS = ['(defmacro {g} (a) `(set! ,a 40))', '(defmacro {g} (a) `(begin (set! ,a (+ 1 (if (number? ,a) ,a 0))) 7))', '(defmacro {g} (a) `(+ ,a 1))', '(defmacro {g} (a) `(quote ,a))',
          '(defmacro {g} (a) `(begin (set! ,a (list ,a)) ,a))', '(defmacro {g} (a) a)',
          '(defmacro {g} (a . r) `(cons ,a (quote ,r)))']
FUNCTION_DEFS = ['(define ({g} a) 0)', '(define ({g} a) (list a a))', '(define ({g} . r) r)',
                 '(define ({g} a) (* a 2))', '(define ({g} a) (if (number? a) (+ a 1) a))']
VALUES = ['(define {g} 5)', "(define {g} '(1 2))", '(define {g} car)', '(define {g} abs)', '(set! {g} list)']


FLIPS = ['flip0', 'flip1', 'flip2']
LIMIT = 3000


def expr(rng, depth: int, callees=()) -> str:
    """An expression over the locals calling helpers and functions (and,
    now and then, a flip: a redefinition while the call runs)."""
    r = rng.random()
    if depth <= 0 or r < 0.25:
        return rng.choice(LOCALS + LOCALS + ATOMS)
    if r < 0.3:
        return '(begin (%s) %s)' % (rng.choice(FLIPS), expr(rng, depth - 1, callees))
    if r < 0.55:
        return '(%s %s)' % (rng.choice(HELPERS), expr(rng, depth - 1, callees))
    if r < 0.58:
        return '(%s %s %s)' % (rng.choice(HELPERS), expr(rng, depth - 1, callees), expr(rng, depth - 1, callees))
    if r < 0.7:
        return '(set! %s %s)' % (rng.choice(LOCALS), expr(rng, depth - 1, callees))
    if r < 0.78:
        return '(if (number? %s) %s %s)' % (rng.choice(LOCALS), expr(rng, depth - 1, callees), expr(rng, depth - 1, callees))
    if r < 0.84:
        return '(let ((y %s)) %s)' % (expr(rng, depth - 1, callees), expr(rng, depth - 1, callees))
    if r < 0.9:
        return '(begin %s %s)' % (expr(rng, depth - 1, callees), rng.choice(LOCALS))
    if r < 0.92:
        return '(do ((i 0 (+ i 1)) (x %s %s)) ((= i 2) x) %s)' % (expr(rng, depth - 1, callees),
                                                             expr(rng, depth - 1, callees),
                                                             expr(rng, depth - 1, callees))
    if r < 0.95:
        return '(let loop ((i 0) (x %s)) (if (< i 2) (loop (+ i 1) %s) x))' % (expr(rng, depth - 1, callees),
                                                                            expr(rng, depth - 1, callees))
    if not callees:
        return rng.choice(LOCALS)
    return '(%s %s)' % (rng.choice(callees), expr(rng, depth - 1, callees))


def redefinition(rng) -> str:
    g = rng.choice(HELPERS[:3] + HELPERS[:3] + HELPERS[3:])
    table = rng.choice([MACROS, MACROS, FUNCTION_DEFS, VALUES])
    return rng.choice(table).format(g=g)


def flips(rng) -> list:
    """The macros, functions and flips (functions that redefine a helper when called) of a program."""
    parts = [m.format(g='mac%d' % i) for i, m in enumerate(MACROS)]
    parts += [m.format(g='fun%d' % i) for i, m in enumerate(FUNCTION_DEFS)]
    for f in FLIPS:
        value = rng.choice(['mac%d' % rng.randrange(len(MACROS)), 'mac%d' % rng.randrange(len(MACROS)),
                            'fun%d' % rng.randrange(len(FUNCTION_DEFS)), rng.choice(['5', "'(1 2)", 'car', 'abs'])])
        parts.append('(define (%s) (set! %s %s))' % (f, rng.choice(HELPERS), value))
    return parts


def program(rng) -> str:
    """Definitions, then calls with redefinitions between them and during them."""
    parts = ['(define (g0 a) a) (define (g1 a) (list a)) (define (g2 a) 1)'] + flips(rng)
    for i, f in enumerate(FUNCTIONS):
        earlier = FUNCTIONS[:i]         # (no recursion: every call ends at once)
        steps = [rng.choice(['(%s %s)' % (rng.choice(HELPERS), rng.choice(LOCALS)), expr(rng, 3, earlier)])
                 for _ in range(rng.randint(1, 3))]
        result = rng.choice(LOCALS + LOCALS + [expr(rng, 2, earlier)])
        parts.append('(define (%s x) (let ((y %s)) %s %s))' % (f, rng.choice(ATOMS[:4]), ' '.join(steps), result))
    for _ in range(rng.randint(2, 5)):
        if rng.random() < 0.6:
            parts.append(redefinition(rng))
        for f in rng.sample(FUNCTIONS, 2):
            parts.append('(show (try-catch (%s %s) (e) (cons (quote error) e)))' % (f, rng.choice(ATOMS)))
            parts.append('(show (try-catch (%s %s) (e) (cons (quote error) e)))' % (f, rng.choice(ATOMS)))
    return '(define (show v) (display v) (newline))\n' + '\n'.join(parts)


def run(text: str, fast: bool):
    """(status, stdout, stderr) of `rusty -e text`, compiling from the first call when fast (a
    depth limit of LIMIT unless the caller set one: a builtin the library uses turned macro may
    recurse without end)."""
    from rusty import cli
    saved = {k: os.environ.get(k) for k in ('RUSTY_SPECIALIZE', 'RUSTY_COMPILE_CALLS', 'RUSTY_RECURSION_LIMIT')}
    os.environ['RUSTY_SPECIALIZE'] = '1' if fast else '0'
    os.environ['RUSTY_COMPILE_CALLS'] = '0'
    os.environ['RUSTY_RECURSION_LIMIT'] = saved['RUSTY_RECURSION_LIMIT'] or str(LIMIT)
    out, err = io.StringIO(), io.StringIO()
    try:
        status = cli.main(['-e', text], stdout=out, stderr=err, stdin=io.StringIO(''))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return status, out.getvalue(), err.getvalue()


def differences(n: int, seed: int, show: int = 3, progress: int = 0) -> int:
    """How many of n generated programs the two paths disagree on (the first few printed)."""
    rng = random.Random(seed)
    bad = 0
    for i in range(n):
        text = program(rng)
        ref, fast = run(text, False), run(text, True)
        if ref != fast or 'internal error' in ref[2]:
            bad += 1
            if bad <= show:
                print('--- program %d differs:\n%s\nreference: %r\nfast:      %r' % (i, text, ref, fast))
        if progress and (i + 1) % progress == 0:
            print('%d programs, %d differences so far' % (i + 1, bad), flush=True)
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-n', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args(argv)
    bad = differences(a.n, a.seed, progress=500)
    print('%d programs, %d differences' % (a.n, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
