"""The expansion worker: a process of its own that runs macro bodies for the
language server (`python -m rusty.lsp.expander`).

It runs only restricted sessions (restricted.py: effectful builtins and
forms refuse), under a memory limit (RLIMIT_AS), and the server kills it
when an expansion outlives its budget, so nothing a document's macros do
reaches the file system, the environment or the server. Requests, one at a
time on standard input (wire.py framing), answers on standard output:

  ('define', key, texts)  evaluate a document's defmacro texts in a new session
                          known by key  -> ('ok',)
  ('expand', key, call)   expand the call (wire data) there (key None: the
                          standard library's macros alone)
                          -> ('ok', expansion) | ('refused', name) | ('failed', message)
"""
from __future__ import annotations

import os
import sys

MEMORY_MB = 1024        # RUSTY_LSP_EXPAND_MEMORY overrides: the worker's address space, MiB
SOFT_TIMEOUT = 0.5      # seconds before an expansion is interrupted (the server kills it later)
SESSIONS = 8            # definition sets kept
WATCHDOG = 5.0          # seconds one request may run before the worker ends itself (the server kills it sooner)


def memory_limit() -> int:
    text = os.environ.get('RUSTY_LSP_EXPAND_MEMORY', '')
    return int(text) if text.isdigit() and int(text) > 0 else MEMORY_MB


def limit_memory() -> None:
    try:
        import resource
        limit = memory_limit() << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


class Expander:
    """The worker's sessions, by definition key."""

    def __init__(self):
        from .restricted import RestrictedSession, lock_down_forms
        lock_down_forms()
        self.make = RestrictedSession
        self.sessions: dict = {None: RestrictedSession()}

    def define(self, key, texts) -> tuple:
        from ..errors import RustyError
        s = self.make()
        for text in texts:
            timer = _timer(s)
            try:
                s.run(text, '<macro>')
            except RustyError:
                pass
            finally:
                timer.cancel()
        if len(self.sessions) > SESSIONS:
            self.sessions.pop(next(k for k in self.sessions if k is not None))
        self.sessions[key] = s
        return ('ok',)

    def expand(self, key, data) -> tuple:
        from ..errors import RustyError
        from . import wire
        s = self.sessions.get(key)
        if s is None:
            return ('failed', 'unknown definitions')
        call, numbers = wire.decode_call(data)
        s.refused = None
        timer = _timer(s)
        try:
            out = s.macroexpand(call)
        except RustyError as e:
            return ('refused', s.refused) if s.refused else ('failed', e.message)
        finally:
            timer.cancel()
        if s.refused:
            return ('refused', s.refused)
        if out is call:
            return ('failed', 'not a macro call')
        return ('ok', wire.encode_expansion(out, numbers))


def _timer(session):
    """A started timer that interrupts the session's evaluation after SOFT_TIMEOUT."""
    import threading
    timer = threading.Timer(SOFT_TIMEOUT, session.worker.interrupt)
    timer.daemon = True
    timer.start()
    return timer


def watchdog(busy: list) -> None:
    """End this process when a request runs past WATCHDOG seconds or the server is gone
    (a body that catches every interrupt must not outlive the server)."""
    import threading
    import time
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.25)
            if os.getppid() != parent or (busy[0] is not None and time.monotonic() - busy[0] > WATCHDOG):
                os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def main() -> int:
    limit_memory()
    import time
    from . import wire
    inp, out = sys.stdin.fileno(), sys.stdout.fileno()
    sys.stdout = sys.stderr         # nothing but answers on the pipe
    busy = [None]                   # when the request being answered began (None: waiting)
    watchdog(busy)
    expander = Expander()
    wire.send(out, ('ready',))
    while True:
        busy[0] = None
        try:
            request = wire.receive(inp)
        except EOFError:
            return 0
        busy[0] = time.monotonic()
        try:
            if request[0] == 'define':
                answer = expander.define(request[1], request[2])
            else:
                answer = expander.expand(request[1], request[2])
        except MemoryError:
            answer = ('failed', 'out of memory')
        except Exception as e:      # a shape we did not expect: this expansion fails, the worker stays
            answer = ('failed', 'internal error: %s' % type(e).__name__)
        wire.send(out, answer)


if __name__ == '__main__':
    sys.exit(main())
