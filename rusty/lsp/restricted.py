"""A session that expands macros for an editor without touching the world.

Its globals bind every builtin the capability table (rusty/capabilities.py)
refuses to a stand-in that refuses; its `load` and native builds refuse; the
special forms the table refuses (`load`, `defrust`, `import` …) are replaced
in the process that runs it (`lock_down_forms`, called by the expansion
worker, a process of its own). A refusal ends the expansion (it is an
`Abort`, which no try-catch stops) and names the builtin:
`file-delete is not allowed while expanding for the editor`.
"""
from __future__ import annotations

import io

from .. import capabilities
from .. import eval as ev
from ..errors import Abort
from ..runtime import FORM_MODULES, Session

REFUSAL = '%s is not allowed while expanding for the editor'


class Refused(Abort):
    """A refused builtin or form was called: stops the expansion through any try-catch."""

    def __init__(self, name: str):
        super().__init__(REFUSAL % name)
        self.name = name


class RestrictedSession(Session):
    """A Session whose effectful builtins and forms refuse (see the module docstring)."""

    def __init__(self, **kw):
        self.refused: str | None = None     # the first name refused since clear()
        for stream in ('out', 'err', 'inp'):
            kw.setdefault(stream, io.StringIO())
        super().__init__(**kw)
        self.genv.refuse_python = self.refuse     # `.method` and `name.attr` (capabilities: python)

    def refuse(self, name: str):
        """Record and raise the refusal of `name`."""
        if self.refused is None:
            self.refused = name
        raise Refused(name)

    def builtin(self, spec):
        name = spec[0]
        if capabilities.refused_for_editor(name):
            spec = (name, self._refuser(name)) + tuple(spec[2:6]) + (False,) + tuple(spec[7:])
        return super().builtin(spec)

    def _refuser(self, name: str):
        def refused(*args):
            self.refuse(name)
        return refused

    def load(self, path, relative, span):
        self.refuse('load-relative' if relative else 'load')

    def compile_native(self, specs, who, span):
        self.refuse(who if isinstance(who, str) and who in capabilities.CAPABILITY else 'defrust')

    def eval_string(self, text: str):
        fresh = RestrictedSession(out=self.out, err=self.err, inp=self.inp, depth=self.depth)
        fresh.refuse = self.refuse
        return fresh._eval_forms(ev_read(text))


def ev_read(text: str):
    from ..reader import read
    return read(text, '<string>')


def lock_down_forms() -> None:
    """Replace, in this process, each special form the capability table
    refuses by one whose code refuses when run (its modules loaded first, so
    no deferred stand-in brings the real one back)."""
    from ..lazy import import_module
    for module in FORM_MODULES:
        import_module('rusty.' + module)
    for s in list(ev.SPECIALS):
        if capabilities.refused_for_editor(s.name):
            ev.SPECIALS[s] = _refusing_form(s.name)


def _refusing_form(name: str):
    def compile_refused(x, scope, tail, span, unit):
        host = unit.interp

        def refused(frame):
            if hasattr(host, 'refuse'):
                host.refuse(name)
            raise Refused(name)
        return refused
    return compile_refused
