"""The disk cache's recipes (codecache.py): how each object a compiled
lambda's code names (k0, k1, …) is rebuilt from the live lambda at load.

A recipe names an object relative to the lambda (`Encoder`, `Decoder`): a
path into the body's forms (a quoted datum, a form's cell, its source
position), a global's cell by name, a builtin or library procedure by name,
a symbol, a literal, or a structure of these (a scope, a nested lambda's
maker, a macro call site). Positions come from the live forms, so reports
stay exact when a lambda moves in its file.

A pure macro's expansion lowered in place (macros.lower_call) is named by
its call (a path) and the macro's global: at load the call is expanded
again with the reference's steps (`expand_again`), and the entry is used
only if that expansion's text is the one stored (else the macro, or a
global its body reads, changed: the lambda is compiled afresh). Objects in
the expansion are named by paths into the expansion made again, and the
values the code tests the macro's globals against are those the globals
hold at load (the expansion made again from them is the stored one).
"""
from itertools import islice

from . import entry
from .formtext import ATOMS, Miss, fingerprint
from .tripper import Tripper
from ..values import EMPTY, NIL, Builtin, Lambda, List, Macro, Symbol, Vector, sym


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
    lscope, span, unit, genv): Miss for anything it cannot name. `consts`:
    the code's objects (the expansions among them give the paths into
    expansions); `assumed`: the (cell, value) pairs the code assumes."""

    def __init__(self, roots: dict, consts=(), assumed=()):
        self.roots = roots
        self.ids = {id(v): ('R', k) for k, v in roots.items() if not _scalar(v)}
        sc, n = roots['lscope'], 0
        while sc is not None:
            self.ids.setdefault(id(sc), ('U', n))
            sc, n = sc.parent, n + 1
        self.paths = None
        self.memo: dict = {}
        self.expansions = [c for c in consts if c.__class__.__name__ == 'Expansion']
        self.inside: list = []          # (expansion, its one-element list, its _index), made when first needed
        fixed = {id(v) for _, v in assumed}
        self.tested = {id(v): (c, v) for e in self.expansions for c, v in e.depends if id(v) not in fixed}

    def enc(self, x):
        if _scalar(x):
            return x
        cls = x.__class__
        if cls is tuple:
            if len(x) < 2:
                return ('T',) + tuple(self.enc(v) for v in x)
            n = self.memo.get(id(x))        # (a tuple shared, as the let frames' chains are: encoded once)
            if n is not None:
                return ('@', n[0])
            self.memo[id(x)] = (len(self.memo), x)
            return ('N', self.memo[id(x)][0], ('TU', [self.enc(v) for v in x]))
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

    def const(self, x):
        """The recipe of one of the code's objects: a scalar a macro's
        expansion was tested against is the global's value at load, if equal."""
        got = self.tested.get(id(x)) if _scalar(x) else None
        if got is not None and got[0].value is x:
            return ('G',) + self.cell_name(got[0]) + (x,)
        return self.enc(x)

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
            return ('M', self.enc(x.params), self.enc(x.rest), self.enc(x.body), self.enc(x.scope), x.name, x.extra,
                    self.enc(x.layout))
        if name == '_Lambda':
            return ('W', self.enc(x.scope))
        if name == 'Cell':         # (made at load as now, when lowering made its pending value)
            return ('C',) + self.cell_name(x) + (x.pending is None,)
        if name == 'Expansion':
            return ('XP', self.enc(x.call), self.enc(x.depends[0][0]), fingerprint(x.form))
        if name == 'Tripper':
            return ('TR', self.enc(x.cell), self.enc(self.watched(x)))
        if name == 'Unit' and x is not self.roots['unit'] and not x.use_spans:
            return ('FD',)
        if cls is Lambda or cls is Builtin:
            find = getattr(self.roots['unit'].interp, 'library_procedure', None)
            if find is not None and find(x.name) is x:
                return ('X', x.name)
            if cls is Builtin:
                for where, s in self.holders(x):
                    return ('B', where, s, _builtin_id(x))
            elif x.env is None:     # (a program's small function computed in place: small.py)
                for where, s in self.holders(x):
                    return ('LT', where, s, _lambda_id(x))
        if name in ('function', 'builtin_function_or_method'):
            return ('FN',) + _function_id(x)
        got = self.tested.get(id(x))
        if got is not None and got[0].value is x:         # (a value a macro's expansion was tested against)
            return ('G',) + self.cell_name(got[0]) + (None,)
        raise Miss(name)

    def path(self, x):
        """('P', kind, path) if x is a cell, a datum or a position in the
        body; ('Q', kind, expansion, path) if in an expansion lowered in place."""
        if self.paths is None:
            self.paths = _index(self.roots['body'])
        got = self.paths.get(id(x))
        if got is not None or not self.expansions:
            return got
        if not self.inside:
            for e in self.expansions:
                one = List()
                one.car, one.cdr = e.form, EMPTY
                self.inside.append((e, one, _index(one)))
        for e, _, index in self.inside:
            got = index.get(id(x))
            if got is not None:
                return ('Q', got[1], self.enc(e), got[2])
        return None

    def watched(self, tripper):
        """The cell whose change a macro's Tripper watches (Miss: none does)."""
        for e in self.expansions:
            for c, _ in e.depends[1:]:
                if any(r() is tripper for r in c.watch or ()):
                    return c
        raise Miss('a tripper of no cell')

    def cell_name(self, c) -> tuple:
        """('g' or 'p', the name) of the global whose cell c is (of the lambda's globals, or their program's)."""
        genv = self.roots['genv']
        got = _cell_names(genv, False).get(id(c))
        env = _env(genv, got[0]) if got is not None else None
        if env is None or env.cells.get(sym(got[1])) is not c:
            got = _cell_names(genv, True).get(id(c))        # (a global defined since: the index made again)
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


