"""The standard library's read forms, cached on disk so start-up skips the reader.

The forms of stdlib.lisp (with their spans) are stored beside the JIT cache
(`RUSTY_CACHE_DIR`, default ~/.rusty/jit-cache) as `stdlib-KEY.forms`, where
KEY hashes the format version, the Python version, the library's path and
text, and the source of the modules that decide what the reader produces — so
editing stdlib.lisp or rusty makes a new entry. Only the read forms are cached,
nothing resolved or evaluated. The directory is created 0700 and files 0600
whatever the umask; a directory or file that others can write is neither read
nor written; an unreadable or corrupt entry is rebuilt. The cache can only make
start-up faster: any failure falls back to reading the file.

An entry is FORMAT, a checksum of the payload, then the payload (marshal, no
pickle import), in which a list is a Python list alternating
element and span (a 5-tuple or None); a symbol is its name as bytes; Nil is
None; numbers, strings and booleans are themselves.
"""
from __future__ import annotations

import marshal
import os
import sys

from .errors import Span
from .reader import read
from .values import EMPTY, NIL, List, Symbol, sym

FORMAT = b'rusty-forms-1\n'
DIGEST = 20       # bytes of BLAKE2b, for the key and the payload checksum
# What the reader's output depends on, besides the text.
KEY_MODULES = ('reader.py', 'values.py', 'errors.py', 'formcache.py')


# ── Entry point ──────────────────────────────────────────────────────────

def read_cached(path: str, text: str):
    """The forms `read(text, path)` returns, from the cache when it has them."""
    entry = _entry_path(path, text)
    if entry is not None:
        forms = _load(entry)
        if forms is not None:
            return forms
    forms = read(text, path)
    if entry is not None:
        _store(entry, forms)
    return forms


# ── Where an entry lives ─────────────────────────────────────────────────

def cache_dir() -> str:
    """RUSTY_CACHE_DIR, else ~/.rusty/jit-cache (the JIT's directory)."""
    d = os.environ.get('RUSTY_CACHE_DIR')
    if not d:
        d = os.path.join(os.path.expanduser('~'), '.rusty', 'jit-cache')
    return os.path.abspath(d)


def _entry_path(path: str, text: str):
    """The entry's file name (its directory made safe), or None if unusable."""
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        h = _hasher()
        for part in (FORMAT, sys.version.encode(), path.encode('utf-8', 'surrogatepass'),
                     text.encode('utf-8', 'surrogatepass')):
            h.update(len(part).to_bytes(8, 'little'))
            h.update(part)
        for name in KEY_MODULES:
            with open(os.path.join(here, name), 'rb') as fh:
                part = fh.read()
            h.update(len(part).to_bytes(8, 'little'))
            h.update(part)
        d = cache_dir()
        if not _safe_dir(d):
            return None
        return os.path.join(d, 'stdlib-%s.forms' % h.hexdigest())
    except (OSError, ValueError):
        return None


def _hasher():
    """A BLAKE2b hash object (from _blake2 directly: hashlib's import is slow)."""
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b(digest_size=DIGEST)


def _digest(data: bytes) -> bytes:
    """The checksum stored before an entry's payload."""
    h = _hasher()
    h.update(data)
    return h.digest()


def _safe_dir(d: str) -> bool:
    """Make `d` (and missing parents) with mode 0700; true if it is ours alone."""
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
            os.chmod(p, 0o700)      # whatever the umask removed
        except FileExistsError:
            pass
    return _ours(os.stat(d))


def _ours(st) -> bool:
    """Owned by this user and not writable by group or others."""
    if not hasattr(os, 'geteuid'):
        return True
    return st.st_uid == os.geteuid() and not (st.st_mode & 0o022)


# ── Loading and storing ──────────────────────────────────────────────────

def _load(entry: str):
    """The forms stored in `entry`, or None (missing, not ours, corrupt)."""
    try:
        with open(entry, 'rb') as fh:
            if not _ours(os.fstat(fh.fileno())):
                return None
            data = fh.read()
        head = len(FORMAT) + DIGEST
        if not data.startswith(FORMAT) or _digest(data[head:]) != data[len(FORMAT):head]:
            return None
        return _decode(marshal.loads(data[head:]))
    except Exception:   # a corrupt entry of any shape: rebuilt, never fatal
        return None


def _store(entry: str, forms) -> None:
    """Write `entry` atomically with mode 0600; failures are ignored."""
    try:
        payload = marshal.dumps(_encode(forms))
        data = FORMAT + _digest(payload) + payload
    except (ValueError, TypeError):
        return            # something the encoding does not cover: not cached
    tmp = '%s.tmp-%d' % (entry, os.getpid())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, entry)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


# ── Encoding ─────────────────────────────────────────────────────────────

def _encode(x):
    """A read form as marshal-able data (see the module docstring)."""
    cls = x.__class__
    if cls is List:
        out = []
        for cell in x.cells():
            out.append(_encode(cell.car))
            out.append(None if cell.span is None else tuple(cell.span))
        return out
    if cls is Symbol:
        return x.name.encode('utf-8', 'surrogatepass')
    if x is NIL:
        return None
    if cls is float or cls is str or cls is bool:
        return x
    raise TypeError('not a read form: %r' % (x,))


def _decode(x):
    """The read form that _encode(form) came from."""
    cls = x.__class__
    if cls is list:
        out = EMPTY
        new_span = tuple.__new__
        for i in range(len(x) - 2, -1, -2):
            sp = x[i + 1]
            if sp is not None:
                if sp.__class__ is not tuple or len(sp) != 5:
                    raise ValueError('corrupt form cache entry')
                sp = new_span(Span, sp)
            out = List(_decode(x[i]), out, sp)
        return out
    if cls is bytes:
        return sym(x.decode('utf-8', 'surrogatepass'))
    if x is None:
        return NIL
    if cls is float or cls is str or cls is bool:
        return x
    raise ValueError('corrupt form cache entry')
