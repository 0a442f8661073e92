"""Display, print and write forms; number formatting.

The forms differ only in strings: display form quotes them (unescaped),
print form writes them raw, write form quotes and escapes them (readable). Lists are walked with an explicit stack, so deep
data never overflows the host stack; past MAX_DEPTH a list prints as `(...)`.
"""

from .values import (EMPTY, Builtin, Hash, Lambda, List, Macro, Native, NativeGrad,
                     NilType, Symbol, Tensor, Trainer)

MAX_DEPTH = 4000
INF = float('inf')


def format_number(x: float) -> str:
    """The one number rule: integers plainly, others shortest round-trip, no exponent."""
    if -1e15 < x < 1e15:        # false for NaN and the infinities
        i = int(x)
        if i == x:
            return str(i)
    elif x != x:
        return 'NaN'
    elif x == INF:
        return 'inf'
    elif x == -INF:
        return '-inf'
    from decimal import Decimal     # rarely needed: imported on first use
    text = format(Decimal(repr(x)), 'f')
    return text[:-2] if text.endswith('.0') else text


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
    if cls is float:
        return format_number(x)
    if cls is str:
        return '"' + x + '"' if quote else x
    if cls is Symbol:
        return x.name
    if cls is bool:
        return '#t' if x else '#f'
    if cls is NilType or cls is List:     # Nil, or (only ever) the empty list
        return '()'
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
    return '#<%s>' % cls.__name__


# ── Walking nested lists without host recursion ─────────────────────────

def plain_item(e):
    """An element written as itself, with nothing before it (for render_nested)."""
    return '', e


def _parens(lst):
    return '(', ' ', ')', plain_item


def render_nested(x, atom, shape, max_depth=None, too_deep='') -> str:
    """The text of x, walking lists with an explicit stack.

    `atom(v)` writes anything that is not a non-empty list. `shape(lst)` gives
    (open, separator, close, item) for a non-empty list, where `item(e)` is
    (text written before the element, the value written for it). Past
    `max_depth` open lists a list is written as `too_deep`. The printer,
    json-encode and save-model share this walk.
    """
    out: list[str] = []
    stack: list = []      # [remaining cells, separator, close, item] per open list
    while True:
        if x.__class__ is List and x is not EMPTY:
            if max_depth is not None and len(stack) >= max_depth:
                out.append(too_deep)
            else:
                opening, sep, close, item = shape(x)
                stack.append([x, sep, close, item])
                prefix, x = item(x.car)
                out.append(opening + prefix)
                continue
        elif x.__class__ is List and max_depth is not None and len(stack) >= max_depth:
            out.append(too_deep)
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
        else:
            return ''.join(out)


def hash_text(h: Hash, form) -> str:
    """`#hash((k v) …)` in insertion order, keys and values written by `form`."""
    return '#hash(%s)' % ' '.join('(%s %s)' % (form(k), form(v)) for k, v in h.table.values())


def _display_atom(x) -> str:
    cls = x.__class__
    if cls is float:
        return format_number(x)
    if cls is str:
        return '"' + x + '"'
    if cls is Hash:
        return hash_text(x, display_form)
    return _atom(x, True)


def _print_atom(x) -> str:
    cls = x.__class__
    if cls is float:
        return format_number(x)
    if cls is str:
        return x
    if cls is Hash:
        return hash_text(x, print_form)
    return _atom(x, False)


_WRITE_ESCAPES = str.maketrans({'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r'})


def write_string(s: str) -> str:
    """A string in double quotes, escaping exactly backslash, quote, LF, tab, CR."""
    return '"' + s.translate(_WRITE_ESCAPES) + '"'


def _write_atom(x) -> str:
    cls = x.__class__
    if cls is float:
        return format_number(x)
    if cls is str:
        return write_string(x)
    if cls is Hash:
        return hash_text(x, write_form)
    return _atom(x, True)


def display_form(x) -> str:
    """Strings quoted (unescaped); used by display, ~s and error messages."""
    if x.__class__ is not List:
        return _display_atom(x)
    return render_nested(x, _display_atom, _parens, MAX_DEPTH, '(...)')


def print_form(x) -> str:
    """Strings raw at every level; used by print, str, ~a and the REPL."""
    if x.__class__ is not List:
        return _print_atom(x)
    return render_nested(x, _print_atom, _parens, MAX_DEPTH, '(...)')


def write_form(x) -> str:
    """Display form with strings escaped so they read back: `repr`, the REPL."""
    if x.__class__ is not List:
        return _write_atom(x)
    return render_nested(x, _write_atom, _parens, MAX_DEPTH, '(...)')
