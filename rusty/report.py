"""Error reports: message, location, source line with a
caret marker, and the Lisp backtrace. One renderer, used by batch mode (plain,
on stderr) and the REPL (coloured on a terminal)."""
from .errors import STDLIB_FILE, RustyError, Span

MAX_FRAMES = 10
OUTER_FRAMES = 3
INNER_FRAMES = 7
WINDOW = 100        # longer source lines are shown as a window this wide
CONTEXT = 10        # columns kept before a form wider than the window
ELLIPSIS = '…'


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


def window(src: str, span: Span) -> tuple[str, Span]:
    """A line longer than WINDOW columns cut to WINDOW columns around the
    form, with … where it is cut; the span moved to match."""
    if len(src) <= WINDOW:
        return src, span
    start = span.col - 1
    width = span.end_col - span.col if span.end_line == span.line else len(src) - start
    if width >= WINDOW - 2 * CONTEXT:
        left = start - CONTEXT
    else:
        left = start + width // 2 - WINDOW // 2
    left = max(0, min(left, len(src) - WINDOW))
    right = left + WINDOW
    text = (ELLIPSIS if left else '') + src[left:right] + (ELLIPSIS if right < len(src) else '')
    shift = left - (1 if left else 0)
    end = min(start + width, right) - shift
    return text, span._replace(col=span.col - shift, end_line=span.line, end_col=end + 1)


def own_site(err: RustyError) -> Span | None:
    """Where the report points: the failing form, or when that is inside the
    standard library, the innermost call in the program's own code that led
    there (a frame's final call site, then the site its run was entered at)."""
    span = err.span
    if span is None or span.file != STDLIB_FILE:
        return span
    for frame in err.trace:
        for site in frame[0:1] + frame[2:3]:
            if site is not None and site.file != STDLIB_FILE:
                return site
    return span


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
    span = own_site(err)
    if span is not None:
        out.append('  at ' + st.location(where(span)))
        text = sources.get(span.file)
        src = source_line(text, span.line) if text is not None else None
        if src is not None:
            num = str(span.line)
            shown, moved = window(src, span)
            out.append('  %s | %s' % (num, st.code(shown)))
            out.append('  %s | %s' % (' ' * len(num), st.caret(marker(shown, moved))))
    out += ['  hint: ' + h for h in err.hints]
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
