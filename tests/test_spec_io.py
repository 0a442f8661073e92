"""docs/reference.md §6.8 (output, error, eval-string, gensym) and §6.9 (files, models)."""
import json
import re
import struct

import pytest

from rusty.values import NIL, List, Symbol, Tensor

from helpers import dv, err, ev, out, session, value


# ── output (docs/reference.md §6.8) ───────────────────────────────────────

@pytest.mark.parametrize('src,o', [
    ('(print 1 "a" \'b)', '1 a b\n'), ('(print)', '\n'), ('(println (list "a"))', '(a)\n'),
    ('(println)', '\n'), ('(println "x" (nil) \'())', 'x () ()\n'), ('(print "a\\"b")', 'a"b\n'),
    ('(display "a" 1 "b")', 'a1b'), ('(display (list "a"))', '("a")'), ('(display)', ''),
    ('(display #t \'s 1.5)', '#ts1.5'), ('(newline)', '\n'), ('(display "x") (newline) (display "y")', 'x\ny'),
    ('(print "a") (display "b") (println "c")', 'a\nbc\n'),
])
def test_output_builtins(src, o):
    assert out(src) == o


@pytest.mark.parametrize('call', ['(print 1)', '(println 1)', '(display 1)', '(newline)'])
def test_output_builtins_return_nil(call):
    assert ev('(type-of %s)' % call) == 'nil'


def test_newline_arity():
    assert err('(newline 1)') == 'newline: expected 0 arg(s), got 1'


# ── error ────────────────────────────────────────────────────────────────

@pytest.mark.parametrize('src,msg', [
    ('(error "bad value:" 5)', 'bad value: 5'),
    ('(error "bad" 42)', 'bad 42'),
    ("(error 'sym)", 'sym'),
    ('(error (list "a" (list "b")))', '(a (b))'),
    ('(error "a" "b")', 'a b'),
    ('(error "multi\\nline")', 'multi\nline'),
    ('(error "x" (nil) 1.5 #f)', 'x () 1.5 #f'),
])
def test_error(src, msg):
    assert err(src) == msg


# ── eval-string ──────────────────────────────────────────────────────────

def test_eval_string():
    assert ev('(eval-string "(+ 1 2)")') == '3'
    assert ev('(eval-string "1 2 3")') == '3'
    assert ev('(type-of (eval-string ""))') == 'nil'
    assert ev('(type-of (eval-string "; only a comment"))') == 'nil'
    assert ev('(eval-string "(square 3)")') == '9'
    assert ev('(eval-string "(define (f) 1) (f)")') == '1'


def test_eval_string_fresh_environment():
    assert err('(define zqouter 5) (eval-string "zqouter")') == "Undefined: 'zqouter'"
    assert err('(eval-string "(define zqinner 1)") zqinner') == "Undefined: 'zqinner'"
    assert ev('(define (square x) 0) (eval-string "(square 3)")') == '9'
    assert ev('(define car cdr) (eval-string "(car (list 1 2))")') == '1'


def test_eval_string_errors_propagate_bare():
    assert err('(eval-string "(car 5)")') == 'car: not a pair'
    assert err('(eval-string "(+ 1")') == "unexpected end of input: a '(' is never closed"
    assert err('(eval-string 5)') == 'eval-string: expected a string, got 5'


def test_eval_string_output_goes_to_the_same_stdout():
    assert out('(display "a") (eval-string "(display \\"b\\")") (display "c")') == 'abc'


# ── gensym ───────────────────────────────────────────────────────────────

def test_gensym():
    assert ev('(symbol? (gensym))') == '#t'
    assert re.fullmatch(r'g__\d+', ev('(gensym)'))
    assert re.fullmatch(r'tmp__\d+', ev('(gensym "tmp")'))
    assert re.fullmatch(r'abc__\d+', ev("(gensym 'abc)"))
    assert ev('(eq? (gensym) (gensym))') == '#f'
    assert ev('(define a (gensym)) (eq? a a)') == '#t'


def test_gensym_counter_is_shared_process_wide():
    a = ev('(gensym)')
    b = ev('(gensym)')
    assert a != b


def test_gensym_errors():
    assert err('(gensym 5)') == 'gensym: expected a string or symbol, got 5'
    assert err('(gensym "a" "b")') == 'gensym: expected 0 to 1 arg(s), got 2'


# ── files (docs/reference.md §6.9) ────────────────────────────────────────

@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


ENOENT = 'No such file or directory (os error 2)'


