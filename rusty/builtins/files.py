"""The file builtins: files, directories and model files.

Failures read `NAME: 'PATH': OSERR` (OSERR: the OS message and its number). Models are one JSON
document, written and read with explicit stacks so deep data cannot overflow
the host stack.
"""
import math
import os

from ..errors import EvalError, os_error_text
from ..printer import display_form, format_number, plain_item, render_nested
from ..values import EMPTY, NIL, BuiltinTable, List, NilType, Symbol, Tensor, make_list, sym, to_f64
from .args import expected
from .json_text import JsonError, parse_json

TABLE = BuiltinTable()


# ── Errors and paths ─────────────────────────────────────────────────────

def os_message(e: Exception) -> str:
    """The OSERR text of a host failure (a NUL in a path reads as Rust says it)."""
    if e.__class__ is ValueError and 'null byte' in str(e):
        return 'file name contained an unexpected NUL byte'
    return os_error_text(e)


def _fail(name: str, path: str, e: Exception) -> EvalError:
    return EvalError("%s: '%s': %s" % (name, path, os_message(e)))


def _path(name: str, x) -> str:
    if x.__class__ is not str:
        raise expected(name, 'string', x)
    return x


def _read_text(name: str, path: str) -> str:
    try:
        with open(path, 'rb') as f:
            return f.read().decode('utf-8')
    except (OSError, ValueError) as e:
        raise _fail(name, path, e) from None


def _write_bytes(name: str, path: str, data: bytes, mode: str) -> None:
    try:
        with open(path, mode) as f:
            f.write(data)
    except (OSError, ValueError) as e:
        raise _fail(name, path, e) from None


def _utf8(text: str) -> bytes:
    return text.encode('utf-8', 'replace')    # rusty strings hold no lone surrogates


# ── Files ────────────────────────────────────────────────────────────────

@TABLE.fn('file-read', 1, 1, doc="A file's UTF-8 text.", sig='(file-read path)',
          examples=(('(file-write "notes.txt" "hi")', '()'), ('(file-read "notes.txt")', '"hi"')))
def file_read(path):
    return _read_text('file-read', _path('file-read', path))


@TABLE.fn('file-write', 2, 2, doc='Create or truncate a file and write the text to it.',
          sig='(file-write path text)', examples=(('(file-write "notes.txt" "hi")', '()'),))
def file_write(path, text):
    path = _path('file-write', path)
    _write_bytes('file-write', path, _utf8(_path('file-write', text)), 'wb')
    return NIL


@TABLE.fn('file-append', 2, 2, doc='Append the text to a file, creating it if missing.',
          sig='(file-append path text)',
          examples=(('(file-write "log.txt" "a")', '()'),
                    ('(file-append "log.txt" "b")', '()'), ('(file-read "log.txt")', '"ab"')))
def file_append(path, text):
    path = _path('file-append', path)
    _write_bytes('file-append', path, _utf8(_path('file-append', text)), 'ab')
    return NIL


@TABLE.fn('file-exists?', 1, 1, doc='True if a file or directory exists at the path.',
          sig='(file-exists? path)', examples=(('(file-exists? "no-such-file")', '#f'),))
def file_exists(path):
    if path.__class__ is not str:
        return False
    try:
        return os.path.exists(path)
    except Exception:   # never raises
        return False


@TABLE.fn('file-delete', 1, 1, doc='Remove a file.', sig='(file-delete path)',
          examples=(('(file-write "tmp.txt" "x")', '()'),
                    ('(file-delete "tmp.txt")', '()'), ('(file-exists? "tmp.txt")', '#f')))
def file_delete(path):
    path = _path('file-delete', path)
    try:
        os.remove(path)
    except (OSError, ValueError) as e:
        raise _fail('file-delete', path, e) from None
    return NIL


@TABLE.fn('dir-create', 1, 1, doc='Create a directory and its missing parents.',
          sig='(dir-create path)', examples=(('(dir-create "out/a")', '()'), ('(file-exists? "out/a")', '#t')))
def dir_create(path):
    path = _path('dir-create', path)
    try:
        os.makedirs(path, exist_ok=True)
    except (OSError, ValueError) as e:
        raise _fail('dir-create', path, e) from None
    return NIL


def _entry_name(name: str) -> str:
    """A directory entry as text; undecodable bytes become U+FFFD."""
    try:
        name.encode('utf-8')
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode('utf-8', 'replace')


@TABLE.fn('dir-list', 1, 1, doc='The entry names of a directory, sorted by code point.',
          sig='(dir-list path)',
          examples=(('(dir-create "d")', '()'), ('(file-write "d/b.txt" "")', '()'), ('(dir-list "d")', '("b.txt")')))
def dir_list(path):
    path = _path('dir-list', path)
    try:
        names = os.listdir(path)
    except (OSError, ValueError) as e:
        raise _fail('dir-list', path, e) from None
    return make_list(sorted(_entry_name(n) for n in names))


# ── Model encoding ───────────────────────────────────────────────────────

_FLOAT_WORDS = {math.inf: 'inf', -math.inf: '-inf'}


