"""Fuzz the whole language with random programs and count what went wrong
(`make fuzz` runs 100,000; tests/test_fuzz.py runs a bounded number):

    python3 tests/fuzz_programs.py [-n N] [--seed S] [--timeout SECONDS] [--memory MiB]

Programs are drawn from a grammar over every special form and nearly every
builtin (those that touch files, stdin, the process or rustc are left out),
with hostile atoms (huge and odd numbers, undecodable-byte strings, deep and
self-containing data) and, for some, the text mangled after it is written
(a bracket dropped or doubled, a byte-order mark, stray bytes). Each runs in
a session shared by a few hundred programs, under an address-space limit, and
is interrupted as Ctrl-C would be after `timeout` seconds.

Wrong, each counted and the first few shown:
- internal error: a report or a caught message containing `internal error:`;
- traceback: anything but a rusty error escaping the session, or a host
  traceback / "Exception ignored" written to standard error;
- hang: a program the interrupt (then the second interrupt) did not stop
  within HANG_GRACE seconds (the run stops there: the session is stuck).
Interrupted programs (slow, not stuck) are counted apart. Exit status 1 if
anything was wrong.
"""
from __future__ import annotations

import argparse
import io
import os
import random
import resource
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rusty.errors import RustyError                    # noqa: E402
from rusty.printer import display_form, print_form    # noqa: E402

HANG_GRACE = 20.0           # seconds after the first interrupt before a program counts as stuck
PROGRAMS_PER_SESSION = 250

EXCLUDED = {'exit', 'file-append', 'file-delete', 'file-write', 'file-read', 'dir-create', 'dir-list', 'save-model',
            'load-model', 'read-line', 'read-stdin', 'graph-compile', 'graph-compile-grad', 'load', 'load-relative',
            'defrust', 'defrust*', 'random-seed!', 'command-line-args'}
LOCALS = ['x', 'y', 'z', 'h', 'l', 's', 'f']
NUMBERS = ['0', '1', '-1', '2', '3', '7', '2.5', '-0.0', '0.1', '1e12', '1e400', '-1e400', '1e-300', '1e308',
           '123456789012345678901234567890', '-9007199254740993', '255', '1000000', '4.5e15', '0.5']
STRINGS = ['"s"', '""', '"hello world"', '"1.5"', '"[1, 2, {\\"a\\": null}]"', '"{\\"k\\": [1, 2.5]}"', '"a,b,,c"',
           '"λ→é"', '"\\n\\t"', '" padded "', '"(+ 1 2)"', '"(define"', '"%s %d %5.2f"', '"\\\\"', '"#t"']
DATA = ["'()", "'a", "'(1 2 3)", "'(a (b c) . d)", "'((a . 1) (b . 2))", '#t', '#f', 'nil', "'#(1 2)",
        "(make-hash)", "(hash 'a 1 'b 2)", "(tensor '((1 2) (3 4)))", "(tensor '(1 2 3))", "(range 0 5)",
        "(getenv \"FUZZ_BYTES\")", "(json-decode (string-repeat \"[\" 300) 'hash)"]
SETUP = '''(define x 3) (define y (list 1 2 "s")) (define z 2.5) (define h (make-hash)) (hash-set! h 'k 1)
(define l '(1 2 3)) (define s "str") (define (f a) (* a 2))'''


def vocabulary(session) -> list[str]:
    """Every bound name and special form the fuzzer may call."""
    from rusty import eval as ev
    names = set(session.global_names()) | set(ev.SPECIAL_FORM_NAMES)
    return sorted(n for n in names if n not in EXCLUDED and not n.startswith('*'))


