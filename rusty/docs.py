"""Documentation of every name: signature, what it does,
and examples with their results.

Builtins document themselves (`Builtin.sig`, `doc`, `examples`, in their
tables); standard-library functions carry a docstring in the structured form
`format_doc` writes; special forms have no value to hang documentation on, so
it comes from their rows in forms.py and is read only through
`special_form_doc`. `(doc 'name)`, the
REPL's `,doc` and the reference manual all go through `entry` or
`documentation`.
"""
from __future__ import annotations

from collections import namedtuple

from . import forms
from .values import Builtin, Lambda, List, Macro, Py

ARROW = ' ⇒ '           # between an example and its result
EXAMPLE_INDENT = '  '   # examples are the indented lines of a doc


class Doc(namedtuple('Doc', 'sig text examples')):
    """One name's documentation: a call signature, prose, (expression, result) pairs."""
    __slots__ = ()


SPECIAL_FORM_DOCS = {n: (forms.entry(n).sig, forms.entry(n).doc) for n in forms.NAMES}


# ── Reading the three sources ────────────────────────────────────────────

def special_form_doc(name: str) -> Doc | None:
    """The documentation of a special form, or None."""
    e = forms.entry(name)
    return None if e is None else Doc(e.sig, e.doc, tuple(e.examples))


def builtin_doc(b: Builtin) -> Doc:
    """A builtin's table entry as documentation."""
    return Doc(b.sig or '(%s ...)' % b.name, b.doc, tuple(b.examples))


def docstring(proc) -> str | None:
    """A lambda's docstring: a string first body form followed by more forms."""
    body = proc.body
    if body.__class__ is List and len(body) > 1 and body.car.__class__ is str:
        return body.car
    return None


def parse_doc(text: str) -> Doc:
    """A structured docstring: signature line, prose lines, then indented
    `EXPR ⇒ RESULT` example lines (the last arrow separates the two)."""
    lines = text.split('\n')
    prose, examples = [], []
    for line in lines[1:]:
        if line.startswith(EXAMPLE_INDENT) and ARROW in line:
            expr, result = line[len(EXAMPLE_INDENT):].rsplit(ARROW, 1)
            examples.append((expr, result))
        else:
            prose.append(line)
    return Doc(lines[0], '\n'.join(prose).strip('\n'), tuple(examples))


def format_doc(d: Doc) -> str:
    """The documentation text: signature, prose, one indented line per example."""
    lines = [d.sig]
    if d.text:
        lines.append(d.text)
    lines += [EXAMPLE_INDENT + expr + ARROW + result for expr, result in d.examples]
    return '\n'.join(lines)


# ── Looking a name up ────────────────────────────────────────────────────

def entry(host, name: str) -> Doc | None:
    """The structured documentation of a name in `host`'s global environment."""
    if name in host.special_names:
        return special_form_doc(name) or Doc('(%s ...)' % name, 'A special form.', ())
    v = host.global_value(name)
    if v.__class__ is Builtin:
        return builtin_doc(v)
    if v.__class__ is Lambda or v.__class__ is Macro:
        text = docstring(v)
        return parse_doc(text) if text is not None else None
    return None


def documentation(host, name: str) -> str | None:
    """What `(doc 'name)` returns: a lambda's own docstring as written, else
    the formatted entry; None when the name has no documentation."""
    v = None if name in host.special_names else host.global_value(name)
    if v.__class__ is Lambda or v.__class__ is Macro:
        return docstring(v)
    if v.__class__ is Py:
        from .interop import python_doc
        return python_doc(v.obj)
    d = entry(host, name)
    return format_doc(d) if d is not None else None

