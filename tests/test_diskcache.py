"""diskcache: an entry reads back as it was stored; a corrupt or foreign entry
counts as missing; files are 0600 in a 0700 directory whatever the umask; the
entries are bounded, least recently used first (the form cache's store)."""
import os

import pytest

from rusty import diskcache

PAYLOAD = b'the payload \x00\xff' * 8


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    return d


def put(name: str, payload: bytes = PAYLOAD) -> str:
    path = diskcache.entry_path('stdlib-%s' % diskcache.key(name.encode()))
    diskcache.store(path, payload)
    return path


def entries(d):
    return [p for p in os.listdir(d) if p.startswith(diskcache.PREFIXES)]


def test_an_entry_reads_back_as_stored(cache):
    path = put('a')
    assert diskcache.load(path) == PAYLOAD
    assert diskcache.load(path + 'x') is None            # missing


def test_modes_whatever_the_umask(cache):
    old = os.umask(0)
    try:
        put('a')
        put('b')
    finally:
        os.umask(old)
    assert os.stat(cache).st_mode & 0o777 == 0o700
    names = entries(cache)
    assert len(names) == 2
    assert all(os.stat(cache / n).st_mode & 0o777 == 0o600 for n in names)


@pytest.mark.parametrize('how', ['truncate', 'flip', 'foreign'])
def test_a_bad_entry_counts_as_missing(cache, how):
    path = put('x')
    data = open(path, 'rb').read()
    if how == 'truncate':
        open(path, 'wb').write(data[:len(data) // 2])
    elif how == 'flip':
        open(path, 'wb').write(data[:-1] + bytes([data[-1] ^ 1]))
    else:
        os.chmod(path, 0o666)
    assert diskcache.load(path) is None
    put('x')                                               # rebuilt by the caller
    assert diskcache.load(path) == PAYLOAD


def test_an_unusable_directory_is_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / 'file'
    blocker.write_text('x')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(blocker / 'cache'))
    assert diskcache.entry_path('stdlib-x') is None


def test_the_cache_is_bounded_least_recently_used_first(cache, monkeypatch):
    import time
    monkeypatch.setattr(diskcache, 'EVICT_EVERY', 1)
    keep = put('keep')
    size = os.path.getsize(keep)
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', str(10 * size + size // 2))
    old = time.time() - 2 * diskcache.TOUCH_AFTER
    os.utime(keep, (old, old))
    assert diskcache.load(keep) == PAYLOAD                # a hit refreshes it
    jit_file = cache / 'rusty_f_abc.so'
    jit_file.write_bytes(b'x' * (20 * size))       # the JIT's files are its own cache's business
    for i in range(40):
        path = put('fill %d' % i)
        stamp = old + i + 1                       # written in order, all before the kept entry's hit
        os.utime(path, (stamp, stamp))
    names = entries(cache)
    assert 0 < len(names) <= 10
    assert sum(os.path.getsize(cache / p) for p in names) <= 10 * size + size // 2
    assert jit_file.exists()
    assert os.path.exists(keep)                    # most recently used: kept


def test_an_unbounded_cache_keeps_everything(cache, monkeypatch):
    monkeypatch.setattr(diskcache, 'EVICT_EVERY', 1)
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', '0')
    for i in range(12):
        put('fill %d' % i)
    assert len(entries(cache)) == 12
