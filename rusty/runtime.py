"""The composition root: a Session holds the global environment (builtins, then
the standard library) and runs text in it; it is also the `host` the builtins
and special forms call back into. The JIT and the graph package are wired in
here, so the evaluator never imports them.
"""
from __future__ import annotations

import os
import sys
from importlib import import_module

from . import eval as ev
from . import patterns, specials, templates
from .errors import Abort, EvalError, Interrupted, ReadError, RecursionLimit, RustyError, os_error_text
from .printer import display_form
from .reader import read
from .resolve import MISSING, GlobalEnv
from .values import NIL, Builtin, Lambda, List, Macro, Symbol, sym
from .worker import worker

# Importing these registers the special forms' compilers in eval.SPECIALS.
FORM_MODULES = (specials, templates, patterns)
TABLE_MODULES = tuple('rusty.builtins.' + m for m in (
    'numbers', 'core', 'lists', 'io', 'discovery', 'grad', 'strings', 'files', 'tensors')) + (
    'rusty.graph.builtins', 'rusty.compile_graph')
STDLIB_PATH = os.path.join(os.path.dirname(__file__), 'stdlib.lisp')
DEFAULT_RECURSION_LIMIT = 200_000


def recursion_limit_from_env() -> int:
    """RUSTY_RECURSION_LIMIT if it is a positive integer, else the default."""
    text = os.environ.get('RUSTY_RECURSION_LIMIT', '')
    try:
        n = int(text)
    except ValueError:
        return DEFAULT_RECURSION_LIMIT
    return n if n > 0 else DEFAULT_RECURSION_LIMIT


# ── Builtin tables and the standard library (loaded once per process) ────

_tables: list | None = None
_stdlib_forms = None


def builtin_tables() -> list:
    """Every builtin table, in installation order (imported on first use)."""
    global _tables
    if _tables is None:
        _tables = [import_module(name).TABLE for name in TABLE_MODULES]
    return _tables


def stdlib_forms():
    global _stdlib_forms
    if _stdlib_forms is None:
        with open(STDLIB_PATH, encoding='utf-8') as fh:
            _stdlib_forms = read(fh.read(), STDLIB_PATH)
    return _stdlib_forms


# ── Session ──────────────────────────────────────────────────────────────

