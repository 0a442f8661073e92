"""The native half under faults and ordinary set-ups (issue 12 items 1, 7, 8):
umask 002, the Python-kernel fallback said aloud, rustc exiting 0 without a
library, digests checked before loading, the descriptor that was checked is
the one loaded, parent directories, the size bound, killed compiles, long
names, limits on rustc's stack, and one native called from several threads.

Limits, umasks and kills run in subprocesses."""
import ctypes
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from rusty.errors import CompileError
from rusty.jit import build, cache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUSTC = shutil.which('rustc')

SOURCE = '''\
#[no_mangle]
pub extern "C" fn rusty_probe(args: *const f64, len: usize) -> f64 { (unsafe { *args }) * %s }
'''


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A private cache directory and fresh per-process toolchain state."""
    d = tmp_path / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    build.reset_process_state()
    yield d
    build.reset_process_state()


IS_ROOT = hasattr(os, 'geteuid') and os.geteuid() == 0


def probe_value(lib, x=2.0):
    fn = lib.symbol('rusty_probe')
    fn.restype = ctypes.c_double
    return fn((ctypes.c_double * 1)(x), ctypes.c_size_t(1))


def rusty(args, tmp_path, umask=None, limit_kb=None, **env):
    """Run `python -m rusty ARGS` with a private cache (optionally under a
    umask or a virtual memory limit, through the shell)."""
    e = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path / 'c'))
    e.update(env)
    cmd = [sys.executable, '-m', 'rusty'] + args
    if umask is not None or limit_kb is not None:
        pre = ('umask %s; ' % umask if umask else '') + ('ulimit -v %d; ' % limit_kb if limit_kb else '')
        cmd = ['sh', '-c', pre + 'exec "$@"', 'sh'] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=300)


def modes(d):
    return {n: stat.S_IMODE(os.lstat(os.path.join(d, n)).st_mode) for n in os.listdir(d)}


# ── umask 002 (item 1) ───────────────────────────────────────────────────

@pytest.mark.rustc
def test_umask_002_builds_loads_and_keeps_entries_private(tmp_path):
    prog = '(defrust sq (x) (* x x)) (println (sq 7)) (println (tensor-sum (matmul (tensor (quote ((1 2)))) (tensor (quote ((3) (4)))))))'
    r = rusty(['-e', prog], tmp_path, umask='002')
    assert (r.returncode, r.stdout, r.stderr) == (0, '49\n11\n', '')
    found = modes(tmp_path / 'c')
    assert found and all(not (m & 0o022) for m in found.values()), found
    assert any(n.startswith('rusty_kernels_') and n.endswith('.so') for n in found)
    # the same entries serve a later run under the usual umask
    r = rusty(['-e', '(defrust sq (x) (* x x)) (println (sq 8))'], tmp_path, umask='022')
    assert (r.returncode, r.stdout, r.stderr) == (0, '64\n', '')


REBUILT = ("rusty: rebuilt JIT cache entry '%s': it was writable by group or others (written under "
           "a permissive umask by an older rusty), so it was not loaded\n")


@pytest.mark.rustc
def test_a_group_writable_entry_of_ours_is_rebuilt_once_then_silent(tmp_path):
    prog = ('(defrust sq (x) (* x x)) (println (sq 7))'
            ' (println (tensor-sum (matmul (tensor (quote ((1 2)))) (tensor (quote ((3) (4)))))))')
    r = rusty(['-e', prog], tmp_path, umask='002')
    assert (r.returncode, r.stdout, r.stderr) == (0, '49\n11\n', '')
    d = tmp_path / 'c'
    # what an older rusty left under umask 002: every file group-writable
    for name in os.listdir(d):
        if name.startswith(('rusty_sq_', 'rusty_kernels_')):
            os.chmod(d / name, 0o775 if name.endswith('.so') else 0o664)
    sq = [str(d / n) for n in os.listdir(d) if n.startswith('rusty_sq_') and n.endswith('.so')][0]
    kernels = [str(d / n) for n in os.listdir(d) if n.startswith('rusty_kernels_') and n.endswith('.so')][0]
    r = rusty(['-e', prog], tmp_path, umask='002')
    assert (r.returncode, r.stdout) == (0, '49\n11\n')
    assert sorted(r.stderr.splitlines(True)) == sorted([REBUILT % sq, REBUILT % kernels])
    found = modes(d)
    assert all(not (m & 0o022) for m in found.values()), found
    assert found[os.path.basename(sq)] == 0o700
    r = rusty(['-e', prog], tmp_path, umask='002')
    assert (r.returncode, r.stdout, r.stderr) == (0, '49\n11\n', '')


@pytest.mark.rustc
@pytest.mark.skipif(not IS_ROOT, reason='making a file owned by someone else needs root')
def test_an_entry_someone_else_owns_is_still_refused(tmp_path):
    r = rusty(['-e', '(defrust sq (x) (* x x)) (println (sq 7))'], tmp_path)
    assert r.returncode == 0, r.stderr
    lib = [n for n in os.listdir(tmp_path / 'c') if n.startswith('rusty_sq_') and n.endswith('.so')]
    path = str(tmp_path / 'c' / lib[0])
    os.chown(path, 12345, 12345)
    for mode in (0o700, 0o775):
        os.chmod(path, mode)
        r = rusty(['-e', '(defrust sq (x) (* x x)) (println (sq 7))'], tmp_path)
        assert r.returncode == 1
        assert ("defrust: refusing to use insecure JIT cache '%s' (it must be owned by you and not "
                "writable by others)" % path) in r.stderr
        assert os.stat(path).st_uid == 12345          # refused, not removed


def test_the_python_kernel_fallback_says_why_once(tmp_path):
    empty = tmp_path / 'bin'
    empty.mkdir()
    prog = ('(println (tensor-sum (matmul (tensor (quote ((1 2)))) (tensor (quote ((3) (4)))))))'
            '(println (tensor-sum (tensor-add (tensor (quote (1))) (tensor (quote (2))))))')
    r = rusty(['-e', prog], tmp_path, PATH=str(empty))
    assert (r.returncode, r.stdout) == (0, '11\n3\n')
    lines = r.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith('rusty: native tensor kernels unavailable, using the pure-Python '
                               'kernels (same results, slower): defrust: failed to run rustc '
                               '(is it on PATH?): ')


def test_kernels_switched_off_on_purpose_say_nothing(tmp_path):
    r = rusty(['-e', '(println (tensor-sum (tensor-add (tensor (quote (1))) (tensor (quote (2))))))'],
              tmp_path, RUSTY_NATIVE_KERNELS='0')
    assert (r.returncode, r.stdout, r.stderr) == (0, '3\n', '')


# ── rustc that exits 0 without output (item 8) ──────────────────────────

def fake_rustc(tmp_path, body):
    """A `rustc` that answers -vV like the real one and otherwise runs `body`."""
    bindir = tmp_path / 'fakebin'
    bindir.mkdir(exist_ok=True)
    fake = bindir / 'rustc'
    fake.write_text('#!/bin/sh\nif [ "$1" = "-vV" ]; then exec %s -vV; fi\n%s\n' % (RUSTC, body))
    os.chmod(fake, 0o755)
    return '%s:%s' % (bindir, os.environ.get('PATH', ''))


@pytest.mark.rustc
def test_rustc_exiting_0_without_a_library_is_a_rustc_failure(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'echo "warning: odd" >&2; exit 0'))
    with pytest.raises(CompileError) as info:
        build.build_and_load(SOURCE % '3.0', 'rusty_probe')
    assert info.value.message == ('defrust: rustc failed:\nwarning: odd\nno library was written '
                                  '(rustc exited with status 0)')


# ── Digests and the checked descriptor (item 7) ─────────────────────────

@pytest.mark.rustc
def test_a_valid_but_different_library_is_rebuilt_not_run(cache_dir):
    good, other = SOURCE % '5.0', SOURCE % '1000.0'
    path = build.build_library(good, 'rusty_probe')
    digest = open(cache.digest_path(path)).read().strip()
    assert digest == hashlib.sha256(open(path, 'rb').read()).hexdigest()
    wrong = build.build_library(other, 'rusty_probe')
    os.unlink(path)
    shutil.copyfile(wrong, path)             # valid format, wrong code: SIGILL in the wild
    os.chmod(path, 0o700)
    lib = build.build_and_load(good, 'rusty_probe')
    assert probe_value(lib) == 10.0
    assert open(cache.digest_path(path)).read().strip() == \
        hashlib.sha256(open(path, 'rb').read()).hexdigest()


@pytest.mark.rustc
def test_a_library_without_a_digest_is_rebuilt(cache_dir):
    src = SOURCE % '6.0'
    path = build.build_library(src, 'rusty_probe')
    os.unlink(cache.digest_path(path))
    before = os.stat(path).st_ino
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 12.0
    assert os.stat(path).st_ino != before and os.path.exists(cache.digest_path(path))


@pytest.mark.rustc
def test_a_verified_unchanged_library_is_not_hashed_again(cache_dir, monkeypatch):
    src = SOURCE % '9.0'
    path = build.build_library(src, 'rusty_probe')
    hashed = []
    real = cache.file_digest
    monkeypatch.setattr(cache, 'file_digest', lambda fd: hashed.append(fd) or real(fd))
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 18.0
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 18.0
    assert len(hashed) == 1                      # the second hit trusts the unchanged inode
    data = open(path, 'rb').read()
    with open(path, 'r+b') as f:                 # rewritten in place: mtime and ctime move
        f.write(data)
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 18.0
    assert len(hashed) == 2


@pytest.mark.rustc
def test_the_checked_descriptor_is_what_gets_loaded(cache_dir, monkeypatch):
    src = SOURCE % '7.0'
    build.build_library(src, 'rusty_probe')
    names = []
    real = ctypes.CDLL
    monkeypatch.setattr(ctypes, 'CDLL', lambda name, *a, **k: names.append(name) or real(name, *a, **k))
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 14.0
    assert len(names) == 1 and names[0].startswith('/proc/self/fd/')


@pytest.mark.rustc
def test_a_symlink_in_place_of_a_library_is_not_followed(cache_dir, tmp_path):
    src = SOURCE % '8.0'
    path = build.build_library(src, 'rusty_probe')
    elsewhere = tmp_path / 'elsewhere.so'
    shutil.copyfile(build.build_library(SOURCE % '1000.0', 'rusty_probe'), elsewhere)
    os.chmod(elsewhere, 0o700)
    os.unlink(path)
    os.symlink(elsewhere, path)
    assert probe_value(build.build_and_load(src, 'rusty_probe')) == 16.0
    assert not os.path.islink(path)


# ── Parent directories (item 7) ──────────────────────────────────────────

@pytest.mark.parametrize('bits, ok', [(0o777, False), (0o775, False), (0o1777, True), (0o755, True)])
def test_parent_directories_must_not_be_writable_by_others(tmp_path, monkeypatch, bits, ok):
    parent = tmp_path / 'shared'
    parent.mkdir()
    os.chmod(parent, bits)
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(parent / 'mine' / 'cache'))
    try:
        if ok:
            assert cache.cache_dir() == str(parent / 'mine' / 'cache')
        else:
            with pytest.raises(CompileError) as info:
                cache.cache_dir()
            assert info.value.message == (
                "defrust: refusing to use insecure JIT cache '%s' (it must be owned by you and "
                "not writable by others)" % parent)
    finally:
        os.chmod(parent, 0o700)


# ── Size bound (item 7) ──────────────────────────────────────────────────

def fake_entry(d, stem, size, age):
    for ext, n in (('.so', size), ('.rs', 10), ('.sha256', 65)):
        p = os.path.join(d, stem + ext)
        with open(p, 'wb') as f:
            f.write(b'x' * n)
        t = time.time() - age
        os.utime(p, (t, t))


def test_eviction_removes_least_recently_used_entries(tmp_path, monkeypatch):
    d = str(tmp_path)
    for i, age in enumerate((400, 100, 300, 200)):
        fake_entry(d, 'rusty_e%d_%064x' % (i, i), 1000, age)
    with open(os.path.join(d, 'rustc-vV-memo.txt'), 'w') as f:
        f.write('rustc 1')
    monkeypatch.setenv('RUSTY_CACHE_MAX', str(2 * 1075 + 10))
    cache.evict(d, '.so', keep='rusty_e0_%064x' % 0)
    stems = sorted({os.path.splitext(n)[0] for n in os.listdir(d)})
    # e0 is kept (just built), then the most recent: e1 (100 s ago); e2, e3 go
    assert stems == ['rustc-vV-memo', 'rusty_e0_%064x' % 0, 'rusty_e1_%064x' % 1]
    monkeypatch.setenv('RUSTY_CACHE_MAX', '0')      # unbounded
    cache.evict(d, '.so', keep='')
    assert len(os.listdir(d)) == 7


def test_cache_max_default_is_one_gib(monkeypatch):
    monkeypatch.delenv('RUSTY_CACHE_MAX', raising=False)
    assert cache.max_bytes() == 1 << 30
    monkeypatch.setenv('RUSTY_CACHE_MAX', '12345')
    assert cache.max_bytes() == 12345


@pytest.mark.rustc
def test_a_build_keeps_the_cache_within_its_bound(cache_dir, monkeypatch):
    first = build.build_library(SOURCE % '2.0', 'rusty_probe')
    monkeypatch.setenv('RUSTY_CACHE_MAX', '1')
    second = build.build_library(SOURCE % '3.0', 'rusty_probe')
    libs = [n for n in os.listdir(cache_dir) if n.endswith(build.LIB_SUFFIX)]
    assert libs == [os.path.basename(second)] and not os.path.exists(first)
    assert probe_value(build.build_and_load(SOURCE % '3.0', 'rusty_probe')) == 6.0


# ── Killed compiles (item 7) ─────────────────────────────────────────────

KILLED = textwrap.dedent('''\
    from rusty.jit import build
    build.build_and_load(open(__import__("sys").argv[1]).read(), 'rusty_probe')
''')


@pytest.mark.rustc
def test_a_killed_compile_kills_rustc_and_the_next_run_cleans_up(cache_dir, tmp_path):
    pidfile = tmp_path / 'rustc.pid'
    path = fake_rustc(tmp_path, 'echo $$ > %s; exec sleep 60' % pidfile)
    src = tmp_path / 'probe.rs'
    src.write_text(SOURCE % '4.0')
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(cache_dir), PATH=path)
    proc = subprocess.Popen([sys.executable, '-c', KILLED, str(src)], env=env)
    deadline = time.time() + 60
    while not pidfile.exists() or not pidfile.read_text().strip():
        assert time.time() < deadline and proc.poll() is None
        time.sleep(0.05)
    rustc_pid = int(pidfile.read_text())
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    gone = False
    for _ in range(100):
        try:
            os.kill(rustc_pid, 0)
        except ProcessLookupError:
            gone = True
            break
        _reap(rustc_pid)
        time.sleep(0.05)
    assert gone, 'rustc outlived the process that started it'
    left = [n for n in os.listdir(cache_dir) if n.startswith('.tmp-')]
    assert left                                  # SIGKILL: nothing could clean up
    assert probe_value(build.build_and_load(SOURCE % '4.0', 'rusty_probe')) == 8.0
    assert not [n for n in os.listdir(cache_dir) if n.startswith('.tmp-')]


def _reap(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def test_temporary_folders_of_live_processes_are_kept(tmp_path):
    d = str(tmp_path)
    dead = subprocess.Popen([sys.executable, '-c', 'pass'])
    dead.wait()
    for name in ('.tmp-%d-abc' % dead.pid, '.tmp-%d-def' % os.getpid(), '.tmp-old'):
        os.mkdir(os.path.join(d, name))
    old = time.time() - 2 * cache.STALE_SECONDS
    os.utime(os.path.join(d, '.tmp-old'), (old, old))
    cache.clean_stale_temps(d, time.time())
    assert os.listdir(d) == ['.tmp-%d-def' % os.getpid()]


# ── Long names and rustc's stack under limits (item 7) ──────────────────

@pytest.mark.rustc
def test_long_defrust_names_are_hashed_into_the_symbol(tmp_path):
    a, b = 'f' * 300, 'f' * 299 + 'g'
    prog = '(defrust %s (x) (* x 2)) (defrust %s (x) (* x 3)) (println (%s 5) (%s 5))' % (a, b, a, b)
    r = rusty(['-e', prog], tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, '10 15\n', '')


def test_symbol_names_stay_short_and_distinct():
    from rusty.jit.codegen import MAX_SYMBOL, sanitize_ident, symbol_name
    assert symbol_name('fib-native') == sanitize_ident('fib-native') == 'rusty_fib_native'
    long_names = ['x' * 500, 'x' * 499 + 'y', 'x' * 499 + '-', 'x' * 499 + '_']
    symbols = [symbol_name(n) for n in long_names]
    assert len(set(symbols)) == 4
    assert all(len(s) == MAX_SYMBOL and s.isidentifier() for s in symbols)


@pytest.mark.rustc
def test_rustc_builds_under_a_3gb_virtual_memory_limit(tmp_path):
    r = rusty(['-e', '(defrust sq (x) (* x x)) (println (sq 9))'], tmp_path, limit_kb=3000000)
    assert (r.returncode, r.stdout) == (0, '81\n'), r.stderr


def test_rustc_stack_follows_the_limit():
    code = ('import resource\n'
            'resource.setrlimit(resource.RLIMIT_AS, (3000000 * 1024, resource.RLIM_INFINITY))\n'
            'from rusty.jit import build\n'
            'print(build.rustc_stack())\n')
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == 3000000 * 1024 // 32


# ── One native, several Python threads (item 8) ─────────────────────────

@pytest.mark.rustc
@pytest.mark.parametrize('arity', [1, 2, 3])
def test_one_native_called_from_many_threads_never_mixes_arguments(cache_dir, arity):
    from rusty.jit.codegen import compile_defrust
    from rusty.reader import read
    params = ['a', 'b', 'c'][:arity]
    body = read('(+ %s)' % ' '.join('(* %s %d)' % (p, 10 ** i) for i, p in enumerate(params))).car
    native, = compile_defrust([('mix', params, body)])
    bad = []

    def worker(t):
        for i in range(4000):
            args = [float(t)] * arity
            if native.call(args) != sum(t * 10 ** j for j in range(arity)):
                bad.append((t, i))

    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(t,)) for t in range(1, 7)]
        for th in threads:
            th.start()
        worker(7)
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(saved)
    assert bad == []


# ── Starting under a tight virtual memory limit (item 7) ────────────────

def test_rusty_starts_under_an_800_mb_limit_and_recurses_to_the_default_depth(tmp_path):
    prog = '(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (println (+ 1 2)) (println (f 199999))'
    r = rusty(['-e', prog], tmp_path, limit_kb=800000)
    assert (r.returncode, r.stdout, r.stderr) == (0, '3\n199999\n', '')
