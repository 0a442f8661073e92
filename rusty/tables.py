"""Builtin tables: the specs each builtins module fills, which the runtime
turns into Builtin values (kept apart from values.py: it needs none of them)."""


class BuiltinTable:
    """An ordered table of builtin specs, filled by `@table.fn(...)`.

    Each spec is (name, fn, lo, hi, doc, sig, host, shown, examples). The runtime turns
    specs into Builtin values; a spec with host=True gets the evaluator's host
    object as its first argument (for builtins that call procedures or read
    the environment). Arity lo..hi is checked by the caller with the generic
    message; builtins with a special arity message declare 0..None and check
    themselves.
    """

    def __init__(self):
        self.specs: list[tuple] = []

    def fn(self, name, lo=0, hi=None, doc='', sig='', host=False, shown=None, examples=()):
        def register(f):
            self.specs.append((name, f, lo, hi, doc, sig, host, shown, tuple(examples)))
            return f
        return register
