"""The compiler's version in the code cache's keys (codecache.version): the
hash of its sources, read back from a `compiler-` entry keyed by the files'
sizes, times and inodes, so a run hashes them only after one changed."""
import os

import pytest

from rusty import diskcache
from rusty.compile import codecache


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """Two stand-in source files the version hashes, and a fresh cache directory."""
    files = []
    for name in ('a.py', 'b.py'):
        p = tmp_path / name
        p.write_text('x = %r\n' % name)
        files.append((str(p), 'compile/' + name))
    monkeypatch.setattr(codecache, '_version_files', lambda: list(files))
    monkeypatch.setattr(codecache, '_VERSION', [])
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path / 'cache'))
    return files


def fresh_version() -> bytes:
    codecache._VERSION.clear()
    return codecache.version()


def memos(tmp_path) -> list:
    return sorted(n for n in os.listdir(tmp_path / 'cache') if n.startswith('compiler-'))


def test_the_version_hashes_the_sources_and_is_read_back_unless_one_changed(sources, tmp_path, monkeypatch):
    first = fresh_version()
    assert first == codecache._hashed(sources) + codecache.sys.implementation.cache_tag.encode()
    assert len(memos(tmp_path)) == 1
    real = codecache._hashed
    monkeypatch.setattr(codecache, '_hashed', lambda files: pytest.fail('hashed again'))
    assert fresh_version() == first
    monkeypatch.setattr(codecache, '_hashed', real)
    path = sources[0][0]
    before = os.stat(path).st_mtime_ns
    with open(path, 'w') as fh:
        fh.write("x = 'A.py'\n")         # (the same size)
    os.utime(path, ns=(before + 10 ** 9, before + 10 ** 9))
    changed = fresh_version()
    assert changed != first and changed == real(sources) + codecache.sys.implementation.cache_tag.encode()
    assert len(memos(tmp_path)) == 2


def test_a_damaged_memo_is_hashed_afresh(sources, tmp_path):
    first = fresh_version()
    (memo,) = memos(tmp_path)
    with open(tmp_path / 'cache' / memo, 'r+b') as fh:
        fh.seek(-1, 2)
        fh.write(b'?')
    assert fresh_version() == first
    assert diskcache.load(str(tmp_path / 'cache' / memo)) is not None      # (written again)


def test_the_memo_is_private_and_bounded_like_the_other_entries(sources, tmp_path):
    fresh_version()
    (memo,) = memos(tmp_path)
    assert os.stat(tmp_path / 'cache' / memo).st_mode & 0o777 == 0o600
    assert memo.startswith(diskcache.PREFIXES)
