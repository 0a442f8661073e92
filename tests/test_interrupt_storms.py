"""Storms of Ctrl-C's (docs/architecture.md, "The interrupt protocol"): any
number of SIGINTs at random gaps stop the running code, and the next input
runs at once. A signal may land at any point: before the job starts, while
the waiting caller serves an earlier one, during a native's acknowledgement
window, after the job ended. Checked in process, in batch mode (exit 130,
`interrupted`, never a traceback or a death by SIGINT), in the REPL on a real
terminal (the prompt comes back and answers), in the Jupyter kernel
(interrupt_kernel storms, then the next cell answers promptly), and during
rustc builds (never a hang, never an empty `rustc failed:`, no partial cache
entry). Each storm is bounded to a few seconds; tests/stress_interrupts.py
--storms repeats them many times.
"""
import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rusty.errors import RustyError
from rusty.runtime import Session

REPO = Path(__file__).resolve().parents[1]
LOOP = '(define (loop i) (loop (+ i 1)))'
# A loop that catches `interrupted` and goes on: only the second Ctrl-C's Abort
# ends it. Its storms keep 20 ms between signals: two SIGINTs a few ms apart
# may reach Python as one (its C handler only marks the signal; the Python
# handler runs once the main thread holds the GIL again), as the OS itself may
# merge them, and then one Ctrl-C more is needed, as for a single one.
STUBBORN = LOOP + ' (define (stubborn) (try-catch (loop 0) (e) (stubborn)))'
SPIN = '(defrust spin (n) (spin n))'
STUBBORN_NATIVE = SPIN + ' (define (stubborn) (try-catch (spin 0) (e) (stubborn)))'
STOP_BOUND = 5.0         # seconds from a storm's end to the outcome


