"""Compiled lambdas kept on disk between runs, so that a second run of a
script compiles nothing.

An entry is content-addressed: its key (`lambda_key`) hashes the lambda's
forms as text (parameters, body, name), the layout of the scopes around it,
the compiler's version (a hash of its sources, `version`) and Python's. It
holds the marshalled code of the lambda's function and, for each object the
code names (k0, k1, …: lower.Lowering.k), a recipe that rebuilds it from the
live lambda when loading (recipes.py: paths into the body's forms, globals
by name, …; a pure macro's expansion lowered in place is made again from
its call, and must be the one stored). Positions come from the live forms,
so reports stay exact when a lambda moves in its file.
A `do` loop compiled mid-run (osr.py) is kept the same way, as a lambda of
no parameters whose body is the `do` form (`loop_key`).

What the code assumes of the globals is checked again when loading (the
cells `assumed` must hold the same builtin or library procedure, the
globals it calls, `heads`, a macro where they held one, and the macros it
expanded the same expansions): if anything differs,
or the entry is missing, foreign, truncated or of another version, the
lambda is compiled afresh. Entries live where the JIT's and the standard
library's do (diskcache.py: `RUSTY_CACHE_DIR`, private, checksummed, written
atomically, bounded by `RUSTY_CODE_CACHE_MAX`); `RUSTY_CODE_CACHE=0` turns
the cache off. Nothing here raises: a cache can only save time.
"""
import marshal
import os
import sys

from .. import diskcache
from .formtext import Miss, macros_named, text
from .recipes import Decoder, Encoder, objects

FORMAT = b'rusty-code-4'
LOOP = b'rusty-loop-1'                 # (a loop's key: osr.py)
_VERSION: list = []                     # the compiler's version, once computed


# ── The key ──────────────────────────────────────────────────────────────

def version() -> bytes:
    """A hash of the compiler's sources and of the modules its lowering reads
    (computed once per process, when the first lambda is looked up; read
    from a `compiler-` entry keyed by the files' sizes, times and
    inodes, as Python keys its own bytecode, so a run hashes them only when
    one changed)."""
    if not _VERSION:
        files = _version_files()
        memo = _version_memo(files)
        found = diskcache.load(memo) if memo is not None else None
        if found is None or len(found) != diskcache.DIGEST:
            found = _hashed(files)
            if memo is not None:
                diskcache.store(memo, found)
        _VERSION.append(found + sys.implementation.cache_tag.encode())
    return _VERSION[0]


def _version_files() -> list:
    """(path, its name relative to rusty/) of each source the version hashes."""
    here = os.path.dirname(os.path.abspath(__file__))
    up, base = os.path.split(here)
    files = []
    for d, _, names in os.walk(here):
        rel = base + d[len(here):]
        files += [(os.path.join(d, f), os.path.join(rel, f)) for f in names if f.endswith('.py')]
    files.sort()
    return files + [(os.path.join(up, f), f) for f in ('eval.py', 'resolve.py', 'values.py', 'specials.py', 'syntax.py')]