def test_file_write_read_append(here):
    assert ev('(type-of (file-write "f.txt" "héllo\\n"))') == 'nil'
    assert (here / 'f.txt').read_bytes() == 'héllo\n'.encode('utf-8')
    assert value('(file-read "f.txt")') == 'héllo\n'
    assert ev('(type-of (file-append "f.txt" "more"))') == 'nil'
    assert (here / 'f.txt').read_text(encoding='utf-8') == 'héllo\nmore'
    ev('(file-write "f.txt" "x")')
    assert (here / 'f.txt').read_text() == 'x'
    ev('(file-append "new.txt" "created")')
    assert (here / 'new.txt').read_text() == 'created'


def test_file_write_keeps_newlines_verbatim(here):
    ev('(file-write "crlf.txt" "a\\r\\nb")')
    assert (here / 'crlf.txt').read_bytes() == b'a\r\nb'


def test_file_errors(here):
    assert err('(file-read "missing")') == "file-read: 'missing': " + ENOENT
    (here / 'bad').write_bytes(b'\xff\xfe')
    assert err('(file-read "bad")') == "file-read: 'bad': stream did not contain valid UTF-8"
    assert err('(file-write "nodir/x" "a")') == "file-write: 'nodir/x': " + ENOENT
    assert err('(file-append "nodir/x" "a")') == "file-append: 'nodir/x': " + ENOENT
    (here / 'adir').mkdir()
    assert err('(file-read "adir")') == "file-read: 'adir': Is a directory (os error 21)"


def test_file_exists(here):
    (here / 'f').write_text('x')
    (here / 'd').mkdir()
    assert ev('(list (file-exists? "f") (file-exists? "d") (file-exists? "nope"))') == '(#t #t #f)'
    assert ev('(file-exists? "nodir/deeper/x")') == '#f'


def test_file_delete(here):
    (here / 'f').write_text('x')
    assert ev('(type-of (file-delete "f"))') == 'nil'
    assert not (here / 'f').exists()
    assert err('(file-delete "f")') == "file-delete: 'f': " + ENOENT
    (here / 'd').mkdir()
    assert err('(file-delete "d")') == "file-delete: 'd': Is a directory (os error 21)"


def test_dir_create_and_list(here):
    assert ev('(type-of (dir-create "a/b/c"))') == 'nil'
    assert (here / 'a' / 'b' / 'c').is_dir()
    assert ev('(type-of (dir-create "a/b/c"))') == 'nil'
    for name in ['b', 'a', 'B', 'é', 'Z1']:
        (here / 'lst').mkdir(exist_ok=True)
        (here / 'lst' / name).write_text('')
    (here / 'lst' / 'sub').mkdir()
    assert dv('(dir-list "lst")') == '("B" "Z1" "a" "b" "sub" "é")'
    (here / 'empty').mkdir()
    assert ev('(type-of (dir-list "empty"))') == 'list'
    assert ev('(length (dir-list "empty"))') == '0'


def test_dir_errors(here):
    assert err('(dir-list "nope")') == "dir-list: 'nope': " + ENOENT
    (here / 'afile').write_text('x')
    assert err('(dir-create "afile/sub")') == "dir-create: 'afile/sub': Not a directory (os error 20)"
    assert err('(dir-list "afile")') == "dir-list: 'afile': Not a directory (os error 20)"


def test_file_paths_relative_to_current_directory(here):
    (here / 'sub').mkdir()
    (here / 'sub' / 'x.txt').write_text('inner')
    assert value('(file-read "sub/x.txt")') == 'inner'


# ── save-model / load-model ──────────────────────────────────────────────

def _bits(x):
    return struct.pack('>d', x)


def _same(a, b):
    """Bit-exact structural comparison of loaded values (exact integers stay exact)."""
    if type(a) is int:
        return type(b) is int and a == b
    if isinstance(a, float):
        return isinstance(b, float) and _bits(a) == _bits(b)
    if isinstance(a, bool) or isinstance(a, str):
        return type(a) is type(b) and a == b
    if isinstance(a, Symbol):
        return a is b
    if a is NIL:
        return b is NIL
    if isinstance(a, List):
        return isinstance(b, List) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, Tensor):
        return (isinstance(b, Tensor) and tuple(a.shape) == tuple(b.shape)
                and all(_bits(x) == _bits(y) for x, y in zip(a.data, b.data)))
    raise AssertionError('unexpected value %r' % (a,))


