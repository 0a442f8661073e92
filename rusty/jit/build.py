"""The toolchain: rustc invocation, the content-addressed cache, atomic publish,
permissions, and loading a built library (LANGUAGE.md §12.5).

    lib = build_and_load(source, 'rusty_fib')   # compile (or hit) and dlopen
    fn = lib.symbol('rusty_fib')                # a fresh ctypes function object

Every failure is a `CompileError` with the exact §12.5 message. Configuration
(`RUSTY_CACHE_DIR`, `HOME`) is read when used; nothing runs at import time, and
`subprocess`/`tempfile` are imported only on a miss (a hit needs neither).

Cache hits. The key covers `rustc -vV`, and running it costs ~25 ms through
the rustup proxy. So its output is memoised in the cache directory, keyed by a
fingerprint of the toolchain as seen from here: the `rustc` found on PATH (path,
inode, size, mtime) and, for a rustup proxy, everything rustup uses to pick a
toolchain (RUSTUP_TOOLCHAIN, settings.toml, the installed toolchains' `rustc`
binaries, rust-toolchain files above the working directory). A hit then runs
no process at all. The fingerprint can only go stale through a change rustup
makes without touching any of those files; the worst outcome is loading a
library that an older rustc built from the identical source and flags — the
same program, so still correct.
"""
from __future__ import annotations

import ctypes
import errno
import hashlib
import os
import shutil
import sys
import threading

from rusty.errors import CompileError, os_error_text

FORMAT_VERSION = 'rusty-jit-cache-1'
BASE_FLAGS = ('--edition', '2021', '-C', 'opt-level=3', '--crate-type', 'cdylib')
AVX2_FLAGS = ('-C', 'target-feature=+avx,+avx2')
RUSTC_STACK = 512 << 20    # virtual; ~150 MiB are touched at 8,000 nested levels

if sys.platform == 'darwin':
    LIB_SUFFIX = '.dylib'
elif sys.platform.startswith('win'):
    LIB_SUFFIX = '.dll'
else:
    LIB_SUFFIX = '.so'

_lock = threading.Lock()
_flags: tuple | None = None
_toolchain: str | None = None


# ── Messages ─────────────────────────────────────────────────────────────

def _cannot_write(path: str, e: OSError) -> CompileError:
    return CompileError('defrust: cannot write %s: %s' % (path, os_error_text(e)))


def _insecure(path: str) -> CompileError:
    return CompileError("defrust: refusing to use insecure JIT cache '%s' "
                        "(it must be owned by you and not writable by others)" % path)


# ── Compile-status listeners (the REPL's "compiling…" line) ─────────────

_listeners: list = []


def add_compile_listener(on_start, on_end):
    """Call `on_start(what)` before and `on_end(what)` after every rustc run
    (`what` is the library's base name); returns a token for removal. Both run
    on the compiling thread; `on_end` runs even when rustc fails."""
    token = (on_start, on_end)
    _listeners.append(token)
    return token


def remove_compile_listener(token) -> None:
    """Undo `add_compile_listener`."""
    if token in _listeners:
        _listeners.remove(token)


# ── Flags and toolchain ──────────────────────────────────────────────────

def cpu_has_avx2() -> bool:
    """True when the running x86-64 CPU (and kernel) offers AVX2."""
    machine = os.uname().machine if hasattr(os, 'uname') else ''
    if machine.lower() not in ('x86_64', 'amd64'):
        return False
    try:
        with open('/proc/cpuinfo', 'rb') as f:
            for line in f:
                if line.startswith(b'flags'):
                    return b'avx2' in line.split(b':', 1)[1].split()
    except OSError:
        pass
    return False


def rustc_flags() -> tuple:
    """The exact rustc arguments (besides -o and the source), decided once."""
    global _flags
    if _flags is None:
        _flags = BASE_FLAGS + (AVX2_FLAGS if cpu_has_avx2() else ())
    return _flags


def _failed_to_run(e: OSError) -> CompileError:
    return CompileError('defrust: failed to run rustc (is it on PATH?): %s' % os_error_text(e))


def run_rustc_vv() -> str:
    """The output of `rustc -vV` (runs the process)."""
    import subprocess
    try:
        proc = subprocess.run(['rustc', '-vV'], stdin=subprocess.DEVNULL,
                              capture_output=True)
    except OSError as e:
        raise _failed_to_run(e) from None
    if proc.returncode != 0:
        raise CompileError('defrust: rustc failed:\n' + _text(proc.stderr))
    return _text(proc.stdout)