def _version_memo(files):
    """The path of the entry holding the version of `files` as they are now (stat), or None."""
    stat, parts = os.stat, []
    try:
        for path, rel in files:
            st = stat(path)
            parts.append('%s %d %d %d %d' % (rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
    except OSError:
        return None
    whole = '\0'.join(parts).encode('utf-8', 'surrogatepass')
    return diskcache.entry_path('compiler-%s.version' % diskcache.key(FORMAT, whole))


def _hashed(files) -> bytes:
    """The hash of the files' text and names."""
    h = diskcache._hasher()
    for path, rel in files:
        try:
            with open(path, 'rb') as fh:
                h.update(fh.read())
        except OSError:
            h.update(b'?')
        h.update(rel.encode())
    return h.digest()


def lambda_key(params, rest, body, lscope, unit, name, kind=FORMAT):
    """The entry's name for this lambda, or None when its forms hold
    something the text cannot name (an uninterned symbol, a host object).
    Besides the text: whether positions are kept and whether a profiler
    runs (what lowering may depend on besides the globals it assumes), the
    definitions of the macros the body names (formtext.macros_named: what
    expansions lowered in place depend on); `kind` keeps apart entries of
    different things (LOOP: a loop's)."""
    profiled = getattr(unit.interp, 'profiling', None) is not None     # (lowering may count calls only then)
    out = [name, '|', 'S' if unit.use_spans else 's', 'P' if profiled else 'p', '|']
    syms: set = set()
    try:
        for p in params:
            text(p, out)
        out.append('|')
        if rest is not None:
            text(rest, out)
        out.append('|')
        text(body, out, syms)
        sc = lscope
        while sc is not None:
            out.append('[')
            for s in sc.names:
                text(s, out)
            out.append('/')
            for s in sorted(x.name for x in sc.maybe_unbound):
                out.append(s + ' ')
            sc = sc.parent
        named = macros_named(syms, unit.genv)
    except Miss:
        return None
    except RecursionError:
        return None
    whole = ''.join(out).encode('utf-8', 'surrogatepass')
    return 'code-%s%s.pyc' % (diskcache.key(kind, version(), whole), named)


def _rekeyed(key: str, body, genv) -> str:
    """key with the part naming the macros' definitions made again (a macro
    may have changed since the key was made: the code is that of the new one)."""
    syms: set = set()
    try:
        text(body, [], syms)
    except (Miss, RecursionError):
        return key
    return 'code-%s%s.pyc' % (key[:-4].split('-')[1], macros_named(syms, genv))


def loop_key(x, dscope, unit):
    """The entry's name for the rest of do form x's loop (osr.py; dscope:
    its frame's scope), or None: keyed as a lambda with no parameters whose
    body is x and whose scope is dscope, apart from every lambda's."""
    return lambda_key((), None, x, dscope, unit, 'do', LOOP)


# ── The walks' readers ──────────────────────────────────────────────────
# The lowering's walks read each kind of node by a function compiled at its
# first node (nodes._made, one code per shape of reader): a few dozen small
# compiles, about a millisecond of every process's first compile. They are
# kept in one entry (keyed by the compiler's version and Python's), loaded
# with the lowering's modules and written again when a compile added some.

_READERS = [None]       # how many readers the entry held when loaded (None: not loaded)


def _readers_path():
    return diskcache.entry_path('compiler-%s.readers' % diskcache.key(b'readers', version()))


def load_readers() -> None:
    """Give the lowering's walks the readers an earlier run compiled (once)."""
    from . import nodes
    if _READERS[0] is not None:
        return
    _READERS[0] = 0
    path = _readers_path()
    payload = diskcache.load(path) if path is not None else None
    if payload is None:
        return
    try:
        found = marshal.loads(payload)
        if found.__class__ is not dict or not all(c.__class__ is _CODE for c in found.values()):
            return
    except Exception:       # (a garbled entry that passed its checksum)
        return
    for shape, code in found.items():
        nodes._SHAPES.setdefault(shape, code)
    _READERS[0] = len(found)


def prime() -> None:
    """Make the entries a process's first compile would otherwise make or
    read afresh, the compiler's version and the readers of every kind of
    node: called by the run that makes start-up's own entries (runtime.py),
    a cache directory's first."""
    from _ast import AST
    import _ast
    from . import nodes
    version()
    load_readers()
    for cls in vars(_ast).values():
        if cls.__class__ is type and issubclass(cls, AST) and cls not in nodes._CHILDREN:
            nodes._children_of(cls)
    store_readers()


def store_readers() -> None:
    """Write the readers again if compiles since they were loaded added some."""
    from . import nodes
    if _READERS[0] is None or len(nodes._SHAPES) <= _READERS[0]:
        return
    path = _readers_path()
    try:
        payload = marshal.dumps(dict(nodes._SHAPES))
    except ValueError:
        return
    if path is not None:
        diskcache.store(path, payload)
    _READERS[0] = len(nodes._SHAPES)


# ── Entries ──────────────────────────────────────────────────────────────

WHY: dict = {}          # reason -> how many lambdas were not stored or not loaded for it (tests, tuning)


def _roots(params, rest, body, lscope, span, unit) -> dict:
    return {'body': body, 'params': params, 'rest': rest, 'lscope': lscope, 'span': span, 'unit': unit,
            'genv': unit.genv}


def _missed(reason: str):
    WHY[reason] = WHY.get(reason, 0) + 1
    return None


def load(key, params, rest, body, lscope, span, unit):
    """(code, consts, table, assumed, pyname, leaf, heads, seconds) from the
    entry `key`, as lower.lower and compile gave them (seconds: what that
    took), or None: no usable entry, or the globals it assumed changed
    (compile afresh)."""
    path = diskcache.entry_path(key)
    payload = diskcache.load(path) if path is not None else None
    if payload is None:
        return _missed('absent')
    try:
        fmt, code, pyname, leaf, consts, table, assumed, heads, macros, seconds = marshal.loads(payload)
        if fmt != FORMAT or code.__class__ is not _CODE or seconds.__class__ is not float:
            return _missed('format')
        d = Decoder(_roots(params, rest, body, lscope, span, unit))
        consts = [d.dec(c) for c in consts]
        table, assumed, heads = d.dec(table), d.dec(assumed), d.dec(heads)
        itself = objects()['ITSELF']
        for cell, value in assumed:
            if value is not itself and cell.current() is not value:
                return _missed('assumption')
        if [cell.holds_macro() for cell in heads] != macros:
            return _missed('macro')
    except Miss as e:
        return _missed(str(e))
    except Exception:       # (a garbled entry that passed its checksum: anything marshal or a recipe raises)
        return _missed('garbled')
    return code, consts, table, assumed, pyname, leaf, heads, seconds


def store(key, code, pyname, leaf, consts, table, assumed, heads, seconds, params, rest, body, lscope, span,
          unit) -> bool:
    """Write the entry `key` for a lambda just compiled (in `seconds`); False
    if some object its code names has no recipe (it is compiled again next time)."""
    e = Encoder(_roots(params, rest, body, lscope, span, unit), consts, assumed)
    try:
        payload = marshal.dumps((FORMAT, code, pyname, leaf, [e.const(c) for c in consts], e.enc(table),
                                 e.enc(assumed), e.enc(heads), [cell.holds_macro() for cell in heads],
                                 float(seconds)))
    except Miss as m:
        _missed('unnamed ' + str(m))
        return False
    except (ValueError, RecursionError):
        _missed('unmarshallable')
        return False
    path = diskcache.entry_path(_rekeyed(key, body, unit.genv))
    if path is None:
        return False
    diskcache.store(path, payload)
    store_readers()
    return True


def missed_before(key: str) -> bool:
    """True if an earlier run looked up entry `key` and had none (and stored
    none after: it left the lambda, or loop, on the reference); else marks
    it so for the next run (in the `marks-seen` file: diskcache.marked)."""
    path = diskcache.entry_path('marks-seen')
    return path is not None and diskcache.marked(path, key)


def _marked(name: str) -> bool:
    """True if the (empty) entry `name` is there; else leaves it for the next run."""
    path = diskcache.entry_path(name)
    if path is None:
        return False
    if diskcache.load(path) is not None:
        return True
    diskcache.store(path, b'')
    return False


def ran_before(unit) -> bool:
    """True if an earlier run, with this compiler, ran the program this
    session runs (the first file it ran: its name and text); else marks it so
    for the next run (a "code-run-" entry). A session that ran no file (the
    REPL, `rusty -e`) has none. A second run of a script decides as a run that
    loaded code does (link.Stats.warm) from its start: what the cache misses
    was left on the reference by the first, or never looked up there."""
    for name, source in getattr(unit.interp, 'sources', {}).items():
        if not name.startswith('<'):
            break
    else:
        return False
    whole = (name + '\0' + source).encode('utf-8', 'surrogatepass')
    return _marked('code-run-%s' % diskcache.key(b'run', version(), whole))


_CODE = _roots.__code__.__class__
