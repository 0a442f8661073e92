"""Lexical addressing: which frame slot, or which global cell, a name refers to.

Frames are Python lists `[parent, scope, v0, v1, …]` (slot i lives at index
i + 2); the global environment is a table of cells. The resolver decides once,
before evaluation, whether a symbol occurrence is a `LocalRef(depth, index)`
or a `GlobalRef(cell)`. It must stay observably identical to by-name lookup
, so:

- names a body defines with `define` get a slot up front, holding UNBOUND
  until the define runs; a reference finding UNBOUND looks further out by name;
- a binding added to a non-global frame at run time (eval of a define, `set`
  creating a name, a macro expanding to a define) gives that frame its own
  widened scope and marks the name `dyn` in that session (its global cell's
  flag): references of a dyn name that hop through frames (and the global
  cell of it) then take the by-name path.
"""
from .forms import BY_NAME
from .spelling import implicit
from .values import EMPTY, List, Macro, Symbol, sym

FIRST_SLOT = 2


class _Marker:
    __slots__ = ('name',)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


MISSING = _Marker('MISSING')   # a global cell with no value (or a dyn-poisoned one)
UNBOUND = _Marker('UNBOUND')   # a define slot whose define has not run yet


# ── Global environment ───────────────────────────────────────────────────

class Pending:
    """A global's value, made when first needed: start-up binds the builtins
    and the standard library's definitions this way (lazy.py), so a run pays
    only for what it uses. `make()` gives the value; it runs once (again after
    a failure, such as an interrupt), and the cells that share a Pending share
    the value it made. `macro` says whether the value will be a macro (the
    syntax check asks without making it)."""
    __slots__ = ('make', 'value', 'macro')

    def __init__(self, make, macro: bool = False):
        self.make = make
        self.value = MISSING
        self.macro = macro

    def get(self):
        """The value, made on the first call; MISSING while it is being made."""
        if self.value is MISSING:
            make, self.make = self.make, None
            if make is None:
                return MISSING
            try:
                self.value = make()
            except BaseException:
                self.make = make
                raise
        return self.value


class Cell:
    """A global binding of one session. `value` is MISSING when unbound, and
    also when the name is dyn in this session (then the real value is in
    `real`), and while the value is still `pending` (a Pending: made on first
    read): the fast path reads `value` and only has to test for MISSING; the
    slow path reads through get(). `dyn` turns true once a non-global frame of
    this session gains a run-time binding of the name, which sends precomputed
    lookups of it down the by-name path. `epoch` is the session's epoch counter.
    `watch` is None, or weak references to watchers: callables told, once,
    of the next change of the value (trip)."""
    __slots__ = ('value', 'real', 'dyn', 'epoch', 'pending', 'watch')

    def __init__(self, epoch: list):
        self.value = MISSING
        self.real = MISSING
        self.dyn = False
        self.epoch = epoch
        self.pending = None
        self.watch = None

    def get(self):
        if self.pending is not None:
            self.force()
        return self.real if self.dyn else self.value

    def current(self):
        """What the fast path reads (`value`), made first if pending: for the
        compiler's look at a global's present value."""
        if self.pending is not None:
            self.force()
        return self.value

    def set(self, v):
        self.epoch[0] += 1
        self.pending = None
        if self.watch is not None and v is not self.value:
            self.trip(v)
        if self.dyn:
            self.real = v
        else:
            self.value = v

    def watched_by(self, ref) -> None:
        """Add a weak reference to a watcher (dead ones are dropped as the list doubles)."""
        w = self.watch
        if w is None:
            self.watch = [ref]
            return
        w.append(ref)
        n = len(w)
        if n >= 64 and n & (n - 1) == 0:
            w[:] = [r for r in w if r() is not None]

    def trip(self, new=MISSING) -> None:
        """The value is about to change (to `new`; MISSING: unknown): each
        live watcher is called with the cell and the new value, and
        forgotten (one that keeps watching adds itself again)."""
        refs, self.watch = self.watch, None
        for r in refs:
            f = r()
            if f is not None:
                f(self, new)

    def defer(self, pending: Pending) -> None:
        """Bind the cell to a value made on first read (start-up only: no
        epoch change, as nothing can have looked at it yet)."""
        self.pending = pending
        self.value = MISSING

    def force(self) -> None:
        """Make a pending value and bind it (unless the cell was set meanwhile)."""
        p = self.pending
        v = p.get()
        if self.pending is p and v is not MISSING:
            self.pending = None
            if self.dyn:
                self.real = v
            else:
                self.value = v

    def bound(self) -> bool:
        """True if the name has a value, made or pending (makes nothing)."""
        return self.pending is not None or (self.real if self.dyn else self.value) is not MISSING

    def holds_macro(self) -> bool:
        """True if the value is a macro, made or pending (makes nothing)."""
        if self.pending is not None:
            return self.pending.macro
        return (self.real if self.dyn else self.value).__class__ is Macro


