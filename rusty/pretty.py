"""Pretty printing values: the write form laid out within a width.

A value whose write form fits in the columns left on the line is written on one
line; otherwise a list is written as `(`, its first element, then each further
element on its own line aligned with the first (column of `(` + 1), each by the
same rule; a hash likewise after `#hash(`, a vector after `#(`. A list of atoms only (numbers,
strings, symbols, booleans, Nil, `()`) is filled instead: as many elements per
line as fit, each further line aligned with the first element. An atom that
does not fit is written anyway. Fitting compares the write form alone (closing
parentheses that follow are not counted) with the width minus the current
column; a filled list counts its own closing parenthesis on its last line.

Both walks use explicit stacks, and the fit test stops writing as soon as the
text passes the room left, so the cost is linear in the output whatever the
depth or length of the value.
"""
from __future__ import annotations

from .printer import MAX_DEPTH, has_cycle, write_form
from .values import EMPTY, NIL, Hash, List, Symbol, Vector, make_list

ATOMS = (float, int, str, bool, Symbol, NIL.__class__)     # what a filled list holds

# ── What the layout writes: the write form ────────────────────

def write_atom(x) -> str:
    """The write form of anything that is not a non-empty list or a hash."""
    return write_form(x)


def hash_entries(x):
    """The entries of a hash as two-element lists `(key value)`, in order; None for a non-hash."""
    if x.__class__ is not Hash:
        return None
    return [make_list([k, v]) for k, v in x.table.values()]


def container(x):
    """(opening, elements) of a hash or a vector; None for anything else."""
    if x.__class__ is Vector:
        return '#(', x.items
    entries = hash_entries(x)
    return None if entries is None else ('#hash(', entries)


# ── Layout ───────────────────────────────────────────────────────────────

def flat_within(x, room: int, depth: int = 0):
    """The write form of x if it is at most `room` characters long, else None."""
    out: list[str] = []
    size = 0
    todo = [(x, depth)]
    while todo:
        item = todo.pop()
        if item.__class__ is str:                # literal text queued by a list or hash
            text = item
        elif item[0].__class__ is List and item[0] is not EMPTY:
            x, d = item
            if d >= MAX_DEPTH:
                text = '(...)'
            else:
                text = '('
                todo.append(')')
                items = list(x)
                for i in range(len(items) - 1, 0, -1):
                    todo.append((items[i], d + 1))
                    todo.append(' ')
                todo.append((items[0], d + 1))
        else:
            x = item[0]
            found = container(x)
            if found is None:
                text = write_atom(x)
            else:
                text, entries = found
                todo.append(')')
                for i in range(len(entries) - 1, -1, -1):
                    todo.append((entries[i], item[1] + 1))
                    if i:
                        todo.append(' ')
        size += len(text)
        if size > room:
            return None
        out.append(text)
    return ''.join(out)


def pretty_string(x, width: int = 80, col: int = 0) -> str:
    """x laid out within `width` columns, its first line starting at column `col`
    (later lines carry their full indentation). A value with a hash that
    contains itself is written on one line, with the write form's labels."""
    if x.__class__ is Hash and has_cycle(x) or x.__class__ is List and has_cycle(x):
        return write_form(x)
    out: list[str] = []
    todo = [(x, 0)]
    while todo:
        item = todo.pop()
        if item.__class__ is str:
            out.append(item)
            col = len(item) - item.rindex('\n') - 1 if '\n' in item else col + len(item)
            continue
        x, depth = item
        text = flat_within(x, width - col, depth)
        if text is None and depth < MAX_DEPTH and _atoms_only(x):
            text = filled(x, width, col)
        elif text is None:
            opening, items = _broken(x, depth)
            if items is None:
                text = opening
            else:
                out.append(opening)
                inner = col + len(opening)
                col = inner
                todo.append(')')
                for i in range(len(items) - 1, 0, -1):
                    todo.append((items[i], depth + 1))
                    todo.append('\n' + ' ' * inner)
                todo.append((items[0], depth + 1))
                continue
        out.append(text)
        col += len(text)
    return ''.join(out)


def _atoms_only(x) -> bool:
    """True for a non-empty list whose elements are all atoms."""
    if x.__class__ is not List or x is EMPTY:
        return False
    for e in x:
        if e.__class__ not in ATOMS and e is not EMPTY:
            return False
    return True


def filled(x, width: int, col: int) -> str:
    """List of atoms x written from column `col` with as many elements per
    line as fit in `width`; further lines start under the first element."""
    texts = [write_atom(e) for e in x]
    inner = col + 1
    out = ['(', texts[0]]
    at = inner + len(texts[0])
    last = len(texts) - 1
    for i in range(1, len(texts)):
        t = texts[i]
        end = at + 1 + len(t) + (1 if i == last else 0)
        if end <= width:
            out.append(' ')
            at += 1 + len(t)
        else:
            out.append('\n' + ' ' * inner)
            at = inner + len(t)
        out.append(t)
    out.append(')')
    return ''.join(out)


def _broken(x, depth):
    """(opening text, elements) to write x over several lines; (its whole text, None) for an atom."""
    if x.__class__ is List and x is not EMPTY:
        if depth >= MAX_DEPTH:
            return '(...)', None
        return '(', list(x)
    found = container(x)
    if found is None:
        return write_atom(x), None
    opening, entries = found
    if entries:
        return opening, entries
    return opening + ')', None
