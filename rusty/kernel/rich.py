"""Rich output for notebooks: the MIME bundles the kernel sends.

A value's bundle always has `text/plain` (its write form, pretty-printed);
a tensor of rank 1 or 2 and a hash table also get `text/html` tables (at
most MAX_ROWS rows and MAX_COLS columns shown, the rest counted). Error
reports are Jupyter errors with the report as an ANSI-coloured traceback;
`,graph` a table; `plot` an SVG line chart.
"""
from __future__ import annotations

from html import escape

from ..pretty import pretty_string
from ..printer import display_form, format_number, write_form
from ..report import render
from ..values import Hash, Tensor

MAX_ROWS = 20
MAX_COLS = 20
WIDTH = 80          # the text/plain layout width
TABLE_STYLE = 'border-collapse:collapse;font-family:monospace'


# ── Values ───────────────────────────────────────────────────────────────

def bundle(value) -> dict:
    """The MIME bundle showing a value."""
    out = {'text/plain': pretty_string(value, WIDTH)}
    html = None
    if value.__class__ is Tensor and len(value.shape) in (1, 2):
        html = tensor_html(value)
    elif value.__class__ is Hash:
        html = hash_html(value)
    if html is not None:
        out['text/html'] = html
    return out


def _cell(text: str, tag: str = 'td', align: str = 'right') -> str:
    return '<%s style="text-align:%s;padding:0 .5em">%s</%s>' % (tag, align, escape(text), tag)


def _more(n: int, what: str) -> str:
    return '<caption style="caption-side:bottom">… %d more %s</caption>' % (n, what) if n > 0 else ''


def tensor_html(t: Tensor) -> str:
    """A rank-1 tensor as one row, a rank-2 tensor as rows and columns."""
    if len(t.shape) == 1:
        rows, cols = 1, t.shape[0]
    else:
        rows, cols = t.shape
    shown_r, shown_c = min(rows, MAX_ROWS), min(cols, MAX_COLS)
    head = '<tr>' + _cell('', 'th') + ''.join(_cell(str(j), 'th') for j in range(shown_c)) + \
        (_cell('…', 'th') if cols > shown_c else '') + '</tr>'
    body = []
    for i in range(shown_r):
        row = [format_number(t.data[i * cols + j]) for j in range(shown_c)]
        body.append('<tr>' + _cell(str(i), 'th') + ''.join(_cell(x) for x in row) +
                    (_cell('…') if cols > shown_c else '') + '</tr>')
    if rows > shown_r:
        body.append('<tr>' + _cell('…', 'th') + _cell('…') * (shown_c + (cols > shown_c)) + '</tr>')
    shape = '×'.join(str(d) for d in t.shape)
    return ('<table style="%s"><caption>tensor %s</caption>%s%s</table>'
            % (TABLE_STYLE, escape(shape), head, ''.join(body)))


def hash_html(h: Hash) -> str:
    """A hash table's entries as key / value rows, in order."""
    entries = list(h.table.values())
    rows = ''.join('<tr>' + _cell(write_form(k), align='left') + _cell(write_form(v), align='left') + '</tr>'
                   for k, v in entries[:MAX_ROWS])
    return ('<table style="%s"><caption>hash table, %d entr%s</caption>'
            '<tr>%s%s</tr>%s%s</table>'
            % (TABLE_STYLE, len(entries), 'y' if len(entries) == 1 else 'ies',
               _cell('key', 'th', 'left'), _cell('value', 'th', 'left'), rows,
               _more(len(entries) - MAX_ROWS, 'entries')))


# ── Graph IR ─────────────────────────────────────────────────────────────

def graph_bundle(rows, text: str) -> dict:
    """`,graph`: rows (index, op, args, is output) as a table, and the text table."""
    body = ''.join('<tr%s>%s%s%s</tr>' % (' style="font-weight:bold"' if out else '',
                                          _cell('%' + index), _cell(op, align='left'),
                                          _cell(what + ('  ← output' if out else ''), align='left'))
                   for index, op, what, out in rows)
    head = '<tr>%s%s%s</tr>' % (_cell('#', 'th'), _cell('op', 'th', 'left'), _cell('args / value', 'th', 'left'))
    return {'text/plain': text, 'text/html': '<table style="%s">%s%s</table>' % (TABLE_STYLE, head, body)}


# ── Error reports ────────────────────────────────────────────────────────

def error_content(err, sources: dict) -> dict:
    """An error as Jupyter reports one (the iopub `error` message and the
    execute_reply): ename the rusty error class, evalue its message, traceback
    the lines of the whole report in ANSI colours (the REPL's: bold message,
    highlighted source line, red caret), which frontends render."""
    from ..repl.lexer import RustyLexer
    from ..repl.style import ReportStyle
    try:
        text = render(err, sources, style=ReportStyle(RustyLexer(stripnl=False, ensurenl=False)))
    except Exception:       # colour is a nicety: never let it hide the report
        text = render(err, sources)
    return {'ename': type(err).__name__, 'evalue': err.message, 'traceback': text.rstrip('\n').split('\n')}


# ── Plots ────────────────────────────────────────────────────────────────

PLOT_W, PLOT_H, PAD = 480, 240, 56


def plot_bundle(ys: list[float], title: str = '') -> dict:
    """A line chart of ys against their index: SVG, and a one-line text sketch."""
    lo, hi = min(ys), max(ys)
    span = (hi - lo) or 1.0
    n = len(ys)
    left, right, top, bottom = PAD, PLOT_W - 16, 32, PLOT_H - 28
    xs = [left + (right - left) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    pts = ' '.join('%.2f,%.2f' % (x, bottom - (bottom - top) * (y - lo) / span) for x, y in zip(xs, ys))
    text = '<text x="%d" y="%d" font-family="sans-serif" font-size="%d" text-anchor="%s">%s</text>'
    parts = [
        '<rect width="100%" height="100%" fill="white"/>',
        text % (left, 20, 14, 'start', escape(title)),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>' % (left, bottom, right, bottom),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>' % (left, top, left, bottom),
        text % (left - 4, top + 4, 11, 'end', escape('%.4g' % hi)),
        text % (left - 4, bottom + 4, 11, 'end', escape('%.4g' % lo)),
        text % (left, bottom + 16, 11, 'middle', '0'),
        text % (right, bottom + 16, 11, 'middle', n - 1),
        '<polyline fill="none" stroke="#06c" stroke-width="1.5" points="%s"/>' % pts,
    ]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">%s</svg>'
           % (PLOT_W, PLOT_H, PLOT_W, PLOT_H, ''.join(parts)))
    return {'image/svg+xml': svg, 'text/plain': text_sketch(ys, title)}


BARS = '▁▂▃▄▅▆▇█'


def text_sketch(ys: list[float], title: str = '') -> str:
    """A sparkline of at most 60 samples, with the first and last values."""
    step = max(1, len(ys) // 60)
    sample = ys[::step]
    lo, hi = min(ys), max(ys)
    span = (hi - lo) or 1.0
    line = ''.join(BARS[min(len(BARS) - 1, int((y - lo) / span * len(BARS)))] for y in sample)
    head = (title + ': ') if title else ''
    return '%s%s  %s … %s' % (head, line, format_number(ys[0]), format_number(ys[-1]))


def plain(value) -> str:
    return display_form(value)
