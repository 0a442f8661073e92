"""The command line: `rusty [FILE | - | -e EXPR] [ARG ...]`, `rusty -i FILE [ARG ...]`.

Batch runs never import prompt_toolkit or pygments; the REPL is imported only
when stdin is a terminal and no script is given.
"""
import gc
import os
import sys

from . import __version__
from .errors import Abort, Exit, Interrupted, RustyError, os_error_text, out_of_memory

USAGE = 'usage: rusty [FILE | - | -e EXPR]'
HELP = USAGE + '''
       rusty FILE ARG... | rusty -e EXPR ARG... | rusty - ARG...

  rusty              start the REPL (when stdin is a terminal)
  rusty FILE ARG...  run a script; its last value is printed unless it is Nil or #f
  rusty -i FILE ARG...  run a script, then open the REPL with its definitions (an
                     error in it is reported and the REPL opens all the same;
                     with stdin not a terminal, stdin is then run as a script,
                     and the status is 1 if the script or stdin failed)
  rusty -e EXPR ARG...  run the text EXPR the same way
  rusty --profile FILE ARG...
                     run a script under the profiler, then print to standard error
                     a table of the Lisp procedures that ran (calls, total and own
                     time, share), sorted by own time
  rusty - ARG...     run standard input (also when stdin is not a terminal)
  rusty --stats ...  any of the above, then print to standard error what the
                     compiler did (lambdas compiled and the time it took, those
                     loaded from the disk cache, those run on the reference
                     evaluator)
  rusty fmt ...      format program text (rusty fmt --help)
  rusty lsp          a language server for editors (the lsp extra)
  rusty kernel install [--user] [--prefix P]
                     install the Jupyter kernel (the jupyter extra)
  A script named fmt, lsp or kernel runs as rusty ./fmt (./lsp, ./kernel).
  rusty --version    print the version
  rusty --help       print this text

The ARGs after the script are the program's (command-line-args).
Environment: RUSTY_RECURSION_LIMIT (default 200000), RUSTY_MM_THREADS,
RUSTY_CACHE_DIR (JIT, compiled-code and standard-library cache, default ~/.rusty/jit-cache),
RUSTY_CACHE_MAX (its size bound in bytes, default 1 GiB), RUSTY_CODE_CACHE_MAX (the bound of
its compiled code, default 64 MiB), RUSTY_CODE_CACHE=0 (no compiled-code cache), NO_COLOR.
Exit status: 0 success, 1 error, 2 usage, 130 interrupted, 141 output pipe closed,
or the status given to (exit N).'''


def _fmt(argv, stdout, stderr, stdin) -> int:
    from .fmt_command import main as fmt_main
    return fmt_main(argv, stdout, stderr, stdin)


def _lsp(argv, stdout, stderr, stdin) -> int:
    from .lsp.command import main as lsp_main
    return lsp_main(argv, stdout, stderr)


def _kernel(argv, stdout, stderr, stdin) -> int:
    from .kernel.command import main as kernel_main
    return kernel_main(argv, stdout, stderr)


# `rusty NAME …` runs a tool instead of a script named NAME (run that as ./NAME).
SUBCOMMANDS = {'fmt': _fmt, 'lsp': _lsp, 'kernel': _kernel}


class UsageError(Exception):
    pass


def parse_args(argv: list[str]):
    """(mode, argument, program arguments); mode is 'default', 'file', 'expr',
    'stdin', 'interactive' (-i FILE), 'version' or 'help'. Everything after
    the script (FILE, -e EXPR, - or -i FILE) belongs to the program; only a
    second -e there is a usage error."""
    if not argv:
        return 'default', None, ()
    first = argv[0]
    if first in ('--version', '--help', '-h'):
        if len(argv) > 1:
            raise UsageError('%s takes no arguments' % first)
        return ('version' if first == '--version' else 'help'), None, ()
    if first == '-e':
        if len(argv) < 2:
            raise UsageError('-e needs an expression')
        if '-e' in argv[2:]:
            raise UsageError('only one -e EXPR is allowed')
        return 'expr', argv[1], tuple(argv[2:])
    if first == '-':
        return 'stdin', None, tuple(argv[1:])
    if first in ('-i', '--profile'):
        if len(argv) < 2:
            raise UsageError('%s needs a file' % first)
        return ('interactive' if first == '-i' else 'profile'), argv[1], tuple(argv[2:])
    if first.startswith('-'):
        raise UsageError('unknown option: %s' % first)
    return 'file', first, tuple(argv[1:])


