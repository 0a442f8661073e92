"""The globals a session starts with, bound lazily.

A session starts with about 300 globals, the builtin tables' procedures and
the standard library's definitions, and a run uses a few of them. So start-up
binds each name to a Pending (resolve.py): a builtin's table module is
imported, and a library definition evaluated, when the name is first read.
What a program sees is what eager loading gave it: the same values, made
once, and the library's definitions still evaluated against its own globals.

Binding a builtin without importing its module needs each table's names: the
table index, cached beside the JIT cache (diskcache.py) and keyed by the
table modules' files (path, size, modification time), as Python keys its own
bytecode; when one changes, the next start-up imports them all and stores a
new index. The library's definitions come from the form cache
(formcache.FormFile): a top-level `(define (NAME …) …)` or `(defmacro NAME …)`
whose name no other form defines is made pending; any other form is
evaluated at start-up, in order.

The reference is eager loading (with the fast paths off, RUSTY_SPECIALIZE=0):
`make_all` makes every pending value at start-up, library definitions in file
order, as loading used to.
"""
import marshal
import os
import sys

from . import diskcache
from .resolve import Pending
from .values import sym

INDEX_FORMAT = b'rusty-table-index-1\n'
# (head, signature) of the definitions made when first read: a function
# defined with its signature, a macro; nothing whose making runs code.
LAZY_SHAPES = (('define', True), ('defmacro', False))


def import_module(name: str):
    """The module `name`, imported if need be (without importlib's import)."""
    __import__(name)
    return sys.modules[name]


# ── The builtin tables ───────────────────────────────────────────────────

def table_index(modules) -> tuple:
    """((module, its table's names), …) for the table modules, in order: from
    the cache when its entry is current, else by importing them all."""
    entry = _index_entry(modules)
    if entry is not None:
        found = _load_index(entry, modules)
        if found is not None:
            return found
    index = tuple((m, tuple(spec[0] for spec in import_module(m).TABLE.specs)) for m in modules)
    if entry is not None:
        diskcache.store(entry, marshal.dumps((INDEX_FORMAT, index)))
    return index


def _index_entry(modules):
    """The index entry's path for these modules' files as they are now, or None."""
    parts = []
    try:
        for m in modules:
            path = _module_file(m)
            st = os.stat(path)
            parts.append(('%s\0%s\0%d\0%d' % (m, path, st.st_size, st.st_mtime_ns)).encode('utf-8', 'surrogatepass'))
    except (OSError, ValueError):
        return None
    return diskcache.entry_path('tables-%s.index' % diskcache.key(INDEX_FORMAT, *parts))


def _module_file(module: str) -> str:
    """The source file of rusty module `module`, found without importing it."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = module.split('.')[1:]
    path = os.path.join(here, *parts)
    return path + '.py' if os.path.isfile(path + '.py') else os.path.join(path, '__init__.py')


def _load_index(entry: str, modules):
    """The index stored in `entry`, or None if missing or not of this shape."""
    payload = diskcache.load(entry)
    if payload is None:
        return None
    try:
        fmt, index = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if (fmt != INDEX_FORMAT or index.__class__ is not tuple
            or tuple(m for m, _ in index) != tuple(modules)
            or not all(n.__class__ is str for _, names in index for n in names)):
        return None
    return index


def bind_builtins(genv, module: str, names, make, private=False) -> None:
    """Bind each of `names` in `genv` to its builtin from table module
    `module`, made by `make(spec)` when first read (privately if `private`)."""
    specs = []      # filled with the table's specs by name on the first make

    def maker(name):
        def made():
            if not specs:
                specs.append({spec[0]: spec for spec in import_module(module).TABLE.specs})
            return make(specs[0][name])
        return made

    for name in names:
        s = sym(name)
        genv.cell(s).defer(Pending(maker(name)))
        if private:
            genv.private.add(s)


# ── The standard library ─────────────────────────────────────────────────

def bind_library(lib, forms, evaluate) -> None:
    """Bind the library's definitions in its globals `lib`: a pending value
    for each lone `(define (NAME …) …)` / `(defmacro NAME …)` of FormFile
    `forms`, evaluating the rest now; `evaluate(cell)` evaluates the form in
    list cell `cell` against `lib`."""
    heads = [forms.head(i) for i in range(len(forms))]
    counts: dict = {}
    for h in heads:
        if h is not None:
            counts[h[1]] = counts.get(h[1], 0) + 1
    for i, h in enumerate(heads):
        if h is not None and (h[0], h[2]) in LAZY_SHAPES and counts[h[1]] == 1:
            s = sym(h[1])
            lib.cell(s).defer(Pending(_definer(lib, s, forms, i, evaluate), macro=h[0] == 'defmacro'))
        else:
            evaluate(forms.cell(i))


def _definer(lib, s, forms, i: int, evaluate):
    """What makes pending definition i: evaluate it; the value it bound."""
    def made():
        evaluate(forms.cell(i))
        return lib.cells[s].get()
    return made


def make_all(genv) -> None:
    """Make every pending value of `genv` now, in the order they were bound."""
    for cell in list(genv.cells.values()):
        if cell.pending is not None:
            cell.force()