def _model_number(x: float) -> str:
    if x != x:
        return '{"float": "NaN"}'
    if x in _FLOAT_WORDS:
        return '{"float": "%s"}' % _FLOAT_WORDS[x]
    if x == 0.0 and math.copysign(1.0, x) < 0:
        return '-0.0'
    return format_number(x)


def _model_string(s: str) -> str:
    """A JSON string: the standard escapes (quote, backslash, control characters), all else raw."""
    import json                     # only when saving a model: slow to import
    return json.dumps(s, ensure_ascii=False)


def _model_scalar(x) -> str:
    """A number outside a tensor: a float with an integral value carries `.0`,
    so that it loads as a float again, not as the exact integer."""
    text = _model_number(x)
    if x.__class__ is float and text[-1:].isdigit() and '.' not in text:
        return text + '.0'
    return text


def _model_tensor(t: Tensor) -> str:
    return '{"tensor": {"shape": [%s], "data": [%s]}}' % (
        ', '.join(str(d) for d in t.shape), ', '.join(map(_model_number, t.data)))


def _model_atom(x) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return _model_scalar(x)
    if cls is str:
        return _model_string(x)
    if cls is bool:
        return 'true' if x else 'false'
    if cls is NilType:
        return 'null'
    if cls is Symbol:
        return '{"symbol": %s}' % _model_string(x.name)
    if cls is Tensor:
        return _model_tensor(x)
    if cls is List:     # only the empty list reaches here
        return '[]'
    raise EvalError('save-model: cannot serialize %s' % display_form(x))


def encode_model(v) -> str:
    """The model document for a value (lists walked without host recursion)."""
    return '{"rusty-model": 1, "value": %s}' % render_nested(v, _model_atom, _model_shape)


def _model_shape(seq):
    if seq.__class__ is not List:       # a vector: the model format has none
        raise EvalError('save-model: cannot serialize %s' % display_form(seq))
    return '[', ', ', ']', plain_item


# ── Model decoding ───────────────────────────────────────────────────────

class _Object:
    """A JSON object that is not itself a value (the document, a tensor body)."""
    __slots__ = ('pairs',)

    def __init__(self, pairs):
        self.pairs = pairs


class _NotModel(Exception):
    pass


_FLOATS = {'NaN': math.nan, 'inf': math.inf, '-inf': -math.inf}


def _model_array(items) -> List:
    for x in items:
        if x.__class__ is _Object:
            raise _NotModel()
    return make_list(items) if items else EMPTY


def _model_object(pairs):
    """A value for a tagged object ({"symbol"}, {"float"}, {"tensor"}), else an _Object."""
    if len(pairs) == 1:
        tag, body = pairs[0]
        if tag == 'symbol' and body.__class__ is str:
            return sym(body)
        if tag == 'float' and body.__class__ is str and body in _FLOATS:
            return _FLOATS[body]
        if tag == 'tensor':
            return _model_tensor_value(body)
    return _Object(pairs)


def _model_tensor_value(body) -> Tensor:
    fields = dict(body.pairs) if body.__class__ is _Object and len(body.pairs) == 2 else {}
    shape, data = fields.get('shape'), fields.get('data')
    if shape.__class__ is not List or data.__class__ is not List:
        raise _NotModel()
    dims = []
    for d in shape:
        if d.__class__ is float and d.is_integer():
            d = int(d)
        if d.__class__ is not int or d < 1:
            raise _NotModel()
        dims.append(d)
    if math.prod(dims) != len(data) or any(x.__class__ is not float and x.__class__ is not int for x in data):
        raise _NotModel()
    from array import array     # (collections.abc with it): loaded when a tensor is first made
    return Tensor(array('d', [to_f64(x) for x in data]), tuple(dims))


def decode_model(text: str):
    """The value a model document holds; raises _NotModel for anything else."""
    try:
        doc = parse_json(text, _model_array, _model_object)
    except JsonError:
        raise _NotModel() from None
    fields = dict(doc.pairs) if doc.__class__ is _Object and len(doc.pairs) == 2 else {}
    version = fields.get('rusty-model')
    if (version.__class__ is not int and version.__class__ is not float) or version != 1 \
            or 'value' not in fields \
            or fields['value'].__class__ is _Object:
        raise _NotModel()
    return fields['value']


# ── Model builtins ───────────────────────────────────────────────────────

@TABLE.fn('save-model', 2, 2, doc='Write a value to a file in the rusty model format.',
          sig='(save-model path v)', examples=(('(save-model "m.model" (list 1 (ones \'(2))))', '()'),))
def save_model(path, v):
    path = _path('save-model', path)
    text = encode_model(v)
    _write_bytes('save-model', path, _utf8(text), 'wb')
    return NIL


@TABLE.fn('load-model', 1, 1, doc='The value stored in a rusty model file.',
          sig='(load-model path)',
          examples=(('(save-model "m.model" \'(1 2))', '()'), ('(load-model "m.model")', '(1 2)')))
def load_model(path):
    path = _path('load-model', path)
    text = _read_text('load-model', path)
    try:
        return decode_model(text)
    except _NotModel:
        raise EvalError("load-model: '%s' is not a rusty model file" % path) from None