class Session:
    """A global environment and the ways to evaluate text in it."""

    special_names = ev.SPECIAL_FORM_NAMES

    def __init__(self, out=None, stdlib: bool = True, script: str | None = None):
        self.out = out if out is not None else sys.stdout
        self.genv = GlobalEnv()
        self.unit = ev.Unit(self.genv, self)
        self.sources: dict[str, str] = {}
        self.files: list[str] = [script] if script else []   # innermost file being run, last
        self.limit = recursion_limit_from_env()
        ev.set_depth_limit(self.limit)
        self.worker = worker(self.limit)
        capacity = self.worker.callback_capacity(self.limit)
        if capacity is not None:     # a small stack (ulimit -v): bound nested callbacks
            self.call = bounded_call(capacity)
        for table in builtin_tables():
            self.install(table)
        if stdlib:
            self.worker.call(self._eval_forms, stdlib_forms())

    def install(self, table) -> None:
        for name, fn, lo, hi, doc, sig, host, shown, examples in table.specs:
            if host:
                fn = _bind_host(fn, self)
            self.genv.define(sym(name), Builtin(name, fn, lo, hi, shown, doc, sig, examples))

    # ── Running text ──

    def run(self, text: str, file: str = '<string>'):
        """Read all of `text` (strictly), evaluate its forms; the last value."""
        return self._call(self._run, text, file)

    def _call(self, fn, *args):
        """fn on the evaluation thread; an interrupt that escaped even the
        error handling still ends as the rusty error `interrupted`."""
        try:
            return self.worker.call(fn, *args)
        except (KeyboardInterrupt, Abort):
            raise Interrupted() from None

    def _run(self, text: str, file: str):
        self.sources[file] = text
        ev.reset_depth()
        try:
            return self._eval_forms(read(text, file))
        except BaseException as e:
            raise top_level_error(e)

    def _eval_forms(self, forms):
        value = NIL
        for cell in forms.cells():
            code = ev.comp(cell.car, None, False, cell.span, self.unit)
            value = code(None)
        return value

    # ── Host interface for builtins and special forms ──

    # Apply a procedure (non-tail); used by map, apply, sort, …
    call = staticmethod(ev.call_procedure)

    def display(self, x) -> str:
        return display_form(x)

    def global_names(self) -> list[str]:
        return self.genv.names()

    def global_value(self, name: str):
        v = self.genv.lookup(sym(name))
        return None if v is MISSING else v

    def eval_string(self, text: str):
        fresh = Session(self.out)
        fresh.sources = self.sources
        self.sources['<string>'] = text
        return fresh._eval_forms(read(text, '<string>'))

    def make_lambda(self, template: Lambda, body):
        """A lambda with `template`'s parameters and environment but a new body."""
        parent = template.scope.parent if template.scope is not None else None
        make = specials.lambda_maker(template.params, template.rest, body, parent, None, self.unit)
        return make(template.env)

    def load(self, path: str, relative: bool, span):
        """`load` / `load-relative`: read all of a file, evaluate it globally."""
        full = path
        if relative and not os.path.isabs(path) and self.files:
            full = os.path.join(os.path.dirname(self.files[-1]), path)
        try:
            with open(full, encoding='utf-8') as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as e:
            raise EvalError("load: cannot read '%s': %s" % (path, os_error_text(e)), span)
        try:
            forms = read(text, path)
        except ReadError as e:
            raise EvalError('load: %s: %s' % (path, e.message), span)
        self.sources[path] = text
        self.files.append(full)
        try:
            return self._eval_forms(forms)
        finally:
            self.files.pop()

    def macroexpand(self, form, once: bool = False):
        """Expand a macro call (again while the head is still a macro)."""
        return self._call(self._macroexpand, form, once)

    def _macroexpand(self, form, once):
        while form.__class__ is List and form.len and form.car.__class__ is Symbol:
            m = self.genv.lookup(form.car)
            if m.__class__ is not Macro:
                break
            try:
                form = ev.to_code(ev.run(m, ev.make_frame(m, list(form.cdr)), None))
            except BaseException as e:
                raise top_level_error(e)
            if once:
                break
        return form

    def compile_native(self, specs, who: str, span):
        """defrust / defrust*: compile through the JIT into Native values."""
        try:
            codegen = import_module('rusty.jit.codegen')
            return codegen.compile_defrust(specs, who)
        except RustyError as e:
            if e.span is None:
                e.span = span
            raise


def bounded_call(capacity: int):
    """call_procedure that allows at most `capacity` nested calls from
    builtins (each costs C stack), past which comes the recursion error."""
    inner = ev.call_procedure
    nested = [0]

    def call(p, args):
        if nested[0] >= capacity:
            raise RecursionLimit(LIMIT_TEXT % capacity)
        nested[0] += 1
        try:
            return inner(p, args)
        finally:
            nested[0] -= 1
    return call


LIMIT_TEXT = ('recursion limit exceeded (depth %d): non-tail recursion too deep — '
              'rewrite with an accumulator / tail call')


def _bind_host(fn, host):
    def bound(*args):
        return fn(host, *args)
    bound.__name__ = getattr(fn, '__name__', 'builtin')
    return bound


def top_level_error(e: BaseException) -> RustyError:
    """Any failure escaping an evaluation, as a rusty error (never a traceback)."""
    ev.reset_depth()
    if isinstance(e, RustyError):
        return e
    if isinstance(e, (KeyboardInterrupt, Abort)):
        return Interrupted()
    if isinstance(e, RecursionError):
        return RecursionLimit(ev.recursion_message())
    if isinstance(e, MemoryError):
        return EvalError('out of memory')
    err = EvalError('internal error: %s: %s' % (type(e).__name__, e))
    err.__cause__ = e
    return err



