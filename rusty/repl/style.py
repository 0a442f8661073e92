"""Colours: one table of styles, used for live highlighting (prompt_toolkit) and
for text the REPL writes itself (error reports, results, Rust source) as ANSI.

Only the 16 named ANSI colours plus bold/italic/underline are used, so the
terminal's own palette keeps everything readable on dark and light
backgrounds (no yellow or white text, no fixed backgrounds). NO_COLOR (any
non-empty value), TERM=dumb or a non-terminal output turns colour off.
"""
from __future__ import annotations

import os

from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, String,
                            Token)

# Pygments token -> style (prompt_toolkit syntax; converted to SGR below).
TOKEN_STYLES = {
    Keyword: 'bold ansimagenta',
    Keyword.Constant: 'ansired',
    Keyword.Type: 'ansicyan',
    Name.Builtin: 'ansicyan',
    Name.Function: 'bold',
    Name.Class: 'bold',
    Name.Macro: 'ansimagenta',
    Number: 'ansired',
    String: 'ansigreen',
    String.Escape: 'bold ansigreen',
    String.Char: 'ansigreen',
    String.Symbol: 'ansimagenta',
    Operator: 'ansimagenta',
    Comment: 'italic ansibrightblack',
    Comment.Preproc: 'ansibrightblack',
    Error: 'ansired underline',
}

# Classes for the REPL's own parts of the screen.
UI_STYLES = {
    'prompt': 'bold',
    'continuation': 'ansibrightblack',
    'matching-bracket': 'bold reverse',
    'unmatched-bracket': 'bold ansired',
    'open-count': 'ansibrightblack',
    'rprompt': '',
    'result-arrow': 'ansibrightblack',
    'status': 'ansibrightblack',
}

SGR = {
    'bold': '1', 'italic': '3', 'underline': '4', 'reverse': '7',
    'ansiblack': '30', 'ansired': '31', 'ansigreen': '32', 'ansiyellow': '33',
    'ansiblue': '34', 'ansimagenta': '35', 'ansicyan': '36', 'ansigray': '37',
    'ansibrightblack': '90', 'ansibrightred': '91', 'ansibrightgreen': '92',
    'ansibrightblue': '94', 'ansibrightmagenta': '95', 'ansibrightcyan': '96',
}
RESET = '\x1b[0m'


def color_wanted(stream) -> bool:
    """Colour only on a terminal that is not 'dumb', and never when NO_COLOR is set."""
    if os.environ.get('NO_COLOR') or os.environ.get('TERM') == 'dumb':
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def sgr(style: str) -> str:
    """The escape sequence for a style string like 'bold ansired' ('' if none)."""
    codes = [SGR[w] for w in style.split() if w in SGR]
    return '\x1b[%sm' % ';'.join(codes) if codes else ''


def paint(text: str, style: str) -> str:
    start = sgr(style)
    return start + text + RESET if start and text else text


def token_style(ttype) -> str:
    """The style of a Pygments token type (inherited from its parents)."""
    while ttype is not Token:
        if ttype in TOKEN_STYLES:
            return TOKEN_STYLES[ttype]
        ttype = ttype.parent
    return ''


def highlight(text: str, lexer) -> str:
    """`text` coloured with a Pygments lexer, as ANSI (no trailing newline added)."""
    out = []
    for ttype, value in lexer.get_tokens(text):
        out.append(paint(value, token_style(ttype)) if value.strip() else value)
    result = ''.join(out)
    return result[:-1] if result.endswith('\n') and not text.endswith('\n') else result


def prompt_style():
    """The prompt_toolkit Style for highlighting and the REPL's own classes."""
    from prompt_toolkit.styles import Style, merge_styles
    from prompt_toolkit.styles.pygments import style_from_pygments_dict
    return merge_styles([style_from_pygments_dict(TOKEN_STYLES), Style.from_dict(UI_STYLES)])


# ── Error reports (the `style` argument of report.render) ────────────────

class ReportStyle:
    """Colours for an error report: bold message, highlighted source, red caret."""

    def __init__(self, lexer):
        self.lexer = lexer

    def message(self, s):
        return paint(s, 'bold')

    def location(self, s):
        return paint(s, 'ansicyan')

    def code(self, s):
        return highlight(s, self.lexer)

    def caret(self, s):
        stripped = s.rstrip('^')
        return stripped + paint(s[len(stripped):], 'bold ansired')

    def frame(self, s):
        return paint(s, 'bold')