@pytest.fixture(autouse=True)
def python_owns_sigint():
    """Each test starts with Python's own SIGINT handler (an earlier
    interrupted call may have left the worker's, for its storm's tail)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


def storm(send, rng, count, most=0.1, least=0.0):
    """Call send() `count` times at random gaps of `least` to `most` seconds."""
    for _ in range(count):
        send()
        time.sleep(rng.uniform(least, most))


def least_gap(call):
    """The shortest gap between signals a storm on `call` may use (see STUBBORN)."""
    return 0.02 if 'stubborn' in call else 0.0


def error_of(s: Session, src: str) -> str:
    try:
        s.run(src, '<storm>')
    except RustyError as e:
        return e.message
    raise AssertionError('no error from %r' % src)


# ── In process: real SIGINTs to this (main) thread ───────────────────────

def sigint_storm_while_running(s: Session, rng, count, least=0.0):
    """A thread that waits for the job to run, then sends `count` SIGINTs to
    this process at random gaps (the first lands while the job runs, so the
    call is interrupted and SIGINT stays the worker's for the storm's tail)."""
    def go():
        deadline = time.monotonic() + 10
        while not s.worker.running and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0.0, 0.1))
        storm(lambda: os.kill(os.getpid(), signal.SIGINT), rng, count, least=least)
    th = threading.Thread(target=go, daemon=True)
    th.start()
    return th


@pytest.mark.parametrize('program,call', [(LOOP, '(loop 0)'), (STUBBORN, '(stubborn)')])
def test_a_sigint_storm_in_process_stops_the_code_and_the_next_call_runs(program, call):
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    s = Session()
    s.run(program + ' (define kept 41)', '<storm>')
    rng = random.Random(34)
    for count in (2, 7, 15):
        th = sigint_storm_while_running(s, rng, count, least_gap(call))
        assert error_of(s, call) == 'interrupted'
        th.join(10)
        t0 = time.monotonic()
        assert s.run('(+ kept 1)', '<storm>') == 42
        assert time.monotonic() - t0 < 1.0


def test_the_tail_of_a_storm_is_dropped_then_sigint_is_given_back():
    from rusty import worker
    s = Session()
    s.run(LOOP, '<storm>')
    th = sigint_storm_while_running(s, random.Random(1), 1)
    assert error_of(s, '(loop 0)') == 'interrupted'
    th.join(10)
    for _ in range(5):                       # the storm goes on after the job ended: dropped
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.02)
    time.sleep(worker.STORM_TAIL + 0.1)
    with pytest.raises(KeyboardInterrupt):   # quiet long enough: Ctrl-C is Python's again
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert s.run('(+ 1 2)', '<storm>') == 3


def test_a_request_made_before_the_job_starts_stops_it_when_it_starts(monkeypatch):
    s = Session()
    s.run(LOOP, '<storm>')
    w = s.worker
    take = w._take_sigint

    def interrupted_first():         # Ctrl-C between taking SIGINT and queueing the job
        taken = take()
        w.interrupt()
        return taken
    monkeypatch.setattr(w, '_take_sigint', interrupted_first)
    t0 = time.monotonic()
    assert error_of(s, '(loop 0)') == 'interrupted'
    assert time.monotonic() - t0 < 2.0
    monkeypatch.undo()
    assert s.run('(+ 1 2)', '<storm>') == 3


def test_a_request_after_the_job_ended_is_dropped():
    s = Session()
    w = s.worker
    w.interrupt()                            # no call waits: nothing to stop, nothing kept
    assert s.run('(+ 1 2)', '<storm>') == 3
    assert s.run('(begin (define (count i) (if (= i 0) 0 (count (- i 1)))) (count 100000))', '<storm>') == 0


def test_interrupts_from_threads_at_random_gaps_stop_a_stubborn_loop():
    s = Session()
    s.run(STUBBORN, '<storm>')
    rng = random.Random(7)
    for count in (2, 3, 10):
        def go():
            while not s.worker.running:
                time.sleep(0.001)
            storm(s.worker.interrupt, rng, count, most=0.03)    # no merging: any gap
        th = threading.Thread(target=go, daemon=True)
        th.start()
        assert error_of(s, '(stubborn)') == 'interrupted'
        th.join(10)
    assert s.run('(+ 1 2)', '<storm>') == 3


# ── Batch mode ───────────────────────────────────────────────────────────

def batch_storm(src: str, rng, count: int, env=None, ready=True, after=0.2, least=0.0, until=None):
    """Run `rusty -e src`, which prints `ready` when set up (unless not
    `ready`), in a session of its own; after `after` seconds (and once
    `until(pid)` holds, if given) send `count` SIGINTs to its process group
    (as a terminal does) at random gaps.
    (returncode or 'hung', stdout, stderr, seconds from the storm's end)."""
    p = subprocess.Popen([sys.executable, '-m', 'rusty', '-e', src], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=str(REPO), start_new_session=True,
                         env=dict(env or os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED='1'))
    try:
        if ready:
            assert p.stdout.readline() == 'ready\n'
        time.sleep(after)
        if until is not None:
            limit = time.monotonic() + 60
            while p.poll() is None and not until(p.pid) and time.monotonic() < limit:
                time.sleep(0.002)

        def send():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGINT)
        storm(send, rng, count, least=least)
        ended = time.monotonic()
        try:
            out, err = p.communicate(timeout=STOP_BOUND)
        except subprocess.TimeoutExpired:
            return 'hung', '', '', time.monotonic() - ended
        return p.returncode, out, err, time.monotonic() - ended
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


@pytest.mark.parametrize('program,call', [(LOOP, '(loop 0)'), (STUBBORN, '(stubborn)')])
def test_batch_storms_end_with_interrupted_and_130(program, call):
    rng = random.Random(hash(call) & 0xffff)
    for count in (2, 9):
        rc, out, err, _ = batch_storm(program + ' (println "ready") ' + call + ' (println "after")', rng, count,
                                      least=least_gap(call))
        assert rc == 130, (count, rc, err[-400:])
        assert out == '' and 'interrupted' in err
        assert 'Traceback' not in err and 'Exception ignored' not in err


