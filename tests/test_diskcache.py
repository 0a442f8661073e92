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


def test_a_store_looks_at_the_entries_only_when_its_tally_says_the_bound_may_be_passed(cache, monkeypatch):
    # The tally (the entries' bytes when last all looked at, and each store's since) keeps a store
    # from listing a directory of thousands at each process's first store; past the bound, it evicts.
    size = os.path.getsize(put('first'))          # (no tally yet: looked at, tallied)
    looked = []
    real = diskcache.evict
    monkeypatch.setattr(diskcache, 'evict', lambda d: (looked.append(d), real(d)))
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', str(10 * size + size // 2))
    for i in range(9):
        put('fill %d' % i)
    assert looked == []                           # (ten entries: within the bound)
    for i in range(30):
        put('more %d' % i)
        assert sum(os.path.getsize(cache / p) for p in entries(cache)) <= 10 * size + size // 2
    assert looked
    tally = cache / diskcache.TALLY
    assert tally.stat().st_mode & 0o777 == 0o600 and diskcache.TALLY not in entries(cache)


def test_a_damaged_or_foreign_tally_still_bounds_the_entries(cache, monkeypatch):
    size = os.path.getsize(put('first'))
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', str(4 * size + size // 2))
    tally = cache / diskcache.TALLY
    tally.write_bytes(b'\x00\x01')                # (too short to hold a total: looked at again)
    put('a')
    assert len(tally.read_bytes()) >= 8
    os.chmod(tally, 0o666)                         # (others may write it: this process counts its own stores)
    monkeypatch.setattr(diskcache, 'EVICT_EVERY', 4)
    for i in range(20):
        put('fill %d' % i)
    assert len(entries(cache)) <= 4 + 4
