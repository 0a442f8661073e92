"""The standard library's read forms cached on disk (rusty/formcache.py):
the same forms as the reader's, safe file modes, rebuilt when corrupt, never
loaded from files others can write, never fatal."""
import os

import pytest

import marshal

from rusty import diskcache, formcache, runtime
from rusty.reader import read
from rusty.values import List

TEXT = '(define (f x) (+ x 1))\n; a comment\n(quote (a "s" 1.5 #t () (b . c)))\n`(x ,y ,@z)\n'


def same(x, y):
    """Structurally identical read forms, spans (and their type) included."""
    if x.__class__ is List:
        if y.__class__ is not List or len(x) != len(y):
            return False
        return all(c.span == d.span and type(c.span) is type(d.span) and same(c.car, d.car)
                   for c, d in zip(x.cells(), y.cells()))
    return x.__class__ is y.__class__ and (x is y or x == y)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / 'cache'
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(d))
    return d


def entries(d):
    return sorted(p for p in os.listdir(d) if p.endswith('.forms'))


def test_cached_forms_are_the_reader_forms(cache):
    first = formcache.read_cached('lib.lisp', TEXT)
    again = formcache.read_cached('lib.lisp', TEXT)
    assert len(entries(cache)) == 1
    assert same(first, read(TEXT, 'lib.lisp')) and same(again, read(TEXT, 'lib.lisp'))


def test_the_real_standard_library_round_trips(cache):
    with open(runtime.STDLIB_PATH, encoding='utf-8') as fh:
        text = fh.read()
    formcache.read_cached(runtime.STDLIB_PATH, text)
    assert same(formcache.read_cached(runtime.STDLIB_PATH, text), read(text, runtime.STDLIB_PATH))


def test_modes_are_explicit_whatever_the_umask(cache):
    old = os.umask(0)
    try:
        formcache.read_cached('lib.lisp', TEXT)
    finally:
        os.umask(old)
    assert os.stat(cache).st_mode & 0o777 == 0o700
    (name,) = entries(cache)
    assert os.stat(cache / name).st_mode & 0o777 == 0o600


def test_a_new_text_or_path_makes_a_new_entry(cache):
    formcache.read_cached('lib.lisp', TEXT)
    formcache.read_cached('lib.lisp', TEXT + '(g)')
    formcache.read_cached('other.lisp', TEXT)
    assert len(entries(cache)) == 3


@pytest.mark.parametrize('garbage', [b'', b'junk', diskcache.FORMAT + b'\x00' * 20 + b'garbage',
                                     marshal.dumps([1.0, (1, 2)]), marshal.dumps([1.0]) + b'!',
                                     marshal.dumps(1.0)])
def test_a_corrupt_entry_is_rebuilt(cache, garbage):
    formcache.read_cached('lib.lisp', TEXT)
    (name,) = entries(cache)
    if garbage.startswith(diskcache.FORMAT) or garbage in (b'', b'junk'):
        (cache / name).write_bytes(garbage)
    else:           # a well-formed, checksummed entry whose payload is wrong
        os.unlink(cache / name)
        diskcache.store(str(cache / name), garbage)
    assert same(formcache.read_cached('lib.lisp', TEXT), read(TEXT, 'lib.lisp'))
    assert same(formcache._load(str(cache / name)).forms(), read(TEXT, 'lib.lisp'))


def test_an_entry_others_can_write_is_not_loaded(cache):
    formcache.read_cached('lib.lisp', TEXT)
    (name,) = entries(cache)
    os.unlink(cache / name)
    diskcache.store(str(cache / name), marshal.dumps(formcache._encode(read('(evil)', 'x'))))
    assert same(formcache._load(str(cache / name)).forms(), read('(evil)', 'x'))
    os.chmod(cache / name, 0o666)
    assert same(formcache.read_cached('lib.lisp', TEXT), read(TEXT, 'lib.lisp'))


def test_a_directory_others_can_write_is_not_used(cache):
    cache.mkdir()
    os.chmod(cache, 0o777)
    assert same(formcache.read_cached('lib.lisp', TEXT), read(TEXT, 'lib.lisp'))
    assert entries(cache) == []


def test_an_unusable_cache_directory_is_not_fatal(tmp_path, monkeypatch):
    blocker = tmp_path / 'file'
    blocker.write_text('x')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(blocker / 'cache'))
    assert same(formcache.read_cached('lib.lisp', TEXT), read(TEXT, 'lib.lisp'))


