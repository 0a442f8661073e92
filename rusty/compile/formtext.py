"""The text of forms the disk cache of compiled code keys its entries by
(codecache.py), and checks a macro's expansion made again against
(recipes.py): unambiguous, and failing (Miss) for what has none.
"""
from .. import diskcache
from ..values import EMPTY, NIL, List, Macro, Symbol, Vector, sym

QUOTE, QUASIQUOTE = sym('quote'), sym('quasiquote')
UNQUOTES = (sym('unquote'), sym('unquote-splicing'))
DATA = (int, float, str, bool, List, Symbol, NIL.__class__)        # (what a pure macro may read of a global: macro_cache)


class Miss(Exception):
    """The entry cannot be used, or the lambda cannot be cached."""


ATOMS = {int: 'i', float: 'f', str: 'q', bool: 'b'}


def text(x, out, syms=None) -> None:
    """Append an unambiguous text of form x to out (Miss: it has none); its
    symbols to the set syms if given."""
    cls = x.__class__
    if cls is Symbol:
        piece = _PIECES.get(x)
        if piece is None:
            piece = _piece(x)
        out.append(piece)
        if syms is not None:
            syms.add(x)
    elif cls is List:
        _list_text(x, out, syms)
    elif cls in ATOMS:
        r = repr(x)
        out.append(' %s%d:%s' % (ATOMS[cls], len(r), r))
    elif x is None or x is NIL:
        out.append(' N' if x is None else ' NIL')
    elif cls is Vector:
        out.append(' #(')
        for item in x.items:
            text(item, out, syms)
        out.append(')')
    else:
        raise Miss(cls.__name__)


def _list_text(x, out, syms) -> None:
    """text of list x: its symbols' pieces appended here, other elements by text."""
    push, pieces = out.append, _PIECES
    push(' (')
    while x.__class__ is List and x is not EMPTY:
        y = x.car
        if y.__class__ is Symbol:
            piece = pieces.get(y)
            push(piece if piece is not None else _piece(y))
            if syms is not None:
                syms.add(y)
        elif y.__class__ is List:
            _list_text(y, out, syms)
        else:
            text(y, out, syms)
        x = x.cdr
    if x is not EMPTY:
        push(' .')
        text(x, out, syms)
    push(')')


_PIECES: dict = {}      # an interned symbol -> its text (symbols stay interned)


def _piece(x) -> str:
    """The text of symbol x (Miss: not interned), kept."""
    if Symbol._table.get(x.name) is not x:
        raise Miss('uninterned symbol')
    piece = _PIECES[x] = ' %d:%s' % (len(x.name), x.name)
    return piece


def macros_named(syms, genv) -> str:
    """'' if no symbol of syms names a global macro, else '-' and a hash of
    the definitions of those macros, of the macros their bodies name and of
    the data the globals their bodies name hold (a part of the key: code
    that expanded a macro is kept apart from code that expanded another
    definition of it, or expanded it while a global it reads held other data)."""
    todo, seen, defs = list(syms), set(), []
    data = set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        if not genv.is_macro(s):
            continue
        m = genv.lookup(s)
        if m.__class__ is not Macro:
            continue
        out, more = [s.name, '|'], set()
        try:
            for x in m.params:
                text(x, out, more)
            out.append('|')
            if m.rest is not None:
                text(m.rest, out, more)
            out.append('|')
            for x in m.body:
                text(x, out, more)
        except (Miss, RecursionError):
            continue            # (not named: the expansion made again at load still tells)
        defs.append(''.join(out))
        todo.extend(more - seen)
        data |= _reads(m)
    if not defs:
        return ''
    for s in data:
        c = genv.cells.get(s)
        if c is not None and c.pending is None and c.get().__class__ in DATA:
            out = [s.name, '=']
            try:
                text(c.get(), out)
            except (Miss, RecursionError):
                continue
            defs.append(''.join(out))
    h = diskcache._hasher()
    h.update('\0'.join(sorted(defs)).encode('utf-8', 'surrogatepass'))
    return '-' + h.hexdigest()[:16]


def _reads(m) -> set:
    """The symbols macro m's body may read as globals, as
    macros._named_globals finds them: not its parameters, nothing quoted,
    of a template only the unquoted parts."""
    bound, out = set(m.params) | {m.rest}, set()
    stack = list(m.body)
    while stack:
        y = stack.pop()
        if y.__class__ is Symbol:
            if y not in bound:
                out.add(y)
        elif y.__class__ is List and y is not EMPTY:
            if y.car is QUASIQUOTE:
                stack += _unquoted(y.cdr)
            elif y.car is not QUOTE:
                stack += _items(y)
    return out


def _unquoted(t) -> list:
    """The forms unquoted in template t (not nested templates' own)."""
    stack, out = [t], []
    while stack:
        y = stack.pop()
        if y.__class__ is List and y is not EMPTY:
            if y.car in UNQUOTES and y.cdr.__class__ is List and y.cdr is not EMPTY and y.cdr.cdr is EMPTY:
                out.append(y.cdr.car)
            else:
                stack += _items(y)
    return out


def _items(x) -> list:
    """The elements of list x, and its tail if it is improper."""
    out = []
    while x.__class__ is List and x is not EMPTY:
        out.append(x.car)
        x = x.cdr
    if x is not EMPTY:
        out.append(x)
    return out


def fingerprint(form) -> bytes:
    """A hash of form's text (Miss: it has none)."""
    out: list = []
    try:
        text(form, out)
    except RecursionError:
        raise Miss('too deep') from None
    h = diskcache._hasher()
    h.update(''.join(out).encode('utf-8', 'surrogatepass'))
    return h.digest()
