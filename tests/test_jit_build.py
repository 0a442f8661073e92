"""The JIT toolchain (docs/reference.md §10 Native code): cache key, cache directory and its
permissions, atomic publish, hits without rustc, corrupt libraries, failures.

Not tested: a cache directory owned by another user when not running as root
(we cannot chown then); as root the ownership tests below do run.
"""
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from rusty.errors import CompileError
from rusty.jit import build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IS_ROOT = hasattr(os, 'geteuid') and os.geteuid() == 0

SOURCE = '''\
#[no_mangle]
pub extern "C" fn rusty_probe(args: *const f64, len: usize) -> f64 { (unsafe { *args }) * %s }
'''


def insecure(path):
    return ("defrust: refusing to use insecure JIT cache '%s' "
            "(it must be owned by you and not writable by others)" % path)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache directory and fresh per-process toolchain state."""
    d = tmp_path / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    build.reset_process_state()
    yield d
    build.reset_process_state()


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def probe_value(lib, x=2.0):
    import ctypes
    fn = lib.symbol('rusty_probe')
    fn.restype = ctypes.c_double
    return fn((ctypes.c_double * 1)(x), ctypes.c_size_t(1))


# ── Key and flags ────────────────────────────────────────────────────────

def test_key_covers_source_flags_and_toolchain():
    flags = build.BASE_FLAGS
    k = build.cache_key('src', flags, 'rustc 1.0')
    assert len(k) == 64 and int(k, 16) >= 0
    assert build.cache_key('src', flags, 'rustc 1.0') == k
    assert build.cache_key('src2', flags, 'rustc 1.0') != k
    assert build.cache_key('src', flags + build.AVX2_FLAGS, 'rustc 1.0') != k
    assert build.cache_key('src', flags, 'rustc 1.1') != k
    # parts are length-prefixed: moving text between parts changes the key
    assert build.cache_key('ab', flags, 'c') != build.cache_key('b', flags, 'ca')


def test_library_path_follows_the_toolchain(cache, monkeypatch):
    monkeypatch.setattr(build, 'toolchain_id', lambda: 'rustc 1.0.0 (fake)')
    p1 = build.library_path('fn x() {}', 'rusty_x')
    monkeypatch.setattr(build, 'toolchain_id', lambda: 'rustc 1.0.1 (fake)')
    p2 = build.library_path('fn x() {}', 'rusty_x')
    assert p1 != p2
    assert os.path.dirname(p1) == str(cache)
    name = os.path.basename(p1)
    assert name.startswith('rusty_x_') and name.endswith(build.LIB_SUFFIX)
    assert len(name) == len('rusty_x_') + 64 + len(build.LIB_SUFFIX)


def test_flags():
    flags = build.rustc_flags()
    assert flags[:6] == ('--edition', '2021', '-C', 'opt-level=3', '--crate-type', 'cdylib')
    assert flags[6:] == (('-C', 'target-feature=+avx,+avx2') if build.cpu_has_avx2() else ())
    assert not any('target-cpu' in f or 'fast' in f or 'fma' in f for f in flags)


# ── The cache directory ──────────────────────────────────────────────────

def test_cache_dir_created_0700_with_parents(tmp_path, monkeypatch):
    d = tmp_path / 'a' / 'b' / 'c'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    old = os.umask(0o022)
    try:
        assert build.cache_dir() == str(d)
    finally:
        os.umask(old)
    for p in (tmp_path / 'a', tmp_path / 'a' / 'b', d):
        assert mode(p) == 0o700, p


def test_cache_dir_defaults(tmp_path, monkeypatch):
    monkeypatch.delenv('RUSTY_CACHE_DIR', raising=False)
    monkeypatch.setenv('HOME', str(tmp_path / 'home'))
    assert build.cache_dir() == str(tmp_path / 'home' / '.rusty' / 'jit-cache')
    assert mode(tmp_path / 'home' / '.rusty') == 0o700
    monkeypatch.delenv('HOME')
    monkeypatch.chdir(tmp_path)
    assert build.cache_dir() == str(tmp_path / '.rusty' / 'jit-cache')


@pytest.mark.parametrize('bits', [0o777, 0o770, 0o702])
def test_insecure_cache_dir_refused(tmp_path, monkeypatch, bits):
    d = tmp_path / 'shared'
    d.mkdir()
    os.chmod(d, bits)
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == insecure(d)


@pytest.mark.skipif(not IS_ROOT, reason='needs root to chown')
def test_cache_dir_owned_by_someone_else_refused(tmp_path, monkeypatch):
    d = tmp_path / 'theirs'
    d.mkdir(mode=0o700)
    os.chown(d, 12345, 12345)
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == insecure(d)


def test_unwritable_cache_dir(tmp_path, monkeypatch):
    blocker = tmp_path / 'file'
    blocker.write_text('not a directory')
    d = blocker / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == 'defrust: cannot write %s: Not a directory (os error 20)' % d


@pytest.mark.rustc
@pytest.mark.skipif(IS_ROOT, reason='root writes through mode bits')
def test_read_only_cache_dir(cache):
    build.toolchain_id()          # memo written while writable
    os.chmod(cache, 0o500)
    try:
        with pytest.raises(CompileError) as info:
            build.build_library(SOURCE % '41.0', 'rusty_probe')
        assert info.value.message == \
            'defrust: cannot write %s: Permission denied (os error 13)' % cache
    finally:
        os.chmod(cache, 0o700)


# ── Failures ─────────────────────────────────────────────────────────────

def test_rustc_missing(cache, tmp_path, monkeypatch):
    empty = tmp_path / 'empty-bin'
    empty.mkdir()
    monkeypatch.setenv('PATH', str(empty))
    with pytest.raises(CompileError) as info:
        build.build_library(SOURCE % '1.0', 'rusty_probe')
    assert info.value.message == \
        'defrust: failed to run rustc (is it on PATH?): No such file or directory (os error 2)'


@pytest.mark.rustc
def test_rustc_failure_reports_stderr(cache):
    events = []
    token = build.add_compile_listener(lambda w: events.append(('start', w)),
                                       lambda w: events.append(('end', w)))
    try:
        with pytest.raises(CompileError) as info:
            build.build_library('this is not rust', 'rusty_bad')
    finally:
        build.remove_compile_listener(token)
    msg = info.value.message
    assert msg.startswith('defrust: rustc failed:\nerror')
    assert 'this' in msg and not msg.endswith('\n')
    assert [e[0] for e in events] == ['start', 'end']
    assert not [n for n in os.listdir(cache) if n.endswith(build.LIB_SUFFIX)]
    assert not [n for n in os.listdir(cache) if n.startswith('.tmp-')]


@pytest.mark.rustc
def test_missing_symbol(cache):
    lib = build.build_and_load(SOURCE % '3.0', 'rusty_probe')
    with pytest.raises(CompileError) as info:
        lib.symbol('rusty_nope')
    assert info.value.message.startswith(
        "defrust: symbol 'rusty_nope' not found in compiled library: ")
    assert 'rusty_nope' in info.value.message[60:]


def test_load_failure_message(tmp_path):
    bad = tmp_path / 'bad.so'
    bad.write_bytes(b'garbage')
    os.chmod(bad, 0o600)
    with pytest.raises(CompileError) as info:
        build.load_library(str(bad))
    assert info.value.message.startswith('defrust: failed to load %s: ' % bad)


# ── Building, hits, publishing ───────────────────────────────────────────

@pytest.mark.rustc
def test_build_publishes_so_and_rs_and_hits(cache, monkeypatch):
    events = []
    token = build.add_compile_listener(lambda w: events.append(('start', w)),
                                       lambda w: events.append(('end', w)))
    try:
        src = SOURCE % '5.0'
        lib = build.build_and_load(src, 'rusty_probe')
        assert probe_value(lib) == 10.0
        assert events == [('start', 'rusty_probe'), ('end', 'rusty_probe')]
        rs = lib.path[:-len(build.LIB_SUFFIX)] + '.rs'
        assert open(rs).read() == src
        assert not [n for n in os.listdir(cache) if n.startswith('.tmp-')]
        # a hit runs nothing
        before = os.stat(lib.path)
        monkeypatch.setattr(build, '_run_rustc', lambda *a: pytest.fail('rustc ran on a hit'))
        assert build.build_library(src, 'rusty_probe') == lib.path
        assert os.stat(lib.path).st_mtime_ns == before.st_mtime_ns
        assert len(events) == 2
    finally:
        build.remove_compile_listener(token)


@pytest.mark.rustc
def test_toolchain_memo(cache):
    text = build.toolchain_id()
    assert text.startswith('rustc ') and '\nhost: ' in text
    memos = [n for n in os.listdir(cache) if n.startswith('rustc-vV-')]
    assert len(memos) == 1
    assert open(os.path.join(cache, memos[0])).read() == text
    build.reset_process_state()
    assert build.toolchain_id() == text


def test_fingerprint_follows_the_rustc_binary(tmp_path, monkeypatch):
    bindir = tmp_path / 'bin'
    bindir.mkdir()
    fake = bindir / 'rustc'
    fake.write_text('#!/bin/sh\necho rustc 0.0.0\n')
    os.chmod(fake, 0o755)
    monkeypatch.setenv('PATH', str(bindir))
    first = build.toolchain_fingerprint()
    assert str(fake) in first
    fake.write_text('#!/bin/sh\necho rustc 0.0.1 (updated)\n')
    assert build.toolchain_fingerprint() != first
    monkeypatch.setenv('PATH', str(tmp_path))
    assert build.toolchain_fingerprint() is None


@pytest.mark.rustc
def test_fingerprint_follows_rustup_overrides(tmp_path, monkeypatch):
    path = shutil.which('rustc')
    if not build._is_rustup_proxy(path, os.path.realpath(path)):
        pytest.skip('rustc is not a rustup proxy here')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv('RUSTUP_TOOLCHAIN', raising=False)
    first = build.toolchain_fingerprint()
    monkeypatch.setenv('RUSTUP_TOOLCHAIN', 'nightly')
    assert build.toolchain_fingerprint() != first
    monkeypatch.delenv('RUSTUP_TOOLCHAIN')
    (tmp_path / 'rust-toolchain.toml').write_text('[toolchain]\nchannel = "nightly"\n')
    assert build.toolchain_fingerprint() != first


@pytest.mark.rustc
def test_writable_library_of_ours_rebuilt_and_someone_elses_refused(cache, capsys):
    src = SOURCE % '7.0'
    path = build.build_library(src, 'rusty_probe')
    os.chmod(path, 0o666)
    build.build_and_load(src, 'rusty_probe')
    assert capsys.readouterr().err == build.REBUILT_NOTE % path
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o700
    build.build_and_load(src, 'rusty_probe')
    assert capsys.readouterr().err == ''
    with pytest.raises(CompileError) as info:
        os.chmod(path, 0o666)
        build.load_library(path)                   # no source at hand: refused
    assert info.value.message == insecure(path)
    if IS_ROOT:
        os.chmod(path, 0o700)
        os.chown(path, 12345, 12345)
        with pytest.raises(CompileError) as info:
            build.build_and_load(src, 'rusty_probe')
        assert info.value.message == insecure(path)


@pytest.mark.rustc
def test_corrupt_library_rebuilt_once(cache):
    src = SOURCE % '9.0'
    path = build.build_library(src, 'rusty_probe')
    with open(path, 'wb') as f:       # simulate corruption (never loaded here yet)
        f.write(b'\x7fELF truncated')
    lib = build.build_and_load(src, 'rusty_probe')
    assert lib.path == path
    assert probe_value(lib) == 18.0
    assert open(path, 'rb').read(4) == b'\x7fELF' and os.path.getsize(path) > 1000


@pytest.mark.rustc
def test_corrupt_rebuild_gives_up_after_one_retry(cache, monkeypatch):
    src = SOURCE % '11.0'
    runs = []

    def broken_rustc(src_path, out, cwd, what):
        runs.append(what)
        with open(out, 'wb') as f:
            f.write(b'not a library')

    monkeypatch.setattr(build, '_run_rustc', broken_rustc)
    with pytest.raises(CompileError) as info:
        build.build_and_load(src, 'rusty_probe')
    path = build.library_path(src, 'rusty_probe')
    assert info.value.message.startswith('defrust: failed to load %s: ' % path)
    assert len(runs) == 2


# ── Other processes ──────────────────────────────────────────────────────

CHILD = textwrap.dedent('''\
    import os, sys, time
    from rusty.jit import build
    go = sys.argv[2]
    while not os.path.exists(go):
        time.sleep(0.001)
    lib = build.build_and_load(open(sys.argv[1]).read(), 'rusty_probe')
    print(lib.path)
''')


def child_env(cache, path=None):
    env = dict(os.environ, RUSTY_CACHE_DIR=str(cache), PYTHONPATH=ROOT)
    if path is not None:
        env['PATH'] = path
    return env


@pytest.mark.rustc
def test_concurrent_builds_of_the_same_source_both_succeed(cache, tmp_path):
    src_file = tmp_path / 'probe.rs'
    src_file.write_text(SOURCE % repr(time.time()))
    go = tmp_path / 'go'
    procs = [subprocess.Popen([sys.executable, '-c', CHILD, str(src_file), str(go)],
                              env=child_env(cache), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(0.3)
    go.write_text('')
    results = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0, err
    paths = {out.strip() for out, _ in results}
    assert len(paths) == 1
    libs = [n for n in os.listdir(cache) if n.endswith(build.LIB_SUFFIX)]
    assert len(libs) == 1
    assert not [n for n in os.listdir(cache) if n.startswith('.tmp-')]


@pytest.mark.rustc
def test_a_hit_runs_no_rustc(cache, tmp_path):
    """After a first build, processes whose rustc can only answer -vV (and logs
    every call) still load the library; the second runs no process at all."""
    src = SOURCE % '13.0'
    src_file = tmp_path / 'probe.rs'
    src_file.write_text(src)
    build.build_library(src, 'rusty_probe')
    bindir = tmp_path / 'fakebin'
    bindir.mkdir()
    log = tmp_path / 'rustc.log'
    fake = bindir / 'rustc'
    fake.write_text('#!/bin/sh\necho "$*" >> %s\nif [ "$1" = "-vV" ]; then exec %s -vV; fi\nexit 1\n'
                    % (log, shutil.which('rustc')))
    os.chmod(fake, 0o755)
    go = tmp_path / 'go'
    go.write_text('')
    path = '%s:%s' % (bindir, os.path.dirname(sys.executable))
    for expected_log in (['-vV'], ['-vV']):
        proc = subprocess.run([sys.executable, '-c', CHILD, str(src_file), str(go)],
                              env=child_env(cache, path), capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert log.read_text().split('\n')[:-1] == expected_log