def test_read_errors_are_the_readers(cache):
    with pytest.raises(Exception) as e:
        formcache.read_cached('lib.lisp', '(oops')
    with pytest.raises(Exception) as f:
        read('(oops', 'lib.lisp')
    assert type(e.value) is type(f.value) and str(e.value) == str(f.value)
    assert entries(cache) == []


def test_cells_without_a_span_round_trip_beside_cells_with_one():
    from rusty.values import EMPTY, NIL, cons, sym
    read_form = read('(a (b "s") 2.5)', 'x')
    built = cons(sym('q'), cons(read_form, cons(NIL, cons(cons(True, EMPTY), EMPTY))))
    forms = cons(built, read('(c . d) ()', 'y'))
    data = formcache._encode(forms)
    assert any(marshal.loads(u)[2] for u in data[3])    # the positions of the span-less cells are recorded
    assert same(formcache._decode(marshal.loads(marshal.dumps(data))), forms)


def unit0(d, tree=None, spans=None):
    """Encoded forms `d` with the first form's tree or spans replaced."""
    t, sp, missing = marshal.loads(d[3][0])
    first = marshal.dumps((t if tree is None else tree, sp if spans is None else spans, missing))
    return d[:3] + ((first,) + d[3][1:],)


def spans0(d):
    return marshal.loads(d[3][0])[1]


@pytest.mark.parametrize('damage', [
    lambda d: d[:3],                                        # a field missing
    lambda d: (b'rusty-forms-3\n',) + d[1:],                # another format
    lambda d: d[:1] + ((1,),) + d[2:],                      # a name that is not a string
    lambda d: d[:2] + ((1,) + d[2][1:],) + d[3:],           # a head that is not a pair of names
    lambda d: d[:3] + ((b'junk',) + d[3][1:],),             # a unit that is not marshal data
    lambda d: unit0(d, tree=((0, 1j),)),                    # an element no form has
    lambda d: unit0(d, spans=spans0(d)[1:]),                # a span short
    lambda d: unit0(d, spans=(spans0(d)[0][:4],) + spans0(d)[1:]),  # a span of four fields
])
def test_a_damaged_payload_is_refused(damage):
    data = formcache._encode(read(TEXT, 'lib.lisp'))
    with pytest.raises((ValueError, IndexError, TypeError)):
        formcache._decode(damage(data))


def test_a_form_file_decodes_each_form_when_asked_and_tells_what_it_defines():
    forms = read(TEXT, 'lib.lisp')
    ff = formcache.FormFile(marshal.loads(marshal.dumps(formcache._encode(forms))), None)
    assert len(ff) == len(forms)
    assert [ff.head(i) for i in range(len(ff))] == [('define', 'f', True), ('quote', 'a', True),
                                                   ('quasiquote', 'x', True)]
    flat = formcache._encode(read('(defmacro m (x) x) (define y 2) (f) 1', 'lib.lisp'))
    assert flat[2] == (('defmacro', 'm', False), ('define', 'y', False), None, None)
    assert ff.cells == [None] * 3                       # nothing decoded yet
    second = ff.cell(1)
    assert ff.cells[0] is None and ff.cells[2] is None and ff.cell(1) is second
    original = list(forms.cells())[1]
    assert second.span == original.span and same(second.car, original.car)


def test_a_corrupt_form_found_late_comes_from_the_reader_instead():
    forms = read(TEXT, 'lib.lisp')
    data = formcache._encode(forms)
    ff = formcache.FormFile(unit0(data, tree=((0, 1j),)), lambda: read(TEXT, 'lib.lisp'))
    assert same(ff.forms(), forms)
    with pytest.raises(ValueError):
        formcache.FormFile(unit0(data, tree=((0, 1j),)), None).cell(0)


def test_forms_the_encoding_does_not_cover_are_handed_out_uncached(cache, monkeypatch):
    from rusty.values import EMPTY, cons
    odd = cons(cons(object(), EMPTY), EMPTY)         # no reader makes this: _encode refuses it
    monkeypatch.setattr(formcache, 'read', lambda text, path: odd)
    ff = formcache.load_forms('lib.lisp', TEXT)
    assert len(ff) == 1 and ff.head(0) is None and ff.cell(0) is odd
    assert entries(cache) == []
