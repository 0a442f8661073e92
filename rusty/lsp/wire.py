"""Forms across the pipe between the language server and its expansion worker.

A macro call goes to the worker as plain data (marshal of tuples), each of
its list cells numbered in the order of a depth-first walk; the expansion
comes back with every part the call wrote given as a reference to that
number, so the server rebuilds the expansion around its own cells, whose
spans (where the call's code was written) stay for the walk to point at.
Numbering depends only on the call's shape, so an expansion cached by the
call's text rebuilds against any call with that text.

Messages are framed by a 4-byte big-endian length.
"""
from __future__ import annotations

import marshal
import os
import select
import time

from ..values import EMPTY, NIL, List, Symbol, sym

MAX_MESSAGE = 16 << 20      # bytes: a longer answer is refused (the worker is restarted)


class Opaque:
    """A value of an expansion that is no form (a procedure, a tensor…): a constant to the walk."""

    def __init__(self, text: str):
        self.text = text


# ── Forms as data ────────────────────────────────────────────────────────

def encode_call(x) -> tuple[object, list]:
    """(x as data, the list of its cells in numbering order)."""
    cells: list = []
    return _enc(x, cells, None), cells


def _enc(x, cells: list, known):
    cls = x.__class__
    if cls is List:
        if x is EMPTY:
            return ('E',)
        if known is not None:
            ref = known.get(id(x))
            if ref is not None:
                return ('R', ref)
        items = []
        c = x
        while c is not EMPTY:
            if known is not None and id(c) in known:
                return ('L', tuple(items), known[id(c)])
            if known is None:
                cells.append(c)
            items.append(_enc(c.car, cells, known))
            c = c.cdr
        return ('L', tuple(items), None)
    if cls is Symbol:
        return ('S', x.name)
    if x is NIL:
        return ('N',)
    if cls in (int, float, str, bool) or x is None:
        return x
    return ('X', repr(x)[:200])


def decode_call(data) -> tuple[object, dict]:
    """The call rebuilt from encode_call's data, and {id(cell): number} of its cells."""
    numbers: dict = {}
    counter = [0]
    return _dec_call(data, numbers, counter), numbers


def _dec_call(d, numbers: dict, counter: list):
    """Rebuild d, numbering each cell before its element, as encode_call did."""
    if d.__class__ is not tuple:
        return d
    if d[0] != 'L':
        return _atom(d)
    cells = []
    for item in d[1]:
        c = List()
        numbers[id(c)] = counter[0]
        counter[0] += 1
        c.car = _dec_call(item, numbers, counter)
        cells.append(c)
    out = EMPTY
    for c in reversed(cells):
        c.cdr = out
        out = c
    return out


def _atom(d):
    tag = d[0]
    if tag == 'S':
        return sym(d[1])
    if tag == 'E':
        return EMPTY
    if tag == 'N':
        return NIL
    if tag == 'X':
        return Opaque(d[1])
    raise ValueError('not a form: %r' % (d,))


def encode_expansion(x, numbers: dict):
    """An expansion as data, the parts it shares with the call (cells in `numbers`) as references."""
    return _enc(x, [], numbers)


def decode_expansion(d, cells: list):
    """The expansion rebuilt around the call's own cells (encode_call's list)."""
    if d.__class__ is not tuple:
        return d
    tag = d[0]
    if tag == 'R':
        return cells[d[1]]
    if tag == 'L':
        tail = EMPTY if d[2] is None else cells[d[2]]
        out = tail
        for item in reversed(d[1]):
            c = List()
            c.car = decode_expansion(item, cells)
            c.cdr = out
            out = c
        return out
    return _atom(d)


# ── Framing ──────────────────────────────────────────────────────────────

def send(fd: int, message) -> None:
    data = marshal.dumps(message)
    data = len(data).to_bytes(4, 'big') + data
    while data:
        n = os.write(fd, data)
        data = data[n:]


def receive(fd: int, deadline: float | None = None):
    """The next message from fd; TimeoutError past deadline (monotonic), EOFError at the end."""
    size = int.from_bytes(_read_exactly(fd, 4, deadline), 'big')
    if size > MAX_MESSAGE:
        raise EOFError('message too long')
    return marshal.loads(_read_exactly(fd, size, deadline))


def _read_exactly(fd: int, n: int, deadline) -> bytes:
    parts, left = [], n
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError()
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError()
        parts.append(chunk)
        left -= len(chunk)
    return b''.join(parts)
