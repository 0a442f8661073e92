"""Compiled lambdas kept on disk between runs, so that a second run of a
script compiles nothing.

An entry is content-addressed: its key (`lambda_key`) hashes the lambda's
forms as text (parameters, body, name), the layout of the scopes around it,
the compiler's version (a hash of its sources, `version`) and Python's. It
holds the marshalled code of the lambda's function and, for each object the
code names (k0, k1, …: lower.Lowering.k), a recipe that rebuilds it from the
live lambda when loading (`Encoder`): a path into the body's forms (a quoted
datum, a form's cell, its source position), a global's cell by name, a
builtin or library procedure by name, a symbol, a literal, or a structure of
these (a scope, a nested lambda's maker, a macro call site). Positions come
from the live forms, so reports stay exact when a lambda moves in its file.
A `do` loop compiled mid-run (osr.py) is kept the same way, as a lambda of
no parameters whose body is the `do` form (`loop_key`).

What the code assumes of the globals is checked again when loading (the
cells `assumed` must hold the same builtin or library procedure, and the
globals it calls as no macro `heads` must hold none): if anything differs,
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
from . import entry
from ..values import EMPTY, NIL, Builtin, Lambda, List, Symbol, Vector, sym

FORMAT = b'rusty-code-2'
LOOP = b'rusty-loop-1'                 # (a loop's key: osr.py)
_VERSION: list = []                     # the compiler's version, once computed


class Miss(Exception):
    """The entry cannot be used, or the lambda cannot be cached."""


# ── The key ──────────────────────────────────────────────────────────────

def version() -> bytes:
    """A hash of the compiler's sources and of the modules its lowering reads
    (computed once per process, when the first lambda is looked up)."""
    if not _VERSION:
        h = diskcache._hasher()
        here = os.path.dirname(os.path.abspath(__file__))
        up = os.path.dirname(here)
        files = sorted(os.path.join(d, f) for d, _, names in os.walk(here) for f in names if f.endswith('.py'))
        files += [os.path.join(up, f) for f in ('eval.py', 'resolve.py', 'values.py', 'specials.py', 'syntax.py')]
        for path in files:
            try:
                with open(path, 'rb') as fh:
                    h.update(fh.read())
            except OSError:
                h.update(b'?')
            h.update(os.path.relpath(path, up).encode())
        _VERSION.append(h.digest() + sys.implementation.cache_tag.encode())
    return _VERSION[0]


def lambda_key(params, rest, body, lscope, unit, name, kind=FORMAT):
    """The entry's name for this lambda, or None when its forms hold
    something the text cannot name (an uninterned symbol, a host object).
    Besides the text: whether positions are kept and whether a profiler
    runs (what lowering may depend on besides the globals it assumes);
    `kind` keeps apart entries of different things (LOOP: a loop's)."""
    profiled = getattr(unit.interp, 'profiling', None) is not None     # (lowering may count calls only then)
    out = [name, '|', 'S' if unit.use_spans else 's', 'P' if profiled else 'p', '|']
    try:
        for p in params:
            _text(p, out)
        out.append('|')
        if rest is not None:
            _text(rest, out)
        out.append('|')
        _text(body, out)
        sc = lscope
        while sc is not None:
            out.append('[')
            for s in sc.names:
                _text(s, out)
            out.append('/')
            for s in sorted(x.name for x in sc.maybe_unbound):
                out.append(s + ' ')
            sc = sc.parent
    except Miss:
        return None
    except RecursionError:
        return None
    text = ''.join(out).encode('utf-8', 'surrogatepass')
    return 'code-%s.pyc' % diskcache.key(kind, version(), text)


def loop_key(x, dscope, unit):
    """The entry's name for the rest of do form x's loop (osr.py; dscope:
    its frame's scope), or None: keyed as a lambda with no parameters whose
    body is x and whose scope is dscope, apart from every lambda's."""
    return lambda_key((), None, x, dscope, unit, 'do', LOOP)


_ATOMS = {int: 'i', float: 'f', str: 'q', bool: 'b'}


def _text(x, out) -> None:
    """Append an unambiguous text of form x to out (Miss: it has none)."""
    cls = x.__class__
    if cls is Symbol:
        if Symbol._table.get(x.name) is not x:
            raise Miss('uninterned symbol')
        out.append(' %d:%s' % (len(x.name), x.name))
    elif cls is List:
        out.append(' (')
        while x.__class__ is List and x is not EMPTY:
            _text(x.car, out)
            x = x.cdr
        if x is not EMPTY:
            out.append(' .')
            _text(x, out)
        out.append(')')
    elif cls in _ATOMS:
        r = repr(x)
        out.append(' %s%d:%s' % (_ATOMS[cls], len(r), r))
    elif x is None or x is NIL:
        out.append(' N' if x is None else ' NIL')
    elif cls is Vector:
        out.append(' #(')
        for item in x.items:
            _text(item, out)
        out.append(')')
    else:
        raise Miss(cls.__name__)


# ── Recipes for the objects the code names ───────────────────────────────

def _fn_id(fn) -> str:
    """What a builtin's Python function is, by name (a partial's function's)."""
    fn = getattr(fn, 'func', fn)
    return '%s.%s' % (getattr(fn, '__module__', '?'), getattr(fn, '__qualname__', fn.__class__.__name__))


def _builtin_id(b) -> tuple:
    return (b.name, b.lo, b.hi, _fn_id(b.fn))


def _lambda_id(lam) -> str:
    """A top-level lambda's text (parameters and body), as small.py computes it in place."""
    from ..printer import print_form
    rest = '' if lam.rest is None else ' . ' + lam.rest.name
    return '%s%s|%s' % (' '.join(p.name for p in lam.params), rest, print_form(lam.body))


class Encoder:
    """Turns the objects of a lowering into marshallable recipes that name
    the live objects relative to the lambda (`roots`: body, params, rest,
    lscope, span, unit, genv): Miss for anything it cannot name."""

    def __init__(self, roots: dict):
        self.roots = roots
        self.ids = {id(v): ('R', k) for k, v in roots.items() if not _scalar(v)}
        sc, n = roots['lscope'], 0
        while sc is not None:
            self.ids.setdefault(id(sc), ('U', n))
            sc, n = sc.parent, n + 1
        self.paths = None
        self.memo: dict = {}
        self.cells = None

    def enc(self, x):
        if _scalar(x):
            return x
        cls = x.__class__
        if cls is tuple:
            return ('T',) + tuple(self.enc(v) for v in x)
        if cls is type and x in entry.CLASSES:         # (an arity's Entry class: entry.test)
            return ('K', entry.CLASSES.index(x))
        got = self.ids.get(id(x))
        if got is not None:
            return got
        if cls is Symbol and Symbol._table.get(x.name) is x:
            return ('Y', x.name)
        special = _singleton(x)
        if special is not None:
            return ('Z', special)
        found = self.path(x)
        if found is not None:
            return found
        n = self.memo.get(id(x))
        if n is not None:
            return ('@', n[0])
        self.memo[id(x)] = (len(self.memo), x)      # (x kept: its id stays its own)
        return ('N', self.memo[id(x)][0], self.node(x, cls))

    def node(self, x, cls):
        """The recipe of an object made anew at each load (or looked up by name)."""
        name = cls.__name__
        if cls is list:
            return ('L', [self.enc(v) for v in x])
        if cls is dict:
            return ('D', [self.enc(k) for k in x], [self.enc(v) for v in x.values()])
        if cls is set or cls is frozenset:
            return ('E' if cls is set else 'F', [self.enc(v) for v in x])
        if name == 'Scope':
            return ('S', self.enc(x.names), self.enc(x.parent), self.enc(sorted(x.maybe_unbound, key=_name)))
        if name == '_MakerSpec':
            return ('M', self.enc(x.params), self.enc(x.rest), self.enc(x.body), self.enc(x.scope), x.name, x.extra)
        if name == '_Lambda':
            return ('W',)
        if name == 'Cell':         # (made at load as now, when lowering made its pending value)
            return ('C',) + self.cell_name(x) + (x.pending is None,)
        if cls is Lambda or cls is Builtin:
            find = getattr(self.roots['unit'].interp, 'library_procedure', None)
            if find is not None and find(x.name) is x:
                return ('X', x.name)
            if cls is Builtin:
                for where, s in self.holders(x):
                    return ('B', where, s, _builtin_id(x))
            elif x.env is None:     # (a program's small function computed in place: small.py)
                for where, s in self.holders(x):
                    return ('G', where, s, _lambda_id(x))
        raise Miss(name)

    def path(self, x):
        """('P', kind, path) if x is a cell, a datum or a position in the body."""
        if self.paths is None:
            self.paths = _index(self.roots['body'])
        return self.paths.get(id(x))

    def cell_name(self, c) -> tuple:
        """('g' or 'p', the name) of the global whose cell c is (of the lambda's globals, or their program's)."""
        if self.cells is None:
            self.cells = {}
            genv = self.roots['genv']
            for where, env in (('p', getattr(genv, 'program', None)), ('g', genv)):
                if env is not None:
                    self.cells.update((id(cell), (where, s.name)) for s, cell in env.cells.items())
        got = self.cells.get(id(c))
        if got is None:
            raise Miss('a cell of no global')
        return got

    def holders(self, x):
        """('g' or 'p', the name) of the globals that hold x."""
        genv = self.roots['genv']
        for where, env in (('g', genv), ('p', getattr(genv, 'program', None))):
            if env is None:
                continue
            c = env.cells.get(sym(x.name))
            if c is not None and c.value is x:
                yield where, x.name
                continue
            for s, c in env.cells.items():
                if c.value is x:
                    yield where, s.name
                    break


def _name(s) -> str:
    return s.name


def _scalar(x) -> bool:
    return x is None or x.__class__ in _ATOMS or x.__class__ is bytes


def _objects() -> dict:
    """The marker objects an entry names by name."""
    from ..resolve import MISSING, UNBOUND
    from .support import ITSELF
    return {'EMPTY': EMPTY, 'NIL': NIL, 'MISSING': MISSING, 'UNBOUND': UNBOUND, 'ITSELF': ITSELF}


_SINGLETONS: dict = {}          # id -> name of the markers, filled on first use


def _singleton(x):
    if not _SINGLETONS:
        _SINGLETONS.update((id(v), k) for k, v in _objects().items())
    return _SINGLETONS.get(id(x))


def _index(body) -> dict:
    """id -> ('P', kind, path) of every cell ('c'), element ('a') and cell's
    position ('s') in body; a path's steps index elements, the last the one named."""
    out: dict = {}
    stack = [(body, ())]
    while stack:
        x, path = stack.pop()
        i = 0
        while x.__class__ is List and x is not EMPTY:
            p = path + (i,)
            out.setdefault(id(x), ('P', 'c', p))
            span = x.span
            if span is not None:
                out.setdefault(id(span), ('P', 's', p))
            car = x.car
            if not _scalar(car) and car is not EMPTY and car.__class__ is not Symbol:
                out.setdefault(id(car), ('P', 'a', p))
                if car.__class__ is List:
                    stack.append((car, p))
            x, i = x.cdr, i + 1
    return out


class Decoder:
    """Rebuilds the objects of an entry from the live lambda (Miss if one
    cannot be: a path that leads nowhere, a global that changed)."""

    def __init__(self, roots: dict):
        self.roots = roots
        self.memo: dict = {}

    def dec(self, e):
        if e.__class__ is not tuple:
            return e
        tag = e[0]
        if tag == 'T':
            return tuple(self.dec(v) for v in e[1:])
        if tag == 'R':
            return self.roots[e[1]]
        if tag == 'Y':
            return sym(e[1])
        if tag == 'K':
            return entry.entry_class(e[1])
        if tag == 'P':
            return _follow(self.roots['body'], e[1], e[2])
        if tag == 'U':
            sc = self.roots['lscope']
            for _ in range(e[1]):
                sc = sc.parent
            return sc
        if tag == 'Z':
            return _objects()[e[1]]
        if tag == '@':
            return self.memo[e[1]]
        if tag == 'N':
            return self.node(e[1], e[2])
        raise Miss(tag)

    def node(self, n, e):
        tag = e[0]
        if tag == 'L':
            out = self.memo[n] = []
            out.extend(self.dec(v) for v in e[1])
            return out
        if tag == 'D':
            out = self.memo[n] = {}
            out.update(zip((self.dec(k) for k in e[1]), (self.dec(v) for v in e[2])))
            return out
        if tag in ('E', 'F'):
            out = self.memo[n] = (set if tag == 'E' else frozenset)(self.dec(v) for v in e[1])
            return out
        out = self.memo[n] = self.made(tag, e)
        return out

    def made(self, tag, e):
        if tag == 'S':
            from ..resolve import Scope
            return Scope(self.dec(e[1]), self.dec(e[2]), self.dec(e[3]))
        if tag == 'M':          # (the LambdaMaker link makes of a lower._MakerSpec)
            from .support import LambdaMaker
            return LambdaMaker(self.dec(e[1]), self.dec(e[2]), self.dec(e[3]), self.dec(e[4]), e[5],
                               self.roots['unit'].depth, e[6])
        if tag == 'W':
            from .support import _Lambda
            return _Lambda()
        if tag == 'C':
            cell = self.env(e[1]).cell(sym(e[2]))
            if e[3] and cell.pending is not None:
                cell.current()
            return cell
        if tag == 'X':
            find = getattr(self.roots['unit'].interp, 'library_procedure', None)
            v = find(e[1]) if find is not None else None
            if v is None:
                raise Miss('no library procedure')
            return v
        if tag == 'B':
            v = self.env(e[1]).cell(sym(e[2])).current()
            if v.__class__ is not Builtin or _builtin_id(v) != e[3]:
                raise Miss('the builtin changed')
            return v
        if tag == 'G':
            v = self.env(e[1]).cell(sym(e[2])).current()
            if v.__class__ is not Lambda or v.env is not None or _lambda_id(v) != e[3]:
                raise Miss('the lambda changed')
            return v
        raise Miss(tag)

    def env(self, where):
        genv = self.roots['genv']
        env = genv if where == 'g' else getattr(genv, 'program', None)
        if env is None:
            raise Miss('no program globals')
        return env


def _follow(body, kind, path):
    x = body
    for n, step in enumerate(path):
        for _ in range(step):
            x = x.cdr
        if x.__class__ is not List or x is EMPTY:
            raise Miss('no such path')
        if n < len(path) - 1:
            x = x.car
    if kind == 'c':
        return x
    if kind == 'a':
        return x.car
    span = x.span
    if span is None:
        raise Miss('no position')
    return span


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
        fmt, code, pyname, leaf, consts, table, assumed, heads, seconds = marshal.loads(payload)
        if fmt != FORMAT or code.__class__ is not _CODE or seconds.__class__ is not float:
            return _missed('format')
        d = Decoder(_roots(params, rest, body, lscope, span, unit))
        consts = [d.dec(c) for c in consts]
        table, assumed, heads = d.dec(table), d.dec(assumed), d.dec(heads)
        itself = _objects()['ITSELF']
        for cell, value in assumed:
            if value is not itself and cell.current() is not value:
                return _missed('assumption')
        for cell in heads:
            if cell.holds_macro():
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
    e = Encoder(_roots(params, rest, body, lscope, span, unit))
    try:
        payload = marshal.dumps((FORMAT, code, pyname, leaf, [e.enc(c) for c in consts], e.enc(table),
                                 e.enc(assumed), e.enc(heads), float(seconds)))
    except Miss as m:
        _missed('unnamed ' + str(m))
        return False
    except (ValueError, RecursionError):
        _missed('unmarshallable')
        return False
    path = diskcache.entry_path(key)
    if path is None:
        return False
    diskcache.store(path, payload)
    return True


_CODE = _roots.__code__.__class__
