"""Time to the first REPL prompt: start `rusty` in a pseudo-terminal and wait
for `rusty>` to appear. Prints `first-prompt-ms: N` (the median of the runs;
the goal is < 400 ms), then the individual runs and the CPU time the process
had used when its prompt appeared (independent of other load on the machine).

    python benchmarks/bench_repl.py [RUNS]
"""
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PROMPT = b'rusty>'
TIMEOUT = 30.0


def command() -> list:
    exe = shutil.which('rusty')
    return [exe] if exe else [sys.executable, '-m', 'rusty']


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (all its threads), from /proc."""
    try:
        with open('/proc/%d/stat' % pid) as fh:
            fields = fh.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    except (OSError, IndexError, ValueError):
        return float('nan')


def first_prompt_seconds(home: str) -> tuple:
    """(wall, cpu) seconds from spawning rusty on a terminal to its prompt being drawn."""
    master, slave = pty.openpty()
    env = dict(os.environ, HOME=home, PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color')
    t0 = time.perf_counter()
    proc = subprocess.Popen(command(), stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True, start_new_session=True)
    os.close(slave)
    seen = b''
    try:
        while PROMPT not in seen:
            left = TIMEOUT - (time.perf_counter() - t0)
            if left <= 0:
                raise RuntimeError('no prompt after %.0f s; output: %r' % (TIMEOUT, seen[-300:]))
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b''
                if not chunk:
                    raise RuntimeError('rusty exited before its prompt; output: %r' % seen[-300:])
                seen += chunk
        return time.perf_counter() - t0, cpu_seconds(proc.pid)
    finally:
        try:
            os.write(master, b'\x04')
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        os.close(master)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as home:
        first_prompt_seconds(home)            # warm the file cache and bytecode
        results = [first_prompt_seconds(home) for _ in range(runs)]
    times = [wall * 1000 for wall, _cpu in results]
    cpus = [cpu * 1000 for _wall, cpu in results]
    print('first-prompt-ms: %d' % round(statistics.median(times)))
    print('  runs: %s (min %d, goal < 400)' % (' '.join('%d' % t for t in times), min(times)))
    print('  cpu used by then: median %d ms (runs %s); load average %s'
          % (round(statistics.median(cpus)), ' '.join('%d' % c for c in cpus),
             ' '.join('%.2f' % x for x in os.getloadavg())))


if __name__ == '__main__':
    main()
