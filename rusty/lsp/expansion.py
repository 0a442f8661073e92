"""Macro expansion for the language server's analysis, without running a
document's code in the server.

The standard library's macros (templates the project wrote) expand in the
server's own session. A document's own macros expand in the expansion
worker (expander.py), a separate process whose restricted sessions refuse
every effectful builtin and form; the server waits for each answer at most
HARD_TIMEOUT seconds and then kills the worker (it is started again on the
next expansion), and one analysis spends at most its Budget on the worker,
so forty spinning macros cost one budget; once a document's macros have run
out of time for SPIN_LIMIT seconds in all, their calls not yet expanded are
not run until a definition changes. Expansions are cached by the macro
definitions' text and the call's text, so an edit re-expands only the calls
it touched.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from ..errors import RustyError
from ..printer import write_form
from . import wire

HARD_TIMEOUT = 1.5      # seconds one expansion may take in the worker before it is killed
START_TIMEOUT = 20.0    # seconds the worker may take to start and define a document's macros
BUDGET = 3.0            # seconds of worker time per analysis
SPIN_LIMIT = 2 * BUDGET  # seconds of timed-out expansions after which a definition set's new calls are not run
SOFT_TIMEOUT = 0.5      # seconds an expansion in the server's own session may run
CACHE_SIZE = 20000      # expansions kept


class Budget:
    """The worker time an analysis may still spend."""

    def __init__(self, seconds: float = BUDGET):
        self.left = seconds
        self.spent = 0.0
        self.skipped = 0        # expansions not run for want of time

    def spend(self, seconds: float) -> None:
        self.left -= seconds
        self.spent += seconds



class Worker:
    """The expansion worker process, started when first needed."""

    def __init__(self):
        self.proc = None
        self.ready = False
        self.defined: set = set()       # definition keys the running worker holds

    def start(self) -> None:
        """Start the worker (it says ('ready',) once it can expand)."""
        env = dict(os.environ, RUSTY_NATIVE_KERNELS='0', RUSTY_RECURSION_LIMIT='20000')
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env['PYTHONPATH'] = here + os.pathsep + env.get('PYTHONPATH', '')
        self.proc = subprocess.Popen([sys.executable, '-m', 'rusty.lsp.expander'], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.ready = False
        self.defined = set()

    def request(self, message, timeout: float):
        """The worker's answer, or None when it took longer than timeout or died
        (then it is killed, and started again by the next request)."""
        try:
            if self.proc is None or self.proc.poll() is not None:
                self.start()
            if not self.ready:
                wire.receive(self.proc.stdout.fileno(), time.monotonic() + START_TIMEOUT)
                self.ready = True
            wire.send(self.proc.stdin.fileno(), message)
            return wire.receive(self.proc.stdout.fileno(), time.monotonic() + timeout)
        except (TimeoutError, EOFError, OSError, ValueError):
            self.stop()
            return None

    def stop(self) -> None:
        """Kill the worker (an expansion outlived its budget, or the server ends)."""
        proc, self.proc = self.proc, None
        if proc is not None:
            try:
                proc.kill()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
        self.defined = set()


class Expansions:
    """Expands macro calls for analyses (see the module docstring)."""

    def __init__(self, session=None):
        self.session = session          # the server's own session: the standard library's macros
        self.worker = Worker()          # started when first asked for
        self.cache: dict = {}
        self.runs = 0                   # expansions actually run (not from the cache)
        self.spun: dict = {}            # definitions -> seconds their expansions ran out of time

    def expand(self, defs: tuple | None, x, budget: Budget):
        """(expansion or None, the refused builtin or None) of macro call x.
        defs: the document's defmacro texts when the macro is the document's, else None."""
        data, cells = wire.encode_call(x)
        key = (defs, write_form(x))
        found = self.cache.get(key)
        if found is None:
            if defs is not None and self.spun.get(defs, 0.0) >= SPIN_LIMIT:
                found = ('timeout',)    # given up until the definitions change
            elif defs is not None and budget.left <= 0:
                budget.skipped += 1     # tried again by the next analysis (what spun is cached by then)
                return None, None
            else:
                self.runs += 1
                found = self._run(defs, x, data, cells, budget)
                if found[0] == 'cut':       # stopped for want of budget, not for spinning: not kept
                    budget.skipped += 1
                    return None, None
            if len(self.cache) >= CACHE_SIZE:       # a call that ran out of time is not tried again either
                self.cache.pop(next(iter(self.cache)))
            self.cache[key] = found
        if found[0] == 'ok':
            return wire.decode_expansion(found[1], cells), None
        return None, (found[1] if found[0] == 'refused' else None)

    def _run(self, defs, x, data, cells, budget: Budget) -> tuple:
        """The worker's answer; ('timeout',) when the call ran HARD_TIMEOUT
        seconds, ('cut',) when it ran out of the analysis's budget before."""
        if defs is None:
            return self._run_here(x, cells)
        start = time.monotonic()
        key = hash(defs)
        allowed = min(HARD_TIMEOUT, max(budget.left, 0.05))
        answer = None
        try:
            if key in self.worker.defined or self.worker.request(('define', key, list(defs)), allowed) is not None:
                self.worker.defined.add(key)
                allowed = min(HARD_TIMEOUT, max(budget.left - (time.monotonic() - start), 0.05))
                answer = self.worker.request(('expand', key, data), allowed)
        finally:
            budget.spend(time.monotonic() - start)
        if answer is not None:
            return answer
        if len(self.spun) > 256:
            self.spun.clear()
        self.spun[defs] = self.spun.get(defs, 0.0) + time.monotonic() - start
        return ('timeout',) if allowed >= HARD_TIMEOUT else ('cut',)

    def _run_here(self, x, cells) -> tuple:
        """Expand a standard-library macro call in the server's session."""
        import threading
        session = self.session
        timer = threading.Timer(SOFT_TIMEOUT, session.worker.interrupt)
        timer.start()
        try:
            out = session.macroexpand(x)
        except RustyError as e:
            return ('failed', e.message)
        finally:
            timer.cancel()
        if out is x:
            return ('failed', 'not a macro call')
        return ('ok', wire.encode_expansion(out, {id(c): i for i, c in enumerate(cells)}))

    def close(self) -> None:
        self.worker.stop()
