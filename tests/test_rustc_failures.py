"""How a rustc run ends badly (the messages of the manual's
defrust section, docs/reference.md §10): Ctrl-C during the compile is `interrupted` (exit 130 in batch
mode) with nothing left in the cache and the session's definitions kept; a
rustc killed by a signal says so; a flood of (binary) standard error is cut;
a full disk is `No space left on device`, not the linker's crash.

A stand-in `rustc` on PATH answers -vV like the real one and otherwise does
what the test needs (sleeps, traps SIGINT as rustc does, kills itself)."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from rusty.errors import CompileError, RustyError
from rusty.jit import build
from rusty.runtime import Session
import test_jit_faults
from test_jit_faults import fake_rustc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUSTC = shutil.which('rustc')
SOURCE = ('#[no_mangle]\npub extern "C" fn rusty_probe(args: *const f64, len: usize) -> f64 '
          '{ (unsafe { *args }) * 2.0 }\n')
# rustc's own behaviour on SIGINT: it says so and exits 1
TRAPS_SIGINT = ('echo $$ > "%s"; trap \'echo "error: compilation was interrupted" >&2; exit 1\' INT; '
                'sleep 60 & wait')

cache_dir = test_jit_faults.cache_dir     # the private-cache fixture
pytestmark = [pytest.mark.rustc, pytest.mark.skipif(RUSTC is None, reason='rustc not on PATH')]


def cache_entries(d):
    """What a build left in the cache: libraries, sources, digests, temporaries."""
    if not os.path.isdir(d):
        return []
    return sorted(n for n in os.listdir(d) if n.startswith('.tmp-') or n.endswith(('.so', '.rs', '.sha256')))


def wait_for(path, proc=None, seconds=60):
    deadline = time.time() + seconds
    while not os.path.exists(path) or not open(path).read().strip():
        assert time.time() < deadline and (proc is None or proc.poll() is None)
        time.sleep(0.02)
    return int(open(path).read())


# ── Ctrl-C during a compile ──────────────────────────────────────────────

def test_an_interrupt_during_rustc_is_interrupted_in_process(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'exec sleep 60'))
    s = Session()
    s.run('(define keep 42)', '<t>')
    started = threading.Event()
    token = build.add_compile_listener(lambda what: started.set(), lambda what: None)
    try:
        def fire():
            started.wait(60)
            time.sleep(0.2)
            s.worker.interrupt()
        threading.Thread(target=fire, daemon=True).start()
        t0 = time.monotonic()
        with pytest.raises(RustyError) as info:
            s.run('(defrust sq (x) (* x x))', '<t>')
        took = time.monotonic() - t0
    finally:
        build.remove_compile_listener(token)
    assert info.value.message == 'interrupted'
    assert took < 10            # not the 60 s the stand-in sleeps: rustc was killed
    assert cache_entries(cache_dir) == []
    assert s.run('keep', '<t>') == 42


def test_a_rustc_that_saw_ctrl_c_first_is_still_interrupted(cache_dir, tmp_path, monkeypatch):
    # The terminal's SIGINT reaches rustc and rusty at once; rustc may say
    # "compilation was interrupted" and exit before rusty's own interrupt
    # request arrives. Stand-in: rustc exits that way, the request follows.
    pidfile = tmp_path / 'rustc.pid'
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'echo $$ > "%s"; sleep 0.3; '
                                                    'echo "error: compilation was interrupted" >&2; exit 1' % pidfile))
    s = Session()

    def fire():
        pid = wait_for(pidfile)
        while os.path.exists('/proc/%d' % pid) and open('/proc/%d/stat' % pid).read().split()[2] != 'Z':
            time.sleep(0.005)
        s.worker.interrupt()
    threading.Thread(target=fire, daemon=True).start()
    with pytest.raises(RustyError) as info:
        s.run('(defrust sq (x) (* x x))', '<t>')
    assert info.value.message == 'interrupted'
    assert cache_entries(cache_dir) == []


def test_ctrl_c_during_rustc_in_batch_mode_exits_130(cache_dir, tmp_path):
    pidfile = tmp_path / 'rustc.pid'
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(cache_dir),
               PATH=fake_rustc(tmp_path, TRAPS_SIGINT % pidfile))
    proc = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', '(defrust sq (x) (* x x)) (sq 3)'],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        wait_for(pidfile, proc)
        time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)          # what a terminal's Ctrl-C does: the whole group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, out, err) == (130, '', 'Error: interrupted\n')
    assert cache_entries(cache_dir) == []


def test_ctrl_c_during_rustc_in_the_repl_keeps_the_session(cache_dir, tmp_path):
    import pexpect
    pidfile = tmp_path / 'rustc.pid'
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(cache_dir), HOME=str(tmp_path), NO_COLOR='1',
               PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color', PATH=fake_rustc(tmp_path, TRAPS_SIGINT % pidfile))
    real_home = os.path.expanduser('~')           # rustup finds its toolchains through HOME
    env.setdefault('RUSTUP_HOME', os.path.join(real_home, '.rustup'))
    env.setdefault('CARGO_HOME', os.path.join(real_home, '.cargo'))
    child = pexpect.spawn(sys.executable, ['-m', 'rusty'], env=env, encoding='utf-8', timeout=60,
                          dimensions=(40, 120))
    try:
        child.expect('rusty>')
        child.send('(define (sq x) (* x x))\r')
        child.expect('rusty>')
        child.send('(defrust cube (x) (* x x x))\r')
        wait_for(pidfile)
        time.sleep(0.2)
        child.sendintr()                            # ^C on the terminal: SIGINT to rusty and rustc
        child.expect('Error: interrupted')
        child.expect('rusty>')
        child.send('(sq 9)\r')
        child.expect('=> 81')
        assert 'rustc failed' not in child.before
    finally:
        child.sendeof()
        child.close(force=True)
    assert cache_entries(cache_dir) == []


# ── rustc killed, flooding, or on a full disk ───────────────────────────

def test_rustc_killed_by_a_signal_says_so(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'kill -9 $$'))
    with pytest.raises(CompileError) as info:
        build.build_and_load(SOURCE, 'rusty_probe')
    assert info.value.message == 'defrust: rustc failed:\nrustc was killed by signal 9 (SIGKILL)'


def test_a_flood_of_binary_standard_error_is_cut(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'head -c 600000 /dev/urandom >&2; exit 1'))
    with pytest.raises(CompileError) as info:
        build.build_and_load(SOURCE, 'rusty_probe')
    message = info.value.message
    assert message.startswith('defrust: rustc failed:\n')
    assert len(message) < build.STDERR_CAP + 200
    assert message.endswith('more characters of rustc output)')


def test_a_full_disk_is_no_space_left_not_the_linkers_crash(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', fake_rustc(tmp_path, 'echo "collect2: fatal error: ld terminated with signal 7 '
                                                    '[Bus error]" >&2; exit 1'))
    real = os.statvfs

    class Full:
        def __init__(self, st):
            self.f_frsize, self.f_bavail = st.f_frsize, 0
    monkeypatch.setattr(build.os, 'statvfs', lambda p: Full(real(p)))
    with pytest.raises(CompileError) as info:
        build.build_and_load(SOURCE, 'rusty_probe')
    assert info.value.message.startswith('defrust: cannot write ')
    assert info.value.message.endswith(': No space left on device (os error 28)')
    assert 'Bus error' not in info.value.message
