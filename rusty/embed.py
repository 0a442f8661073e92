"""Lisp from Python: the embedding API (`rusty.Session`), a face over the
runtime's Session like the REPL and the CLI.

    import rusty
    s = rusty.Session()
    s.eval("(+ 1 2)")              # 3
    s.define("xs", [1, 2, 3])      # a Python list stays a Python value
    s.eval("(define (sq x) (* x x))")
    s.call("sq", 7)                # 49

Values cross as everywhere else (rusty/interop.py): arguments as results of
a Python call, results as arguments to one. Errors raise rusty.RustyError
whose message is the whole report batch mode prints (message, location,
source line, caret, backtrace); its `error` is the rusty error itself.
"""
from typing import Any

from .errors import RustyError
from .interop import Unconvertible, convert_error, from_py, to_py
from .resolve import MISSING


class Session:
    """An independent rusty session: its own globals, definitions and
    imports; sessions in one process share only the evaluation thread."""

    def __init__(self, stdlib: bool = True, out=None) -> None:
        from .runtime import Session as Runtime
        self.runtime = Runtime(out=out, stdlib=stdlib)
        self.evals = 0

    def eval(self, text: str, file: str | None = None) -> Any:
        """Evaluate every form of `text`; the last value, as Python sees it.
        Reports name the text `<eval N>` (the Nth eval), or `file`."""
        if file is None:
            self.evals += 1
            file = '<eval %d>' % self.evals
        return self._result(lambda: self.runtime.run(text, file))

    def load(self, path: str) -> Any:
        """Evaluate the file at `path`; its last value, as Python sees it."""
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        return self.eval(text, path)

    def define(self, name: str, value: Any) -> None:
        """Bind the global `name` to `value` (converted as a call's result is)."""
        from .values import sym
        self.runtime.genv.define(sym(name), from_py(value))

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the procedure `name` with the arguments converted as a call's
        results are (keywords as trailing `:name value` pairs)."""
        from .values import sym
        rt = self.runtime
        proc = rt.genv.lookup(sym(name))
        if proc is MISSING:
            return self._result(lambda: rt.run(name, '<call>'))     # the Undefined report
        rargs = [from_py(a) for a in args]
        for k, v in kwargs.items():
            rargs += [sym(':' + k), from_py(v)]

        def run():
            try:
                return rt.call(proc, rargs)
            except BaseException as e:
                from .runtime import top_level_error
                raise top_level_error(e, rt.depth) from None
        return self._result(lambda: rt._call(run))

    def __getitem__(self, name: str) -> Any:
        """The value of global `name`, as Python sees it (KeyError if unbound)."""
        from .values import sym
        v = self.runtime.genv.lookup(sym(name))
        if v is MISSING:
            raise KeyError(name)
        return self._to_py(v)

    def _result(self, fn) -> Any:
        try:
            return self._to_py(fn())
        except RustyError as e:
            raise embedded_error(e, self.runtime.sources) from None

    def _to_py(self, v) -> Any:
        try:
            return to_py(v, self.runtime.depth)
        except Unconvertible as u:
            from .values import Py
            return Py(u.value)      # a macro or a trainer: held as it is


def embedded_error(e: RustyError, sources: dict) -> RustyError:
    """A RustyError whose message is e's full report; `error` is e."""
    from .report import render
    text = render(e, sources).rstrip('\n')
    err = RustyError(text)
    err.error = e
    err.span, err.trace, err.hints = e.span, e.trace, e.hints
    return err


__all__ = ['Session', 'RustyError', 'convert_error']
