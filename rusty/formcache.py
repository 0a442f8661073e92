"""The standard library's read forms, cached on disk so start-up skips the reader.

The forms of stdlib.lisp (with their spans) are stored beside the JIT cache
(diskcache.py: mode 0700/0600, checksummed, never read if others can write)
as `stdlib-KEY.forms`, where KEY hashes the format version, the Python
version, the library's path and text, and the source of the modules that
decide what the reader produces — so editing stdlib.lisp or rusty makes a new
entry. Only the read forms are cached, nothing resolved or evaluated. An
unreadable or corrupt entry is rebuilt; any failure falls back to reading.

The payload is marshal data (no pickle import) in which a list is a Python
list alternating element and span (a 5-tuple or None); a symbol is its name
as bytes; Nil is None; numbers, strings and booleans are themselves.
"""
from __future__ import annotations

import marshal
import os

from . import diskcache
from .errors import Span
from .reader import read
from .values import EMPTY, NIL, List, Symbol, sym

FORMAT = b'rusty-forms-1\n'
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

def _encode(x):
    """A read form as marshal-able data (see the module docstring)."""
    cls = x.__class__
    if cls is List:
        out = []
        for cell in x.cells():
            out.append(_encode(cell.car))
            out.append(None if cell.span is None else tuple(cell.span))
        return out
    if cls is Symbol:
        return x.name.encode('utf-8', 'surrogatepass')
    if x is NIL:
        return None
    if cls is float or cls is str or cls is bool:
        return x
    raise TypeError('not a read form: %r' % (x,))


def _decode(x):
    """The read form that _encode(form) came from."""
    cls = x.__class__
    if cls is list:
        if len(x) % 2:
            raise ValueError('corrupt form cache entry')
        out = EMPTY
        new_span = tuple.__new__
        for i in range(len(x) - 2, -1, -2):
            sp = x[i + 1]
            if sp is not None:
                if sp.__class__ is not tuple or len(sp) != 5:
                    raise ValueError('corrupt form cache entry')
                sp = new_span(Span, sp)
            out = List(_decode(x[i]), out, sp)
        return out
    if cls is bytes:
        return sym(x.decode('utf-8', 'surrogatepass'))
    if x is None:
        return NIL
    if cls is float or cls is str or cls is bool:
        return x
    raise ValueError('corrupt form cache entry')