ROUND_TRIP_VALUES = [
    '-0.0', '0', '(sqrt -1)', '1e400', '-1e400', '5e-324', '0.1', '(+ 0.1 0.2)', '1e300', '1.7976931348623157e308',
    '(/ 1 3)', '123456789012345678', '-2.5e-310', '"plain"', '"q\\"uo\\\\te\\nnl\\ttab λ 😀"', '""', "'sym",
    '#t', '#f', '(nil)', "'()", "(list 1 (list 2 (list)) \"x\" 'y (nil))", "(list (list 'a 1) (list 'b 2))",
    '(tensor 5)', "(tensor '(1 -0.0 2.5))", "(tensor '((1 2) (3 4)))", '(tensor (list (sqrt -1) 1e400 -1e400 5e-324))',
    "(list (tensor '(1 2)) (list (tensor 3)))", "(string->symbol \"with space\")",
    '2.0', '(- 7.0)', '(expt 10 30)', '-123456789012345678901234567890', '(list 1 1.0 (exact 1e20) 1e20)',
]


@pytest.mark.parametrize('expr', ROUND_TRIP_VALUES)
def test_model_round_trip_bit_exact(here, expr):
    s = session()
    original = s.run('(define v %s) v' % expr, '<test>')
    assert s.run('(save-model "m.json" v)', '<test>') is NIL
    loaded = s.run('(load-model "m.json")', '<test>')
    assert _same(original, loaded), (expr, original, loaded)


def test_model_file_format(here):
    ev("(save-model \"m.json\" (list 1 -0.0 \"a\" 'b #t #f (nil) '() 2.5))")
    text = (here / 'm.json').read_text().strip()
    assert text == '{"rusty-model": 1, "value": [1, -0.0, "a", {"symbol": "b"}, true, false, null, [], 2.5]}'


def test_model_file_format_special_floats_and_tensors(here):
    ev("(save-model \"m.json\" (list (sqrt -1) 1e400 -1e400 (tensor '((1 2) (3 4)))))")
    text = (here / 'm.json').read_text().strip()
    assert text == ('{"rusty-model": 1, "value": [{"float": "NaN"}, {"float": "inf"}, {"float": "-inf"}, '
                    '{"tensor": {"shape": [2, 2], "data": [1, 2, 3, 4]}}]}')


def test_model_file_numbers_positional(here):
    # a float with an integral value carries `.0` (it loads as a float, not as the exact integer)
    ev('(save-model "m.json" (list 1e20 1e-7 0.1 (exact 1e20) 1.0))')
    assert (here / 'm.json').read_text().strip() == \
        '{"rusty-model": 1, "value": [100000000000000000000.0, 0.0000001, 0.1, 100000000000000000000, 1.0]}'


def test_model_file_rank0_tensor(here):
    ev('(save-model "m.json" (tensor 5))')
    doc = json.loads((here / 'm.json').read_text())
    assert doc == {'rusty-model': 1, 'value': {'tensor': {'shape': [], 'data': [5]}}}


def test_model_string_escapes_are_standard_json(here):
    ev('(save-model "m.json" "a\\"b\\\\c\\nd")')
    doc = json.loads((here / 'm.json').read_text())
    assert doc['value'] == 'a"b\\c\nd'


def test_load_model_written_by_hand(here):
    (here / 'h.json').write_text('{"rusty-model": 1, "value": [1.5, {"symbol": "s"}, {"float": "-inf"}, null]}')
    assert dv('(load-model "h.json")') == '(1.5 s -inf ())'
    assert ev('(type-of (nth (load-model "h.json") 3))') == 'nil'


@pytest.mark.parametrize('src,msg', [
    ('(save-model "m" car)', 'save-model: cannot serialize #<builtin:car>'),
    ('(save-model "m" (list 1 (lambda (x) x)))', 'save-model: cannot serialize #<lambda (x)>'),
    ('(defmacro mm () 1) (save-model "m" mm)', 'save-model: cannot serialize #<macro ()>'),
    ('(save-model "nodir/m" 1)', "save-model: 'nodir/m': " + ENOENT),
    ('(load-model "missing")', "load-model: 'missing': " + ENOENT),
])
def test_model_errors(here, src, msg):
    assert err(src) == msg


@pytest.mark.parametrize('content', ['[1]', 'garbage', '{"value": 1}', '', '{"rusty-model": 1}', '3'])
def test_load_model_rejects_non_model_files(here, content):
    (here / 'f').write_text(content)
    assert err('(load-model "f")') == "load-model: 'f' is not a rusty model file"