class Grammar:
    """Random program text from a seeded generator."""

    def __init__(self, rng: random.Random, names: list[str]):
        self.rng = rng
        self.names = names

    def atom(self) -> str:
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice(LOCALS)
        if r < 0.5:
            return self.rng.choice(NUMBERS)
        if r < 0.65:
            return self.rng.choice(STRINGS)
        if r < 0.8:
            return self.rng.choice(DATA)
        return self.rng.choice(self.names)

    def expr(self, budget: int) -> str:
        if budget <= 1 or self.rng.random() < 0.25:
            return self.atom()
        shape = self.rng.random()
        n = self.rng.randint(0, 4)
        parts = [self.expr(budget // (n + 1)) for _ in range(n)]
        if shape < 0.55:
            return '(%s)' % ' '.join([self.rng.choice(self.names)] + parts)
        if shape < 0.65:
            params = ' '.join(self.rng.sample(LOCALS, self.rng.randint(0, 3)))
            return '(lambda (%s) %s)' % (params, ' '.join(parts) or '0')
        if shape < 0.75:
            v = self.rng.choice(LOCALS)
            return '(let ((%s %s)) %s)' % (v, self.expr(budget // 2), ' '.join(parts) or v)
        if shape < 0.8:
            return '(define %s %s)' % (self.rng.choice(LOCALS), self.expr(budget // 2))
        if shape < 0.85:
            return '`(%s ,%s ,@%s)' % (self.atom(), self.expr(budget // 2), self.rng.choice(["'(1 2)", 'l', 'x']))
        if shape < 0.9:
            return '(try-catch %s (e) e)' % self.expr(budget // 2)
        if shape < 0.95:
            return "'(%s)" % ' '.join(parts)
        return '(%s)' % ' '.join(parts)

    def program(self) -> str:
        text = ' '.join(self.expr(self.rng.randint(2, 40)) for _ in range(self.rng.randint(1, 4)))
        r = self.rng.random()
        if r < 0.04:
            text = '\ufeff' + text
        elif r < 0.08 and text:
            i = self.rng.randrange(len(text))
            text = text[:i] + self.rng.choice(['(', ')', '"', '#', "'", '\\', '\x00', '\udcff', ',@']) + text[i:]
        elif r < 0.1:
            text = '(' * self.rng.randint(100, 900) + text + ')' * self.rng.randint(0, 900)
        return text


class Watchdog:
    """Interrupts the running program after `timeout` (then again: the
    uncatchable second interrupt), and declares it stuck after HANG_GRACE."""

    def __init__(self, session, timeout: float):
        self.session = session
        self.timeout = timeout
        self.lock = threading.Lock()
        self.started = None
        self.interrupted = False
        self.stuck = None
        self.closed = False
        threading.Thread(target=self._watch, daemon=True).start()

    def begin(self):
        with self.lock:
            self.started = time.monotonic()
            self.interrupted = False

    def end(self):
        with self.lock:
            self.started = None

    def close(self):
        """Let the watching thread end."""
        self.closed = True

    def _watch(self):
        while not self.closed:
            time.sleep(0.05)
            with self.lock:
                started = self.started
            if started is None:
                continue
            late = time.monotonic() - started - self.timeout
            if late > 0 and not self.interrupted:
                self.interrupted = True
                self.session.worker.interrupt()
            elif late > 2.0:
                self.session.worker.interrupt()
            if late > HANG_GRACE:
                self.stuck = time.monotonic()
                return


def run_one(session, text: str):
    """('ok'|'error'|'internal'|'traceback', detail) of one program."""
    try:
        v = session.run(text, '<fuzz>')
        print_form(v)
        display_form(v)
    except RustyError as e:
        if 'internal error:' in e.message:
            return 'internal', e.message
        return 'error', e.message
    except BaseException as e:      # anything else escaping is a bug
        return 'traceback', '%s: %s' % (type(e).__name__, e)
    out = session.out.getvalue()
    if 'internal error:' in out:
        return 'internal', out[-300:]
    return 'ok', None


def new_session():
    from rusty.runtime import Session
    s = Session(out=io.StringIO(), err=io.StringIO(), inp=io.StringIO(''))
    s.run(SETUP, '<setup>')
    return s


def fuzz(n: int, seed: int = 0, timeout: float = 1.0, show: int = 5, log=print) -> dict:
    """Run `n` random programs; the counts (and 'examples' of what went wrong)."""
    os.environ.setdefault('FUZZ_BYTES', 'caf\udce9 \udcff')
    stderr = sys.stderr
    captured = io.StringIO()
    sys.stderr = captured
    rng = random.Random(seed)
    counts = {'programs': 0, 'ok': 0, 'error': 0, 'internal': 0, 'traceback': 0, 'hang': 0, 'interrupted': 0}
    examples = []
    session = watchdog = None
    t0 = time.monotonic()
    try:
        for i in range(n):
            if i % PROGRAMS_PER_SESSION == 0:
                session = new_session()
                if watchdog is None:
                    watchdog = Watchdog(session, timeout)
                watchdog.session = session
                grammar = Grammar(rng, vocabulary(session))
            text = grammar.program()
            session.out.seek(0)
            session.out.truncate()
            watchdog.begin()
            kind, detail = run_one(session, text)
            watchdog.end()
            if watchdog.stuck is not None:
                kind, detail = 'hang', 'not stopped by interrupts'
            elif watchdog.interrupted:
                counts['interrupted'] += 1
            noise = captured.getvalue()
            if 'Traceback' in noise or 'Exception ignored' in noise:
                kind, detail = 'traceback', noise[-500:]
            captured.seek(0)
            captured.truncate()
            counts['programs'] += 1
            counts[kind] += 1
            if kind in ('internal', 'traceback', 'hang'):
                if len(examples) < show:
                    examples.append((kind, text, detail))
            if kind == 'hang':
                break
            if log and (i + 1) % 10000 == 0:
                log('%d programs, %.0f s: %s' % (i + 1, time.monotonic() - t0, _summary(counts)), file=stderr)
    finally:
        sys.stderr = stderr
        if watchdog is not None:
            watchdog.close()
    counts['seconds'] = round(time.monotonic() - t0, 1)
    counts['examples'] = examples
    return counts


def _summary(counts: dict) -> str:
    return ', '.join('%s %s' % (k, counts[k]) for k in
                     ('programs', 'ok', 'error', 'interrupted', 'internal', 'traceback', 'hang'))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-n', type=int, default=100_000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--timeout', type=float, default=1.0)
    ap.add_argument('--memory', type=int, default=3000, help='address-space limit in MiB (0: none)')
    args = ap.parse_args(argv)
    if args.memory:
        limit = args.memory << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    counts = fuzz(args.n, args.seed, args.timeout)
    print(_summary(counts) + ', %.0f s' % counts['seconds'])
    for kind, text, detail in counts['examples']:
        print('--- %s\n%s\n=> %s' % (kind, text[:2000], detail))
    return 1 if counts['internal'] or counts['traceback'] or counts['hang'] else 0


if __name__ == '__main__':
    sys.exit(main())
