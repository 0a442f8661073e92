"""Small content-addressed files beside the JIT cache, for what start-up would
otherwise recompute: the standard library's read forms and the builtin
tables' index (formcache.py).

The directory is `RUSTY_CACHE_DIR`, default ~/.rusty/jit-cache, created 0700
whatever the umask; entries are written atomically with mode 0600. A directory
or entry that others can write is neither read nor written, nor is a directory
others could swap (a directory above it, symbolic links resolved, that they can
write: unsafe_parent, also the JIT cache's check). An entry is a
format line, a BLAKE2b checksum of the payload, then the payload; one that is
unreadable, foreign or fails its checksum counts as missing (and is rebuilt by
the caller). Nothing here raises: a cache can only make start-up faster.

Marks. A file of marks (`marks-…`: `marked`) records names seen, one
MARK-byte hash each, appended in place: a run that marks many names
creates no file per name (creating a file costs a few times what appending
to one does). It is not checksummed: a damaged one marks nothing, or
at worst a name no one marked (each use is a hint, never a result). It
holds at most MARKS_MAX bytes: past that, it is written afresh with its
newer half.

Size. Like the JIT's libraries, the entries are bounded: when a store may
have taken them past the bound (by a tally of the bytes stored since they
were last all looked at, `_due`), the least recently used entries (a hit refreshes an entry's mtime, at most once a TOUCH_AFTER)
are removed until they hold at most `RUSTY_CODE_CACHE_MAX` bytes (default
64 MiB; 0 or less: unbounded; read when used).
"""
import os
import sys

FORMAT = b'rusty-cache-1\n'
DIGEST = 20     # bytes of BLAKE2b
PREFIXES = ('code-', 'compiler-', 'marks-', 'stdlib-', 'tables-')     # the names of this module's entries (code-: older versions')
DEFAULT_MAX = 64 << 20
EVICT_EVERY = 64         # stores between two checks of the size bound, without a tally (_due)
TALLY = 'entries-tally'  # the entries' bytes at the last check, then each store's since (not an entry itself)
TALLY_RECORDS = 1024    # stores recorded in the tally before they are added up into it
TOUCH_AFTER = 3600       # seconds: a hit on an entry older than this refreshes its mtime
_stores = [0]


def cache_dir() -> str:
    """RUSTY_CACHE_DIR, else ~/.rusty/jit-cache (the JIT's directory)."""
    d = os.environ.get('RUSTY_CACHE_DIR')
    if not d:
        d = os.path.join(os.path.expanduser('~'), '.rusty', 'jit-cache')
    return os.path.abspath(d)


def key(*parts: bytes) -> str:
    """Hex BLAKE2b of the parts (each length-prefixed) and the Python version."""
    h = _hasher()
    for part in (FORMAT, sys.version.encode()) + parts:
        h.update(len(part).to_bytes(8, 'little'))
        h.update(part)
    return h.hexdigest()


def entry_path(name: str):
    """The path of entry `name` in a safe cache directory, or None."""
    try:
        d = cache_dir()
        return os.path.join(d, name) if _safe_dir(d) else None
    except (OSError, ValueError):
        return None


def load(path: str):
    """The payload stored at `path`, or None (missing, not ours, corrupt)."""
    try:
        with open(path, 'rb') as fh:
            st = os.fstat(fh.fileno())
            if not _ours(st):
                return None
            data = fh.read()
    except (OSError, ValueError):
        return None
    head = len(FORMAT) + DIGEST
    if not data.startswith(FORMAT) or _digest(data[head:]) != data[len(FORMAT):head]:
        return None
    if _age(st) > TOUCH_AFTER:
        try:
            os.utime(path)       # used: the size bound keeps it
        except OSError:
            pass
    return data[head:]


def _age(st) -> float:
    import time
    return time.time() - st.st_mtime


def store(path: str, payload: bytes) -> None:
    """Write `payload` at `path` atomically, mode 0600; failures are ignored."""
    if not _replace(path, FORMAT + _digest(payload) + payload):
        return
    if _due(os.path.dirname(path), len(FORMAT) + DIGEST + len(payload)):
        evict(os.path.dirname(path))


