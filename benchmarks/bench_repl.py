"""Time to the first REPL prompt: start `rusty` in a pseudo-terminal and wait
for `rusty>` to appear. Prints `first-prompt-ms: N` (the median of the runs;
the goal is < 400 ms), then the individual runs.

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


def first_prompt_seconds(home: str) -> float:
    """Seconds from spawning rusty on a terminal to its prompt being drawn."""
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
        return time.perf_counter() - t0
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
        times = [first_prompt_seconds(home) * 1000 for _ in range(runs)]
    print('first-prompt-ms: %d' % round(statistics.median(times)))
    print('  runs: %s (min %d, goal < 400)' % (' '.join('%d' % t for t in times), min(times)))


if __name__ == '__main__':
    main()
