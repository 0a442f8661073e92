"""Fresh `rusty --stats` runs on a private disk cache of compiled code, and
what their stats lines say (the disk cache's tests share them)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stats_run(tmp_path, text, cache='cache', calls='0', head=('-m', 'rusty'), **env) -> tuple:
    """(status, stdout, stderr without the stats line, the stats line) of a
    fresh `rusty --stats` on text, compiling after `calls` calls (the
    compiler on, also when the suite runs with it off); `head`: what runs
    in place of `-m rusty`."""
    path = tmp_path / 'script.lisp'
    path.write_text(text)
    full = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path / cache), RUSTY_COMPILE_CALLS=calls,
                RUSTY_SPECIALIZE='1')
    full.update(env)
    p = subprocess.run([sys.executable, *head, '--stats', str(path)], capture_output=True, text=True,
                       env=full, timeout=120)
    assert 'internal error' not in p.stderr and 'Traceback' not in p.stderr, p.stderr
    lines = p.stderr.splitlines(True)
    stats = [ln for ln in lines if ln.startswith('stats: ')]
    return p.returncode, p.stdout, ''.join(ln for ln in lines if not ln.startswith('stats: ')), \
        stats[0] if stats else ''


def counts(stats: str) -> tuple:
    """(lambdas compiled, loops compiled, lambdas loaded, loops loaded) of a stats line."""
    m = re.match(r'stats: (\d+) lambdas?(?: and (\d+) loops?)? compiled \(\d+\.\d{3} s\), '
                 r'(\d+)(?: lambdas? and (\d+) loops?)? loaded from the cache, \d+ on the reference', stats)
    assert m, stats
    return tuple(int(g or 0) for g in m.groups())


def entries(tmp_path, cache='cache') -> list:
    """The entries of compiled code in the cache directory."""
    d = tmp_path / cache
    return sorted(p for p in d.iterdir() if p.name.startswith('code-')) if d.is_dir() else []


def damage(tmp_path, how: str, cache='cache') -> None:
    """Damage every entry of the cache: 'truncate', 'garbage', 'empty' or 'flip' (one byte)."""
    for p in entries(tmp_path, cache):
        data = p.read_bytes()
        p.write_bytes({'truncate': data[:len(data) // 2], 'garbage': os.urandom(200), 'empty': b'',
                       'flip': data[:-3] + bytes([data[-3] ^ 0xff]) + data[-2:]}[how])
