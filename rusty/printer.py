"""Display, print and write forms; number formatting.

The forms differ only in strings: display form quotes them (unescaped),
print form writes them raw, write form quotes and escapes them (readable). Lists are walked with an explicit stack, so deep
data never overflows the host stack; past MAX_DEPTH a list prints as `(...)`.
"""

from .values import (EMPTY, Builtin, Hash, Lambda, List, Macro, Native, NativeGrad,
                     NilType, Py, Symbol, Tensor, Trainer, Vector, make_list, py_text)

MAX_DEPTH = 4000
INF = float('inf')


def format_number(x) -> str:
    """The one number rule: exact integers with all their digits; floats with
    an integral value plainly, others shortest round-trip, no exponent."""
    if -1e15 < x < 1e15:        # false for NaN and the infinities
        i = int(x)
        if i == x:
            return str(i)
    elif x.__class__ is int:
        return int_text(x)
    elif x != x:
        return 'NaN'
    elif x == INF:
        return 'inf'
    elif x == -INF:
        return '-inf'
    text = repr(x)
    if 'e' not in text:         # the shortest round-trip digits, already without an exponent
        return text[:-2] if text.endswith('.0') else text
    from decimal import Decimal     # rarely needed: imported on first use
    text = format(Decimal(repr(x)), 'f')
    return text[:-2] if text.endswith('.0') else text


def int_text(i: int) -> str:
    """An exact integer's digits, however many (Python limits int -> str
    conversions of over 4300 digits by default; the limit is lifted on the
    first such number)."""
    try:
        return str(i)
    except ValueError:
        import sys
        sys.set_int_max_str_digits(0)
        return str(i)


def dims_text(shape) -> str:
    """Dimensions joined by `x` (empty for rank 0)."""
    return 'x'.join(str(d) for d in shape)


def lambda_params(params, rest) -> str:
    """A parameter list as lambdas print it: `(x y)`, `(a . rest)`, `( . args)`."""
    names = ' '.join(p.name for p in params)
    if rest is not None:
        return '(%s . %s)' % (names, rest.name) if names else '( . %s)' % rest.name
    return '(%s)' % names


def _tensor_text(t: Tensor) -> str:
    if len(t.data) > 8:
        return '#<tensor %s>' % dims_text(t.shape)
    return '#<tensor %s [%s]>' % (dims_text(t.shape), ' '.join(map(format_number, t.data)))


def _atom(x, quote: bool) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return format_number(x)
    if cls is str:
        return '"' + x + '"' if quote else x
    if cls is Symbol:
        return x.name
    if cls is bool:
        return '#t' if x else '#f'
    if cls is NilType or cls is List:     # Nil, or (only ever) the empty list
        return '()'
    if cls is Vector:                     # (only ever) the empty vector
        return '#()'
    if cls is Builtin:
        return '#<builtin:%s>' % x.shown
    if cls is Lambda:
        return '#<lambda %s>' % lambda_params(x.params, x.rest)
    if cls is Macro:
        return '#<macro (%s)>' % ' '.join(p.name for p in x.params)
    if cls is Tensor:
        return _tensor_text(x)
    if cls is Native:
        return '#<native:%s/%d>' % (x.name, x.arity)
    if cls is NativeGrad:
        shapes = ' '.join('scalar' if s is None else dims_text(s) for s in x.shapes)
        return '#<native-grad:%s (%s)>' % (x.name, shapes)
    if cls is Trainer:
        shapes = ' '.join('scalar' if s is None else dims_text(s) for s in x.shapes)
        return '#<%s:%s (%s) %s>' % (x.kind, x.name, shapes, x.optimizer)
    if cls is Py:
        return py_text(x)
    return '#<%s>' % cls.__name__


# ── Walking nested lists without host recursion ─────────────────────────

def plain_item(e):
    """An element written as itself, with nothing before it (for render_nested)."""
    return '', e


def _parens(seq):
    return '#(' if seq.__class__ is Vector else '(', ' ', ')', plain_item


