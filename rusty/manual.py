"""The reference manual, docs/reference.md: hand-written prose with the per-name
sections generated from the same documentation as `(doc 'name)`, so the two
cannot drift.

The prose is edited in the file itself; each block between
`<!-- names: TOPIC -->` and `<!-- end names -->` is rewritten by this module.

    python3 -m rusty.manual [PATH]           regenerate the blocks in place
    python3 -m rusty.manual --check [PATH]   exit 1 when PATH is not up to date
"""
from __future__ import annotations

import os
import re
import sys

from . import docs
from .runtime import STDLIB_PATH, TABLE_MODULES, Session, builtin_tables

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'docs', 'reference.md')
BLOCK = re.compile(r'(<!-- names: ([\w-]+) -->\n)(.*?)(<!-- end names -->)', re.S)
BANNER = re.compile(r'^; ── (.+?) ─')
DEFINES = re.compile(r'^\((?:define|defmacro) \(?([^\s()]+)')

# topic -> (builtin table modules, stdlib.lisp section banners), in the
# manual's order. Every name has a topic: generating the manual fails on a
# name in none (a new table module gets its topic here).
TOPICS = {
    'numbers': (('rusty.builtins.numbers', 'rusty.builtins.integers', 'rusty.builtins.randomness',
                 'rusty.builtins.grad'), ('Numbers',)),
    'types': (('rusty.builtins.core',), ()),
    'lists': (('rusty.builtins.lists',), ('car/cdr compositions', 'Building and slicing lists',
                                            'Folds and searches', 'Association lists and records')),
    'hashes': (('rusty.builtins.hashes',), ()),
    'vectors': (('rusty.builtins.vectors',), ()),
    'strings': (('rusty.builtins.strings', 'rusty.builtins.format_directives', 'rusty.builtins.json_text',
                 'rusty.builtins.text'), ('Strings',)),
    'functions': ((), ('Functions on functions', 'Threading, looping and other macros')),
    'io': (('rusty.builtins.io', 'rusty.builtins.layout', 'rusty.builtins.scripts'), ()),
    'files': (('rusty.builtins.files',), ()),
    'discovery': (('rusty.builtins.discovery',), ()),
    'tensors': (('rusty.builtins.tensors',), ()),
    'graphs': (('rusty.graph.builtins', 'rusty.compile_graph', 'rusty.training'), ()),
    'debugging': (('rusty.builtins.debugging',), ()),
    'python': (('rusty.builtins.python',), ()),
}


class NoTopic(Exception):
    """Some names belong to no topic of TOPICS."""


# ── Which names go where ─────────────────────────────────────────────────

def builtin_modules() -> dict[str, str]:
    """Builtin name -> the table module that defines it."""
    return {spec[0]: module for module, table in zip(TABLE_MODULES, builtin_tables()) for spec in table.specs}


def stdlib_sections() -> dict[str, str]:
    """Standard-library name -> the banner of its section in stdlib.lisp."""
    found, section = {}, ''
    with open(STDLIB_PATH, encoding='utf-8') as fh:
        for line in fh:
            m = BANNER.match(line)
            if m:
                section = m.group(1).strip()
            m = DEFINES.match(line)
            if m:
                found.setdefault(m.group(1), section)
    return found


def grouped(session) -> dict[str, list[str]]:
    """Topic -> names in definition order (special forms, then builtins, then
    the library); NoTopic if a name belongs to no topic."""
    groups = {'special-forms': list(session.special_names)}
    groups.update((topic, []) for topic in TOPICS)
    where = {}
    for topic, (modules, sections) in TOPICS.items():
        where.update((m, topic) for m in modules)
        where.update((s, topic) for s in sections)
    seen = set(session.special_names)
    lost = []
    for name, key in list(builtin_modules().items()) + list(stdlib_sections().items()):
        if name not in seen and session.global_value(name) is not None:
            seen.add(name)
            topic = where.get(key)
            (lost if topic is None else groups[topic]).append('%s (%s)' % (name, key) if topic is None else name)
    if lost:
        raise NoTopic('no topic for: %s; give each module or stdlib section one in rusty/manual.py TOPICS'
                      % ', '.join(lost))
    return groups


# ── Rendering ────────────────────────────────────────────────────────────

def render_name(session, name: str) -> str:
    """One name's section: heading, signature, prose, examples."""
    d = docs.entry(session, name)
    out = ['#### `%s`' % name, '', '`%s`' % d.sig, '']
    if d.text:
        out += [d.text, '']
    if d.examples:
        out += ['```'] + [expr + docs.ARROW + result for expr, result in d.examples] + ['```', '']
    return '\n'.join(out)


def render_block(session, names) -> str:
    return '\n'.join(render_name(session, n) for n in names)


def generate(text: str, session=None) -> str:
    """`text` with every names block regenerated."""
    session = session or Session(out=open(os.devnull, 'w'))
    groups = grouped(session)

    def block(m):
        body = render_block(session, groups.get(m.group(2), []))
        return m.group(1) + '\n' + body + ('\n' if body else '') + m.group(4)
    return BLOCK.sub(block, text)


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = '--check' in args
    args = [a for a in args if a != '--check']
    path = args[0] if args else DEFAULT_PATH
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    try:
        new = generate(text)
    except NoTopic as e:
        print('rusty.manual: %s' % e, file=sys.stderr)
        return 1
    if check:
        if new != text:
            print('%s is out of date: run python3 -m rusty.manual %s' % (path, path), file=sys.stderr)
            return 1
        return 0
    if new != text:
        with open(path, 'w', encoding='utf-8') as fh:
            fh.write(new)
    return 0


if __name__ == '__main__':
    sys.exit(main())