def main(argv=None, stdout=None, stderr=None, stdin=None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    stdin = stdin or sys.stdin
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:], stdout, stderr, stdin)
    if argv and argv[0] == '--stats':
        status = main(argv[1:], stdout, stderr, stdin)
        from .runtime import compile_stats
        stderr.write(compile_stats() + '\n')
        return status
    try:
        mode, arg, args = parse_args(argv)
    except UsageError as e:
        stderr.write('rusty: %s\n%s\n' % (e, USAGE))
        return 2
    if mode == 'version':
        stdout.write('rusty %s\n' % __version__)
        return 0
    if mode == 'help':
        stdout.write(HELP + '\n')
        return 0
    if mode == 'default':
        if stdin is not None and stdin.isatty() and stdout is sys.stdout:
            from .repl.session import run_repl
            return run_repl()
        mode = 'stdin'
    streams = (stdout, stderr, stdin, args)
    if mode in ('file', 'interactive', 'profile'):
        try:
            with open(arg, encoding='utf-8') as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError, ValueError) as e:
            stderr.write('Error reading %s: %s\n' % (arg, os_error_text(e)))
            return 1
        if mode == 'interactive':
            return run_interactive(text, arg, *streams)
        return run_batch(text, arg, *streams, script=arg, profile=mode == 'profile')
    if mode == 'expr':
        return run_batch(arg, '<expr>', *streams)
    text = read_stdin(stdin, stderr)
    return 1 if text is None else run_batch(text, '<stdin>', *streams)


def read_stdin(stdin, stderr):
    """The program on standard input, or None once its failure to read is reported."""
    try:
        if stdin is None:       # (started with standard input closed)
            raise ValueError('standard input is closed')
        return stdin.read()
    except (OSError, UnicodeDecodeError, ValueError) as e:
        stderr.write('Error reading <stdin>: %s\n' % os_error_text(e))
        return None


def run_interactive(text: str, file: str, stdout, stderr, stdin, args=()) -> int:
    """`rusty -i FILE`: run FILE, then the REPL in the same session (an error
    in FILE is reported and the REPL opens all the same); without a terminal,
    stdin is then run as a batch script in that session."""
    if stdin is not None and stdin.isatty() and stdout is sys.stdout:
        from .repl.session import run_repl
        return run_repl(script=(text, file, args))
    rest = read_stdin(stdin, stderr)        # (unreadable: reported, and FILE runs all the same)
    status = run_batch(rest or '', '<stdin>', stdout, stderr, stdin, args, script=file, prelude=(text, file))
    return status if rest is not None else max(status, 1)


