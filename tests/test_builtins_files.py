"""docs/reference.md §6.9 Files and saved models: files, directories and model files — through the table and the language."""
import math
import os
import struct
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rusty.builtins.files import TABLE, decode_model, encode_model
from rusty.values import (EMPTY, NIL, Builtin, Lambda, List, Macro, Native, NativeGrad,
                          Tensor, equal, make_list, sym)

from helpers import builtin_caller, err, ev

F = float
ENOENT = 'No such file or directory (os error 2)'


SPECS = {spec[0]: spec for spec in TABLE.specs}
call, msg = builtin_caller(TABLE)


def L(*items):
    return make_list(list(items))


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    """Run in an empty temporary directory (paths in messages are relative)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_table_has_exactly_the_file_builtins():
    assert sorted(SPECS) == sorted(
        'file-read file-write file-append file-exists? file-delete dir-create dir-list '
        'save-model load-model'.split())
    for name, (_, _fn, _lo, _hi, doc, sig, _host, _shown, _examples) in SPECS.items():
        assert doc and sig.startswith('(' + name), name


# ── Files ────────────────────────────────────────────────────────────────

def test_write_read_append(cwd):
    assert call('file-write', 'a.txt', 'héllo\n😀') is NIL
    assert (cwd / 'a.txt').read_bytes() == 'héllo\n😀'.encode('utf-8')
    assert call('file-read', 'a.txt') == 'héllo\n😀'
    assert call('file-append', 'a.txt', '!') is NIL
    assert call('file-read', 'a.txt') == 'héllo\n😀!'
    assert call('file-write', 'a.txt', 'new') is NIL
    assert call('file-read', 'a.txt') == 'new'
    assert call('file-append', 'b.txt', 'created') is NIL
    assert call('file-read', 'b.txt') == 'created'
    call('file-write', 'empty', '')
    assert call('file-read', 'empty') == ''


def test_no_newline_translation(cwd):
    call('file-write', 'crlf', 'a\r\nb\rc\n')
    assert (cwd / 'crlf').read_bytes() == b'a\r\nb\rc\n'
    assert call('file-read', 'crlf') == 'a\r\nb\rc\n'


def test_file_read_errors(cwd):
    assert msg('file-read', 'missing.txt') == "file-read: 'missing.txt': " + ENOENT
    assert msg('file-read', 'no/such/dir/x') == "file-read: 'no/such/dir/x': " + ENOENT
    os.mkdir('d')
    assert msg('file-read', 'd') == "file-read: 'd': Is a directory (os error 21)"
    (cwd / 'bad').write_bytes(b'ok\xff\xfe')
    assert msg('file-read', 'bad') == "file-read: 'bad': stream did not contain valid UTF-8"
    assert msg('file-read', F(1)) == 'file-read: expected a string, got 1'
    assert msg('file-read', 'a\0b') == "file-read: 'a\0b': file name contained an unexpected NUL byte"


def test_file_write_errors(cwd):
    assert msg('file-write', 'no/dir/x', 'a') == "file-write: 'no/dir/x': " + ENOENT
    assert msg('file-append', 'no/dir/x', 'a') == "file-append: 'no/dir/x': " + ENOENT
    os.mkdir('d')
    assert msg('file-write', 'd', 'a') == "file-write: 'd': Is a directory (os error 21)"
    assert msg('file-write', 'x', F(1)) == 'file-write: expected a string, got 1'
    assert msg('file-append', sym('x'), 'a') == 'file-append: expected a string, got x'
    assert not os.path.exists('x')


def test_file_exists(cwd):
    assert call('file-exists?', 'nope') is False
    call('file-write', 'f', 'x')
    os.mkdir('d')
    assert call('file-exists?', 'f') is True
    assert call('file-exists?', 'd') is True
    assert call('file-exists?', str(cwd / 'f')) is True
    # never raises
    assert call('file-exists?', 'a\0b') is False
    assert call('file-exists?', '\ud800') is False
    assert call('file-exists?', 'f/inside') is False
    assert call('file-exists?', F(1)) is False
    assert call('file-exists?', NIL) is False


def test_file_delete(cwd):
    call('file-write', 'f', 'x')
    assert call('file-delete', 'f') is NIL
    assert call('file-exists?', 'f') is False
    assert msg('file-delete', 'f') == "file-delete: 'f': " + ENOENT
    os.mkdir('d')
    assert msg('file-delete', 'd') == "file-delete: 'd': Is a directory (os error 21)"
    assert os.path.isdir('d')


def test_dir_create(cwd):
    assert call('dir-create', 'a/b/c') is NIL
    assert os.path.isdir('a/b/c')
    assert call('dir-create', 'a/b/c') is NIL        # existing is fine
    assert call('dir-create', 'a') is NIL
    call('file-write', 'f', 'x')
    assert msg('dir-create', 'f') == "dir-create: 'f': File exists (os error 17)"
    assert msg('dir-create', 'f/sub') == "dir-create: 'f/sub': Not a directory (os error 20)"


def test_dir_list(cwd):
    assert call('dir-list', '.') is EMPTY
    for name in ('b', 'a', 'B', 'é', '_', '10', '9', '.hidden'):
        call('file-write', name, '')
    os.mkdir('sub')
    got = list(call('dir-list', '.'))
    assert got == sorted(['b', 'a', 'B', 'é', '_', '10', '9', '.hidden', 'sub'])
    assert got == ['.hidden', '10', '9', 'B', '_', 'a', 'b', 'sub', 'é']
    assert list(call('dir-list', str(cwd))) == got
    assert call('dir-list', 'sub') is EMPTY
    assert msg('dir-list', 'missing') == "dir-list: 'missing': " + ENOENT
    assert msg('dir-list', 'a') == "dir-list: 'a': Not a directory (os error 20)"


def test_dir_list_undecodable_name(cwd):
    try:
        with open(b'x\xff', 'wb'):
            pass
    except OSError:
        pytest.skip('file system refuses undecodable names')
    assert list(call('dir-list', '.')) == ['x\ufffd']


# ── Model format ─────────────────────────────────────────────────────────

def test_model_document_exact_text():
    t = Tensor(array('d', [1.0, -0.0, 0.5, math.nan, math.inf, -math.inf]), (2, 3))
    # exact integers in full; a float with an integral value with `.0` (it loads as a float)
    v = L(NIL, True, False, 1, F(-0.0), 0.1, 1e20, 1e-7, math.nan, math.inf, -math.inf,
          'a"b\\c\nd\te\x01é', sym('foo'), EMPTY, L(1, L()), t, F(1), 10 ** 20)
    assert encode_model(v) == (
        '{"rusty-model": 1, "value": [null, true, false, 1, -0.0, 0.1, 100000000000000000000.0, '
        '0.0000001, {"float": "NaN"}, {"float": "inf"}, {"float": "-inf"}, '
        '"a\\"b\\\\c\\nd\\te\\u0001é", {"symbol": "foo"}, [], [1, []], '
        '{"tensor": {"shape": [2, 3], "data": [1, -0.0, 0.5, {"float": "NaN"}, {"float": "inf"}, '
        '{"float": "-inf"}]}}, 1.0, 100000000000000000000]}')
    assert encode_model(NIL) == '{"rusty-model": 1, "value": null}'
    assert encode_model(3) == '{"rusty-model": 1, "value": 3}'
    assert encode_model(F(3)) == '{"rusty-model": 1, "value": 3.0}'
    assert encode_model(Tensor(array('d', [5.0]), ())) == \
        '{"rusty-model": 1, "value": {"tensor": {"shape": [], "data": [5]}}}'


def test_model_round_trip_mixed_values():
    t = Tensor(array('d', [1.0, -0.0, 0.5, math.nan]), (2, 2))
    v = L(NIL, True, False, F(1), 'a"b\\c\nd\te\x01\x7fé😀', sym('foo'), sym('with space'), EMPTY,
          L(F(1), L()), t, Tensor(array('d', [5.0]), ()), L(L('k', F(1))))
    back = decode_model(encode_model(v))
    assert back.__class__ is List and len(back) == len(v)
    items = list(back)
    assert items[0] is NIL and items[1] is True and items[2] is False
    assert items[5] is sym('foo') and items[6] is sym('with space')
    assert items[7] is EMPTY
    assert items[9].shape == (2, 2) and list(items[9].data)[:3] == [1.0, 0.0, 0.5]
    assert math.copysign(1, items[9].data[1]) < 0 and math.isnan(items[9].data[3])
    assert items[10].shape == () and list(items[10].data) == [5.0]
    for a, b in zip(items, v):
        if a.__class__ is not Tensor:
            assert equal(a, b)


def bits(x):
    return struct.pack('<d', x)


def same_float(a, b):
    return (a != a and b != b) or bits(a) == bits(b)


@settings(max_examples=1000)
@given(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True))
def test_every_number_round_trips_bit_exactly(x):
    back = decode_model(encode_model(x))
    assert back.__class__ is float and same_float(back, x)
    t = decode_model(encode_model(Tensor(array('d', [x, -x]), (2,))))
    assert same_float(t.data[0], x) and same_float(t.data[1], -x)


@pytest.mark.parametrize('x', [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
                               1.7976931348623157e308, -1.7976931348623157e308, 1e15, 1e16 + 2, 0.1,
                               1 / 3, 123456789.123456789, 9007199254740993.0, 4.35e-320])
def test_edge_numbers_round_trip(x):
    assert same_float(decode_model(encode_model(x)), x)


values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.text() | st.sampled_from(['a', 'b c', 'λ', '']),
    lambda children: st.lists(children, max_size=4), max_leaves=25)


def to_value(x):
    if x is None:
        return NIL
    if isinstance(x, list):
        return make_list([to_value(y) for y in x])
    return x


def same_value(a, b):
    if a.__class__ is float and b.__class__ is float:
        return same_float(a, b)
    if a.__class__ is List and b.__class__ is List:
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a.__class__ is b.__class__ and (a is b or a == b)


@settings(max_examples=300)
@given(values)
def test_random_values_round_trip(x):
    v = to_value(x)
    assert same_value(decode_model(encode_model(v)), v)


def test_deep_data_round_trips_without_crashing(cwd):
    v = F(1)
    for _ in range(100_000):
        v = L(v)
    assert call('save-model', 'deep.json', v) is NIL
    back = call('load-model', 'deep.json')
    depth = 0
    while back.__class__ is List:
        back = back.car
        depth += 1
    assert depth == 100_000 and back == 1.0


def test_save_and_load_files(cwd):
    v = L(1, 'two', sym('three'))
    assert call('save-model', 'm.json', v) is NIL
    assert (cwd / 'm.json').read_text(encoding='utf-8') == \
        '{"rusty-model": 1, "value": [1, "two", {"symbol": "three"}]}'
    assert equal(call('load-model', 'm.json'), v)


def test_save_model_errors(cwd):
    b = Builtin('car', lambda x: x, 1, 1)
    lam = Lambda([sym('x')], None, EMPTY, None, None)
    mac = Macro([sym('a')], None, EMPTY, None, None, 'm')
    nat = Native('fib', 1, None)
    ng = NativeGrad('grad-kernel', [None, (2, 2)], None)
    assert msg('save-model', 'm', b) == 'save-model: cannot serialize #<builtin:car>'
    assert msg('save-model', 'm', L(F(1), L(lam))) == 'save-model: cannot serialize #<lambda (x)>'
    assert msg('save-model', 'm', mac) == 'save-model: cannot serialize #<macro (a)>'
    assert msg('save-model', 'm', nat) == 'save-model: cannot serialize #<native:fib/1>'
    assert msg('save-model', 'm', ng) == 'save-model: cannot serialize #<native-grad:grad-kernel (scalar 2x2)>'
    assert not os.path.exists('m')        # nothing written on failure
    assert msg('save-model', 'no/dir/m', F(1)) == "save-model: 'no/dir/m': " + ENOENT
    assert msg('save-model', F(1), F(1)) == 'save-model: expected a string, got 1'


def test_load_model_errors(cwd):
    assert msg('load-model', 'missing') == "load-model: 'missing': " + ENOENT
    (cwd / 'bad').write_bytes(b'\xff')
    assert msg('load-model', 'bad') == "load-model: 'bad': stream did not contain valid UTF-8"
    assert msg('load-model', F(1)) == 'load-model: expected a string, got 1'


@pytest.mark.parametrize('text', [
    '', 'hello', '1', '[]', '{}', 'null', '{"rusty-model": 1}', '{"value": 1}',
    '{"rusty-model": 2, "value": 1}', '{"rusty-model": "1", "value": 1}',
    '{"rusty-model": 1, "value": 1', '{"rusty-model": 1, "value": 1} x',
    '{"rusty-model": 1, "value": {}}', '{"rusty-model": 1, "value": {"a": 1}}',
    '{"rusty-model": 1, "value": [{"a": 1}]}', '{"rusty-model": 1, "value": {"float": "nan"}}',
    '{"rusty-model": 1, "value": {"float": 1}}', '{"rusty-model": 1, "value": {"symbol": 1}}',
    '{"rusty-model": 1, "value": {"symbol": "a", "x": 1}}',
    '{"rusty-model": 1, "value": {"tensor": {"shape": [2], "data": [1]}}}',
    '{"rusty-model": 1, "value": {"tensor": {"shape": [0], "data": []}}}',
    '{"rusty-model": 1, "value": {"tensor": {"shape": [1.5], "data": [1]}}}',
    '{"rusty-model": 1, "value": {"tensor": {"shape": [1], "data": ["a"]}}}',
    '{"rusty-model": 1, "value": {"tensor": {"shape": [1]}}}',
    '{"rusty-model": 1, "value": {"tensor": [1]}}',
    '{"rusty-model": 1, "value": NaN}', '{"rusty-model": 1, "value": 1, "extra": 2}',
    '{"rusty-model": 1, "value": {"rusty-model": 1, "value": 1}}',
])
def test_load_model_rejects_non_models(cwd, text):
    (cwd / 'x.json').write_text(text, encoding='utf-8')
    assert msg('load-model', 'x.json') == "load-model: 'x.json' is not a rusty model file"


def test_load_model_accepts_reordered_and_spaced_documents(cwd):
    (cwd / 'x.json').write_text('{ "value" : [1,2] ,\n "rusty-model":1.0 }', encoding='utf-8')
    assert equal(call('load-model', 'x.json'), L(F(1), F(2)))


# ── Through the language ─────────────────────────────────────────────────

def test_files_through_the_language(cwd):
    assert ev('(file-write "t.txt" "hi")') == '()'
    assert ev('(type-of (file-write "t.txt" "hi"))') == 'nil'
    assert ev('(file-append "t.txt" "!") (file-read "t.txt")') == 'hi!'
    assert ev('(file-exists? "t.txt")') == '#t'
    assert ev('(file-exists? "nope")') == '#f'
    assert ev('(dir-create "d/e") (file-write "d/x" "") (dir-list "d")') == '(e x)'
    assert ev('(file-delete "t.txt") (file-exists? "t.txt")') == '#f'
    assert err('(file-read "nope")') == "file-read: 'nope': " + ENOENT
    assert err('(file-delete "nope")') == "file-delete: 'nope': " + ENOENT
    assert err('(dir-list "nope")') == "dir-list: 'nope': " + ENOENT
    assert err('(file-read)') == 'file-read: expected 1 arg(s), got 0'


def test_models_through_the_language(cwd):
    src = ('(save-model "m.json" (list 1 -0.0 "s" \'sym (tensor (list 1 2)) () (list) #t (sqrt -1)))'
           '(load-model "m.json")')
    assert ev(src) == '(1 0 s sym #<tensor 2 [1 2]> () () #t NaN)'
    assert (cwd / 'm.json').read_text() == (
        '{"rusty-model": 1, "value": [1, -0.0, "s", {"symbol": "sym"}, '
        '{"tensor": {"shape": [2], "data": [1, 2]}}, null, [], true, {"float": "NaN"}]}')
    assert ev('(type-of (nth (load-model "m.json") 5))') == 'nil'
    assert ev('(type-of (nth (load-model "m.json") 6))') == 'list'
    assert ev('(type-of (nth (load-model "m.json") 3))') == 'symbol'
    assert err('(save-model "m2.json" car)') == 'save-model: cannot serialize #<builtin:car>'
    assert err('(save-model "m2.json" (list (lambda (x) x)))') == 'save-model: cannot serialize #<lambda (x)>'
    assert err('(file-write "n.json" "[1]") (load-model "n.json")') == \
        "load-model: 'n.json' is not a rusty model file"


def test_deep_model_through_the_language(cwd):
    src = ('(define (nest n acc) (if (= n 0) acc (nest (- n 1) (list acc)))) '
           '(save-model "deep.json" (nest 100000 7)) '
           '(define (depth x n) (if (list? x) (depth (car x) (+ n 1)) n)) '
           '(depth (load-model "deep.json") 0)')
    assert ev(src) == '100000'