def _due(d: str, size: int) -> bool:
    """True if a store of `size` bytes into directory d may have taken its
    entries past max_bytes(): by its TALLY file, the entries' bytes when
    evict last looked at them all and a record of each store since (looking
    at every entry at each process's first store, as this did, cost some
    10 ms in a directory of thousands); if that file is unusable, at this
    process's first store and every EVICT_EVERY-th one after it."""
    limit = max_bytes()
    if limit <= 0:
        return False
    if EVICT_EVERY <= 1:
        return True
    try:
        fd = os.open(os.path.join(d, TALLY), os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, 'O_NOFOLLOW', 0),
                     0o600)
        try:
            if not _ours(os.fstat(fd)):
                raise OSError('not ours')
            os.write(fd, min(size, 0xffffffff).to_bytes(4, sys.byteorder))
            data = os.pread(fd, 1 << 20, 0)
        finally:
            os.close(fd)
    except OSError:
        _stores[0] += 1
        return _stores[0] % EVICT_EVERY == 1
    if len(data) < 8:
        return True                 # (no tally yet: evict makes one)
    added = memoryview(data[8:len(data) - (len(data) - 8) % 4]).cast('I')
    total = int.from_bytes(data[:8], 'little') + sum(added)
    if total > limit:
        return True
    if len(added) >= TALLY_RECORDS:
        _tally(d, total)
    return False


def _tally(d: str, total: int) -> None:
    """Make directory d's TALLY say its entries hold `total` bytes, with no store since."""
    _replace(os.path.join(d, TALLY), total.to_bytes(8, 'little'))


MARK = 16               # bytes of a mark
MARKS_MAX = 1 << 16     # bytes a marks file holds at most (4,096 marks)
_MARKS: dict = {}       # path -> ((inode, size, mtime, ctime) of the marks file when read, its marks)


def marked(path: str, name: str) -> bool:
    """True if the marks file at `path` holds the mark of `name`; else
    appends it there (creating the file, mode 0600) and gives False."""
    h = _hasher()
    h.update(name.encode('utf-8', 'surrogatepass'))
    mark = h.digest()[:MARK]
    data = _marks(path)
    i = data.find(mark)
    while i >= 0:
        if i % MARK == 0:
            return True
        i = data.find(mark, i + 1)
    _add_mark(path, mark, data)
    return False


def _marks(path: str) -> bytes:
    """The marks in the file at `path` (b'' if it is missing or not ours), read again only once it changed."""
    try:
        st = os.stat(path, follow_symlinks=False)
        sig = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        known = _MARKS.get(path)
        if known is not None and known[0] == sig:
            return known[1]
        if not _ours(st) or not os.path.isfile(path) or st.st_size > 2 * MARKS_MAX:
            return b''
        fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0))
        try:
            data = os.read(fd, st.st_size)
        finally:
            os.close(fd)
    except (OSError, ValueError):
        return b''
    data = data[:len(data) - len(data) % MARK]
    _MARKS[path] = (sig, data)
    return data


