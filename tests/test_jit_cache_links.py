"""The JIT cache and symbolic links: a cache directory reached through a link
is judged where it really is and where the link lies (a world-writable place
on either side is refused), and a cached library that is a dangling link is
rebuilt, with a note naming it, instead of leaving a stuck entry."""
import os

import pytest

from rusty.errors import CompileError
from rusty.jit import build, cache

SOURCE = '''\
#[no_mangle]
pub extern "C" fn rusty_probe(args: *const f64, len: usize) -> f64 { (unsafe { *args }) * %s }
'''


def insecure(path):
    return ("defrust: refusing to use insecure JIT cache '%s' "
            "(it must be owned by you and not writable by others)" % path)


def world_writable(path):
    path.mkdir()
    os.chmod(path, 0o777)         # not sticky: anyone may rename what is in it
    return path


@pytest.fixture(autouse=True)
def fresh_toolchain_state():
    build.reset_process_state()
    yield
    build.reset_process_state()


def test_a_cache_reached_through_a_link_into_a_world_writable_place_is_refused(tmp_path, monkeypatch):
    world = world_writable(tmp_path / 'world')
    (world / 'cache').mkdir(mode=0o700)
    private = tmp_path / 'private'
    private.mkdir(mode=0o700)
    os.symlink(world / 'cache', private / 'link')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(private / 'link'))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == insecure(os.path.realpath(world))


def test_a_parent_link_into_a_world_writable_place_is_refused(tmp_path, monkeypatch):
    world = world_writable(tmp_path / 'world')
    private = tmp_path / 'private'
    private.mkdir(mode=0o700)
    os.symlink(world, private / 'via')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(private / 'via' / 'jit'))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == insecure(os.path.realpath(world))


def test_a_link_lying_in_a_world_writable_place_is_refused(tmp_path, monkeypatch):
    world = world_writable(tmp_path / 'world')
    safe = tmp_path / 'safe'
    safe.mkdir(mode=0o700)
    (safe / 'cache').mkdir(mode=0o700)
    os.symlink(safe / 'cache', world / 'link')      # anyone could swap this link
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(world / 'link'))
    with pytest.raises(CompileError) as info:
        build.cache_dir()
    assert info.value.message == insecure(os.path.realpath(world))


def test_a_link_between_safe_places_is_accepted(tmp_path, monkeypatch):
    safe = tmp_path / 'safe'
    safe.mkdir(mode=0o700)
    (safe / 'cache').mkdir(mode=0o700)
    os.symlink(safe / 'cache', safe / 'link')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(safe / 'link'))
    assert build.cache_dir() == str(safe / 'link')


@pytest.mark.rustc
def test_a_dangling_cached_library_is_rebuilt_with_a_note_naming_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path / 'cache'))
    source = SOURCE % '3.0'
    path = build.build_library(source, 'rusty_probe')
    cache.remove_entry(path)
    os.symlink(str(tmp_path / 'gone.so'), path)
    capsys.readouterr()
    lib = build.build_and_load(source, 'rusty_probe')
    assert capsys.readouterr().err == ("rusty: rebuilt JIT cache entry '%s': it was a dangling "
                                       "symbolic link\n" % path)
    assert lib.path == path and not os.path.islink(path)
    import ctypes
    fn = lib.symbol('rusty_probe')
    fn.restype = ctypes.c_double
    assert fn((ctypes.c_double * 1)(2.0), ctypes.c_size_t(1)) == 6.0
    assert build.build_library(source, 'rusty_probe') == path      # a plain hit now
    assert capsys.readouterr().err == ''
