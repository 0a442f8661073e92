"""Showing values: results wrapped to the terminal width at list-element
boundaries, and graph IR as a table."""
from __future__ import annotations

from ..printer import display_form, format_number, print_form
from ..values import List, Symbol

MAX_PRETTY_CHARS = 200_000   # beyond this, print flat and let the terminal wrap
MAX_PRETTY_DEPTH = 60


def wrap(value, width: int, col: int = 0, form=print_form) -> str:
    """`form(value)`, broken between list elements so lines fit in `width`
    (the first line starting at column `col`). Joined back, the pieces read
    as the same text: only the whitespace between elements changes."""
    flat = form(value)
    if len(flat) + col <= width or value.__class__ is not List or len(flat) > MAX_PRETTY_CHARS:
        return flat
    return '\n'.join(_layout(value, col, width, form, 0, flat))


def _layout(lst, col, width, form, depth, flat=None):
    """Lines for a list starting at column `col`; lines after the first carry
    their own indentation."""
    flat = form(lst) if flat is None else flat
    if lst.__class__ is not List or not lst.len or col + len(flat) <= width or depth > MAX_PRETTY_DEPTH:
        return [flat]
    lines = ['(']
    inner = col + 1

    def end_col():
        return (col if len(lines) == 1 else 0) + len(lines[-1])

    for i, item in enumerate(lst):
        text = form(item)
        if i > 0:
            if end_col() + 1 + len(text) <= width:
                lines[-1] += ' ' + text
                continue
            lines.append(' ' * inner)
        start = end_col()
        sub = _layout(item, start, width, form, depth + 1, text) if start + len(text) > width else [text]
        lines[-1] += sub[0]
        lines.extend(sub[1:])
    lines[-1] += ')'
    return lines


# ── Graph IR as a table ──────────────────────────────────────────────────

def graph_table(data, param_names=()) -> str:
    """`(graph-ir f)` data `(NODES OUTPUT)` as aligned rows; the output marked."""
    items = list(data) if data.__class__ is List else []
    if len(items) != 2 or items[0].__class__ is not List:
        return display_form(data)
    nodes, output = items
    rows = []
    for node in nodes:
        cells = list(node) if node.__class__ is List else [node]
        index = _num(cells[0]) if cells else '?'
        op = cells[1].name if len(cells) > 1 and cells[1].__class__ is Symbol else '?'
        rest = cells[2:]
        if op == 'const':
            what = ' '.join(display_form(x) for x in rest)
        elif op == 'param':
            what = ' '.join(_num(x) for x in rest)
            k = int(rest[0]) if rest and isinstance(rest[0], float) else -1
            if 0 <= k < len(param_names):
                what += '  (%s)' % param_names[k]
        else:
            what = ' '.join('%' + _num(x) for x in rest)
        rows.append((index, op, what))
    out_index = _num(output)
    wi = max([len(r[0]) for r in rows] + [1]) + 1
    wo = max([len(r[1]) for r in rows] + [2])
    lines = ['  %s  %-*s  %s' % ('#'.rjust(wi), wo, 'op', 'args / value')]
    for index, op, what in rows:
        mark = '  <- output' if index == out_index else ''
        lines.append('  %s  %-*s  %s%s' % (('%' + index).rjust(wi), wo, op, what, mark))
    return '\n'.join(line.rstrip() for line in lines)


def _num(x) -> str:
    return format_number(x) if isinstance(x, float) else display_form(x)