@pytest.mark.rustc
def test_batch_storms_stop_a_native(tmp_path):
    env = dict(os.environ, RUSTY_CACHE_DIR=str(tmp_path))
    rng = random.Random(12)
    for count in (2, 6):
        rc, out, err, _ = batch_storm(STUBBORN_NATIVE + ' (println "ready") (stubborn)', rng, count, env=env,
                                      least=0.02)
        assert rc == 130, (count, rc, err[-400:])
        assert 'interrupted' in err and 'Traceback' not in err


# ── During rustc builds ──────────────────────────────────────────────────

def cache_state(d):
    """'empty' or 'whole' (every library with its digest and source), else
    what is wrong: a partial entry or a temporary folder left behind."""
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    left = [n for n in names if n.startswith('.tmp-')]
    libs = [n[:-3] for n in names if n.endswith('.so')]
    partial = [n for n in names if n.endswith(('.so', '.rs', '.sha256'))
               and n.rsplit('.', 1)[0] not in libs]
    partial += [s for s in libs if s + '.sha256' not in names or s + '.rs' not in names]
    if left or partial:
        return 'left %r, partial %r' % (left, partial)
    return 'whole' if libs else 'empty'


def rustc_running(pgid: int) -> bool:
    """Whether a rustc runs in process group `pgid` or in one its members lead
    (rusty runs rustc in a group of its own)."""
    members = set()
    procs = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % pid) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            with open('/proc/%s/comm' % pid) as f:
                procs[int(pid)] = (f.read().strip(), int(fields[1]), int(fields[2]))   # comm, ppid, pgrp
        except OSError:
            continue
    members = {pid for pid, (_, _, pgrp) in procs.items() if pgrp == pgid}
    return any(comm == 'rustc' and (pgrp == pgid or ppid in members) for comm, ppid, pgrp in procs.values())


def rustc_build_storm(tmp_path, rng, count, after, during=False):
    """`rusty -e` defining a native with a fresh cache (so rustc really runs),
    SIGINTed `after` seconds into the run (`during`: once rustc runs); the
    outcome as a checked tuple."""
    cache = tmp_path / ('cache-%d' % rng.randrange(1 << 30))
    env = dict(os.environ, RUSTY_CACHE_DIR=str(cache))
    rc, out, err, took = batch_storm('(defrust cube (x) (* x x x)) (cube 3)', rng, count, env=env,
                                     ready=False, after=after, until=rustc_running if during else None)
    assert rc != 'hung', 'hung after a Ctrl-C during the build'
    assert 'rustc failed' not in err, err
    assert 'Traceback' not in err and 'internal error' not in err, err
    if rc == 130:
        assert err.startswith('Error: interrupted'), err
    else:
        assert (rc, out) == (0, '27\n'), (rc, out, err)
    state = cache_state(cache)
    assert state in ('empty', 'whole'), state
    return rc


@pytest.mark.rustc
def test_ctrl_c_during_a_rustc_build_never_hangs_nor_leaves_a_partial_entry(tmp_path):
    rng = random.Random(25)
    outcomes = [rustc_build_storm(tmp_path, rng, count, after)
                for count, after in ((1, 0.3), (3, 0.6), (1, 0.9), (2, 1.2))]
    # and storms that start while rustc runs, whatever this machine's speed
    outcomes += [rustc_build_storm(tmp_path, rng, count, 0.0, during=True) for count in (1, 3)]
    assert 130 in outcomes


# ── The REPL on a real terminal ──────────────────────────────────────────

