"""The Jupyter kernel: a face like the REPL, on ipykernel's Kernel base class.

One runtime session per kernel (per notebook). A cell is read and run as the
REPL runs an input; its value is shown in write form (rich.bundle), output
written while it runs is streamed through ipykernel's stdout and stderr, an
error is shown as its report. An interrupt (SIGINT, as Jupyter sends it)
arrives on the main thread while it waits for the evaluation thread, which
stops the running code — native code included — as Ctrl-C does at the REPL;
the session and its definitions stay.

An error is a Jupyter error (an iopub `error` message and an execute_reply
with status `error`), so nbconvert, papermill and the browser treat it as one.
After an error, Jupyter aborts the execute requests queued behind it (a Run
All sends every cell at once); requests that reach the kernel just after the
error, although their client sent them before it (the browser's go through
the notebook server one by one), are aborted too: those sent, by their
header's date, before the error (its reply is sent after), and arriving
within ABORT_WINDOW of it. A client that waits for each reply sends after
it, so it is never aborted. (A client whose clock is behind
the kernel's may see a request it sent within ABORT_WINDOW after the error
aborted; one whose clock is ahead gets only ipykernel's own aborting.)
Open matplotlib figures are shown after each cell (figures.py).
"""
from __future__ import annotations

import io
import re
import sys
import time
from datetime import datetime, timezone

from ipykernel.kernelbase import Kernel

from .. import __version__
from ..errors import EvalError, Exit, Interrupted, RustyError
from ..forms import NAMES
from ..reader import open_depth
from ..runtime import Session
from ..values import NIL, Builtin, Lambda, List, Tensor
from . import figures, rich

WORD_BEFORE = re.compile(r'''[^\s()'"`,;]*$''')
WORD_AFTER = re.compile(r'''^[^\s()'"`,;]*''')
META = re.compile(r'^\s*,(\w+)\s*(.*)$', re.S)
ABORT_WINDOW = 1.0      # seconds after an error in which requests sent before it are aborted


class _Current:
    """A stream that writes to whatever sys.stdout / sys.stderr is now (ipykernel's
    streams, which send what is written to the notebook as it comes)."""

    def __init__(self, name: str):
        self.name = name
        self.parent = None      # the request being answered: its output is sent as part of it

    def write(self, s: str) -> int:
        stream = getattr(sys, self.name)
        if self.parent is not None and hasattr(stream, 'set_parent'):
            stream.set_parent(self.parent)      # we write from the evaluation thread
        return stream.write(s)

    def flush(self) -> None:
        getattr(sys, self.name).flush()

    def isatty(self) -> bool:
        return False


def _is_number(v) -> bool:
    """A rusty number: a float, or an exact integer (never a boolean)."""
    return v.__class__ is float or v.__class__ is int


