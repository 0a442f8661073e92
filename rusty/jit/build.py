"""The toolchain: rustc invocation, the cache key, building into the cache and
loading a built library. The cache on disk (its safety,
publishing, digests, size bound, temporary folders) is rusty.jit.cache.

    lib = build_and_load(source, 'rusty_fib')   # compile (or hit) and dlopen
    fn = lib.symbol('rusty_fib')                # a fresh ctypes function object

Every failure is a `CompileError` with its exact message. Configuration
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

A compile runs rustc (rusty.jit.rustc: its own process group, killed on
Ctrl-C) in a temporary folder named with our pid, and the next compile
removes folders whose process is gone. The entry is published from there
whole or not at all: an interrupt while publishing takes it back. rustc
exiting 0 without writing the library is a `rustc failed` error, not a
`cannot write`. A cached library that is a dangling symbolic link is removed
and rebuilt, and stderr says so.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import sys
import threading

from rusty.errors import Abort, CompileError, os_error_text
from rusty.jit.cache import cache_dir
from rusty.jit import cache, rustc
from rusty.jit.rustc import STDERR_CAP, rustc_stack

REEXPORTED = (STDERR_CAP, rustc_stack)     # part of this module's interface (tests read them here)

FORMAT_VERSION = 'rusty-jit-cache-1'
BASE_FLAGS = ('--edition', '2021', '-C', 'opt-level=3', '--crate-type', 'cdylib')
AVX2_FLAGS = ('-C', 'target-feature=+avx,+avx2')

if sys.platform == 'darwin':
    LIB_SUFFIX = '.dylib'
elif sys.platform.startswith('win'):
    LIB_SUFFIX = '.dll'
else:
    LIB_SUFFIX = '.so'

_lock = threading.Lock()
_flags: tuple | None = None
_toolchain: str | None = None


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


def run_rustc_vv() -> str:
    """The output of `rustc -vV` (runs the process)."""
    return rustc.version()


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
    memo = os.path.join(d, 'rustc-vV-%s.txt' % hashlib.sha256(fp.encode('utf-8', 'surrogatepass')).hexdigest()[:32])
    try:
        st = os.stat(memo)
        if cache.secure(st):
            with open(memo, encoding='utf-8') as f:
                text = f.read()
            if text.startswith('rustc '):
                return text
    except (OSError, UnicodeDecodeError):
        pass
    text = run_rustc_vv()
    try:
        cache.write_atomically(d, memo, text.encode('utf-8'))
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
        data = part.encode('utf-8', 'surrogatepass')
        h.update(len(data).to_bytes(8, 'little'))
        h.update(data)
    return h.hexdigest()


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
    dangling = os.path.islink(path)     # a link to nowhere: not ours to follow, rebuilt
    if dangling:
        cache.remove_entry(path)
    _compile(source, path, force, base)
    if dangling:
        _say(DANGLING_NOTE % path)
    return path


def _compile(source: str, path: str, replace: bool, base: str) -> None:
    import tempfile
    import time
    d = os.path.dirname(path)
    stem = os.path.basename(path)[:-len(LIB_SUFFIX)]
    cache.clean_stale_temps(d, time.time())
    try:
        work = tempfile.mkdtemp(prefix=cache.temp_prefix(), dir=d)
    except OSError as e:
        raise cache.cannot_write(d, e) from None
    try:
        rs_tmp = os.path.join(work, stem + '.rs')
        lib_tmp = os.path.join(work, stem + LIB_SUFFIX)
        try:
            cache.write_file(rs_tmp, source.encode('utf-8'))
        except OSError as e:
            raise cache.cannot_write(rs_tmp, e) from None
        stderr = _run_rustc(rs_tmp, lib_tmp, work, base)
        try:
            os.chmod(lib_tmp, 0o700)      # rustc honours the umask; we do not
        except FileNotFoundError:
            raise CompileError('defrust: rustc failed:\n%sno library was written (rustc exited '
                               'with status 0)' % stderr) from None
        except OSError as e:
            raise cache.cannot_write(lib_tmp, e) from None
        _publish_entry(rs_tmp, lib_tmp, path, replace)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cache.evict(d, LIB_SUFFIX, stem)


def _publish_entry(rs_tmp: str, lib_tmp: str, path: str, replace: bool) -> None:
    """Publish the source, the library and its digest. An interrupt landing
    midway takes back what was published before it goes on, so an entry is
    whole or absent (a library without its digest would be rebuilt anyway)."""
    try:
        cache.publish(rs_tmp, os.path.splitext(path)[0] + '.rs', replace)
        cache.publish(lib_tmp, path, replace)
        cache.record_digest(path)
    except (KeyboardInterrupt, Abort):
        while True:
            try:
                cache.remove_entry(path)
                break
            except (KeyboardInterrupt, Abort):
                continue
        raise


def _run_rustc(src: str, out: str, cwd: str, what: str) -> str:
    """Run rustc; its standard error (with a final newline, or empty) on success."""
    args = ['rustc', *rustc_flags(), '-o', out, src]
    for on_start, _ in list(_listeners):
        on_start(what)
    try:
        return rustc.compile_library(args, cwd)
    finally:
        for _, on_end in list(_listeners):
            on_end(what)


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


def _dlopen(path: str, verify: bool = True):
    """dlopen the cached library at `path` through the descriptor its checks
    ran on; with `verify`, a library whose digest does not match fails.

    The descriptor stays open while the process lives (libraries are never
    unloaded): glibc recognises an already loaded object by its name, so a
    `/proc/self/fd/N` name must never be reused for a different file."""
    try:
        fd, intact = cache.open_checked(path)
    except OSError as e:
        raise _LoadFailed('defrust: failed to load %s: %s' % (path, os_error_text(e))) from None
    try:
        if verify and not intact:
            raise _LoadFailed('defrust: failed to load %s: its digest does not match the '
                              'one recorded when it was built' % path)
        name = cache.loadable_path(fd, path)
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            raise _LoadFailed('defrust: failed to load %s: %s'
                              % (path, str(e).replace(name, path))) from None
    except BaseException:
        os.close(fd)
        raise


def load_library(path: str) -> Library:
    """dlopen a library (after the ownership/mode check on the open file)."""
    try:
        return Library(path, _dlopen(path, verify=False))
    except _LoadFailed as e:
        raise CompileError(str(e)) from None
    except cache.Loosened as e:
        raise cache.insecure(e.path) from None


DANGLING_NOTE = "rusty: rebuilt JIT cache entry '%s': it was a dangling symbolic link\n"
REBUILT_NOTE = ("rusty: rebuilt JIT cache entry '%s': it was writable by group or others "
                "(written under a permissive umask by an older rusty), so it was not loaded\n")


def build_and_load(source: str, base: str) -> Library:
    """Compile (or find in the cache) and load; a cached library that fails to
    load, or whose digest does not match, is rebuilt once. An entry of ours
    that group or others may write is removed and rebuilt, and stderr says so."""
    path = build_library(source, base)
    loosened = None
    try:
        return Library(path, _dlopen(path))
    except _LoadFailed:
        pass
    except cache.Loosened:
        loosened = path
        cache.remove_entry(path)
    path = build_library(source, base, force=True)
    try:
        lib = Library(path, _dlopen(path))
    except _LoadFailed as e:
        raise CompileError(str(e)) from None
    except cache.Loosened as e:
        raise cache.insecure(e.path) from None
    if loosened:
        _say(REBUILT_NOTE % loosened)
    return lib


def _say(text: str) -> None:
    """Write a note on stderr (if there is a usable one)."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
