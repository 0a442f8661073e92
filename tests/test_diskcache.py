"""diskcache.compiled: a cached code object is the one compile() gives; a
corrupt or foreign entry is recompiled; files are 0600 in a 0700 directory."""
import os

import pytest

from rusty import diskcache

SOURCE = 'def factory(k):\n    def ev(f):\n        return f * k + 1\n    return ev\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    return d


def run(code):
    ns = {}
    exec(code, {}, ns)
    return ns['factory'](3)(5)


def code_entries(d):
    return [p for p in os.listdir(d) if p.startswith('code-')]


def test_cached_code_is_what_compile_gives(cache):
    fresh = compile(SOURCE, '<rusty-specialized>', 'exec', dont_inherit=True)
    first = diskcache.compiled(SOURCE, '<rusty-specialized>')
    again = diskcache.compiled(SOURCE, '<rusty-specialized>')
    assert len(code_entries(cache)) == 1
    assert first == fresh and again == fresh
    assert again.co_filename == '<rusty-specialized>'
    assert run(again) == run(fresh) == 16


def test_modes_and_a_new_source_makes_a_new_entry(cache):
    old = os.umask(0)
    try:
        diskcache.compiled(SOURCE, 'a')
        diskcache.compiled(SOURCE + '\n', 'a')
        diskcache.compiled(SOURCE, 'b')
    finally:
        os.umask(old)
    assert os.stat(cache).st_mode & 0o777 == 0o700
    names = code_entries(cache)
    assert len(names) == 3
    assert all(os.stat(cache / n).st_mode & 0o777 == 0o600 for n in names)


@pytest.mark.parametrize('how', ['truncate', 'flip', 'foreign'])
def test_a_bad_entry_is_recompiled(cache, how):
    diskcache.compiled(SOURCE, 'x')
    (name,) = code_entries(cache)
    path = cache / name
    data = path.read_bytes()
    if how == 'truncate':
        path.write_bytes(data[:len(data) // 2])
    elif how == 'flip':
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    else:
        os.chmod(path, 0o666)
    assert diskcache.load(str(path)) is None
    assert run(diskcache.compiled(SOURCE, 'x')) == 16


def test_an_unusable_directory_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / 'file'
    blocker.write_text('x')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(blocker / 'cache'))
    assert run(diskcache.compiled(SOURCE, 'x')) == 16


def test_syntax_errors_are_compiles(cache):
    with pytest.raises(SyntaxError):
        diskcache.compiled('def (', 'x')
    assert code_entries(cache) == []


def test_the_compiled_code_cache_is_bounded_least_recently_used_first(cache, monkeypatch):
    import time
    monkeypatch.setattr(diskcache, 'EVICT_EVERY', 1)
    first = diskcache.compiled(SOURCE, '<keep>')
    size = os.path.getsize(cache / code_entries(cache)[0])
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', str(10 * size + size // 2))
    old = time.time() - 2 * diskcache.TOUCH_AFTER
    for p in code_entries(cache):
        os.utime(cache / p, (old, old))
    assert diskcache.compiled(SOURCE, '<keep>').co_consts == first.co_consts    # a hit refreshes it
    jit_file = cache / 'rusty_f_abc.so'
    jit_file.write_bytes(b'x' * (20 * size))       # the JIT's files are its own cache's business
    for i in range(40):
        diskcache.compiled(SOURCE.replace('+ 1', '+ %d' % (i + 2)), '<fill>')
        stamp = old + i + 1                       # written in order, all before the kept entry's hit
        os.utime(cache / sorted(code_entries(cache), key=lambda p: os.path.getmtime(cache / p))[-1],
                 (stamp, stamp))
    names = code_entries(cache)
    assert 0 < len(names) <= 10
    assert sum(os.path.getsize(cache / p) for p in names) <= 10 * size + size // 2
    assert jit_file.exists()
    keep = diskcache.entry_path('code-%s.pyc' % diskcache.key(b'<keep>', SOURCE.encode()))
    assert os.path.exists(keep)                    # most recently used: kept


def test_an_unbounded_code_cache_keeps_everything(cache, monkeypatch):
    monkeypatch.setattr(diskcache, 'EVICT_EVERY', 1)
    monkeypatch.setenv('RUSTY_CODE_CACHE_MAX', '0')
    for i in range(12):
        diskcache.compiled(SOURCE.replace('+ 1', '+ %d' % (i + 2)), '<fill>')
    assert len(code_entries(cache)) == 12