def toolchain_id() -> str:
    """`rustc -vV` for the rustc on PATH: once per process, memoised on disk."""
    global _toolchain
    with _lock:
        if _toolchain is None:
            _toolchain = _memoised_rustc_vv()
        return _toolchain


def reset_process_state() -> None:
    """Forget the per-process flags and toolchain (for tests)."""
    global _flags, _toolchain
    with _lock:
        _flags = None
        _toolchain = None


def _memoised_rustc_vv() -> str:
    fp = toolchain_fingerprint()
    if fp is None:
        return run_rustc_vv()   # no rustc on PATH: this raises the exact message
    d = cache_dir()
    memo = os.path.join(d, 'rustc-vV-%s.txt' % hashlib.sha256(fp.encode()).hexdigest()[:32])
    try:
        st = os.stat(memo)
        if _secure(st):
            with open(memo, encoding='utf-8') as f:
                text = f.read()
            if text.startswith('rustc '):
                return text
    except (OSError, UnicodeDecodeError):
        pass
    text = run_rustc_vv()
    try:
        _write_atomically(d, memo, text.encode('utf-8'))
    except OSError:
        pass    # the memo is only a speed-up
    return text


def toolchain_fingerprint() -> str | None:
    """Cheap (stat-only) identity of the toolchain `rustc` resolves to; None
    when there is no rustc on PATH."""
    path = shutil.which('rustc')
    if path is None:
        return None
    parts = ['rustc', path, _stat_sig(path)]
    real = os.path.realpath(path)
    if _is_rustup_proxy(path, real):
        home = os.environ.get('RUSTUP_HOME') or os.path.join(os.path.expanduser('~'), '.rustup')
        try:
            here = os.getcwd()
        except OSError:   # the working directory was removed
            here = ''
        parts += ['RUSTUP_TOOLCHAIN=' + os.environ.get('RUSTUP_TOOLCHAIN', ''),
                  'RUSTUP_HOME=' + home, 'cwd=' + here,
                  'settings', _stat_sig(os.path.join(home, 'settings.toml'))]
        tdir = os.path.join(home, 'toolchains')
        try:
            names = sorted(os.listdir(tdir))
        except OSError:
            names = []
        for name in names:
            parts += ['toolchain', name, _stat_sig(os.path.join(tdir, name, 'bin', 'rustc'))]
        while here:
            for fname in ('rust-toolchain', 'rust-toolchain.toml'):
                p = os.path.join(here, fname)
                sig = _stat_sig(p)
                if sig != '-':
                    parts += ['override', p, sig]
            up = os.path.dirname(here)
            if up == here:
                break
            here = up
    return '\n'.join(parts)


def _is_rustup_proxy(path: str, real: str) -> bool:
    if os.path.basename(real).startswith('rustup'):
        return True
    sibling = os.path.join(os.path.dirname(path), 'rustup')
    try:
        return os.path.samefile(path, sibling)
    except OSError:
        return False


