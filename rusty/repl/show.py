"""Showing graph IR as a table (values are pretty-printed by rusty/pretty.py)."""
from __future__ import annotations

from ..printer import display_form, format_number
from ..values import List, Symbol

# ── Graph IR as a table ──────────────────────────────────────────────────

def graph_table(data, param_names=()) -> str:
    """`(graph-ir f)` data `(NODES OUTPUT)` as aligned rows; the output marked."""
    rows = graph_rows(data, param_names)
    if rows is None:
        return display_form(data)
    wi = max([len(r[0]) for r in rows] + [1]) + 1
    wo = max([len(r[1]) for r in rows] + [2])
    lines = ['  %s  %-*s  %s' % ('#'.rjust(wi), wo, 'op', 'args / value')]
    for index, op, what, out in rows:
        mark = '  <- output' if out else ''
        lines.append('  %s  %-*s  %s%s' % (('%' + index).rjust(wi), wo, op, what, mark))
    return '\n'.join(line.rstrip() for line in lines)


def graph_rows(data, param_names=()):
    """The rows (index, op, args / value, is the output) of `(graph-ir f)`
    data, or None if it is not graph IR (the REPL's and the notebook's tables)."""
    items = list(data) if data.__class__ is List else []
    if len(items) != 2 or items[0].__class__ is not List:
        return None
    nodes, output = items
    out_index = _num(output)
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
            k = int(rest[0]) if rest and rest[0].__class__ in (int, float) else -1
            if 0 <= k < len(param_names):
                what += '  (%s)' % param_names[k]
        else:
            what = ' '.join('%' + _num(x) for x in rest)
        rows.append((index, op, what, index == out_index))
    return rows


def _num(x) -> str:
    return format_number(x) if x.__class__ in (int, float) else display_form(x)
