"""Signatures and documentation of the special forms (LANGUAGE.md §6, §15.11).

Builtins document themselves (`Builtin.sig`, `Builtin.doc`, `Builtin.examples`
in their tables); special forms have no value to hang documentation on, so it
comes from their rows in forms.py. This module keeps the name -> (sig, doc)
view the REPL reads.
"""
from __future__ import annotations

from .forms import NAMES, entry

SPECIAL_FORM_DOCS = {n: (entry(n).sig, entry(n).doc) for n in NAMES}


def special_form_entry(name: str):
    """The documentation entry (name, sig, doc, examples) of a special form, or None."""
    return entry(name)
