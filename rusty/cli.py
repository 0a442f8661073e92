"""The command line (LANGUAGE.md §14.2): `rusty [FILE | - | -e EXPR]`.

Batch runs never import prompt_toolkit or pygments; the REPL is imported only
when stdin is a terminal and no script is given.
"""
from __future__ import annotations

import sys

from . import __version__
from .errors import Abort, Interrupted, RustyError, os_error_text

USAGE = 'usage: rusty [FILE | - | -e EXPR]'
HELP = USAGE + '''

  rusty              start the REPL (when stdin is a terminal)
  rusty FILE         run a script; its last value is printed unless it is Nil or #f
  rusty -e EXPR      run the text EXPR the same way
  rusty -            run standard input (also when stdin is not a terminal)
  rusty --version    print the version
  rusty --help       print this text

Environment: RUSTY_RECURSION_LIMIT (default 200000), RUSTY_MM_THREADS,
RUSTY_CACHE_DIR (JIT cache, default ~/.rusty/jit-cache), RUSTY_CACHE_MAX
(its size bound in bytes, default 1 GiB), NO_COLOR.
Exit status: 0 success, 1 error, 2 usage, 130 interrupted.'''


class UsageError(Exception):
    pass


def parse_args(argv: list[str]):
    """('repl'|'file'|'expr'|'stdin'|'version'|'help', argument)."""
    if not argv:
        return 'default', None
    if len(argv) == 1 and argv[0] in ('--version', '--help', '-h'):
        return ('version' if argv[0] == '--version' else 'help'), None
    if argv[0] == '-e':
        if len(argv) < 2:
            raise UsageError('-e needs an expression')
        if len(argv) > 2:
            raise UsageError('unexpected argument after -e EXPR: %s' % argv[2])
        return 'expr', argv[1]
    for a in argv:
        if a.startswith('-') and a != '-':
            raise UsageError('unknown option: %s' % a)
    if len(argv) > 1:
        raise UsageError('more than one script argument')
    return ('stdin', None) if argv[0] == '-' else ('file', argv[0])


def main(argv=None, stdout=None, stderr=None, stdin=None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    stdin = stdin or sys.stdin
    try:
        mode, arg = parse_args(argv)
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
        if stdin.isatty() and stdout is sys.stdout:
            from .repl.session import run_repl
            return run_repl()
        mode = 'stdin'
    if mode == 'file':
        try:
            with open(arg, encoding='utf-8') as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as e:
            stderr.write('Error reading %s: %s\n' % (arg, os_error_text(e)))
            return 1
        return run_batch(text, arg, stdout, stderr, script=arg)
    if mode == 'expr':
        return run_batch(arg, '<expr>', stdout, stderr)
    return run_batch(stdin.read(), '<stdin>', stdout, stderr)


def run_batch(text: str, file: str, stdout, stderr, script=None) -> int:
    """Batch mode (§9.3): evaluate all forms; print the last value; report errors."""
    from .printer import print_form
    from .report import render
    from .runtime import Session
    from .values import NIL
    session = None
    try:
        session = Session(out=stdout, script=script)
        value = session.run(text, file)
        if value is not NIL and value is not False:
            stdout.write(print_form(value) + '\n')
        stdout.flush()
        return 0
    except RustyError as e:
        _flush(stdout)
        stderr.write(render(e, session.sources if session else {}))
        _flush(stderr)
        return 130 if isinstance(e, Interrupted) else 1
    except (KeyboardInterrupt, Abort):
        _flush(stdout)
        stderr.write('Error: interrupted\n')
        return 130
    except Exception as e:    # a bug in rusty itself: say so, without a traceback
        _flush(stdout)
        stderr.write('Error: internal error: %s: %s\n' % (type(e).__name__, e))
        return 1


def _flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError):
        pass


def console_main() -> None:
    """Entry point of the `rusty` command."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        status = 0
    except (KeyboardInterrupt, Abort):
        sys.stderr.write('Error: interrupted\n')
        status = 130
    sys.exit(status)
