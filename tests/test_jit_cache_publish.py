"""An interrupted build leaves the JIT cache whole (docs/architecture.md, "The
interrupt protocol"): an interrupt landing while an entry is published takes
it back; an interrupted rustc is killed with its whole process group (the
linker included); an interrupted `rustc -vV` is `interrupted`, never an empty
`rustc failed:`."""
import os
import shutil
import threading
import time

import pytest

from rusty.errors import Abort, RustyError
from rusty.jit import build, cache, ffi
from rusty.runtime import Session
import test_jit_faults
from test_jit_faults import fake_rustc

RUSTC = shutil.which('rustc')
SOURCE = ('#[no_mangle]\npub extern "C" fn rusty_probe(args: *const f64, len: usize) -> f64 '
          '{ (unsafe { *args }) * 2.0 }\n')

cache_dir = test_jit_faults.cache_dir     # the private-cache fixture
pytestmark = [pytest.mark.rustc, pytest.mark.skipif(RUSTC is None, reason='rustc not on PATH')]


def entries(d):
    return sorted(n for n in os.listdir(d) if n.startswith('.tmp-') or n.endswith(('.so', '.rs', '.sha256')))


@pytest.mark.parametrize('step', ['publish_library', 'record_digest'])
@pytest.mark.parametrize('exc', [KeyboardInterrupt, Abort])
def test_an_interrupt_while_publishing_takes_the_entry_back(cache_dir, monkeypatch, step, exc):
    real_publish, real_record = cache.publish, cache.record_digest

    def publish(tmp, final, replace):
        real_publish(tmp, final, replace)
        if step == 'publish_library' and final.endswith(build.LIB_SUFFIX):
            raise exc()

    def record(path):
        real_record(path)
        if step == 'record_digest':
            raise exc()
    monkeypatch.setattr(cache, 'publish', publish)
    monkeypatch.setattr(cache, 'record_digest', record)
    with pytest.raises(exc):
        build.build_library(SOURCE, 'rusty_probe')
    assert [n for n in entries(cache_dir)] == []
    monkeypatch.setattr(cache, 'publish', real_publish)
    monkeypatch.setattr(cache, 'record_digest', real_record)
    path = build.build_library(SOURCE, 'rusty_probe')      # and the next build publishes it whole
    stem = os.path.splitext(os.path.basename(path))[0]
    assert entries(cache_dir) == sorted([stem + '.rs', stem + '.sha256', stem + build.LIB_SUFFIX])


def alive(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().split()[2] != 'Z'
    except OSError:
        return False


def test_an_interrupted_rustc_is_killed_with_its_process_group(cache_dir, tmp_path, monkeypatch):
    pids = tmp_path / 'pids'
    # rustc starts a linker that outlives it unless its group is killed
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'sleep 60 & echo $! > "%s"; echo $$ >> "%s"; wait' % (pids, pids)))
    s = Session()

    def fire():
        deadline = time.monotonic() + 30
        while (not pids.exists() or len(pids.read_text().split()) < 2) and time.monotonic() < deadline:
            time.sleep(0.01)
        s.worker.interrupt()
    threading.Thread(target=fire, daemon=True).start()
    t0 = time.monotonic()
    with pytest.raises(RustyError) as info:
        s.run('(defrust sq (x) (* x x))', '<t>')
    assert info.value.message == 'interrupted'
    assert time.monotonic() - t0 < 10
    linker, rustc = (int(p) for p in pids.read_text().split())
    deadline = time.monotonic() + 5
    while (alive(linker) or alive(rustc)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(rustc) and not alive(linker)
    assert entries(cache_dir) == []


def test_rustc_runs_in_a_process_group_of_its_own(cache_dir, tmp_path, monkeypatch):
    out = tmp_path / 'pgid'
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'ps -o pgid= -p $$ > "%s"; exit 1' % out))
    with pytest.raises(RustyError):
        build.build_library(SOURCE, 'rusty_probe')
    assert int(out.read_text()) != os.getpgid(0)      # a terminal's Ctrl-C reaches rusty alone


def test_an_interrupted_rustc_vv_is_interrupted_not_an_empty_failure(cache_dir, tmp_path, monkeypatch):
    bindir = tmp_path / 'slowbin'
    bindir.mkdir()
    (bindir / 'rustc').write_text('#!/bin/sh\nexec sleep 60\n')
    os.chmod(bindir / 'rustc', 0o755)
    monkeypatch.setenv('PATH', '%s:%s' % (bindir, os.environ['PATH']))
    s = Session()
    threading.Timer(0.5, s.worker.interrupt).start()
    t0 = time.monotonic()
    with pytest.raises(RustyError) as info:
        s.run('(defrust sq (x) (* x x))', '<t>')
    assert info.value.message == 'interrupted'
    assert time.monotonic() - t0 < 10
    assert ffi.stop_flag().value in (ffi.STOP_NONE, ffi.STOP_RAISED)
