"""The Jupyter kernel: a face like the REPL, on ipykernel's Kernel base class.

One runtime session per kernel (per notebook). A cell is read and run as the
REPL runs an input; its value is shown in write form (rich.bundle), output
written while it runs is streamed through ipykernel's stdout and stderr, an
error is shown as its report. An interrupt (SIGINT, as Jupyter sends it)
arrives on the main thread while it waits for the evaluation thread, which
stops the running code — native code included — as Ctrl-C does at the REPL;
the session and its definitions stay.
"""
from __future__ import annotations

import io
import re
import sys

from ipykernel.kernelbase import Kernel

from .. import __version__
from ..errors import EvalError, Exit, Interrupted, RustyError
from ..forms import NAMES
from ..reader import open_depth
from ..runtime import Session
from ..values import NIL, Builtin, Lambda, List, Tensor
from . import rich

WORD_BEFORE = re.compile(r'''[^\s()'"`,;]*$''')
WORD_AFTER = re.compile(r'''^[^\s()'"`,;]*''')
META = re.compile(r'^\s*,(\w+)\s*(.*)$', re.S)


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
        sys.stdout.flush()          # what the cell printed comes before its value
        sys.stderr.flush()
        if shown is not None and not silent:
            self.send_response(self.iopub_socket, 'execute_result',
                               {'execution_count': self.execution_count, 'data': shown, 'metadata': {}})
        return {'status': 'ok', 'execution_count': self.execution_count, 'payload': [],
                'user_expressions': {}}

    def _error(self, e: RustyError, silent: bool) -> dict:
        sys.stdout.flush()
        if not silent:
            self.display(rich.error_bundle(e, self.rusty.sources))
        return {'status': 'error', 'execution_count': self.execution_count, 'ename': 'Error',
                'evalue': e.message, 'traceback': rich.render(e, self.rusty.sources).rstrip('\n').split('\n')}

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


def launch() -> None:
    """Run the kernel (`python -m rusty.kernel -f CONNECTION_FILE`)."""
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=RustyKernel)