def spawn_repl(tmp_path, env=None):
    pexpect = pytest.importorskip('pexpect')
    env = dict(env or os.environ, PYTHONPATH=str(REPO), HOME=str(tmp_path), NO_COLOR='1',
               PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color')
    real_home = os.path.expanduser('~')       # rustup finds its toolchains through HOME
    env.setdefault('RUSTUP_HOME', os.path.join(real_home, '.rustup'))
    env.setdefault('CARGO_HOME', os.path.join(real_home, '.cargo'))
    child = pexpect.spawn(sys.executable, ['-m', 'rusty'], env=env, encoding='utf-8', timeout=30,
                          dimensions=(40, 160), cwd=str(REPO))
    child.expect('rusty>')
    return child


def repl_storms(child, call, rng, counts):
    """For each count: run `call`, storm it with that many Ctrl-C's, then
    `(+ 1 2)` must answer 3 within STOP_BOUND of the storm's end."""
    import pexpect
    for count in counts:
        child.send(call + '\r')
        time.sleep(0.3)
        storm(child.sendintr, rng, count, least=least_gap(call))
        child.send('(+ 1 2)\r')
        try:
            child.expect('=> 3', timeout=STOP_BOUND)
        except pexpect.TIMEOUT:
            raise AssertionError('no answer after a storm of %d: %r' % (count, child.before[-300:])) from None
        assert 'Traceback' not in child.before, child.before[-3000:]


def test_repl_storms_bring_the_prompt_back(tmp_path):
    child = spawn_repl(tmp_path)
    try:
        child.send(STUBBORN + '\r')
        child.expect('rusty>')
        rng = random.Random(3)
        repl_storms(child, '(loop 0)', rng, (2, 5, 12))
        repl_storms(child, '(stubborn)', rng, (2, 8))
    finally:
        child.close(force=True)


@pytest.mark.rustc
def test_repl_storms_stop_a_native(tmp_path):
    child = spawn_repl(tmp_path, dict(os.environ, RUSTY_CACHE_DIR=str(tmp_path / 'cache')))
    try:
        child.send(STUBBORN_NATIVE + '\r')
        child.expect('rusty>', timeout=120)
        repl_storms(child, '(spin 0)', random.Random(4), (2, 6))
        repl_storms(child, '(stubborn)', random.Random(5), (3,))
    finally:
        child.close(force=True)


# ── The Jupyter kernel ───────────────────────────────────────────────────

@contextlib.contextmanager
def started_kernel(prefix, cwd):
    """(manager, client) of a rusty kernel whose spec is installed under `prefix`."""
    from jupyter_client.manager import start_new_kernel
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, '-m', 'rusty', 'kernel', 'install', '--prefix', str(prefix)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    saved = {k: os.environ.get(k) for k in ('JUPYTER_PATH', 'PYTHONPATH')}
    os.environ['JUPYTER_PATH'] = os.path.join(str(prefix), 'share', 'jupyter')
    os.environ['PYTHONPATH'] = str(REPO) + os.pathsep + os.environ.get('PYTHONPATH', '')
    try:
        km, kc = start_new_kernel(kernel_name='rusty', cwd=str(cwd))
        try:
            yield km, kc
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope='module')
def kernel(tmp_path_factory):
    from extras import require
    require('ipykernel', 'jupyter_client')
    with started_kernel(tmp_path_factory.mktemp('prefix'), tmp_path_factory.mktemp('cwd')) as both:
        yield both


def kernel_reply(kc, mid, seconds):
    """The reply to request `mid`, or None if none came within `seconds`."""
    import queue
    end = time.monotonic() + seconds
    while True:
        try:
            msg = kc.get_shell_msg(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            return None
        if msg['parent_header'].get('msg_id') == mid:
            return msg['content']


def kernel_storms(km, kc, call, rng, counts):
    for count in counts:
        mid = kc.execute(call)
        time.sleep(0.3)
        storm(km.interrupt_kernel, rng, count, least=least_gap(call))
        reply = kernel_reply(kc, mid, STOP_BOUND)
        assert reply is not None, 'the interrupted cell never answered (storm of %d)' % count
        assert (reply['status'], reply.get('evalue')) == ('error', 'interrupted'), reply
        t0 = time.monotonic()
        reply = kernel_reply(kc, kc.execute('(+ 1 2)'), STOP_BOUND)
        assert reply is not None and reply['status'] == 'ok', reply
        assert time.monotonic() - t0 < 2.0


def test_kernel_interrupt_storms_then_the_next_cell_answers(kernel):
    km, kc = kernel
    assert kernel_reply(kc, kc.execute(STUBBORN), 60)['status'] == 'ok'
    rng = random.Random(12)
    kernel_storms(km, kc, '(loop 0)', rng, (2, 6, 12))
    kernel_storms(km, kc, '(stubborn)', rng, (2, 7))
