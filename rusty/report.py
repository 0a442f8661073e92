"""Error reports (LANGUAGE.md §9.4): message, location, source line with a
caret marker, and the Lisp backtrace. One renderer, used by batch mode (plain,
on stderr) and the REPL (coloured on a terminal)."""
from __future__ import annotations

from .errors import RustyError, Span

MAX_FRAMES = 10
OUTER_FRAMES = 3
INNER_FRAMES = 7


def source_line(text: str, line: int) -> str | None:
    lines = text.split('\n')
    if 1 <= line <= len(lines):
        return lines[line - 1].rstrip('\r')
    return None


def marker(src: str, span: Span) -> str:
    """Blanks up to the form's column (tabs kept) and carets under the form."""
    start = span.col - 1
    pad = ''.join('\t' if ch == '\t' else ' ' for ch in src[:start])
    if span.end_line == span.line:
        width = span.end_col - span.col
    else:
        width = len(src) - start
    return pad + '^' * max(1, width)


def where(span: Span | None) -> str:
    if span is None:
        return '<unknown>'
    return '%s:%d:%d' % (span.file, span.line, span.col)


def render(err: RustyError, sources: dict, style=None) -> str:
    """The whole report as text ending in a newline.

    `style` (optional) colours parts: an object with methods message(s),
    location(s), code(s), caret(s), frame(s) returning decorated text.
    """
    st = style or _Plain
    out = [st.message('Error: ' + err.message)]
    span = err.span
    if span is not None:
        out.append('  at ' + st.location(where(span)))
        text = sources.get(span.file)
        src = source_line(text, span.line) if text is not None else None
        if src is not None:
            num = str(span.line)
            out.append('  %s | %s' % (num, st.code(src)))
            out.append('  %s | %s' % (' ' * len(num), st.caret(marker(src, span))))
    frames = list(reversed(err.trace))
    if frames:
        out.append('Backtrace (innermost last):')
        shown = frames
        if len(frames) > MAX_FRAMES:
            shown = frames[:OUTER_FRAMES] + [None] + frames[-INNER_FRAMES:]
        for fr in shown:
            if fr is None:
                out.append('  ... %d more' % (len(frames) - OUTER_FRAMES - INNER_FRAMES))
            else:
                out.append('  %s in %s' % (st.location(where(fr[0])), st.frame(fr[1])))
    return '\n'.join(out) + '\n'


class _Plain:
    @staticmethod
    def message(s):
        return s

    location = code = caret = frame = message
