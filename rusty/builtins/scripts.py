"""Scripts and the outside world: arguments, environment,
standard input, standard error and `exit`.

Standard input is read as bytes when the stream has them (so a lone `\\r`
inside a line survives), decoded as UTF-8; lines end at `\\n` or `\\r\\n`.
"""
import os
import sys

from ..errors import EvalError, Exit, os_error_text
from ..printer import display_form, print_form
from ..values import NIL, BuiltinTable, make_list
from .args import string_arg

TABLE = BuiltinTable()


def _stdin(host):
    return host.inp if host.inp is not None else sys.stdin


def _stderr(host):
    return host.err if host.err is not None else sys.stderr


# ── Arguments and environment ────────────────────────────────────────────

@TABLE.fn('command-line-args', 0, 0, host=True, doc='The strings given after the script on the command line.',
          sig='(command-line-args)', examples=(('(list? (command-line-args))', '#t'),))
def command_line_args(host):
    return make_list(list(host.args))


@TABLE.fn('getenv', 1, 1, doc='The value of an environment variable, or #f when unset.', sig='(getenv name)',
          examples=(('(string? (getenv "PATH"))', '#t'), ('(getenv "RUSTY_SURELY_UNSET_VARIABLE")', '#f')))
def getenv(name):
    name = string_arg('getenv', name)
    if '\0' in name or '=' in name:
        return False            # no such variable can exist
    value = os.environ.get(name)
    return False if value is None else value


# ── Standard input ───────────────────────────────────────────────────────

@TABLE.fn('read-line', 0, 0, host=True, doc='The next line of standard input without its ending, or Nil at the end.',
          sig='(read-line)', examples=(('(procedure? read-line)', '#t'),))
def read_line(host):
    line = _read_input('read-line', host, True)
    if line == '':
        return NIL
    if line.endswith('\n'):
        line = line[:-2] if line.endswith('\r\n') else line[:-1]
    return line


@TABLE.fn('read-stdin', 0, 0, host=True, doc='All remaining standard input as a string ("" at the end).',
          sig='(read-stdin)', examples=(('(procedure? read-stdin)', '#t'),))
def read_stdin(host):
    return _read_input('read-stdin', host, False)


def _read_input(name: str, host, line: bool) -> str:
    """A line (or the rest) of standard input, its bytes decoded as UTF-8; a
    closed or unreadable stream is `name`'s error, not the host's."""
    stream = _stdin(host)
    if stream is None:          # (started with standard input closed)
        raise EvalError('%s: standard input is closed' % name)
    raw = getattr(stream, 'buffer', None)
    try:
        if raw is not None:
            return (raw.readline() if line else raw.read()).decode('utf-8', errors='replace')
        return stream.readline() if line else stream.read()
    except (OSError, ValueError) as e:
        raise EvalError('%s: cannot read standard input: %s' % (name, os_error_text(e))) from None


# ── Standard error ───────────────────────────────────────────────────────

@TABLE.fn('eprint', 0, None, host=True, doc='Like print, to standard error (standard output flushed first).',
          sig='(eprint x ...)', examples=(('(eprint "note:" 1)', '()'),))
def eprint(host, *args):
    try:
        host.out.flush()
    except (OSError, ValueError):
        pass
    err = _stderr(host)
    err.write(' '.join(map(print_form, args)) + '\n')
    err.flush()
    return NIL


TABLE.fn('eprintln', 0, None, host=True, doc='Same as eprint.', sig='(eprintln x ...)',
         examples=(('(eprintln "done")', '()'),))(eprint)


# ── Leaving ──────────────────────────────────────────────────────────────

@TABLE.fn('exit', 0, 1, doc='End the program with a status 0-255 (default 0); not an error, never caught.',
          sig='(exit [status])', examples=(('(procedure? exit)', '#t'),))
def exit_(status=0):
    if status.__class__ is float and status.is_integer():
        status = int(status)
    if status.__class__ is not int or not 0 <= status <= 255:
        raise EvalError('exit: expected an integer 0-255, got %s' % display_form(status))
    raise Exit(int(status))