class GlobalEnv:
    """The global frame of one session: symbol -> Cell, and the epoch, which
    every global (re)definition or assignment bumps (macro_cache.py's cache key)."""

    def __init__(self):
        self.cells: dict[Symbol, Cell] = {}
        self.epoch = [0]
        self.imports: set = set()     # names bound by `import`: `name.attr` reads an attribute
        self.refuse_python = None     # a restricted session's refusal of `.method` and `name.attr`

    def cell(self, s: Symbol) -> Cell:
        c = self.cells.get(s)
        if c is None:
            c = self.cells[s] = Cell(self.epoch)
        return c

    def define(self, s: Symbol, v) -> None:
        self.cell(s).set(v)

    def lookup(self, s: Symbol):
        c = self.cells.get(s)
        v = MISSING if c is None else c.get()
        if v is MISSING:
            v = implicit(self, s)         # :key, .method, math.pi (spelling.py)
            return MISSING if v is None else v
        return v

    def assign(self, s: Symbol, v) -> bool:
        """`set!` of a global: False if `s` is unbound."""
        c = self.cells.get(s)
        if c is None or c.get() is MISSING:
            return False
        c.set(v)
        return True

    def names(self):
        """Every bound global name."""
        return [s.name for s, c in self.cells.items() if c.bound()]

    def is_macro(self, s: Symbol) -> bool:
        """True if global `s` holds a macro (makes no pending value)."""
        c = self.cells.get(s)
        return c is not None and c.holds_macro()


class LibraryEnv(GlobalEnv):
    """The standard library's own globals.

    It starts as a copy of the program's globals (the builtins); the library
    is compiled and run against it, so its references resolve to these
    private cells, then `publish` gives the program the same definitions in
    its own cells. A program that later redefines `sum` or `map` changes
    only its cell: the library keeps its meaning. A name the library does
    not bind is looked up in the program's globals (late binding). The
    expansion of a library macro is the caller's code: it is
    compiled against the program's globals, not these. Names bound with
    `define_private` (the library's host primitives) are never published.
    """

    def __init__(self, program: GlobalEnv):
        super().__init__()
        self.program = program
        self.private: set = set()
        self.epoch = program.epoch      # one epoch: a change on either side invalidates caches
        for s, c in program.cells.items():
            if c.pending is not None:
                self.cell(s).defer(c.pending)
            elif c.bound():
                self.cell(s).set(c.get())

    def lookup(self, s: Symbol):
        c = self.cells.get(s)
        v = MISSING if c is None else c.get()
        return self.program.lookup(s) if v is MISSING else v

    def assign(self, s: Symbol, v) -> bool:
        return GlobalEnv.assign(self, s, v) or self.program.assign(s, v)

    def names(self):
        return list(dict.fromkeys(GlobalEnv.names(self) + self.program.names()))

    def is_macro(self, s: Symbol) -> bool:
        c = self.cells.get(s)
        if c is not None and c.bound():
            return c.holds_macro()
        return self.program.is_macro(s)

    def define_private(self, s: Symbol, v) -> None:
        """Bind s for the library only."""
        self.define(s, v)
        self.private.add(s)

    def publish(self) -> None:
        """Bind every name the library defined in the program's globals too
        (a pending definition stays pending, shared: made once, on either side)."""
        for s, c in self.cells.items():
            if s in self.private:
                continue
            mine = self.program.cells.get(s)
            if c.pending is not None:
                if mine is None or mine.pending is not c.pending:
                    self.program.cell(s).defer(c.pending)
            elif c.bound():
                v = c.get()
                now = MISSING if mine is None else mine.pending.value if mine.pending is not None else mine.get()
                if now is not v:
                    self.program.define(s, v)


def mark_dyn(s: Symbol, genv: GlobalEnv) -> None:
    """A non-global frame gained a run-time binding of `s`: poison this
    session's fast paths for it."""
    c = genv.cell(s)
    if c.dyn:
        return
    c.real = c.get()
    if c.watch is not None:
        c.trip()
    c.value = MISSING
    c.dyn = True


# ── Scopes ───────────────────────────────────────────────────────────────

class Scope:
    """The static layout of one frame: slot names in order, and its parent."""
    __slots__ = ('names', 'index', 'parent', 'maybe_unbound')

    def __init__(self, names, parent: 'Scope | None', maybe_unbound=()):
        self.names = list(names)
        self.index = {s: i + FIRST_SLOT for i, s in enumerate(self.names)}  # later duplicate wins
        self.parent = parent
        self.maybe_unbound = set(maybe_unbound)

    def add(self, s: Symbol, maybe_unbound=False) -> int:
        """Give `s` a slot (if it has none); return its frame index."""
        i = self.index.get(s)
        if i is None:
            self.names.append(s)
            i = self.index[s] = len(self.names) - 1 + FIRST_SLOT
            if maybe_unbound:
                self.maybe_unbound.add(s)
        return i

    def widened(self, s: Symbol) -> 'Scope':
        """A private copy with one more slot (for a frame gaining a binding)."""
        copy = Scope(self.names, self.parent, self.maybe_unbound)
        copy.add(s)
        return copy