def _stat_sig(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return '-'
    return '%d:%d:%d:%d' % (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def cache_key(source: str, flags, toolchain: str) -> str:
    """SHA-256 over the format version, the rustc arguments, `rustc -vV` and the source."""
    h = hashlib.sha256()
    for part in (FORMAT_VERSION, '\0'.join(flags), toolchain, source):
        data = part.encode('utf-8')
        h.update(len(data).to_bytes(8, 'little'))
        h.update(data)
    return h.hexdigest()


# ── The cache directory ──────────────────────────────────────────────────

def cache_dir() -> str:
    """The cache directory (created 0700 if missing), checked to be safe."""
    d = os.environ.get('RUSTY_CACHE_DIR')
    if not d:
        home = os.environ.get('HOME')
        d = os.path.join(home, '.rusty', 'jit-cache') if home else os.path.join('.rusty', 'jit-cache')
    d = os.path.abspath(d)
    _make_dirs(d)
    try:
        st = os.stat(d)
    except OSError as e:
        raise _cannot_write(d, e) from None
    if not _secure(st):
        raise _insecure(d)
    return d


def _make_dirs(d: str) -> None:
    """Create `d` and any missing parents, each with mode 0700."""
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
        except OSError as e:
            raise _cannot_write(p, e) from None
        try:
            os.chmod(p, 0o700)   # in case the umask removed owner bits
        except OSError as e:
            raise _cannot_write(p, e) from None


def _secure(st) -> bool:
    """Owned by the current user and not writable by group or others."""
    if not hasattr(os, 'geteuid'):
        return True   # no POSIX ownership model (Windows)
    return st.st_uid == os.geteuid() and not (st.st_mode & 0o022)


def _write_atomically(d: str, path: str, data: bytes) -> None:
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix='.tmp-', dir=d)
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _text(data: bytes) -> str:
    return data.decode('utf-8', errors='replace')


# ── Build ────────────────────────────────────────────────────────────────

def library_path(source: str, base: str) -> str:
    """Where the library for this source lives in the cache (may not exist)."""
    key = cache_key(source, rustc_flags(), toolchain_id())
    return os.path.join(cache_dir(), '%s_%s%s' % (base, key, LIB_SUFFIX))


def build_library(source: str, base: str, force: bool = False) -> str:
    """The path of the compiled library for `source`, compiling it on a miss.
    `base` (a Rust identifier, the first function's symbol) prefixes the file
    name. `force` rebuilds and replaces a present (corrupt) library."""
    if not base.isidentifier() or not base.isascii():
        raise ValueError('library base name must be an ASCII identifier: %r' % base)
    path = library_path(source, base)
    if not force and os.path.exists(path):
        return path
    _compile(source, path, force, base)
    return path


def _compile(source: str, path: str, replace: bool, base: str) -> None:
    import tempfile
    d = os.path.dirname(path)
    stem = os.path.basename(path)[:-len(LIB_SUFFIX)]
    try:
        work = tempfile.mkdtemp(prefix='.tmp-', dir=d)
    except OSError as e:
        raise _cannot_write(d, e) from None
    try:
        rs_tmp = os.path.join(work, stem + '.rs')
        lib_tmp = os.path.join(work, stem + LIB_SUFFIX)
        try:
            with open(rs_tmp, 'w', encoding='utf-8') as f:
                f.write(source)
        except OSError as e:
            raise _cannot_write(rs_tmp, e) from None
        _run_rustc(rs_tmp, lib_tmp, work, base)
        _publish(rs_tmp, os.path.join(d, stem + '.rs'), replace)
        _publish(lib_tmp, path, replace)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run_rustc(src: str, out: str, cwd: str, what: str) -> None:
    import subprocess
    args = ['rustc', *rustc_flags(), '-o', out, src]
    for on_start, _ in list(_listeners):
        on_start(what)
    try:
        proc = subprocess.run(args, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                              env=_rustc_env())
    except OSError as e:
        raise _failed_to_run(e) from None
    finally:
        for _, on_end in list(_listeners):
            on_end(what)
    if proc.returncode != 0:
        raise CompileError('defrust: rustc failed:\n' + _text(proc.stderr).rstrip('\n'))


def _rustc_env() -> dict:
    """rustc's environment: ours, plus a big stack for rustc's own thread
    (unless set), so deeply nested bodies (up to the reader's 8,000 levels)
    do not overflow its parser. It changes nothing in the output."""
    env = dict(os.environ)
    env.setdefault('RUST_MIN_STACK', str(RUSTC_STACK))
    return env


def _publish(tmp: str, final: str, replace: bool) -> None:
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
        raise _cannot_write(final, e) from None


# ── Load ─────────────────────────────────────────────────────────────────

class Library:
    """A loaded library: its path, the ctypes handle, and symbol lookup."""
    __slots__ = ('path', 'cdll')

    def __init__(self, path: str, cdll):
        self.path = path
        self.cdll = cdll

    def symbol(self, name: str):
        """A new ctypes function object for `name` (callers set restype)."""
        try:
            return self.cdll[name]
        except AttributeError as e:
            raise CompileError("defrust: symbol '%s' not found in compiled library: %s"
                               % (name, e)) from None

    def __repr__(self) -> str:
        return '<Library %s>' % self.path


class _LoadFailed(Exception):
    pass


def _check_secure_file(path: str) -> None:
    """Refuse a cache file that is not ours or that others can write."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise _LoadFailed('defrust: failed to load %s: %s' % (path, os_error_text(e))) from None
    if not _secure(st):
        raise _insecure(path)


def _dlopen(path: str):
    _check_secure_file(path)
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise _LoadFailed('defrust: failed to load %s: %s' % (path, e)) from None


def load_library(path: str) -> Library:
    """dlopen a library from the cache (after the ownership/mode check)."""
    try:
        return Library(path, _dlopen(path))
    except _LoadFailed as e:
        raise CompileError(str(e)) from None


def build_and_load(source: str, base: str) -> Library:
    """Compile (or find in the cache) and load; a cached library that fails to
    load is rebuilt once."""
    path = build_library(source, base)
    try:
        return Library(path, _dlopen(path))
    except _LoadFailed:
        pass
    path = build_library(source, base, force=True)
    return load_library(path)