class RustyKernel(Kernel):
    implementation = 'rusty'
    implementation_version = __version__
    language = 'rusty'
    language_version = __version__
    language_info = {'name': 'rusty', 'mimetype': 'text/x-rusty', 'file_extension': '.lisp',
                     'pygments_lexer': 'rusty', 'codemirror_mode': 'scheme'}
    banner = 'rusty %s — a Lisp you can live in' % __version__

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.streams = (_Current('stdout'), _Current('stderr'))
        # standard input is empty: a notebook has no terminal to read from
        self.rusty = Session(out=self.streams[0], err=self.streams[1], inp=io.StringIO())
        self._install_display()
        self._error_at = None           # (monotonic, UTC) time of the last error that stops the queue

    # ── Display from code ──

    def _install_display(self) -> None:
        """`(plot ys [title])`: a line chart of a list or rank-1 tensor of numbers, shown now."""
        from ..values import sym

        def plot(ys, title=''):
            values = list(ys.data) if ys.__class__ is Tensor and len(ys.shape) == 1 else (
                list(ys) if ys.__class__ is List else None)
            if not values or not all(_is_number(v) for v in values):
                raise EvalError('plot: expects a non-empty list or rank-1 tensor of numbers')
            if title.__class__ is not str:
                raise EvalError('plot: the title must be a string')
            values = [float(v) for v in values]
            self.display(rich.plot_bundle(values, title))
            return NIL
        self.rusty.genv.define(sym('plot'), Builtin(
            'plot', plot, 1, 2, None, 'In a notebook: shows a line chart of ys (a list or rank-1 tensor '
            'of numbers) against their index, with an optional title.', '(plot ys [title])'))

    def display(self, data: dict) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        self.send_response(self.iopub_socket, 'display_data', {'data': data, 'metadata': {}})

    # ── Execute ──

    async def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False,
                         **kwargs):
        file = '<cell %d>' % self.execution_count
        for stream in self.streams:
            stream.parent = self.get_parent()
        m = META.match(code)
        try:
            if m and m.group(1) == 'graph':
                shown = self._graph(m.group(2), file)
            elif m and m.group(1) == 'doc':
                shown = self._doc(m.group(2).strip())
            else:
                value = self.rusty.run(code, file)
                shown = rich.bundle(value) if value is not NIL else None
        except RustyError as e:
            return self._error(e, silent)
        except KeyboardInterrupt:       # an interrupt that landed outside the evaluation itself
            return self._error(Interrupted(), silent)
        except Exit as e:
            return self._error(EvalError('exit: (exit %d) ends a script; the notebook session goes on'
                                         % e.status), silent)
        self._show_figures(silent)      # what the cell printed and drew comes before its value
        if shown is not None and not silent:
            self.send_response(self.iopub_socket, 'execute_result',
                               {'execution_count': self.execution_count, 'data': shown, 'metadata': {}})
        return {'status': 'ok', 'execution_count': self.execution_count, 'payload': [],
                'user_expressions': {}}

    def _error(self, e: RustyError, silent: bool) -> dict:
        """Report the error as Jupyter does (an iopub `error`); the reply's content."""
        self._show_figures(silent)
        request = self.get_parent().get('content', {})
        if request.get('stop_on_error', True) and not silent:
            # before the reply is sent: a client that waits for it sends its next request later
            self._error_at = (time.monotonic(), datetime.now(timezone.utc))
        content = rich.error_content(e, self.rusty.sources)
        if not silent:
            self.send_response(self.iopub_socket, 'error', content)
        return {'status': 'error', 'execution_count': self.execution_count, **content}

    def _show_figures(self, silent: bool) -> None:
        """Flush the cell's output, then show and close its matplotlib figures."""
        sys.stdout.flush()
        sys.stderr.flush()
        figures.show_figures(lambda data: None if silent else self.display(data), self.streams[1].write)

    # ── Stopping the queue after an error ──

    def should_handle(self, stream, msg, idents):
        """False (and an `aborted` reply) for an execute request sent before the last error."""
        if msg['header'].get('msg_type') == 'execute_request' and self._sent_before_error(msg['header']):
            self._send_abort_reply(stream, msg, idents)
            return False
        return super().should_handle(stream, msg, idents)

    def _sent_before_error(self, header: dict) -> bool:
        if self._error_at is None:
            return False
        at, wall = self._error_at
        if time.monotonic() - at > ABORT_WINDOW:
            self._error_at = None
            return False
        sent = sent_at(header.get('date'))
        return sent is not None and sent < wall

    def _graph(self, text: str, file: str) -> dict:
        """`,graph EXPR`: the optimised graph IR of a lambda as a table."""
        from ..repl.show import graph_rows, graph_table
        graph_ir = self.rusty.global_value('graph-ir')
        fn = self.rusty.run(' ' * len(',graph ') + text, file)
        data = self.rusty.worker.call(self.rusty.call, graph_ir, [fn])
        names = [p.name for p in fn.params] if fn.__class__ is Lambda else []
        rows = graph_rows(data, names)
        if rows is None:
            return rich.bundle(data)
        return rich.graph_bundle(rows, graph_table(data, names))

    def _doc(self, name: str) -> dict:
        text = self.rusty.documentation(name)
        return {'text/plain': text if text is not None else 'no documentation for %s' % name}

    # ── Completion, inspection, completeness ──

    async def do_complete(self, code, cursor_pos):
        prefix = WORD_BEFORE.search(code[:cursor_pos]).group()
        names = set(self.rusty.global_names()) | set(NAMES)
        matches = sorted(n for n in names if n.startswith(prefix)) or self.rusty.attribute_completions(prefix)
        return {'status': 'ok', 'matches': matches, 'cursor_start': cursor_pos - len(prefix),
                'cursor_end': cursor_pos, 'metadata': {}}

    async def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        name = WORD_BEFORE.search(code[:cursor_pos]).group() + WORD_AFTER.match(code[cursor_pos:]).group()
        text = self.rusty.documentation(name) if name else None
        if text is None:
            return {'status': 'ok', 'found': False, 'data': {}, 'metadata': {}}
        return {'status': 'ok', 'found': True, 'data': {'text/plain': text}, 'metadata': {}}

    async def do_is_complete(self, code):
        depth, in_string = open_depth(code)
        if depth < 0:
            return {'status': 'invalid'}
        if depth > 0 or in_string:
            return {'status': 'incomplete', 'indent': '  ' * max(depth, 0)}
        return {'status': 'complete'}


def sent_at(date) -> datetime | None:
    """A message header's date as an aware UTC datetime (None if it has none).
    jupyter_client gives a datetime (a naive one is local time); else an ISO string."""
    if isinstance(date, str):
        try:
            date = datetime.fromisoformat(date.replace('Z', '+00:00'))
        except ValueError:
            return None
    if not isinstance(date, datetime):
        return None
    return date.astimezone(timezone.utc)


def launch() -> None:
    """Run the kernel (`python -m rusty.kernel -f CONNECTION_FILE`)."""
    figures.use_agg_backend()       # before ipykernel picks matplotlib-inline's, which needs IPython
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=RustyKernel)
