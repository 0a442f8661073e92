"""The prompt_toolkit side of the REPL: key bindings (Enter decided by rusty's
reader, Meta-Enter, Tab), matching-parenthesis highlight, the open-parenthesis
count, history and completion wiring."""
from __future__ import annotations

import os

from prompt_toolkit import PromptSession
from prompt_toolkit.application.current import get_app
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import has_focus
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.bindings.completion import generate_completions
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import Processor, Transformation
from prompt_toolkit.layout.utils import explode_text_fragments
from prompt_toolkit.shortcuts import CompleteStyle

from . import indent, meta
from .complete import RustyCompleter

CONTINUATION = '  ...> '


# ── When Enter evaluates ─────────────────────────────────────────────────

def wants_more(text: str) -> bool:
    """True while the input is unfinished: an open '(' or string, outside
    meta-commands that take a name and /apropos lines."""
    stripped = text.lstrip()
    if not stripped:
        return False
    if stripped.startswith(','):
        cmd = meta.parse(text)
        if cmd is None or not meta.takes_code(text):
            return False
        return indent.status(cmd.code) == 'open'
    if stripped.startswith('/') and '\n' not in stripped:
        return False
    return indent.status(text) == 'open'


def newline_and_indent(buffer) -> None:
    """A new line, indented Lisp-style for the form still open at the cursor
    (inside a string, just the newline: the string's text is not touched)."""
    doc = buffer.document
    if indent.indent_for(doc.text_before_cursor) is None:
        buffer.insert_text('\n')
        return
    after = doc.current_line_after_cursor
    buffer.delete(len(after) - len(after.lstrip(' ')))
    before = doc.current_line_before_cursor
    trailing = len(before) - len(before.rstrip(' '))
    if trailing and before.strip():
        buffer.delete_before_cursor(trailing)
    n = indent.indent_for(buffer.document.text_before_cursor)
    buffer.insert_text('\n' + ' ' * (n or 0))


def reindent_line(buffer) -> None:
    """Give the cursor's line the indentation its context calls for."""
    doc = buffer.document
    start = doc.cursor_position + doc.get_start_of_line_position()
    context = doc.text[:start]
    if context.endswith('\n'):
        context = context[:-1]
    n = indent.indent_for(context) if doc.cursor_position_row > 0 else 0
    if n is None:
        buffer.insert_text('  ')
        return
    line = doc.current_line
    old = len(line) - len(line.lstrip(' \t'))
    buffer.cursor_position = start
    buffer.delete(old)
    buffer.insert_text(' ' * n)


def complete_now(buffer) -> bool:
    """Tab: insert a unique completion (or the common part of several) at once,
    so fast typing or pasted keys never outrun it; False to open the menu."""
    from prompt_toolkit.completion import CompleteEvent
    found = list(buffer.completer.get_completions(buffer.document, CompleteEvent(completion_requested=True)))
    if not found:
        return True
    if len(found) == 1:
        buffer.apply_completion(found[0])
        return True
    common = _common_prefix([c.text for c in found])
    start = found[0].start_position
    typed = buffer.document.text_before_cursor[len(buffer.document.text_before_cursor) + start:]
    if all(c.start_position == start for c in found) and len(common) > len(typed):
        buffer.insert_text(common[len(typed):])
        return True
    return False


def _common_prefix(words):
    first, last = min(words), max(words)
    n = 0
    while n < len(first) and first[n] == last[n]:
        n += 1
    return first[:n]


def key_bindings():
    kb = KeyBindings()
    focus = has_focus(DEFAULT_BUFFER)   # not in the Ctrl-R search field

    @kb.add('enter', filter=focus)
    def _enter(event):
        b = event.current_buffer
        state = b.complete_state
        if state is not None and state.current_completion is not None:
            b.complete_state = None      # Enter takes the highlighted completion
            return
        if wants_more(b.text):
            newline_and_indent(b)
        else:
            b.validate_and_handle()

    @kb.add('escape', 'enter', filter=focus)
    def _force(event):
        event.current_buffer.validate_and_handle()

    @kb.add(Keys.BracketedPaste, filter=focus)
    def _paste(event):
        """Pasted text goes in as it is (never evaluated before Enter); the final
        newline of a complete paste is dropped, so the cursor stays on its last line."""
        data = event.data.replace('\r\n', '\n').replace('\r', '\n')
        b = event.current_buffer
        if data.endswith('\n') and not b.document.text_after_cursor.strip():
            trimmed = data.rstrip('\n')
            if not wants_more(b.document.text_before_cursor + trimmed):
                data = trimmed
        b.insert_text(data)

    @kb.add('tab', filter=focus)
    def _tab(event):
        b = event.current_buffer
        if b.complete_state is not None:
            b.complete_next()
        elif not b.document.current_line_before_cursor.strip():
            reindent_line(b)
        elif not complete_now(b):
            generate_completions(event)

    return kb


