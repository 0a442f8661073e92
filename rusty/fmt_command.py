"""`rusty fmt`: the canonical layout applied to files.

`rusty fmt FILE…` writes the formatted text to stdout, `--write FILE…` rewrites
each file that changes (atomically: a temporary file in the same directory,
fsync, `os.replace`; the mode and owner kept; read-only, hard-linked and
non-regular files refused), `--check FILE…` only names the files that would
change, `-` formats stdin to stdout. A file that does not parse gets its
error report on stderr and is left untouched; the other files are still done.
"""
from __future__ import annotations

import os
import stat

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
    refused = refusal(path, mode)
    if refused:
        stderr.write('rusty fmt: %s %s\n' % (path, refused))
        return 1
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
    except Refused as e:
        stderr.write('rusty fmt: %s %s\n' % (path, e))
        return 1
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


# ── What --write refuses ─────────────────────────────────────────────────

class Refused(Exception):
    """A file --write will not replace; the message says why."""


def refusal(path: str, mode: str) -> str | None:
    """Why `path` is not formatted in `mode`, or None. --write replaces only
    a regular file with one link that may be written; --check reads only
    regular files (a FIFO would wait for a writer)."""
    if mode == 'print':
        return None
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None             # reading it reports the error
    if not stat.S_ISREG(st.st_mode):
        return 'is not a regular file'
    if mode != 'write':
        return None
    if st.st_nlink > 1:
        return 'has %d hard links (replacing it would split them)' % st.st_nlink
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        return 'is read-only'
    return None


# ── Atomic rewrite ───────────────────────────────────────────────────────
# The new text is written to a file with no name (O_TMPFILE) where the system
# has one, so a kill while writing leaves nothing behind; it gets a name,
# `.FILE.PID.fmt-tmp`, only to be renamed over FILE. A name left by a
# process killed in that instant (or by a system without O_TMPFILE) is
# removed by the next run that formats a file in the same directory.

TEMP_SUFFIX = '.fmt-tmp'


def replace_atomically(path: str, text: str) -> None:
    """Replace the file at path by `text`, keeping its mode and owner: a crash
    leaves the old or the new text, never a mix, and no temporary file."""
    target = os.path.realpath(path)
    st = os.stat(target)
    folder, base = os.path.split(target)
    _clean_stale(folder, base)
    tmp = os.path.join(folder, '.%s.%d%s' % (base, os.getpid(), TEMP_SUFFIX))
    fd, named = _unnamed_file(folder), False
    if fd is None:
        fd, named = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), True
    try:
        try:
            _write_all(fd, text.encode('utf-8'))
            _keep_owner(fd, st)
            os.fchmod(fd, stat.S_IMODE(st.st_mode))
            os.fsync(fd)
            if not named:
                _name(fd, tmp)
                named = True
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        if named:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    _sync_dir(folder)


def _unnamed_file(folder: str):
    """A descriptor for a new file in `folder` that has no name yet, or None
    where the system or file system cannot make one."""
    flag = getattr(os, 'O_TMPFILE', 0)
    if not flag or not os.path.exists('/proc/self/fd'):
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY, 0o600)
    except OSError:
        return None


def _name(fd: int, path: str) -> None:
    """Give the unnamed file open on `fd` the name `path` (linkat through
    /proc/self/fd, following the descriptor's link: a plain link() would not)."""
    proc = os.open('/proc/self/fd', os.O_RDONLY)
    try:
        os.link(str(fd), path, src_dir_fd=proc, follow_symlinks=True)
    finally:
        os.close(proc)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _keep_owner(fd: int, st) -> None:
    """Give the new file the old one's owner and group (a no-op unless they
    differ from ours); refuse when that is not allowed."""
    if not hasattr(os, 'fchown'):
        return
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except PermissionError:
        raise Refused('belongs to another user or group (replacing it would change that)') from None


def _clean_stale(folder: str, base: str) -> None:
    """Remove temporary names for `base` left by processes that are gone."""
    prefix = '.%s.' % base
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):-len(TEMP_SUFFIX)]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


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
