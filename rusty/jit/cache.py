"""The JIT cache on disk: the directory and its safety,
files written with explicit modes, atomic publishing, the digest checked
before a library is loaded, the size bound, and stale temporary folders.

Safety. The cache directory and every directory above it (where it really
is, symbolic links resolved, and where each link on the way to it lies) must
be owned by the current user or root and not writable by group or others (a sticky
world-writable directory such as /tmp is fine: nobody else can rename or
delete what is ours in it). Files rusty writes get their mode set explicitly
(0600, libraries 0700), whatever the umask, so a umask of 002 no longer makes
rusty refuse its own output. A file that is ours but writable by group or
others (an older rusty wrote it under umask 002) is never loaded: `Loosened`
tells the builder to remove the entry and build it again, privately. A file
owned by someone else is refused.

Digests. Publishing a library records the SHA-256 of its bytes beside it
(`BASE_KEY.sha256`); loading opens the library once, checks ownership and mode
on that descriptor, hashes what it reads and compares, then dlopens the same
descriptor (`/proc/self/fd/N` where there is one), so nothing can swap the
file between the check and the load. A library with no or a different digest
(a legacy entry, a disk error, a truncated write) is rebuilt, never loaded.

Size. After every build, least recently used entries (a hit refreshes its
digest file's mtime) are removed until the cache holds at most
`RUSTY_CACHE_MAX` bytes (default 1 GiB; read when used).
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat

from rusty.diskcache import make_private_dirs, unsafe_parent
from rusty.errors import CompileError, os_error_text

DEFAULT_MAX = 1 << 30
DIGEST_SUFFIX = '.sha256'
TEMP_PREFIX = '.tmp-'
STALE_SECONDS = 3600       # a temporary folder this old is abandoned whoever made it


# ── Messages ─────────────────────────────────────────────────────────────

def cannot_write(path: str, e: OSError) -> CompileError:
    """The 'cannot write' error."""
    return CompileError('defrust: cannot write %s: %s' % (path, os_error_text(e)))


class Loosened(Exception):
    """A cache file of ours that group or others may write: not to be loaded,
    but ours to remove and rebuild (the directory already passed its checks)."""

    def __init__(self, path: str):
        super().__init__(path)
        self.path = path


def insecure(path: str) -> CompileError:
    """The 'insecure JIT cache' error."""
    return CompileError("defrust: refusing to use insecure JIT cache '%s' "
                        "(it must be owned by you and not writable by others)" % path)


# ── The directory ────────────────────────────────────────────────────────

def cache_dir() -> str:
    """The cache directory (created 0700 if missing), checked to be safe,
    its parents included."""
    d = os.environ.get('RUSTY_CACHE_DIR')
    if not d:
        home = os.environ.get('HOME')
        d = os.path.join(home, '.rusty', 'jit-cache') if home else os.path.join('.rusty', 'jit-cache')
    d = os.path.abspath(d)
    make_dirs(d)
    try:
        st = os.stat(d)
    except OSError as e:
        raise cannot_write(d, e) from None
    if not secure(st):
        raise insecure(d)
    check_parents(d)
    return d


def make_dirs(d: str) -> None:
    """Create `d` and any missing parents, each with mode 0700."""
    try:
        make_private_dirs(d)
    except OSError as e:
        raise cannot_write(e.filename or d, e) from None


def secure(st) -> bool:
    """Owned by the current user and not writable by group or others."""
    if not hasattr(os, 'geteuid'):
        return True   # no POSIX ownership model (Windows)
    return st.st_uid == os.geteuid() and not (st.st_mode & 0o022)


def check_file(st, path: str) -> None:
    """Raise the insecure error for a cache file that is not a regular file
    owned by us, Loosened for ours that group or others may write."""
    if not stat.S_ISREG(st.st_mode) or (hasattr(os, 'geteuid') and st.st_uid != os.geteuid()):
        raise insecure(path)
    if not secure(st):
        raise Loosened(path)


def check_parents(d: str) -> None:
    """Raise the insecure error naming the first unsafe directory above `d`,
    symbolic links resolved (diskcache.unsafe_parent)."""
    bad = unsafe_parent(d)
    if bad is not None:
        p, e = bad
        raise (insecure(p) if e is None else cannot_write(p, e))


# ── Writing ──────────────────────────────────────────────────────────────

def write_file(path: str, data: bytes, mode: int = 0o600) -> None:
    """Create `path` (which must not exist) with exactly `mode`, whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, 'O_CLOEXEC', 0), mode)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, 'wb', closefd=False) as f:
            f.write(data)
    finally:
        os.close(fd)


def write_atomically(d: str, path: str, data: bytes) -> None:
    """Replace `path` by a 0600 file holding `data`, by rename."""
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=d)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        unlink_quietly(tmp)
        raise


def unlink_quietly(path: str) -> None:
    """Remove a file, ignoring any error."""
    try:
        os.unlink(path)
    except OSError:
        pass


def publish(tmp: str, final: str, replace: bool) -> None:
    """Move a finished file into place atomically. A file already published
    under that name is left alone (another process built the same key),
    unless `replace` (rebuilding a corrupt library) swaps it by rename."""
    try:
        if replace:
            os.replace(tmp, final)
            return
        try:
            os.link(tmp, final)   # atomic, and never clobbers
        except FileExistsError:
            pass
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP,
                               errno.EOPNOTSUPP, errno.ENOSYS, errno.EACCES):
                raise
            if not os.path.exists(final):
                os.replace(tmp, final)   # no hard links here: rename instead
    except OSError as e:
        raise cannot_write(final, e) from None


# ── Digests ──────────────────────────────────────────────────────────────

