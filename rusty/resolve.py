"""Lexical addressing: which frame slot, or which global cell, a name refers to.

Frames are Python lists `[parent, scope, v0, v1, …]` (slot i lives at index
i + 2); the global environment is a table of cells. The resolver decides once,
before evaluation, whether a symbol occurrence is a `LocalRef(depth, index)`
or a `GlobalRef(cell)`. It must stay observably identical to by-name lookup
(LANGUAGE.md §7), so:

- names a body defines with `define` get a slot up front, holding UNBOUND
  until the define runs; a reference finding UNBOUND looks further out by name;
- a binding added to a non-global frame at run time (eval of a define, `set`
  creating a name, a macro expanding to a define) gives that frame its own
  widened scope and marks the symbol `dyn`: references of a dyn symbol that
  hop through frames (and global cells of it) then take the by-name path.
"""
from __future__ import annotations

import weakref
from collections import namedtuple

from .values import List, Symbol, sym

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

EPOCH = [0]   # bumped by every global (re)definition or assignment


class Cell:
    """A global binding. `value` is MISSING when unbound, and also when the
    symbol is dyn (then the real value is in `real`): the fast path reads
    `value` and only has to test for MISSING."""
    __slots__ = ('value', 'real', 'sym')

    def __init__(self, s: Symbol):
        self.value = MISSING
        self.real = MISSING
        self.sym = s

    def get(self):
        return self.real if self.sym.dyn else self.value

    def set(self, v):
        EPOCH[0] += 1
        if self.sym.dyn:
            self.real = v
        else:
            self.value = v


_ALL_GLOBALS: 'weakref.WeakSet[GlobalEnv]' = weakref.WeakSet()


class GlobalEnv:
    """The global frame: symbol -> Cell."""

    def __init__(self):
        self.cells: dict[Symbol, Cell] = {}
        _ALL_GLOBALS.add(self)

    def cell(self, s: Symbol) -> Cell:
        c = self.cells.get(s)
        if c is None:
            c = self.cells[s] = Cell(s)
        return c

    def define(self, s: Symbol, v) -> None:
        self.cell(s).set(v)

    def lookup(self, s: Symbol):
        c = self.cells.get(s)
        return MISSING if c is None else c.get()

    def names(self):
        """Every bound global name."""
        return [s.name for s, c in self.cells.items() if c.get() is not MISSING]


def mark_dyn(s: Symbol) -> None:
    """A non-global frame gained a run-time binding of `s`: poison fast paths."""
    if s.dyn:
        return
    for env in list(_ALL_GLOBALS):
        c = env.cells.get(s)
        if c is not None:
            c.real = c.value
            c.value = MISSING
    s.dyn = True


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


# collections.namedtuple, not typing.NamedTuple: typing costs start-up time.
LocalRef = namedtuple('LocalRef', 'depth index name maybe_unbound')
GlobalRef = namedtuple('GlobalRef', 'cell name')


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
    c = genv.cells.get(s)
    if c is None or c.get() is MISSING:
        return False
    c.set(v)
    return True


def define_in_frame(frame, s: Symbol, v, genv: GlobalEnv) -> None:
    """`define` semantics: bind `s` in this very frame (the global one if None)."""
    if frame is None:
        genv.define(s, v)
        return
    i = frame[1].index.get(s)
    if i is None:
        mark_dyn(s)
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

_DEFINERS = frozenset(map(sym, ('define', 'def', 'defmacro', 'define-macro', 'defrust')))
_SAME_FRAME = frozenset(map(sym, ('begin', 'if', 'when', 'unless', 'and', 'or', 'eval-when', 'set!', 'set')))
_COND = sym('cond')
_DEFRUST_STAR = sym('defrust*')
_TRY = sym('try-catch')


def body_defines(forms) -> list[Symbol]:
    """Names that `define`-like forms directly in these body forms bind in the
    current frame (looking through forms that create no frame)."""
    found: list[Symbol] = []
    stack = list(forms)
    stack.reverse()
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x.len == 0 or x.car.__class__ is not Symbol:
            continue
        head = x.car
        rest = x.cdr
        if head in _DEFINERS and rest.len:
            target = rest.car
            if target.__class__ is List and target.len and target.car.__class__ is Symbol:
                target = target.car
            if target.__class__ is Symbol and target not in found:
                found.append(target)
        elif head is _DEFRUST_STAR:
            for spec in rest:
                if spec.__class__ is List and spec.len and spec.car.__class__ is Symbol and spec.car not in found:
                    found.append(spec.car)
        elif head in _SAME_FRAME:
            stack.extend(reversed(list(rest)))
        elif head is _COND:
            for clause in rest:
                if clause.__class__ is List:
                    stack.extend(reversed(list(clause)))
        elif head is _TRY and rest.len:
            stack.append(rest.car)
    return found
