"""Completion: bound globals, special forms, names in the buffer, meta-commands,
and file paths inside strings."""
from __future__ import annotations

import os
import re

from prompt_toolkit.completion import Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from ..reader import open_depth, tokens

WORD = re.compile(r'''[^\s()'"`,]*$''')
META_LINE = re.compile(r'^\s*(,\S*)$')
META_ARG = re.compile(r'^\s*,(doc|describe|rust|apropos)\s+(\S*)$')


class RustyCompleter(Completer):
    """Completes the symbol before the cursor; paths inside strings."""

    def __init__(self, names, meta_commands, describe=None, session=None):
        self.names = names                  # () -> iterable of global and special names
        self.meta_commands = meta_commands  # {',name': 'one-line help'}
        self.describe = describe            # name -> short signature text, or None
        self.session = session              # () -> the Session (for `math.` and its attributes), or None
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event):
        before = document.text_before_cursor
        m = META_LINE.match(before)
        if m and '\n' not in before:
            yield from self._meta(m.group(1))
            return
        m = META_ARG.match(before)
        if m and '\n' not in before:
            yield from self._names(m.group(2), set())
            return
        if open_depth(before)[1]:
            yield from self._path(before, complete_event.completion_requested)
            return
        word = WORD.search(before).group()
        if len(word) < 2 and not complete_event.completion_requested:
            return      # the menu opens by itself from the second character
        yield from self._names(word, buffer_names(document.text, word))

    def _attributes(self, word):
        """`math.sq` -> math.sqrt: attributes of a value an `import`ed name reaches."""
        for name in self.session().attribute_completions(word):
            yield Completion(name, -len(word))

    def _meta(self, word):
        for name, text in self.meta_commands.items():
            if name.startswith(word):
                yield Completion(name, -len(word), display_meta=text)

    def _names(self, word, local):
        if '.' in word[1:] and self.session is not None:
            yield from self._attributes(word)
            return
        found = set(n for n in self.names() if n.startswith(word))
        local = set(n for n in local if n.startswith(word)) - found
        for name in sorted(found | local):
            if name == word:
                continue
            meta = self.describe(name) if self.describe else None
            yield Completion(name, -len(word), display_meta=meta or ('local' if name in local else ''))

    def _path(self, before, requested):
        start = _string_start(before)
        if start is None:
            return
        fragment = before[start:]
        if '\n' in fragment or '\\' in fragment:
            return
        if not requested and not (fragment.startswith(('~', '.')) or '/' in fragment):
            return      # any string may be a path on Tab; while typing, only path-like ones
        for c in self.paths.get_completions(Document(fragment, len(fragment)), None):
            full = os.path.expanduser(fragment[:len(fragment) + c.start_position] + c.text)
            if os.path.isdir(full) and not c.text.endswith('/'):
                c = Completion(c.text + '/', c.start_position, display=c.display)
            yield c


def buffer_names(text: str, exclude: str) -> set:
    """Symbols written in the buffer (so locals and fresh definitions complete)."""
    names = set()
    try:
        for kind, tok, _span in tokens(text):
            if kind == 'sym' and tok != exclude and len(tok) > 1:
                names.add(tok)
    except Exception:     # completion must never fail on odd text
        return set()
    return names


def _string_start(text: str) -> int | None:
    """Offset just after the '"' opening the string still open at the end of text."""
    last = None
    for kind, tok, _span in tokens(text):
        last = (kind, tok)
    if last is None or last[0] != 'str':
        return None
    return len(text) - len(last[1]) + 1