_CELL_NAMES: dict = {}      # id(genv) -> [a weak reference to genv, its cells' index, the cells indexed of each env]


def _cell_names(genv, again: bool) -> dict:
    """id(cell) -> ('g' or 'p', name) of every global of genv and of its
    program's, kept between stores (a hit is checked; `again`: the globals
    defined since indexed too: the cells are only ever added, in order)."""
    from _weakref import ref
    got = _CELL_NAMES.get(id(genv))
    if got is None or got[0]() is not genv:
        for k in [k for k, v in _CELL_NAMES.items() if v[0]() is None]:
            del _CELL_NAMES[k]
        got = _CELL_NAMES[id(genv)] = [ref(genv), {}, {'p': 0, 'g': 0}]
        again = True
    if again:
        index, done = got[1], got[2]
        for where, env in (('p', getattr(genv, 'program', None)), ('g', genv)):
            if env is not None and len(env.cells) != done[where]:
                if len(env.cells) < done[where]:        # (not only added: made afresh)
                    index.clear()
                    done['p'] = done['g'] = 0
                    return _cell_names(genv, True)
                index.update((id(cell), (where, s.name)) for s, cell in islice(env.cells.items(), done[where], None))
                done[where] = len(env.cells)
    return got[1]


def _env(genv, where: str):
    return genv if where == 'g' else getattr(genv, 'program', None)


# The modules whose functions an entry names by name: those the compiler's
# version hashes (codecache.version), and Python's builtins.
NAMED_MODULES = ('builtins', 'rusty.eval', 'rusty.resolve', 'rusty.values', 'rusty.specials', 'rusty.syntax')


def _function_id(f) -> tuple:
    """(module, name) of a module-level function of the compiler's own
    modules or Python's builtins (Miss for any other function)."""
    module, qualname = getattr(f, '__module__', None), getattr(f, '__qualname__', '')
    if not module or not (module in NAMED_MODULES or module.startswith('rusty.compile.')) \
            or not qualname.isidentifier() or _function(module, qualname) is not f:
        raise Miss('function')
    return module, qualname


def _function(module: str, qualname: str):
    """The function module.qualname (importing the module if needed)."""
    import sys
    got = sys.modules.get(module)
    if got is None:
        __import__(module)
        got = sys.modules[module]
    return getattr(got, qualname, None)


def _name(s) -> str:
    return s.name


def _scalar(x) -> bool:
    return x is None or x.__class__ in ATOMS or x.__class__ is bytes


def objects() -> dict:
    """The marker objects an entry names by name."""
    from ..resolve import MISSING, UNBOUND
    from .support import ITSELF
    return {'EMPTY': EMPTY, 'NIL': NIL, 'MISSING': MISSING, 'UNBOUND': UNBOUND, 'ITSELF': ITSELF}


_SINGLETONS: dict = {}          # id -> name of the markers, filled on first use


def _singleton(x):
    if not _SINGLETONS:
        _SINGLETONS.update((id(v), k) for k, v in objects().items())
    return _SINGLETONS.get(id(x))


