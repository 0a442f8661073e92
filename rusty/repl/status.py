"""The status line shown while rustc works: `compiling NAME…` after a short
delay, erased when the compilation ends. Called on the compiling thread."""
from __future__ import annotations

import threading

DELAY = 0.3


class CompileStatus:
    """Compile listener for rusty.jit.build; writes to a terminal stream."""

    def __init__(self, out, paint, delay: float = DELAY):
        self.out = out
        self.paint = paint
        self.delay = delay
        self.lock = threading.Lock()
        self.timer = None
        self.shown = False

    def start(self, what: str) -> None:
        with self.lock:
            self._cancel()
            self.timer = threading.Timer(self.delay, self._show, (what,))
            self.timer.daemon = True
            self.timer.start()

    def end(self, what: str) -> None:
        with self.lock:
            self._cancel()
            if self.shown:
                self.out.write_raw('\r\x1b[2K')
                self.out.flush()
                self.shown = False

    def _cancel(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _show(self, what: str) -> None:
        with self.lock:
            if threading.current_thread() is not self.timer:
                return      # cancelled, or superseded by a newer compilation
            if not self.out.at_line_start:
                self.out.write('\n')
            name = what[len('rusty_'):] if what.startswith('rusty_') else what
            self.out.write_raw('\r\x1b[2K' + self.paint('compiling %s… (rustc)' % name, 'ansibrightblack'))
            self.out.flush()
            self.shown = True
