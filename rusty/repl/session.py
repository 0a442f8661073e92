"""The REPL: the prompt loop, multi-line input decided by
rusty's reader, history, completion, results, error reports, meta-commands.

Evaluation is synchronous from the main thread's point of view: `Session.run`
hands the work to the big-stack worker and waits interruptibly, so Ctrl-C
during evaluation becomes the error `interrupted` and the loop goes on. The
prompt itself (prompt_toolkit) runs only between evaluations.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
from asyncio import CancelledError      # (prompt_toolkit has loaded asyncio: the REPL's own import)

from .. import __version__
from ..errors import Exit, Interrupted, RustyError, out_of_memory
from ..pretty import pretty_string
from ..report import render
from ..values import NIL, sym
from . import debug, indent, meta
from .output import Out, ReplName, Sources   # noqa: F401  (Out: imported from here by tests)
from .style import ReportStyle, color_wanted, highlight, paint

PROMPT = 'rusty> '
NESTED_PROMPT = 'rusty[%d]> '    # inside N breakpoints
BANNER = ('rusty %s — a Lisp you can live in.\n'
          'Type ,help for commands, (help) for the language; Ctrl-D or quit leaves.\n')
KEEP_INPUTS = 2000      # past inputs kept for error reports that point into them


# ── The REPL ─────────────────────────────────────────────────────────────

class Repl:
    """One interactive session: a rusty Session plus a prompt."""

    def __init__(self, input=None, output=None, out=None, history_file=None,
                 color=None, session=None, background=False, script=None):
        stream = out if out is not None else sys.stdout
        self.out = Out(stream)
        self.color = color_wanted(stream) if color is None else color
        self.inputs: dict[int, str] = {}
        self.count = 0
        self.level = 0              # breakpoints open (nested prompts)
        self.breaks = []            # their environments (frames.Env), innermost last
        self.last_error = None      # the last evaluation's uncaught error (,frames)
        self.frame_at = 0           # the frame ,locals shows (,up / ,down move it)
        self.sources = Sources(self)
        self.lexer = None
        self.report_style = None
        self._width_override = None
        self._session = None
        self._session_ready = threading.Event()
        self._session_error = None
        self._start_lock = threading.Lock()
        self.script = script        # (text, file, args) of `rusty -i FILE ARG…`: run first
        self._building = session is not None
        if session is not None:
            self._adopt(session)
        elif not background:
            self._start_building(in_thread=False)
        from .prompt import make_prompt
        self.prompt = make_prompt(self, input, output, history_file)
        if background and session is None:
            self._build_after_first_render()

    # ── The rusty session (built after the first prompt is drawn) ──

    @property
    def session(self):
        """The rusty Session; waits for it if it is still being built."""
        if self._session is None:
            self._start_building(in_thread=False)
            self._session_ready.wait()
            if self._session_error is not None:
                raise self._session_error
        return self._session

    def _adopt(self, session) -> None:
        for name in ('*1', '*2', '*3', '*e'):
            if session.global_value(name) is None:
                session.genv.define(sym(name), NIL)
        session.on_breakpoint = self._breakpoint
        session.tools            # made now: errors then keep the frame they failed in (,locals)
        self._session = session
        self._session_ready.set()

    def _start_building(self, in_thread: bool) -> None:
        """Build the Session once: on a thread, or here and now."""
        with self._start_lock:
            if self._building:
                return
            self._building = True
        if in_thread:
            threading.Thread(target=self._build_session, name='rusty-startup', daemon=True).start()
        else:
            self._build_session()

    def _build_session(self) -> None:
        from ..runtime import Session
        file, args = (self.script[1], self.script[2]) if self.script else (None, ())
        try:
            self._adopt(Session(out=self.out, script=file, args=args))
        except (KeyboardInterrupt, Interrupted):
            with self._start_lock:      # Ctrl-C while starting: start again when next needed
                self._building = False
            raise
        except BaseException as e:      # shown when the session is first needed
            self._session_error = e
            self._session_ready.set()

    def _build_after_first_render(self) -> None:
        """Start building the Session once the prompt is on the screen, so the
        first prompt does not wait for the builtins and the standard library
        (whatever needs the session first builds it, if that comes earlier)."""
        app = self.prompt.app

        def start(_app):
            app.after_render -= start
            self._start_building(in_thread=True)
        app.after_render += start

    # ── The loop ──

    def run(self) -> int:
        """Prompt, evaluate, show, until quit or end of input; the exit status."""
        self.write(BANNER % __version__)
        status = 0
        try:
            quit_now = False
            if self.script is not None:
                try:
                    self.run_script()
                except Exit as e:           # (exit N) in FILE ends the session as in the REPL
                    status, quit_now = e.status, True
            while not quit_now:
                try:
                    if self.step() is meta.QUIT:
                        break
                except Exit as e:               # (exit N) ends the session as ,quit does
                    status = e.status
                    break
                except KeyboardInterrupt:       # outside an evaluation: never fatal
                    self._quietly(self.report, Interrupted())
                except MemoryError:             # showing a result ran out: the reserve makes room
                    self._quietly(self.report, out_of_memory())
                except Exception as e:          # a bug in the REPL itself: say so, go on
                    self._quietly(self.write, 'Error: internal error: %s: %s\n' % (type(e).__name__, e))
        finally:
            self._stop_listening()
        self.fresh_line()
        self.write('\nGoodbye.\n')
        self.out.flush()
        return status

    def run_script(self) -> None:
        """`rusty -i FILE`: run FILE in the session before the first prompt;
        an error is reported (its definitions so far stay) and the REPL goes on."""
        text, file, _ = self.script
        session = self.session
        self._listen_for_compiles()
        try:
            session.run(text, file)
        except KeyboardInterrupt:
            self.report(Interrupted())
        except RustyError as e:
            self.post_mortem(e)         # ,frames and ,locals look at the script's error
            self.report(e)
        else:
            self.fresh_line()
            self.write('; loaded %s\n' % file)

    def step(self):
        """Read one input and handle it; QUIT at the end."""
        self.fresh_line()
        self.out.flush()
        try:
            with _sigint_ignored_while_prompting():
                text = self.prompt.prompt(handle_sigint=False)
        except (KeyboardInterrupt, CancelledError):
            return None             # Ctrl-C at the prompt: the buffer is gone (prompt_toolkit's own
                                    # loop may report a SIGINT at the wrong moment as its cancellation)
        except EOFError:
            return meta.QUIT
        return self.handle(text)

    @staticmethod
    def _quietly(fn, *args):
        try:
            fn(*args)
        except KeyboardInterrupt:
            pass

    def handle(self, text: str):
        """One accepted input: a meta-command, quit, /apropos or code."""
        stripped = text.strip()
        if not stripped:
            return None
        if stripped in ('quit', 'exit'):
            return meta.QUIT
        if stripped in ('(quit)', '(exit)') and self.session.global_value(stripped[1:-1]) is None:
            return meta.QUIT            # what other Lisps take, unless the program defined it
        if stripped.startswith(','):
            return meta.run(self, text)
        if stripped.startswith('/') and '\n' not in stripped:
            topic = stripped[1:]
            code = '(apropos "%s")' % topic.replace('\\', '\\\\').replace('"', '\\"')
            self.evaluate(code, code)
            return None
        if indent.status(text) == 'unmatched':
            self.syntax_error(text)
            return None
        ok, value = self.evaluate(text)
        if ok:
            self.show(value)
        return None

    def evaluate(self, code: str, shown: str | None = None):
        """Run `code` as a new `<repl:N>` input; (True, value) or (False, None) after a report.

        `shown` is the text the user sees (source lines of error reports); it
        has the same lines and columns as `code`.
        """
        file = self.new_file(shown if shown is not None else code)
        session = self.session
        self._listen_for_compiles()
        try:
            if self.breaks:
                value = session.run_at(code, file, self.breaks[-1].frame)
            else:
                value = session.run(code, file)
        except RustyError as e:
            self.post_mortem(e)
            self.report(e)
            return False, None
        self.remember(value)
        return True, value

    def post_mortem(self, err) -> None:
        """Keep an uncaught error for ,frames and ,locals."""
        self.last_error = err
        self.frame_at = 0

    # ── Breakpoints ──

    def prompt_text(self) -> str:
        """`rusty> `, or `rusty[N]> ` inside N breakpoints."""
        return PROMPT if not self.level else NESTED_PROMPT % self.level

    def _breakpoint(self, env):
        """On the evaluation thread: the nested prompt, run by this (the
        prompt's) thread; the value (breakpoint) returns."""
        return self.session.worker.upcall(lambda: self.nested(env))

    def nested(self, env):
        """A nested prompt in a breakpoint's environment, until ,continue or
        Ctrl-D; the value of the last expression evaluated there (Nil if none)."""
        from ..frames import where
        self.level += 1
        self.breaks.append(env)
        self.last_value = NIL
        self.fresh_line()
        self.write(self.paint('; breakpoint at %s — ,locals shows its variables, ,continue (or Ctrl-D) resumes'
                              % where(env.span), 'ansibrightblack') + '\n')
        try:
            while True:
                try:
                    if self.step() in (meta.QUIT, debug.RESUME):
                        break
                except KeyboardInterrupt:
                    self._quietly(self.report, Interrupted())
        finally:
            self.breaks.pop()
            self.level -= 1
        value, self.last_value = self.last_value, NIL
        return value

    def apply(self, proc, args):
        """Call a procedure on the evaluation thread; (ok, value), errors reported."""
        s = self.session
        try:
            return True, s.worker.call(s.call, proc, args)
        except RustyError as e:
            self.report(e)
        except Exit:
            raise
        except BaseException as e:       # interrupts, host failures: as rusty errors
            from ..runtime import top_level_error
            self.report(top_level_error(e, s.depth))
        return False, None

    def new_file(self, shown: str) -> ReplName:
        self.count += 1
        self.inputs[self.count] = shown
        self.inputs.pop(self.count - KEEP_INPUTS, None)
        return ReplName(self.count)

    last_value = NIL    # inside a breakpoint: the last value, what ,continue resumes with

    def remember(self, value) -> None:
        """*1 *2 *3: the last three values (Nil results do not count)."""
        self.last_value = value
        if value is NIL:
            return
        g = self.session.genv
        v1, v2 = self.session.global_value('*1'), self.session.global_value('*2')
        g.define(sym('*3'), v2 if v2 is not None else NIL)
        g.define(sym('*2'), v1 if v1 is not None else NIL)
        g.define(sym('*1'), value)

    # ── Showing things ──

    def show(self, value) -> None:
        """`=> ` and the value pretty-printed, unless it is Nil.

        The prefix counts against the width: the value is laid out as starting
        at column 3, so its later lines are indented by 3 more than
        pretty-string's and every line fits the terminal."""
        if value is NIL:
            return
        self.fresh_line()
        self.write('=> ' + self.wrap(value, 3) + '\n')

    def report(self, err: RustyError) -> None:
        """The error report on stdout; *e remembers the message."""
        if self._session is not None:
            self._session.genv.define(sym('*e'), err.message)
        if isinstance(err, Interrupted) and self.out.isatty():
            self.out.write('\n')        # past the terminal's echoed ^C
        else:
            self.fresh_line()
        self.write(render(err, self.sources, self._report_style()))

    def syntax_error(self, text: str) -> None:
        """A ')' closing more than was opened: say so, point at it, discard."""
        from ..reader import read
        self.fresh_line()
        self.write("Syntax error: unmatched ')'\n")
        try:
            read(text, '<repl>')
        except RustyError as e:
            if e.span is not None:
                report = render(e, {'<repl>': text}, self._report_style())
                self.write(''.join(report.splitlines(True)[2:4]))

    def _report_style(self):
        if not self.color:
            return None
        if self.report_style is None:
            self.report_style = ReportStyle(self.code_lexer())
        return self.report_style

    def code_lexer(self):
        if self.lexer is None:
            from .lexer import RustyLexer
            self.lexer = RustyLexer(stripnl=False, ensurenl=False)
        return self.lexer

    def highlight(self, text: str, language: str = 'rusty') -> str:
        if not self.color:
            return text
        if language == 'rusty':
            return highlight(text, self.code_lexer())
        from pygments.lexers import get_lexer_by_name
        return highlight(text, get_lexer_by_name(language, stripnl=False, ensurenl=False))

    def paint(self, text: str, style: str) -> str:
        return paint(text, style) if self.color else text

    def wrap(self, value, col: int = 0) -> str:
        """A value pretty-printed to the width, its first line starting at column `col`."""
        return pretty_string(value, self.width(), col)

    def short(self, text: str, limit: int | None = None) -> str:
        """One line of at most `limit` (default: the width) characters."""
        limit = limit or self.width()
        text = text.replace('\n', ' ')
        return text if len(text) <= limit else text[:max(1, limit - 1)] + '…'

    def width(self) -> int:
        if self._width_override:
            return self._width_override
        return max(20, shutil.get_terminal_size((80, 24)).columns - 1)

    def write(self, text: str) -> None:
        self.out.write(text)

    def fresh_line(self) -> None:
        """Start a new line unless output already ends with one."""
        if not self.out.at_line_start:
            self.out.write('\n')

    # ── Compile status ──

    _listener = None

    def _listen_for_compiles(self) -> None:
        """Show `compiling NAME…` while rustc runs (on a terminal only)."""
        if self._listener is not None or not self.out.isatty():
            return
        try:
            from ..jit.build import add_compile_listener
        except ImportError:
            return
        from .status import CompileStatus
        status = CompileStatus(self.out, self.paint)
        self._listener = add_compile_listener(status.start, status.end)

    def _stop_listening(self) -> None:
        if self._listener is not None:
            from ..jit.build import remove_compile_listener
            remove_compile_listener(self._listener)
            self._listener = None


def run_repl(**options) -> int:
    """The `rusty` command with a terminal: run the REPL; the exit status."""
    if 'history_file' not in options:
        options['history_file'] = default_history_file()
    options.setdefault('background', True)
    if 'output' not in options and not _isatty(sys.stdout) and _isatty(sys.stderr):
        from prompt_toolkit.output import create_output
        options['output'] = create_output(stdout=sys.stderr)   # the prompt on the terminal, results to the file
    return Repl(**options).run()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def default_history_file() -> str | None:
    """~/.rusty/history (the directory made private), or None if impossible."""
    home = os.path.expanduser('~')
    directory = os.path.join(home, '.rusty')
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return os.path.join(directory, 'history')


@contextlib.contextmanager
def _sigint_ignored_while_prompting():
    """SIGINT ignored while the prompt runs (the handler it found after). At
    the prompt the terminal is in raw mode and Ctrl-C is a key; a signal can
    come only from the tail of a storm of Ctrl-C's that stopped an
    evaluation, in the moment before raw mode, and raised inside
    prompt_toolkit's event loop (or ran its handler after the prompt had
    ended), where asyncio printed a traceback."""
    import signal
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                  # not the main thread: nothing to do
        yield
        return
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
