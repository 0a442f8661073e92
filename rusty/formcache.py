"""The standard library's read forms, cached on disk so start-up skips the reader.

The forms of stdlib.lisp (with their spans) are stored beside the JIT cache
(diskcache.py: mode 0700/0600, checksummed, never read if others can write)
as `stdlib-KEY.forms`, where KEY hashes the format version, the Python
version, the library's path and text, and the source of the modules that
decide what the reader produces — so editing stdlib.lisp or rusty makes a new
entry. Only the read forms are cached, nothing resolved or evaluated. An
unreadable or corrupt entry is rebuilt; any failure falls back to reading.

A FormFile hands out the file's top-level forms one at a time, each decoded
when first asked for: start-up evaluates only the definitions a run uses
(lazy.py), and it can tell what a form defines from its encoding alone.

The payload is marshal data (no pickle import): the names of the symbols, per
top-level form what it defines (see FormFile.head), and per top-level form a
unit, itself marshalled (so loading the entry builds none of it), decoded by
one tight loop when the form is first asked for. In a unit's tree a list
is a tuple of its elements; a symbol is an int, its index in the names; an exact
integer is a one-element Python list; Nil is None; floats, strings and
booleans are themselves. The tree is the one-element list of the form itself,
so that its cell carries the form's position. Beside the tree, the unit's
spans: a tuple of 5-tuples in the order the decoder makes the cells (each
element's cells before its own, last element first), and the positions in
that order of the cells that have none.
"""
import marshal
import os
from itertools import repeat

from . import diskcache, values
from .errors import Span
from .reader import read
from .values import EMPTY, NIL, List, Symbol, sym

FORMAT = b'rusty-forms-6\n'
# What the reader's output depends on, besides the text.
KEY_MODULES = ('reader.py', 'values.py', 'errors.py', 'formcache.py')


# ── Entry point ──────────────────────────────────────────────────────────

def read_cached(path: str, text: str):
    """The forms `read(text, path)` returns, from the cache when it has them."""
    return load_forms(path, text).forms()


def load_forms(path: str, text: str) -> 'FormFile':
    """The top-level forms of `text` (read from file `path`) as a FormFile,
    from the cache when it has them; read (and stored) otherwise."""
    entry = _entry_path(path, text)
    if entry is not None:
        found = _load(entry, lambda: read(text, path))
        if found is not None:
            return found
    forms = read(text, path)
    data = _encode(forms)
    stored = entry is not None and _store(entry, data)
    cells = list(forms.cells())
    if data is None:        # not encodable: no unit to decode, no head known
        data = (FORMAT, (), (None,) * len(cells), (b'',) * len(cells))
    found = FormFile(data, lambda: forms)
    found.cells = cells
    found.stored = stored
    return found


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


def _load(entry: str, fallback=None):
    """The FormFile stored in `entry`, or None (missing, not ours, corrupt).
    Every form is decoded here unless a `fallback` (the reader's forms of the
    same text) can stand in for a unit found corrupt later."""
    payload = diskcache.load(entry)
    if payload is None:
        return None
    try:
        found = FormFile(marshal.loads(payload), fallback)
        if fallback is None:
            found.forms()
        return found
    except Exception:   # a corrupt entry of any shape: rebuilt, never fatal
        return None


def _store(entry: str, data) -> bool:
    """Write the encoded forms' entry (True if it is there now); forms the encoding does not cover are not cached."""
    if data is None:
        return False
    try:
        payload = marshal.dumps(data)
    except (ValueError, TypeError):
        return False
    diskcache.store(entry, payload)
    return os.path.exists(entry)


# ── Encoding ─────────────────────────────────────────────────────────────

def _encode(forms):
    """Read forms as marshal-able data (see the module docstring), or None
    when they are not all read forms."""
    names, index = [], {}

    def enc(cells, spans):
        """The cells' elements as a tuple, encoded; spans in decoding order."""
        items = [None] * len(cells)
        for i in range(len(cells) - 1, -1, -1):
            x = cells[i].car
            cls = x.__class__
            if cls is List:
                x = enc(list(x.cells()), spans)
            elif cls is Symbol:
                x = index.get(x.name)
                if x is None:
                    x = index[cells[i].car.name] = len(names)
                    names.append(cells[i].car.name)
            elif x is NIL:
                x = None
            elif cls is int:
                x = [x]
            elif not (cls is float or cls is str or cls is bool):
                raise TypeError('not a read form: %r' % (x,))
            items[i] = x
            sp = cells[i].span
            spans.append(None if sp is None else tuple(sp))
        return tuple(items)

    def unit(cell):
        spans = []
        tree = enc([cell], spans)
        missing = tuple(i for i, sp in enumerate(spans) if sp is None)
        return tree, tuple(sp for sp in spans if sp is not None), missing

    if forms.__class__ is not List:
        return None
    try:
        units = [unit(c) for c in forms.cells()]
    except TypeError:
        return None
    names = tuple(names)
    heads = tuple(_head(tree, names) for tree, _, _ in units)
    return (FORMAT, names, heads, tuple(marshal.dumps(u) for u in units))