def _index(body) -> dict:
    """id -> ('P', kind, path) of every cell ('c'), element ('a') and cell's
    position ('s') in body; a path's steps index elements, the last the one
    named (a step -k-1: the k-th item of the vector reached, a list)."""
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
                elif car.__class__ is Vector:
                    stack += [(v, p + (-k - 1,)) for k, v in enumerate(car.items) if v.__class__ is List]
            x, i = x.cdr, i + 1
    return out


class Decoder:
    """Rebuilds the objects of an entry from the live lambda (Miss if one
    cannot be: a path that leads nowhere, a global that changed, a macro
    call whose expansion is not the one stored)."""

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
        if tag == 'Q':
            return _follow(self.dec(e[2]).one, e[1], e[3])
        if tag == 'U':
            sc = self.roots['lscope']
            for _ in range(e[1]):
                sc = sc.parent
            return sc
        if tag == 'Z':
            return objects()[e[1]]
        if tag == 'G':
            return self.now(e)
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
            keys = [self.dec(k) for k in e[1]]          # (all keys, then the values: the order they were encoded in)
            out.update(zip(keys, [self.dec(v) for v in e[2]]))
            return out
        if tag == 'TU':
            out = self.memo[n] = tuple(self.dec(v) for v in e[1])
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
                               self.roots['unit'].depth, e[6], layout=self.dec(e[7]))
        if tag == 'W':
            from .frame_views import _Lambda
            return _Lambda(self.dec(e[1]))
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
            return self.now(e)
        if tag == 'LT':
            v = self.env(e[1]).cell(sym(e[2])).current()
            if v.__class__ is not Lambda or v.env is not None or _lambda_id(v) != e[3]:
                raise Miss('the lambda changed')
            return v
        if tag == 'XP':
            return expand_again(self.dec(e[1]), self.dec(e[2]), e[3], self.roots['unit'])
        if tag == 'TR':
            from _weakref import ref
            tripper = Tripper(self.dec(e[1]))
            self.dec(e[2]).watched_by(ref(tripper))
            return tripper
        if tag == 'FD':
            return self.roots['unit'].from_data()
        if tag == 'FN':
            if not (e[1] in NAMED_MODULES or e[1].startswith('rusty.compile.')) or not e[2].isidentifier():
                raise Miss('function')
            f = _function(e[1], e[2])
            if f is None:
                raise Miss('no such function')
            return f
        raise Miss(tag)

    def now(self, e):
        """What global e[1:3] holds now (a value an expansion made again was
        made with); a scalar e[3] unless it is equal to it."""
        v = self.env(e[1]).cell(sym(e[2])).current()
        return v if e[3] is None or (v.__class__ is e[3].__class__ and v == e[3]) else e[3]

    def env(self, where):
        genv = self.roots['genv']
        env = genv if where == 'g' else getattr(genv, 'program', None)
        if env is None:
            raise Miss('no program globals')
        return env


def _follow(body, kind, path):
    x = body
    for n, step in enumerate(path):
        if step < 0:
            if x.__class__ is not Vector or -step > len(x.items):
                raise Miss('no such path')
            x = x.items[-step - 1]
            continue
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


# ── Macro expansions made again ──────────────────────────────────────────

class Again:
    """A macro call's expansion made again at load: the form, and a list of
    it alone (the root of the paths into it: Encoder.path)."""
    __slots__ = ('form', 'call', 'one')

    def __init__(self, form, call):
        self.form, self.call = form, call
        self.one = List()
        self.one.car, self.one.cdr = form, EMPTY


def expand_again(x, cell, stored: bytes, unit) -> Again:
    """Macro call x (the macro in global cell) expanded as the lowering
    expanded it (macros.expansion: a pure macro, no tool watching calls;
    make_frame, run, to_code), or Miss if it cannot be or its text is not
    the one stored."""
    from ..apply import make_frame, run
    from ..errors import RustyError
    from ..eval import to_code
    from ..macro_cache import is_pure
    m = cell.current()
    D = unit.depth
    if m.__class__ is not Macro or D.gate < 0 or x.__class__ is not List or not is_pure(m, unit.genv):
        raise Miss('macro')
    n = D.n
    try:
        form = to_code(run(m, make_frame(m, list(x.cdr)), None, D))
    except (RustyError, RecursionError):
        raise Miss('expansion failed') from None
    finally:
        D.n = n
    if fingerprint(form) != stored:
        raise Miss('expansion changed')
    return Again(form, x)


