"""Drive the REPL headlessly (used by tests/test_repl_*.py): keys go in through
a prompt_toolkit pipe, the REPL's stdout is captured, the screen is discarded.

Keys typed ahead are kept by prompt_toolkit for the next prompt, so a whole
session can be sent at once; it should end with CTRL_D (or quit).
"""
import io
import signal
import threading
import time

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rusty.repl.session import Repl

ENTER = '\r'
META_ENTER = '\x1b\r'
TAB = '\t'
CTRL_C = '\x03'
CTRL_D = '\x04'
CTRL_R = '\x12'
UP = '\x1b[A'


def paste(text: str) -> str:
    """Bracketed paste of text (newlines as a terminal sends them)."""
    return '\x1b[200~' + text.replace('\n', '\r') + '\x1b[201~'


def drive(keys, *, history_file=None, color=False, width=None, interrupt=False, session=None,
          background=False, script=None):
    """Run a REPL on `keys`; (stdout text, the Repl).

    interrupt=True sends a real SIGINT to the main thread once an evaluation
    has been running for a moment (Ctrl-C during evaluation).
    """
    out = io.StringIO()
    with create_pipe_input() as inp:
        repl = Repl(input=inp, output=DummyOutput(), out=out, color=color,
                    history_file=history_file, session=session, background=background, script=script)
        repl._width_override = width
        inp.send_text(keys)
        stop = threading.Event()
        if interrupt:
            threading.Thread(target=_interrupt_when_busy, args=(repl, stop), daemon=True).start()
        try:
            repl.run()
        finally:
            stop.set()
    return out.getvalue(), repl


def _interrupt_when_busy(repl, stop):
    main = threading.main_thread().ident
    deadline = time.monotonic() + 20
    while not stop.is_set() and time.monotonic() < deadline:
        if repl.session.worker.running:
            time.sleep(0.2)
            if repl.session.worker.running:
                signal.pthread_kill(main, signal.SIGINT)
                return
        time.sleep(0.01)


def lines(text: str) -> list:
    """The output's lines without the two banner lines."""
    return text.split('\n')[2:]


def private_home(tmp_path, monkeypatch):
    """HOME in a temporary directory (history stays out of the real one);
    rustup and cargo keep finding the real toolchain."""
    import os
    real = os.path.expanduser('~')
    monkeypatch.setenv('RUSTUP_HOME', os.environ.get('RUSTUP_HOME', os.path.join(real, '.rustup')))
    monkeypatch.setenv('CARGO_HOME', os.environ.get('CARGO_HOME', os.path.join(real, '.cargo')))
    monkeypatch.setenv('HOME', str(tmp_path))
