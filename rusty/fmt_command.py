"""`rusty fmt`: the canonical layout applied to files.

`rusty fmt FILE…` writes the formatted text to stdout, `--write FILE…` rewrites
each file that changes (atomically: a temporary file in the same directory,
fsync, `os.replace`; the mode kept), `--check FILE…` only names the files that
would change, `-` formats stdin to stdout. A file that does not parse gets its
error report on stderr and is left untouched; the other files are still done.
"""
from __future__ import annotations

import os
import stat
import tempfile

from .errors import RustyError, os_error_text
from .fmt import fmt_string
from .report import render

USAGE = 'usage: rusty fmt [--write | --check] FILE... | rusty fmt -'
HELP = USAGE + '''

  rusty fmt FILE...          write the canonical layout of each FILE to stdout
  rusty fmt --write FILE...  rewrite each FILE that changes (atomically, mode kept)
  rusty fmt --check FILE...  change nothing; name each FILE that would change (exit 1 if any)
  rusty fmt -                format standard input to standard output

Exit status: 0 success, 1 a file that does not parse, cannot be read or written,
or (with --check) would change, 2 usage.'''
MODES = {'--write': 'write', '--check': 'check'}


class UsageError(Exception):
    """The fmt command line does not make sense."""


def parse_args(argv: list[str]) -> tuple[str, list[str]]:
    """(mode, files): mode is 'help', 'stdin', 'print', 'write' or 'check'."""
    if argv in (['--help'], ['-h']):
        return 'help', []
    if argv == ['-']:
        return 'stdin', []
    mode = 'print'
    files = []
    for a in argv:
        if a in MODES and mode == 'print' and not files:
            mode = MODES[a]
        elif a == '-':
            raise UsageError("fmt: '-' must be the only argument")
        elif a in MODES:
            raise UsageError('fmt: %s must come first, once' % a)
        elif a.startswith('-'):
            raise UsageError('fmt: unknown option: %s' % a)
        else:
            files.append(a)
    if not files:
        raise UsageError('fmt: no file given')
    return mode, files


def main(argv: list[str], stdout, stderr, stdin) -> int:
    """Run `rusty fmt ARGV…`; returns the exit status."""
    try:
        mode, files = parse_args(argv)
    except UsageError as e:
        stderr.write('rusty: %s\n%s\n' % (e, USAGE))
        return 2
    if mode == 'help':
        stdout.write(HELP + '\n')
        return 0
    if mode == 'stdin':
        try:
            text = read_stdin(stdin)
        except (OSError, UnicodeDecodeError) as e:
            stderr.write('Error reading <stdin>: %s\n' % os_error_text(e))
            return 1
        out = _formatted(text, '<stdin>', stderr)
        if out is None:
            return 1
        stdout.write(out)
        return 0
    status = 0
    for path in files:
        status = max(status, format_file(path, mode, stdout, stderr))
    return status


def read_stdin(stdin) -> str:
    """All of stdin as it is (line endings untranslated, so strings keep their bytes)."""
    raw = getattr(stdin, 'buffer', None)
    return raw.read().decode('utf-8') if raw is not None else stdin.read()


def format_file(path: str, mode: str, stdout, stderr) -> int:
    """Format one file in `mode` ('print', 'write', 'check'); its exit status."""
    try:
        with open(path, encoding='utf-8', newline='') as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        stderr.write('Error reading %s: %s\n' % (path, os_error_text(e)))
        return 1
    out = _formatted(text, path, stderr)
    if out is None:
        return 1
    if mode == 'print':
        stdout.write(out)
        return 0
    if out == text:
        return 0
    if mode == 'check':
        stdout.write('would reformat %s\n' % path)
        return 1
    try:
        replace_atomically(path, out)
    except OSError as e:
        stderr.write('Error writing %s: %s\n' % (path, os_error_text(e)))
        return 1
    stdout.write('formatted %s\n' % path)
    return 0


def _formatted(text: str, name: str, stderr):
    """The canonical layout of text, or None after reporting its parse error."""
    try:
        return fmt_string(text, name)
    except RustyError as e:
        stderr.write(render(e, {name: text}))
        return None


# ── Atomic rewrite ───────────────────────────────────────────────────────

def replace_atomically(path: str, text: str) -> None:
    """Replace the file at path by `text`: a crash leaves the old or the new text, never a mix."""
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    folder = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.' + os.path.basename(target) + '.', suffix='.fmt-tmp')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8', newline='') as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_dir(folder)


def _sync_dir(folder: str) -> None:
    """Make the rename durable (best effort: not every system can fsync a directory)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