def _add_mark(path: str, mark: bytes, data: bytes) -> None:
    """Append mark to the marks file at `path` (whose marks were `data`); past MARKS_MAX, write it
    afresh with the newer half of its marks and this one; failures are ignored."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, 'O_NOFOLLOW', 0), 0o600)
        try:
            st = os.fstat(fd)
            if st.st_size == 0:
                os.fchmod(fd, 0o600)
            elif not _ours(st):
                return
            if st.st_size + MARK > MARKS_MAX:
                kept = data[len(data) - MARKS_MAX // 2 // MARK * MARK:] + mark
                os.close(fd)
                fd = -1
                _MARKS.pop(path, None)
                _replace(path, kept)
                return
            os.write(fd, mark)
            after = os.fstat(fd)
        finally:
            if fd >= 0:
                os.close(fd)
    except OSError:
        return
    if after.st_size == len(data) + MARK:       # (no other process appended meanwhile: else read again)
        _MARKS[path] = ((after.st_ino, after.st_size, after.st_mtime_ns, after.st_ctime_ns), data + mark)


def _replace(path: str, data: bytes) -> bool:
    """Write `data` at `path` atomically, mode 0600 (True if written; a failure is ignored)."""
    tmp = '%s.tmp-%d' % (path, os.getpid())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def max_bytes() -> int:
    """`RUSTY_CODE_CACHE_MAX` in bytes (default 64 MiB; 0 or less: unbounded)."""
    try:
        return int(os.environ.get('RUSTY_CODE_CACHE_MAX', DEFAULT_MAX))
    except ValueError:
        return DEFAULT_MAX


def evict(d: str) -> None:
    """Remove the least recently used entries of directory `d` until they fit
    max_bytes() (other files there, the JIT's, are not counted or touched)."""
    limit = max_bytes()
    if limit <= 0:
        return
    found = []
    try:
        with os.scandir(d) as it:
            for e in it:
                if e.name.startswith(PREFIXES) and '.tmp-' not in e.name:
                    st = e.stat(follow_symlinks=False)
                    found.append((st.st_mtime_ns, st.st_size, e.path))
    except OSError:
        return
    total = sum(f[1] for f in found)
    for _, size, p in sorted(found):
        if total <= limit:
            break
        try:
            os.unlink(p)
        except OSError:
            continue
        total -= size
    _tally(d, total)


# ── Helpers ──────────────────────────────────────────────────────────────

def _hasher():
    """A BLAKE2b hash object (from _blake2 directly: hashlib's import is slow)."""
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b(digest_size=DIGEST)


def _digest(data: bytes) -> bytes:
    h = _hasher()
    h.update(data)
    return h.digest()


def make_private_dirs(d: str) -> None:
    """Create `d` and any missing parents, each with mode 0700 whatever the
    umask; an OSError names the directory that failed."""
    missing = []
    p = d
    while not os.path.isdir(p):
        missing.append(p)
        up = os.path.dirname(p)
        if up == p:
            break
        p = up
    for p in reversed(missing):
        try:
            os.mkdir(p, 0o700)
        except FileExistsError:
            continue
        os.chmod(p, 0o700)      # whatever the umask removed


_SAFE: dict = {}        # directory -> (device, inode) it had when _safe_dir found it safe in this process


def _safe_dir(d: str) -> bool:
    """Make `d` (and missing parents) with mode 0700; true if it is ours
    alone, and no one else could swap it (unsafe_parent). The directories
    above it are examined once per process (a compiled lambda looks up and
    stores an entry each): later, d itself is checked again."""
    try:
        known = _SAFE.get(d)
        if known is not None:
            st = os.stat(d)
            if (st.st_dev, st.st_ino) == known and _ours(st):
                return True
        make_private_dirs(d)
        st = os.stat(d)
        if _ours(st) and unsafe_parent(d) is None:
            _SAFE[d] = (st.st_dev, st.st_ino)
            return True
        return False
    except (OSError, ValueError):
        return False


def unsafe_parent(d: str):
    """None if every directory above `d` is safe (owned by this user or
    root, not writable by group or others unless sticky), symbolic links
    resolved: the directories above where `d` really is, and those holding
    each link on the way (whoever may write there may swap the link). Else
    (the first unsafe directory, the OSError that kept it from being examined or None)."""
    bad = _unsafe_chain(os.path.dirname(os.path.realpath(d)))
    p = d
    while bad is None:
        up = os.path.dirname(p)
        if up == p:
            return None
        if os.path.islink(p):
            bad = _unsafe_chain(os.path.realpath(up))
        p = up
    return bad


def _unsafe_chain(p: str):
    """unsafe_parent's answer for `p` and every directory above it."""
    while True:
        try:
            st = os.stat(p)
        except OSError as e:
            return p, e
        if not _safe_parent(st):
            return p, None
        up = os.path.dirname(p)
        if up == p:
            return None
        p = up


def _safe_parent(st) -> bool:
    if not hasattr(os, 'geteuid'):
        return True
    if st.st_uid not in (0, os.geteuid()):
        return False
    return not (st.st_mode & 0o022) or bool(st.st_mode & 0o1000)      # (sticky: only owners rename entries)


def _ours(st) -> bool:
    """Owned by this user and not writable by group or others."""
    if not hasattr(os, 'geteuid'):
        return True
    return st.st_uid == os.geteuid() and not (st.st_mode & 0o022)
