"""Running rustc: in a process group of its own, waited for in short slices,
killed with its whole group (linker included) when the session is asked to
stop, and its failures told apart (interrupted, disk full, killed, failed).

rustc runs in its own process group, so a terminal's Ctrl-C reaches rusty
alone: rusty decides (rusty.worker posts the request, rusty.jit.ffi's flag
carries it here), kills rustc's group and raises KeyboardInterrupt, which the
session reports as `interrupted`. Between slices of RUSTC_POLL the wait looks
at that flag and answers it (`ffi.take_stop`), so the worker needs no
asynchronous exception for a build; one that lands all the same (a second
Ctrl-C's Abort) also kills the group before it goes on. On Linux rustc is
also killed if rusty dies (PR_SET_PDEATHSIG). `subprocess` is imported only
when rustc runs.
"""
from __future__ import annotations

import ctypes
import os
import sys

from rusty.errors import Abort, CompileError, os_error_text

RUSTC_STACK = 512 << 20    # virtual; ~150 MiB are touched at 8,000 nested levels
RUSTC_POLL = 0.02          # seconds between the moments an interrupt can stop a rustc run
STDERR_CAP = 16 << 10      # characters of rustc's standard error a failure message keeps
LOW_SPACE = 16 << 20       # bytes free below which a failed build is blamed on a full disk
INTERRUPT_WAIT = 0.5       # seconds a rustc that says it was interrupted waits for the request to arrive
FFI_MODULE = 'rusty.jit.ffi'


def failed_to_run(e: OSError) -> CompileError:
    """The error for a rustc that could not be started."""
    return CompileError('defrust: failed to run rustc (is it on PATH?): %s' % os_error_text(e))


def text(data: bytes) -> str:
    """rustc's output as text (undecodable bytes replaced)."""
    return data.decode('utf-8', errors='replace')


def version() -> str:
    """The output of `rustc -vV` (runs the process; interruptible as a build is)."""
    try:
        status, out, err = run(['rustc', '-vV'], None)
    except OSError as e:
        raise failed_to_run(e) from None
    if status != 0:
        raise failure(status, capped(text(err).rstrip('\n')), None)
    return text(out)


def compile_library(args: list, cwd: str) -> str:
    """Run rustc with `args` in `cwd`; its standard error (with a final
    newline, or empty) on success, else the failure's error is raised."""
    try:
        status, _, err = run(args, cwd)
    except OSError as e:
        raise failed_to_run(e) from None
    message = capped(text(err).rstrip('\n'))
    if status != 0:
        raise failure(status, message, cwd)
    return message + '\n' if message else ''


def run(args: list, cwd) -> tuple:
    """(exit status, standard output, standard error) of rustc run with
    `args`, in its own process group. An interrupt request (the ffi flag)
    or an exception landing while it runs kills the group before the wait
    ends with KeyboardInterrupt (or that exception)."""
    import subprocess
    if stop_asked():
        raise KeyboardInterrupt()
    group = {'process_group': 0} if sys.version_info >= (3, 11) else {'start_new_session': True}
    proc = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_rustc_env(), preexec_fn=_die_with_parent(),
                            **group)
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=RUSTC_POLL)
                return proc.returncode, out, err
            except subprocess.TimeoutExpired:
                if take_stop():
                    raise KeyboardInterrupt() from None
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        for f in (proc.stdout, proc.stderr):
            f.close()


def _kill_group(proc) -> None:
    """Kill rustc's process group and reap rustc, whatever interrupts land
    meanwhile (the one being raised is raised after)."""
    import signal
    while True:
        try:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.kill()
            proc.wait()
            return
        except (KeyboardInterrupt, Abort):
            continue
        except OSError:
            return


# ── The interrupt flag (rusty.jit.ffi's, once loaded) ────────────────────

def _ffi():
    return sys.modules.get(FFI_MODULE)


def stop_asked() -> bool:
    """Whether an interrupt asks running code to stop and no one has raised it yet."""
    ffi = _ffi()
    stop = getattr(ffi, '_stop', None)
    return bool(stop) and stop[0].value in (ffi.STOP_ASKED, ffi.STOP_SEEN)


def take_stop() -> bool:
    """Answer a pending request (True once per request: the caller raises)."""
    ffi = _ffi()
    return ffi is not None and stop_asked() and ffi.take_stop()


# ── Why rustc failed ─────────────────────────────────────────────────────

def failure(status: int, message: str, work) -> BaseException:
    """What a failed rustc run raises: KeyboardInterrupt when the user
    interrupted it, the cannot-write error when the disk is full (the linker
    then dies of odd causes, such as a bus error), else `rustc failed` with
    its (capped) standard error, or with how it died when it wrote nothing."""
    if interrupted(status, message):
        return KeyboardInterrupt()
    if work is not None and _disk_full(work):
        import errno
        from rusty.jit import cache
        return cache.cannot_write(work, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    if status < 0:
        import signal
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = 'an unknown signal'
        message = (message + '\n' if message else '') + 'rustc was killed by signal %d (%s)' % (-status, name)
    elif not message:
        message = 'rustc exited with status %d and no message' % status
    return CompileError('defrust: rustc failed:\n' + message)


def interrupted(status: int, message: str) -> bool:
    """Whether rustc stopped because of an interrupt: it died of SIGINT, or
    the session has been asked to stop (waiting a moment for the request
    when rustc says it was interrupted: a signal sent to rustc's group by
    hand reached it first). The request is answered here."""
    import signal
    import time
    if status in (-signal.SIGINT, 128 + signal.SIGINT):
        take_stop()
        return True
    deadline = time.monotonic() + (INTERRUPT_WAIT if 'interrupt' in message.lower() else 0.0)
    while True:
        if take_stop():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


def _disk_full(work: str) -> bool:
    try:
        st = os.statvfs(work)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < LOW_SPACE


def capped(message: str) -> str:
    """rustc's standard error, cut to STDERR_CAP characters (a linker can dump
    megabytes, binary ones included)."""
    if len(message) <= STDERR_CAP:
        return message
    return message[:STDERR_CAP] + '\n… (%d more characters of rustc output)' % (len(message) - STDERR_CAP)


# ── rustc's process ──────────────────────────────────────────────────────

def _die_with_parent():
    """A preexec hook asking Linux to kill rustc when this process dies (a
    killed compile must not leave rustc running); None elsewhere."""
    if not sys.platform.startswith('linux'):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    PR_SET_PDEATHSIG, SIGKILL = 1, 9

    def hook():
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    return hook


def _rustc_env() -> dict:
    """rustc's environment: ours, plus a big stack for rustc's threads
    (unless set), so deeply nested bodies (up to the reader's 8,000 levels)
    do not overflow its parser. It changes nothing in the output."""
    env = dict(os.environ)
    env.setdefault('RUST_MIN_STACK', str(rustc_stack()))
    return env


def rustc_stack() -> int:
    """RUSTC_STACK, or under a virtual memory limit (ulimit -v) a 32nd of it:
    rustc gives that stack to each of its threads, and 512 MiB apiece does
    not fit in 3 GB (rustc panics)."""
    try:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError, AttributeError):
        return RUSTC_STACK
    if limit == resource.RLIM_INFINITY or limit <= 0:
        return RUSTC_STACK
    return max(8 << 20, min(RUSTC_STACK, limit // 32))