def digest_path(lib_path: str) -> str:
    """Where the digest of a library is recorded."""
    return os.path.splitext(lib_path)[0] + DIGEST_SUFFIX


def record_digest(lib_path: str) -> None:
    """Record the SHA-256 of the published library (whichever process won
    the publish race: every publisher hashes the same published bytes)."""
    try:
        with open(lib_path, 'rb') as f:
            text = hashlib.sha256(f.read()).hexdigest() + '\n'
    except OSError as e:
        raise CompileError('defrust: failed to load %s: %s' % (lib_path, os_error_text(e))) from None
    try:
        write_atomically(os.path.dirname(lib_path), digest_path(lib_path), text.encode('ascii'))
    except OSError as e:
        raise cannot_write(digest_path(lib_path), e) from None


_verified: dict = {}       # (dev, inode) -> (size, mtime, ctime) of files whose digest matched


def open_checked(path: str) -> tuple:
    """(fd, True when its bytes match the recorded digest) for a cached
    library; raises the insecure error for a file that is not ours, Loosened
    for ours that others can write, OSError when it cannot be opened. A file this process
    already verified, unchanged since (same inode, size, mtime and ctime,
    which a rewrite in place would change), is not hashed again."""
    fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_CLOEXEC', 0))
    try:
        st = os.fstat(fd)
        check_file(st, path)
        ident = (st.st_dev, st.st_ino)
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        touch(digest_path(path))
        if _verified.get(ident) == stamp:
            return fd, True
        intact = file_digest(fd) == recorded_digest(path)
        if intact:
            _verified[ident] = stamp
        return fd, intact
    except BaseException:
        os.close(fd)
        raise


def file_digest(fd: int) -> str:
    """The SHA-256 (hex) of the file open on `fd`, hashed from a read-only
    mapping (no copy of a 4 MB library through a read buffer)."""
    import mmap
    if os.fstat(fd).st_size == 0:
        return hashlib.sha256(b'').hexdigest()
    with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as m:
        return hashlib.sha256(m).hexdigest()


def recorded_digest(lib_path: str) -> str | None:
    """The digest recorded for a library, if present (the insecure error or
    Loosened, as for the library, when it is not safe to trust)."""
    p = digest_path(lib_path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_CLOEXEC', 0))
    except OSError:
        return None
    try:
        check_file(os.fstat(fd), p)
        return os.read(fd, 200).decode('ascii', 'replace').strip()
    finally:
        os.close(fd)


def remove_entry(lib_path: str) -> None:
    """Remove a library's cache entry: the library, its digest, its source."""
    stem = os.path.splitext(lib_path)[0]
    for p in (lib_path, stem + DIGEST_SUFFIX, stem + '.rs'):
        unlink_quietly(p)


def touch(path: str) -> None:
    """Mark a digest file recently used, for the size bound."""
    try:
        os.utime(path)
    except OSError:
        pass


def loadable_path(fd: int, path: str) -> str:
    """The name dlopen should use for the file open on `fd`: the descriptor
    itself where /proc offers it, else the path."""
    proc = '/proc/self/fd/%d' % fd
    return proc if os.path.exists(proc) else path


# ── Size bound and temporary folders ─────────────────────────────────────

def max_bytes() -> int:
    """`RUSTY_CACHE_MAX` in bytes (default 1 GiB; 0 or less: unbounded)."""
    text = os.environ.get('RUSTY_CACHE_MAX')
    if text is None:
        return DEFAULT_MAX
    try:
        return int(text.strip())
    except ValueError:
        return DEFAULT_MAX


def entries(d: str, suffix: str) -> dict:
    """Cache entries: stem -> [bytes, last use, file paths]; the last use is
    the newest mtime among an entry's files (a hit touches its digest)."""
    found: dict = {}
    for name in os.listdir(d):
        if name.startswith('.') or name.startswith('rustc-vV-'):
            continue
        stem, ext = os.path.splitext(name)
        if ext not in (suffix, '.rs', DIGEST_SUFFIX):
            continue
        p = os.path.join(d, name)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        e = found.setdefault(stem, [0, 0, []])
        e[0] += st.st_size
        e[1] = max(e[1], st.st_mtime_ns)
        e[2].append(p)
    return found


def evict(d: str, suffix: str, keep: str) -> None:
    """Remove least recently used entries until the cache fits `max_bytes()`;
    the entry whose stem is `keep` (just built) always stays."""
    limit = max_bytes()
    if limit <= 0:
        return
    try:
        found = entries(d, suffix)
    except OSError:
        return
    total = sum(e[0] for e in found.values())
    for stem in sorted(found, key=lambda s: found[s][1]):
        if total <= limit:
            return
        if stem == keep:
            continue
        for p in found[stem][2]:
            unlink_quietly(p)
        total -= found[stem][0]


def temp_prefix() -> str:
    """The prefix of this process's temporary folders (its pid inside)."""
    return '%s%d-' % (TEMP_PREFIX, os.getpid())


def clean_stale_temps(d: str, now: float) -> None:
    """Remove temporary folders left by dead processes (a killed compile), or
    older than STALE_SECONDS whoever made them."""
    import shutil
    try:
        names = [n for n in os.listdir(d) if n.startswith(TEMP_PREFIX)]
    except OSError:
        return
    for name in names:
        p = os.path.join(d, name)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if _owner_alive(name) and now - st.st_mtime < STALE_SECONDS:
            continue
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(p, ignore_errors=True)
        else:
            unlink_quietly(p)


def _owner_alive(name: str) -> bool:
    """False when the pid in a temporary name is a process that is gone."""
    pid = name[len(TEMP_PREFIX):].split('-', 1)[0]
    if not pid.isdigit():
        return True           # an older or foreign name: only age decides
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
