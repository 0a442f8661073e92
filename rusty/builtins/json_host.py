"""json-encode and json-decode's fast paths: the same text and values as the
walks in json_text.py (the reference, which also gives every error), made
faster where they surely agree, else None so the reference decides.

Decoding uses the host's C JSON scanner where it parses exactly what
parse_json does: no `\\u` escape (the host accepts lone surrogates), nesting
at most MAX_NESTING deep (the scanner recurses on the C stack), no
NaN/Infinity; any failure of it is left to the reference, for its message.
Encoding turns lists and vectors at most ENCODE_NESTING deep (no hashes:
their cycles are the reference's) into the host's data for its C encoder.
"""
from ..values import EMPTY, NIL, List, Symbol, Vector

MAX_NESTING = 20_000        # levels the C scanner may recurse (~200 bytes of C stack each)
ENCODE_NESTING = 200        # levels the encoder recurses before leaving it to the reference

_decoders: dict = {}        # hash_object or None -> the host decoder making its objects
_STRING = _OUTSIDE = None   # patterns, compiled by the first deep document's check


class _Refused(ValueError):
    """What the host parses and rusty's JSON does not (NaN, Infinity)."""


def _refuse(word):
    raise _Refused(word)


def decode(text: str, hash_object=None):
    """parse_json's value of text with objects as ((key value) …) lists (as
    json_text._pairs_list makes them), or made by hash_object(pairs) when
    given; None when the reference must parse it (or report it)."""
    if '\\u' in text or (text.count('[') + text.count('{') > MAX_NESTING and nesting(text) > MAX_NESTING):
        return None
    decoder = _decoders.get(hash_object)
    if decoder is None:
        import json                 # only when JSON is first decoded
        decoder = _decoders[hash_object] = json.JSONDecoder(
            object_pairs_hook=pairs_list if hash_object is None else _hashed(hash_object), parse_constant=_refuse)
    try:
        value = decoder.decode(text)
    except (ValueError, RecursionError):    # JSONDecodeError, int digits, _Refused; a shallow thread
        return None
    if value.__class__ is list:
        return items(value)
    return NIL if value is None else value


def items(xs: list) -> List:
    """A decoded array as a rusty list (its arrays too; null as Nil)."""
    out = EMPTY
    new = List
    for x in reversed(xs):
        if x.__class__ is list:
            x = items(x)
        elif x is None:
            x = NIL
        cell = new()
        cell.car = x
        cell.cdr = out
        out = cell
    return out


def _hashed(hash_object):
    """The decoder's object hook making hashes: hash_object over the pairs, values made rusty."""
    def hook(pairs):
        return hash_object([(k, items(v) if v.__class__ is list else NIL if v is None else v) for k, v in pairs])
    return hook


def pairs_list(pairs) -> List:
    """The pairs as json_text._pairs_list makes them, values made rusty: ((key value) …)."""
    out = EMPTY
    new = List
    for k, v in reversed(pairs):    # (three cells a pair, filled in place: no call per cell)
        if v.__class__ is list:
            v = items(v)
        elif v is None:
            v = NIL
        last = new()
        last.car, last.cdr = v, EMPTY
        pair = new()
        pair.car, pair.cdr = k, last
        cell = new()
        cell.car, cell.cdr = pair, out
        out = cell
    return out


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text (strings skipped; what
    the scanner would reach before any error in it)."""
    global _STRING, _OUTSIDE
    if _STRING is None:
        import re
        _STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
        _OUTSIDE = re.compile(r'[^\[\]{}]+')
    from itertools import accumulate
    brackets = _OUTSIDE.sub('', _STRING.sub('', text))
    steps = {'[': 1, '{': 1, ']': -1, '}': -1}
    return max(accumulate(map(steps.__getitem__, brackets)), default=0)


# ── Encoding ─────────────────────────────────────────────────────────────

class _GiveUp(Exception):
    """Data the fast encoder leaves to the reference."""


_encoder = None     # the host's JSON encoder, made by the first encode
# What the host writes for a control character other than newline and tab
# (rusty writes those raw): text holding one of these goes to the reference.
_ESCAPED = ('\\u00', '\\r', '\\b', '\\f')


def encode(v):
    """json-encode's text of v (no indent), or None when the reference must
    write it: v as host data (objects as dicts) written by the host's C
    encoder, which escapes strings as rusty does unless they hold a control
    character other than newline and tab (or a backslash before `r`, `b`,
    `f` or `u00`, which reads the same in its text)."""
    global _encoder
    try:
        data = _host(v, 0)
    except (_GiveUp, RecursionError):
        return None
    if _encoder is None:
        import json
        _encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False)
    try:
        text = _encoder.encode(data)
    except ValueError:          # an integer of more digits than the host writes by default
        return None
    if '\\' in text and any(e in text for e in _ESCAPED):
        return None
    return text


def _host(x, depth: int):
    """x as the host's JSON data (the reference's shapes: json_text.py)."""
    cls = x.__class__
    if cls is str or cls is int or cls is bool:
        return x
    if cls is List:
        return [] if x is EMPTY else _host_list(x, depth + 1)
    if x is NIL:
        return None
    if cls is float:
        text = repr(x)
        if 'e' in text or 'n' in text:      # exponent, inf, nan: format_number's own
            raise _GiveUp
        return int(x) if x.is_integer() else x
    if cls is Vector:
        return _host_items(x.items, depth + 1) if x.items else []
    if cls is Symbol:
        return x.name
    raise _GiveUp


def _host_list(x: List, depth: int):
    """A non-empty list as host data: a dict when every element is a (key
    value) list with a string or symbol key (json_text._is_object), else a list."""
    if depth > ENCODE_NESTING:
        raise _GiveUp
    obj = {}
    n = 0
    cell = x
    while cell is not EMPTY:
        pair = cell.car
        if pair.__class__ is not List or pair is EMPTY:
            return _host_items(x, depth)
        rest = pair.cdr
        if rest is EMPTY or rest.cdr is not EMPTY:
            return _host_items(x, depth)
        k = pair.car
        if k.__class__ is not str:
            if k.__class__ is not Symbol:
                return _host_items(x, depth)
            k = k.name
        v = rest.car
        c = v.__class__
        obj[k] = v if c is str or c is int or c is bool else _host(v, depth)
        n += 1
        cell = cell.cdr
    if len(obj) != n:           # a key written twice
        raise _GiveUp
    return obj


def _host_items(xs, depth: int) -> list:
    """A list's or a vector's elements as host data."""
    if depth > ENCODE_NESTING:
        raise _GiveUp
    if xs.__class__ is not List:
        return [x if (c := x.__class__) is str or c is int or c is bool else _host(x, depth) for x in xs]
    out = []
    add = out.append
    while xs is not EMPTY:      # (the cells walked in place: no generator)
        x = xs.car
        c = x.__class__
        add(x if c is str or c is int or c is bool else _host(x, depth))
        xs = xs.cdr
    return out