class LocalRef:
    """A reference to slot `index` of the frame `depth` hops out, to `name`;
    `maybe_unbound` when the slot can be read before its binding runs."""
    __slots__ = ('depth', 'index', 'name', 'maybe_unbound')

    def __init__(self, depth: int, index: int, name: Symbol, maybe_unbound: bool):
        self.depth, self.index, self.name, self.maybe_unbound = depth, index, name, maybe_unbound

    def __repr__(self) -> str:
        return 'LocalRef(%r, %r, %r, %r)' % (self.depth, self.index, self.name, self.maybe_unbound)


class GlobalRef:
    """A reference to the global `name`, through its cell."""
    __slots__ = ('cell', 'name')

    def __init__(self, cell, name: Symbol):
        self.cell, self.name = cell, name

    def __repr__(self) -> str:
        return 'GlobalRef(%r, %r)' % (self.cell, self.name)


def resolve(scope: Scope | None, s: Symbol, genv: GlobalEnv):
    """LocalRef or GlobalRef for a reference to `s` from `scope`."""
    depth = 0
    while scope is not None:
        i = scope.index.get(s)
        if i is not None:
            return LocalRef(depth, i, s, s in scope.maybe_unbound)
        scope = scope.parent
        depth += 1
    return GlobalRef(genv.cell(s), s)


# ── By-name lookup (the reference semantics) ─────────────────────────────

def lookup_by_name(frame, s: Symbol, genv: GlobalEnv):
    """The value of `s` seen from `frame`, by walking names; MISSING if unbound."""
    while frame is not None:
        i = frame[1].index.get(s)
        if i is not None:
            v = frame[i]
            if v is not UNBOUND:
                return v
        frame = frame[0]
    return genv.lookup(s)


def assign_by_name(frame, s: Symbol, v, genv: GlobalEnv) -> bool:
    """`set!` semantics: assign the nearest existing binding; False if none."""
    while frame is not None:
        i = frame[1].index.get(s)
        if i is not None and frame[i] is not UNBOUND:
            frame[i] = v
            return True
        frame = frame[0]
    return genv.assign(s, v)


def define_in_frame(frame, s: Symbol, v, genv: GlobalEnv) -> None:
    """`define` semantics: bind `s` in this very frame (the global one if None)."""
    if frame is None:
        genv.define(s, v)
        return
    i = frame[1].index.get(s)
    if i is None:
        mark_dyn(s, genv)
        frame[1] = frame[1].widened(s)
        frame.append(v)
    else:
        frame[i] = v


def visible_names(frame, genv: GlobalEnv) -> list[str]:
    """Every name bound in the chain from `frame` out to the globals."""
    names = []
    while frame is not None:
        for s, i in frame[1].index.items():
            if i < len(frame) and frame[i] is not UNBOUND:
                names.append(s.name)
        frame = frame[0]
    names.extend(genv.names())
    return names


# ── Pre-scan of body-level defines ───────────────────────────────────────

# Every special form by head symbol (forms.py is the one table of them).
FORM_OF = {sym(n): f for n, f in BY_NAME.items()}


def _one_name(rest):
    """(define name …) / (define (name . params) …): the name."""
    target = rest.car
    if target.__class__ is List and target is not EMPTY and target.car.__class__ is Symbol:
        target = target.car
    return [target] if target.__class__ is Symbol else []


def _group_names(rest):
    """(defrust* (name (params…) body)…): every member's name."""
    return [spec.car for spec in rest
            if spec.__class__ is List and spec is not EMPTY and spec.car.__class__ is Symbol]


def _clause_items(rest):
    """cond: every element of every clause runs in the current frame."""
    return [e for clause in rest if clause.__class__ is List for e in clause]


def _case_parts(rest):
    """case: the key and every clause's body (not its data)."""
    return [rest.car] + [e for clause in rest.cdr if clause.__class__ is List and clause is not EMPTY
                         for e in clause.cdr]


# syntax -> the names such a form binds in the current frame
DEFINES = {'define': _one_name, 'def': _one_name, 'defmacro': _one_name, 'defrust': _one_name,
           'defrust*': _group_names}
# syntax -> the parts of such a form that run in the current frame
SAME_FRAME_PARTS = {'sequence': list, 'assign': list, 'eval-when': list, 'cond': _clause_items,
                    'case': _case_parts, 'try': lambda rest: [rest.car], 'attribute': lambda rest: [rest.car]}


def body_defines(forms) -> list[Symbol]:
    """Names that `define`-like forms directly in these body forms bind in the
    current frame (looking through the parts of forms that run in it)."""
    found: list[Symbol] = []
    stack = list(forms)
    stack.reverse()
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x is EMPTY:
            continue
        form = FORM_OF.get(x.car)
        if form is None or x.cdr is EMPTY:
            continue
        names = DEFINES.get(form.syntax)
        if names is not None:
            found.extend(n for n in names(x.cdr) if n not in found)
            continue
        parts = SAME_FRAME_PARTS.get(form.syntax)
        if parts is not None:
            stack.extend(reversed(parts(x.cdr)))
    return found