def run_batch(text: str, file: str, stdout, stderr, stdin=None, args=(), script=None, prelude=None,
              profile=False) -> int:
    """Batch mode: evaluate all forms; print the last value; report errors.
    `prelude` (text, file) runs first in the same session; an error in it is
    reported and the run goes on (exit status 1 at the end). With `profile`,
    the run is profiled and the table goes to stderr at the end."""
    session = None
    status = 0
    if _whole_process:
        _end_at_first_interrupt()
    try:
        # Start-up makes only objects that live as long as the process (the
        # session then freezes them out of the collector's sight), so the
        # collector has nothing to find until the program runs.
        enabled = gc.isenabled()
        gc.disable()
        try:
            from .printer import print_form
            from .runtime import Session
            from .values import NIL
            session = Session(out=stdout, script=script, args=args, inp=stdin, err=stderr)
        finally:
            if enabled:
                gc.enable()
        if stdin is not None and _isatty(stdin) and stdout is sys.stdout and _isatty(stdout):
            session.on_breakpoint = _breakpoint_prompt(session)
        if prelude is not None:
            status = _run_prelude(session, prelude, stdout, stderr)
        if profile:
            try:
                value = session.profile(text, file)
            finally:
                _profile_table(session, stdout, stderr)
        else:
            value = session.run(text, file)
        if value is not NIL and value is not False:
            stdout.write(print_form(value) + '\n')
        stdout.flush()
        return status
    except Exit as e:
        return _exit(e, stdout)
    except BrokenPipeError:
        return _exit(Exit(141, broken_pipe=True), stdout)
    except RustyError as e:
        from .report import render      # only a failing run needs the renderer
        _flush(stdout)
        if isinstance(e, Interrupted):
            _end_at_first_interrupt(ignore=True)
        stderr.write(render(e, session.sources if session else {}))
        _flush(stderr)
        return 130 if isinstance(e, Interrupted) else 1
    except (KeyboardInterrupt, Abort):
        _end_at_first_interrupt(ignore=True)
        _flush(stdout)
        stderr.write('Error: interrupted\n')
        return 130
    except MemoryError:       # printing the value ran out: the reserve makes room to say so
        _flush(stdout)
        stderr.write('Error: %s\n' % out_of_memory().message)
        return 1
    except Exception as e:    # a bug in rusty itself: say so, without a traceback
        _flush(stdout)
        stderr.write('Error: internal error: %s: %s\n' % (type(e).__name__, e))
        return 1


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _breakpoint_prompt(session):
    """A script's `(breakpoint)` with a terminal: the REPL's nested prompt
    (the REPL made when the first breakpoint is reached)."""
    def nested(env):
        from .repl.session import Repl, default_history_file
        return Repl(session=session, history_file=default_history_file()).nested(env)
    return lambda env: session.worker.upcall(lambda: nested(env))


def _profile_table(session, stdout, stderr) -> None:
    """The last profiled run's table on stderr (after the program's output)."""
    if session.last_profile is not None:
        _flush(stdout)
        stderr.write(session.last_profile.table())
        _flush(stderr)


def _run_prelude(session, prelude, stdout, stderr) -> int:
    """Run -i's FILE in session; its error reported on stderr. The status so far."""
    try:
        session.run(*prelude)
        return 0
    except RustyError as e:
        if isinstance(e, Interrupted):
            raise
        from .report import render
        _flush(stdout)
        stderr.write(render(e, session.sources))
        _flush(stderr)
        return 1


def _exit(e: Exit, stdout) -> int:
    """The status of `(exit N)` (output flushed) or of a closed pipe (quietly:
    whatever is still buffered for the pipe is dropped, never reported)."""
    if e.broken_pipe:
        _silence(stdout)
    else:
        try:
            stdout.flush()
        except BrokenPipeError:
            _silence(stdout)
            return 141
        except (OSError, ValueError):
            pass
    return e.status


def _silence(stream) -> None:
    """Point a real stream whose reader has gone at /dev/null, so the flush at
    interpreter exit cannot complain about the broken pipe."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _tolerant(stream) -> None:
    """Let a strict stream write strings that carry undecodable bytes (from
    getenv, file names, command-line arguments) as those bytes, as Python
    already does under the C locale, instead of failing on them."""
    try:
        if stream.errors == 'strict':
            stream.reconfigure(errors='surrogateescape')
    except (AttributeError, ValueError, OSError):
        pass


def _flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError):
        pass


_whole_process = False     # set by console_main: a batch run may then own SIGINT until exit


def _end_at_first_interrupt(ignore: bool = False) -> None:
    """In a batch run of the `rusty` command: the first Ctrl-C outside an
    evaluation ends the run, later ones are ignored (`ignore`: from now on),
    so a storm of them cannot break into the report or the exit."""
    if not _whole_process:
        return
    import _signal
    from .worker import interrupt_once
    if ignore:
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    elif _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, interrupt_once)


def console_main() -> None:
    """Entry point of the `rusty` command."""
    global _whole_process
    _whole_process = True
    _tolerant(sys.stdout)
    try:
        status = main()
        _end_at_first_interrupt(ignore=True)    # the exit: Python's handlers go back to SIG_DFL
        sys.stdout.flush()
    except BrokenPipeError:
        _silence(sys.stdout)
        status = 141
    except (KeyboardInterrupt, Abort):
        _end_at_first_interrupt(ignore=True)
        sys.stderr.write('Error: interrupted\n')
        status = 130
    sys.exit(status)
