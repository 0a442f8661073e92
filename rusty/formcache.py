"""The standard library's read forms, cached on disk so start-up skips the reader.

The forms of stdlib.lisp (with their spans) are stored beside the JIT cache
(diskcache.py: mode 0700/0600, checksummed, never read if others can write)
as `stdlib-KEY.forms`, where KEY hashes the format version, the Python
version, the library's path and text, and the source of the modules that
decide what the reader produces — so editing stdlib.lisp or rusty makes a new
entry. Only the read forms are cached, nothing resolved or evaluated. An
unreadable or corrupt entry is rebuilt; any failure falls back to reading.

The payload is marshal data (no pickle import), shaped so that decoding is
one tight loop: a list is a tuple of its elements; a symbol is an int, its
index in a table of names (read numbers are floats, so ints are free); Nil is
None; numbers, strings and booleans are themselves. The spans are a separate
tuple of 5-tuples, in the order the decoder makes the cells (each element's
cells before its own, last element first), plus the positions in that order
of the cells that have none.
"""
import marshal
import os
from itertools import repeat

from . import diskcache, values
from .errors import Span
from .reader import read
from .values import EMPTY, NIL, List, Symbol, sym

FORMAT = b'rusty-forms-2\n'
# What the reader's output depends on, besides the text.
KEY_MODULES = ('reader.py', 'values.py', 'errors.py', 'formcache.py')


# ── Entry point ──────────────────────────────────────────────────────────

def read_cached(path: str, text: str):
    """The forms `read(text, path)` returns, from the cache when it has them."""
    entry = _entry_path(path, text)
    if entry is not None:
        forms = _load(entry)
        if forms is not None:
            return forms
    forms = read(text, path)
    if entry is not None:
        _store(entry, forms)
    return forms


def _entry_path(path: str, text: str):
    """The entry's file name, or None if the cache is unusable."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = [FORMAT, path.encode('utf-8', 'surrogatepass'), text.encode('utf-8', 'surrogatepass')]
    try:
        for name in KEY_MODULES:
            with open(os.path.join(here, name), 'rb') as fh:
                parts.append(fh.read())
    except OSError:
        return None
    return diskcache.entry_path('stdlib-%s.forms' % diskcache.key(*parts))


def _load(entry: str):
    """The forms stored in `entry`, or None (missing, not ours, corrupt)."""
    payload = diskcache.load(entry)
    if payload is None:
        return None
    try:
        forms = _decode(marshal.loads(payload))
        return forms if forms.__class__ is List else None
    except Exception:   # a corrupt entry of any shape: rebuilt, never fatal
        return None


def _store(entry: str, forms) -> None:
    """Write the forms' entry; forms the encoding does not cover are not cached."""
    try:
        payload = marshal.dumps(_encode(forms))
    except (ValueError, TypeError):
        return
    diskcache.store(entry, payload)


# ── Encoding ─────────────────────────────────────────────────────────────

def _encode(forms):
    """Read forms as marshal-able data (see the module docstring)."""
    names, index, spans = [], {}, []

    def enc(lst):
        """A list as a tuple of its encoded elements; spans in decoding order."""
        cells = list(lst.cells())
        items = [None] * len(cells)
        for i in range(len(cells) - 1, -1, -1):
            x = cells[i].car
            cls = x.__class__
            if cls is List:
                x = enc(x)
            elif cls is Symbol:
                x = index.get(x.name)
                if x is None:
                    x = index[cells[i].car.name] = len(names)
                    names.append(cells[i].car.name)
            elif x is NIL:
                x = None
            elif not (cls is float or cls is str or cls is bool):
                raise TypeError('not a read form: %r' % (x,))
            items[i] = x
            sp = cells[i].span
            spans.append(None if sp is None else tuple(sp))
        return tuple(items)

    if forms.__class__ is not List:
        raise TypeError('not a list of read forms: %r' % (forms,))
    tree = enc(forms)
    missing = tuple(i for i, sp in enumerate(spans) if sp is None)
    return (FORMAT, tuple(names), tree, tuple(sp for sp in spans if sp is not None), missing)


def _decode(data):
    """The read forms that _encode(forms) came from, spans recorded."""
    if data.__class__ is not tuple or len(data) != 5 or data[0] != FORMAT:
        raise ValueError('corrupt form cache entry')
    _, names, tree, raw_spans, missing = data
    if not all(n.__class__ is str for n in names) or set(map(len, raw_spans)) - {5}:
        raise ValueError('corrupt form cache entry')
    syms = [sym(n) for n in names]
    cells = []
    keep = cells.append
    new = List.__new__

    def build(t):
        """The list of tuple `t`'s decoded elements, its cells noted in order."""
        out = EMPTY
        for x in reversed(t):
            cls = x.__class__
            if cls is tuple:
                x = build(x)
            elif cls is int:
                x = syms[x]
            elif x is None:
                x = NIL
            elif not (cls is float or cls is str or cls is bool):
                raise ValueError('corrupt form cache entry')
            cell = new(List)
            cell.car = x
            cell.cdr = out
            keep(cell)
            out = cell
        return out

    if tree.__class__ is not tuple:
        raise ValueError('corrupt form cache entry')
    forms = build(tree)
    if len(cells) != len(raw_spans) + len(missing):
        raise ValueError('corrupt form cache entry')
    if missing:
        gone = set(missing)
        cells = [c for i, c in enumerate(cells) if i not in gone]
    spans = map(tuple.__new__, repeat(Span), raw_spans)
    values.record_spans(zip(cells, spans))
    return forms