def render_nested(x, atom, shape, max_depth=None, too_deep='', hash_shape=None, cycle=None) -> str:
    """The text of x, walking lists, vectors (and hashes) with an explicit stack.

    `atom(v)` writes anything that is not a non-empty list or vector (nor, with
    `hash_shape`, a hash). `shape(seq)` gives (open, separator, close, item)
    for a non-empty list or vector, where `item(e)` is (text written before the
    element, the value written for it). `hash_shape(h)` gives (open,
    separator, close, item, cells) for a hash, `cells` the List of what its
    entries are written as. Past `max_depth` open sequences one is written as
    `too_deep`. A hash met again inside itself is a cycle: by default the
    hash it closes gets the label `#N=` in front and the inner occurrence is
    written `#N#` (Racket's notation); `cycle(h)` may raise instead. The
    printer, json-encode and save-model share this walk.
    """
    out: list[str] = []
    stack: list = []      # [remaining cells, separator, close, item, hash or None, where its text opened]
    open_hashes: dict = {}    # id of a hash being written -> its stack entry
    labels: dict = {}         # id of a stack entry's hash -> its label number
    numbered = 0              # labels given so far
    while True:
        cls = x.__class__
        if (cls is List and x is not EMPTY) or (cls is Vector and x.items):
            if max_depth is not None and len(stack) >= max_depth:
                out.append(too_deep)
            else:
                opening, sep, close, item = shape(x)
                if cls is Vector:
                    x = make_list(x.items)
                stack.append([x, sep, close, item, None, 0])
                prefix, x = item(x.car)
                out.append(opening + prefix)
                continue
        elif (cls is List or cls is Vector) and max_depth is not None and len(stack) >= max_depth:
            out.append(too_deep)
        elif cls is Hash and hash_shape is not None:
            entry = open_hashes.get(id(x))
            if entry is not None:
                if cycle is not None:
                    cycle(x)
                n = labels.get(id(entry))
                if n is None:
                    n = labels[id(entry)] = numbered
                    numbered += 1
                out.append('#%d#' % n)
            elif max_depth is not None and len(stack) >= max_depth:
                out.append(too_deep)
            else:
                opening, sep, close, item, cells = hash_shape(x)
                if cells is EMPTY:
                    out.append(opening + close)
                else:
                    entry = [cells, sep, close, item, x, len(out)]
                    stack.append(entry)
                    open_hashes[id(x)] = entry
                    prefix, x = item(cells.car)
                    out.append(opening + prefix)
                    continue
        else:
            out.append(atom(x))
        while stack:
            top = stack[-1]
            rest = top[0].cdr
            if rest is not EMPTY:
                top[0] = rest
                if top[3] is plain_item:
                    x = rest.car
                    out.append(top[1])
                else:
                    prefix, x = top[3](rest.car)
                    out.append(top[1] + prefix)
                break
            stack.pop()
            out.append(top[2])
            if top[4] is not None:
                del open_hashes[id(top[4])]
                n = labels.pop(id(top), None)
                if n is not None:
                    out[top[5]] = '#%d=' % n + out[top[5]]
        else:
            return ''.join(out)


def has_cycle(x) -> bool:
    """Whether some hash inside x contains itself (walked without recursion)."""
    if x.__class__ is not List and x.__class__ is not Hash:
        return False
    found = []

    def cycle(h):
        found.append(h)
        raise _CycleFound
    try:
        render_nested(x, _no_text, _parens, MAX_DEPTH, '', _hash_parens, cycle)
    except _CycleFound:
        return True
    return False


class _CycleFound(Exception):
    """has_cycle's early exit."""


def _no_text(x) -> str:
    return ''


def hash_cells(h: Hash) -> List:
    """A hash's entries as a List of two-element Lists `(key value)`, in order."""
    return make_list([make_list([k, v]) for k, v in h.table.values()])


def _hash_parens(h: Hash):
    return '#hash(', ' ', ')', plain_item, hash_cells(h)


def _display_atom(x) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return format_number(x)
    if cls is str:
        return '"' + x + '"'
    return _atom(x, True)


def _print_atom(x) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return format_number(x)
    if cls is str:
        return x
    return _atom(x, False)


_WRITE_ESCAPES = str.maketrans({'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r'})


def write_string(s: str) -> str:
    """A string in double quotes, escaping exactly backslash, quote, LF, tab, CR."""
    return '"' + s.translate(_WRITE_ESCAPES) + '"'


def _write_atom(x) -> str:
    cls = x.__class__
    if cls is float or cls is int:
        return format_number(x)
    if cls is str:
        return write_string(x)
    return _atom(x, True)


# Lists nest without host recursion, and so do hashes: a hash that contains
# itself (directly or through others) is written with Racket's labels,
# `#0=#hash((self #0#))`: `#N=` before the hash a cycle returns to, `#N#`
# where it returns.

def display_form(x) -> str:
    """Strings quoted (unescaped); used by display, ~s and error messages."""
    if x.__class__ is not List and x.__class__ is not Hash and x.__class__ is not Vector:
        return _display_atom(x)
    return render_nested(x, _display_atom, _parens, MAX_DEPTH, '(...)', _hash_parens)


def print_form(x) -> str:
    """Strings raw at every level; used by print, str, ~a and the REPL."""
    if x.__class__ is not List and x.__class__ is not Hash and x.__class__ is not Vector:
        return _print_atom(x)
    return render_nested(x, _print_atom, _parens, MAX_DEPTH, '(...)', _hash_parens)


def write_form(x) -> str:
    """Display form with strings escaped so they read back: `repr`, the REPL."""
    if x.__class__ is not List and x.__class__ is not Hash and x.__class__ is not Vector:
        return _write_atom(x)
    return render_nested(x, _write_atom, _parens, MAX_DEPTH, '(...)', _hash_parens)