def _head(tree, names):
    """(head, name, signature) for an encoded form shaped `(HEAD NAME …)`
    (signature False) or `(HEAD (NAME …) …)` (True) with symbols HEAD and
    NAME, else None."""
    form = tree[0]
    if form.__class__ is not tuple or len(form) < 2 or form[0].__class__ is not int:
        return None
    target = form[1]
    signature = target.__class__ is tuple and len(target) > 0
    if signature:
        target = target[0]
    if target.__class__ is not int:
        return None
    return names[form[0]], names[target], signature


def _decode(data):
    """The read forms that _encode(forms) came from, spans recorded."""
    return FormFile(data, None).forms()


# ── The forms of one file ────────────────────────────────────────────────

class FormFile:
    """A file's top-level forms from their encoding, each decoded when first
    asked for (spans recorded then). `fallback()` gives the reader's forms of
    the same text, for a unit that turns out corrupt; without one, a corrupt
    unit raises ValueError."""

    def __init__(self, data, fallback):
        if data.__class__ is not tuple or len(data) != 4 or data[0] != FORMAT:
            raise ValueError('corrupt form cache entry')
        _, names, heads, units = data
        if (names.__class__ is not tuple or heads.__class__ is not tuple or units.__class__ is not tuple
                or len(heads) != len(units) or not all(n.__class__ is str for n in names)
                or not all(u.__class__ is bytes for u in units)
                or not all(h is None or (h.__class__ is tuple and len(h) == 3 and h[0].__class__ is str
                                         and h[1].__class__ is str and h[2].__class__ is bool)
                           for h in heads)):
            raise ValueError('corrupt form cache entry')
        self.names = names
        self.heads = heads
        self.units = units
        self.fallback = fallback
        self.syms = None
        self.cells = [None] * len(units)
        self.stored = False         # read and stored in this process: the cache directory's first run (or rusty's)

    def __len__(self) -> int:
        return len(self.units)

    def head(self, i: int):
        """(head, name, signature) for form i shaped `(HEAD NAME …)` (signature
        False) or `(HEAD (NAME …) …)` (True), with symbols HEAD and NAME: what
        a definition binds, and how; else None. Nothing is decoded."""
        return self.heads[i]

    def cell(self, i: int) -> List:
        """The list cell holding form i: its car is the form, its span the form's."""
        c = self.cells[i]
        if c is None:
            try:
                c = self._decode(marshal.loads(self.units[i]))
            except (ValueError, IndexError, TypeError, EOFError):
                if self.fallback is None:
                    raise
                c = list(self.fallback().cells())[i]
            self.cells[i] = c
        return c

    def forms(self) -> List:
        """All the forms, as the list the reader returns (fresh list cells)."""
        out = EMPTY
        for i in range(len(self.units) - 1, -1, -1):
            c = self.cell(i)
            out = values.spanned(c.car, out, c.span)
        return out

    def _decode(self, unit) -> List:
        """The one-element list a unit encodes, its cells' spans recorded."""
        if unit.__class__ is not tuple or len(unit) != 3:
            raise ValueError('corrupt form cache entry')
        tree, raw_spans, missing = unit
        if tree.__class__ is not tuple or len(tree) != 1 or set(map(len, raw_spans)) - {5}:
            raise ValueError('corrupt form cache entry')
        if self.syms is None:
            self.syms = [sym(n) for n in self.names]
        syms = self.syms
        cells = []
        keep = cells.append
        new = List

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
                elif cls is list:
                    x = x[0]
                elif not (cls is float or cls is str or cls is bool):
                    raise ValueError('corrupt form cache entry')
                cell = new()
                cell.car = x
                cell.cdr = out
                keep(cell)
                out = cell
            return out

        top = build(tree)
        if len(cells) != len(raw_spans) + len(missing):
            raise ValueError('corrupt form cache entry')
        if missing:
            gone = set(missing)
            cells = [c for i, c in enumerate(cells) if i not in gone]
        values.record_spans(zip(cells, map(tuple.__new__, repeat(Span), raw_spans)))
        return top