# ── Matching parentheses, open count ─────────────────────────────────────

class ParenMatcher(Processor):
    """Highlights the parenthesis at (or just before) the cursor and its partner;
    parentheses in strings and comments are not parentheses."""

    def __init__(self):
        self._text = None
        self._pairs = {}

    def pairs(self, text: str) -> dict:
        if text != self._text:
            self._text = text
            try:
                self._pairs = indent.paren_pairs(text)
            except Exception:      # highlighting must never break typing
                self._pairs = {}
        return self._pairs

    def apply_transformation(self, ti):
        fragments = ti.fragments
        if get_app().is_done:
            return Transformation(fragments)
        doc = ti.document
        pairs = self.pairs(doc.text)
        pos = doc.cursor_position
        here = pos if pos in pairs else (pos - 1 if pos - 1 in pairs and doc.text[pos - 1] == ')' else None)
        if here is None:
            return Transformation(fragments)
        partner = pairs[here]
        marks = [(here, 'class:matching-bracket' if partner is not None else 'class:unmatched-bracket')]
        if partner is not None:
            marks.append((partner, 'class:matching-bracket'))
        for off, cls in marks:
            row, col = doc.translate_index_to_position(off)
            if row == ti.lineno:
                col = ti.source_to_display(col)
                fragments = explode_text_fragments(fragments)
                if col < len(fragments):
                    style, text, *_ = fragments[col]
                    fragments[col] = (style + ' ' + cls + ' ', text)
        return Transformation(fragments)


class OpenCount:
    """The right-hand prompt: how many parentheses are still open (or that a
    string is), counted by the reader; empty when the input is balanced."""

    def __init__(self):
        self.text = None
        self.shown = []

    def __call__(self):
        try:
            text = get_app().current_buffer.text
        except Exception:
            return []
        if text != self.text:
            self.text = text
            self.shown = [('class:open-count', self.describe(text))] if text.strip() else []
        return self.shown

    @staticmethod
    def describe(text: str) -> str:
        if text.lstrip().startswith(('/', ',')) and not meta.takes_code(text):
            return ''
        from ..reader import open_depth
        depth, in_string = open_depth(text)
        if in_string:
            return ' string open '
        if depth > 0:
            return ' %d open paren%s ' % (depth, '' if depth == 1 else 's')
        return ''


# ── Building the prompt ──────────────────────────────────────────────────

class _History(FileHistory):
    """~/.rusty/history: whole inputs (multi-line ones too), blank ones skipped."""

    def store_string(self, string: str) -> None:
        if string.strip():
            try:
                super().store_string(string)
            except OSError:
                pass        # a full disk or a read-only home must not stop the REPL


def make_prompt(repl, input=None, output=None, history_file=None):
    history = InMemoryHistory()
    if history_file:
        try:
            os.close(os.open(history_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            history = _History(history_file)
        except OSError:
            pass
    def names():
        session = repl.session
        return list(session.special_names) + session.genv.names()

    def describe(name):
        try:
            return meta.signature(repl, name)
        except Exception:
            return None

    lexer = style = None
    if repl.color:
        from prompt_toolkit.lexers import PygmentsLexer

        from .lexer import RustyLexer
        from .style import prompt_style
        lexer = PygmentsLexer(RustyLexer)
        style = prompt_style()
    else:
        from prompt_toolkit.styles import Style
        style = Style.from_dict({'matching-bracket': 'reverse', 'unmatched-bracket': 'underline'})

    return PromptSession(
        message=lambda: [('class:prompt', repl.prompt_text())],
        prompt_continuation=lambda width, line, wrap: [('class:continuation', CONTINUATION if not wrap
                                                        else ' ' * len(CONTINUATION))],
        multiline=True,
        key_bindings=key_bindings(),
        lexer=lexer,
        style=style,
        include_default_pygments_style=False,
        completer=RustyCompleter(names, meta.menu(), describe, lambda: repl.session),
        complete_while_typing=True,
        complete_style=CompleteStyle.COLUMN,
        reserve_space_for_menu=6,
        history=history,
        input_processors=[ParenMatcher()],
        search_ignore_case=True,
        rprompt=OpenCount(),
        input=input,
        output=output,
    )
