"""The composition root: a Session holds the global environment (builtins, then
the standard library) and runs text in it; it is also the `host` the builtins
and special forms call back into. The JIT and the graph package are wired in
here, so the evaluator never imports them."""
import os
import sys

from . import forms, lazy, specials
from . import eval as ev
from .apply import Depth, bounded_call, folder, make_frame, procedure_caller, list_walker, run, sorter
from .errors import STDLIB_FILE, Abort, EvalError, Interrupted, ReadError, RustyError, os_error_text
from .formcache import load_forms
from .gc_tuning import GC_THRESHOLDS, tune_gc
from .lazy import import_module
from .printer import display_form
from .reader import read
from .resolve import MISSING, GlobalEnv, LibraryEnv
from .syntax import check
from .toplevel import top_level_error
from .values import EMPTY, NIL, Builtin, Lambda, List, Macro, Symbol, make_list, sym
from .worker import worker


# The modules the forms table names register their compile functions in
# eval.SPECIALS when imported, each on its forms' first use (a new form's
# module needs no line here).
REEXPORTED = (GC_THRESHOLDS, top_level_error)   # imported from here by tests and the REPL
FORM_MODULES = ev.defer_specials(forms.TABLE, lambda m: import_module('rusty.' + m))
TABLE_MODULES = tuple('rusty.builtins.' + m for m in (
    'numbers', 'core', 'lists', 'io', 'discovery', 'grad', 'strings', 'format_directives', 'json_text', 'files',
    'tensors', 'integers', 'randomness', 'text', 'hashes', 'scripts', 'layout', 'vectors', 'debugging',
    'python')) + (
    'rusty.graph.builtins', 'rusty.compile_graph', 'rusty.training')
LIBRARY_PRIMITIVES = 'rusty.builtins.library'     # bound for the standard library only
STDLIB_PATH = os.path.join(os.path.dirname(__file__), 'stdlib.lisp')
DEFAULT_RECURSION_LIMIT = 200_000


def specialize_from_env() -> bool:
    """False when RUSTY_SPECIALIZE=0 (or RUSTY_COMPILE=0): the reference
    evaluator alone, no compiled lambdas, and every global made at start-up
    (the references the compiler and lazy start-up are tested against)."""
    return all(os.environ.get(v, '1').strip() != '0' for v in ('RUSTY_SPECIALIZE', 'RUSTY_COMPILE'))


def recursion_limit_from_env() -> int:
    """RUSTY_RECURSION_LIMIT if it is a positive integer, else the default."""
    text = os.environ.get('RUSTY_RECURSION_LIMIT', '')
    try:
        n = int(text)
    except ValueError:
        return DEFAULT_RECURSION_LIMIT
    return n if n > 0 else DEFAULT_RECURSION_LIMIT


def compile_hooks():
    """The compiler to Python's doors: for lambdas (rusty/compile/tierup.py)
    and for `do` loops running long (rusty/compile/osr.py)."""
    return (import_module('rusty.compile.tierup').door_from_env(),
            import_module('rusty.compile.osr').door_from_env())


def compile_stats() -> str:
    """What the compiler to Python did in this process (`rusty --stats`, `,stats`)."""
    if not specialize_from_env():
        return 'stats: the compiler is off (RUSTY_SPECIALIZE=0): everything ran on the reference'
    return import_module('rusty.compile.link').STATS.line()


def compiled_caller(depth: Depth):
    """The builtins' `call`, entering compiled lambdas directly."""
    link = import_module('rusty.compile.link')
    loops = import_module('rusty.compile.builtin_loops')
    return loops.procedure_caller(depth, link.session_namespace(depth))


def builtin_loops(depth: Depth, call, genv, compiled: bool):
    """The builtins' loops over `call`: walk(p, lst, mode) for map, filter
    and for-each, fold(f, acc, lst) for foldl, sort_by(items, less) for
    sort's comparisons. The reference's (apply.py), or, when `compiled`, the
    compiler's over them (compile/builtin_loops.py: compiled lambdas entered
    directly, and their other fast paths)."""
    walk, fold, sort_by = list_walker(call), folder(call), sorter(call)
    if not compiled:
        return walk, fold, sort_by
    link = import_module('rusty.compile.link')
    loops, ns = import_module('rusty.compile.builtin_loops'), link.session_namespace(depth)
    return (loops.list_walker(depth, ns, call, walk), loops.folder(depth, ns, fold),
            loops.sorter(depth, ns, call, sort_by, genv))


# ── Builtin tables and the standard library (loaded once per process) ────

_tables: list | None = None
_index: tuple | None = None
_stdlib: object = None


def builtin_tables() -> list:
    """Every builtin table, in installation order (imports them all)."""
    global _tables
    if _tables is None:
        _tables = [import_module(name).TABLE for name in TABLE_MODULES]
    return _tables


def table_index() -> tuple:
    """((module, names), …) of the table modules, then the library's primitives (not imported if the index is cached)."""
    global _index
    if _index is None:
        _index = lazy.table_index(TABLE_MODULES + (LIBRARY_PRIMITIVES,))
    return _index


def stdlib_file():
    """The standard library's top-level forms (a formcache.FormFile: each decoded when first used, cached on disk)."""
    global _stdlib
    if _stdlib is None:
        with open(STDLIB_PATH, encoding='utf-8') as fh:
            _stdlib = load_forms(STDLIB_FILE, fh.read())
    return _stdlib


def stdlib_forms():
    """The standard library's read forms, all of them."""
    return stdlib_file().forms()


# ── Session ──────────────────────────────────────────────────────────────

class Session:
    """A global environment and the ways to evaluate text in it. Its state
    (globals, their dyn flags and epoch, the depth counter and limit, whether
    fast paths are generated) is its own: sessions in one process share only
    the evaluation thread."""

    special_names = ev.SPECIAL_FORM_NAMES

    def __init__(self, out=None, stdlib: bool = True, script: str | None = None,
                 args=(), inp=None, err=None, depth: Depth | None = None):
        self.out = out if out is not None else sys.stdout
        self.args = tuple(args)         # command-line-args
        self.inp = inp                  # standard input and error (None: sys's, when used)
        self.err = err
        self.genv = GlobalEnv()
        self.depth = depth if depth is not None else Depth(recursion_limit_from_env())
        if self.depth.host is None:
            self.depth.host = self      # Python calls and callbacks run through it (interop.py)
        # Apply a procedure (non-tail); the host's `call`, used by map, apply, sort, …
        fast, loop = compile_hooks() if specialize_from_env() else (None, None)
        self.call = procedure_caller(self.depth) if fast is None else compiled_caller(self.depth)
        self.unit = ev.Unit(self.genv, self, self.depth, fast, compile_loop=loop)
        self.sources: dict[str, str] = {}
        self.files: list[str] = [script] if script else []   # innermost file being run, last
        self.worker = worker(self.depth.limit)
        self.library: LibraryEnv | None = None    # the standard library's globals, once loaded
        self.builtins: list[Builtin] = []         # every Builtin made for this session (the profiler times them)
        self.profiling = None                     # the profiler.Profiling of a profiled run in progress
        self.last_profile = None                  # the Profiler of the last profiled run
        self.on_breakpoint = None                 # (env) -> value: the prompt's nested REPL, if there is one
        capacity = self.worker.callback_capacity(self.depth.limit)
        if capacity is not None:     # a small stack (ulimit -v): bound nested callbacks
            self.call = bounded_call(self.call, capacity)
        # walk(p, lst, mode), fold(f, acc, lst), sort_by(items, less): the builtins' loops (builtin_loops)
        self.walk, self.fold, self.sort_by = builtin_loops(self.depth, self.call, self.genv,
                                                           fast is not None and capacity is None)
        for module, names in table_index():
            if module != LIBRARY_PRIMITIVES:
                lazy.bind_builtins(self.genv, module, names, self.builtin)
        if stdlib:
            self._load_stdlib(stdlib_file())
            if fast is not None and _stdlib.stored:     # a cache directory's first run: the compiler's entries too
                _stdlib.stored = import_module('rusty.compile.link').prime_cache()
        if fast is None:        # the reference: everything made now, in order
            if self.library is not None:
                lazy.make_all(self.library)
            lazy.make_all(self.genv)
        tune_gc()

    def install(self, table) -> None:
        """Bind every builtin of `table` now (a table of the caller's own)."""
        for spec in table.specs:
            self.genv.define(sym(spec[0]), self.builtin(spec))

    def builtin(self, spec) -> Builtin:
        """The Builtin of a table's spec, for this session."""
        name, fn, lo, hi, doc, sig, host, shown, examples = spec
        if host:
            fn = _bind_host(fn, self)
        b = Builtin(name, fn, lo, hi, shown, doc, sig, examples, first_order=not host)
        self.builtins.append(b)
        if self.profiling is not None:
            self.profiling.wrap(b)
        return b

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
        self.depth.n = 0
        try:
            return self._eval_forms(read(text, file))
        except BaseException as e:
            raise top_level_error(e, self.depth)

    def _eval_forms(self, forms, unit=None):
        """Check (syntax.py), then evaluate, each top-level form in turn."""
        unit = unit or self.unit
        is_macro = macro_test(unit.genv, forms)
        value = NIL
        for cell in forms.cells():
            check(cell.car, cell.span, is_macro)
            code = ev.comp(cell.car, None, False, cell.span, unit)
            value = code(None)
        return value

    def _load_stdlib(self, forms) -> None:
        """Bind the standard library in its own globals, then give the program
        its definitions (the library keeps its meaning). Its definitions are
        evaluated when first used (lazy.py), on whichever thread reads them."""
        lib = LibraryEnv(self.genv)
        for module, names in table_index():
            if module == LIBRARY_PRIMITIVES:
                lazy.bind_builtins(lib, module, names, self.builtin, private=True)
        unit = with_globals(self.unit, lib)
        macros = {sym(h[1]) for h in map(forms.head, range(len(forms)))
                  if h is not None and sym(h[0]) in MACRO_HEADS}

        def evaluate(cell):     # a form is checked when it is decoded, as it is evaluated
            check(cell.car, cell.span, lambda s: s in macros or lib.is_macro(s))
            return ev.comp(cell.car, None, False, cell.span, unit)(None)
        lazy.bind_library(lib, forms, evaluate)
        lib.publish()
        self.library = lib

    def library_procedure(self, name: str):
        """The standard library's own value for name (None before it is loaded)."""
        if self.library is None:
            return None
        cell = self.library.cells.get(sym(name))
        return None if cell is None else cell.get()

    # ── Debugging tools (trace, profile, breakpoint) ──

    @property
    def tools(self):
        """The session's tools.Tools, made on first use (it shares the depth state)."""
        D = self.depth
        if D.tools is None:
            from .tools import Tools, stderr_of
            D.tools = Tools(D, stderr_of(self))
        return D.tools

    def trace(self, names: list) -> List:
        """`(trace 'name…)`: trace each global procedure; the names traced."""
        for name in names:
            v = self.global_value(name)
            if v is None and name in self.special_names:
                raise EvalError('trace: %s is a special form, not a procedure' % name)
            if v is None:
                raise ev.undefined_error(sym(name), None, self.genv, None)
            self.tools.trace(name, v)
        return make_list([sym(n) for n in self.tools.traced_names()])

    def untrace(self, names: list) -> List:
        """`(untrace 'name…)`: stop tracing them (all with no names); the names still traced."""
        tools = self.tools
        if not names:
            tools.untrace()
        for name in names:
            for v, traced_as in list(tools.traced.items()):
                if traced_as == name or v is self.global_value(name):
                    tools.untrace(v)
        return make_list([sym(n) for n in tools.traced_names()])

    def profile(self, text: str, file: str = '<string>', at=None):
        """Run `text` under the profiler; its value. The profiler is kept in
        `last_profile` (also when the run fails). `at`: a breakpoint's
        environment (frames.Env) to run it in, nested."""
        return self._call(self._profile, text, file, at)

    def _profile(self, text: str, file: str, at):
        if self.profiling is not None:
            raise EvalError('profile: a profiled run is in progress (at a breakpoint inside it)')
        from .profiler import Profiler, Profiling
        on = Profiling(Profiler())
        self.last_profile = on.profiler
        for b in self.builtins:
            on.wrap(b)
        for cell in self.genv.cells.values():
            on.wrap(cell.value)
        tools = self.tools
        self.profiling = on
        tools.profiler = on.profiler
        tools.update_gate()
        try:
            return self._run(text, file) if at is None else self._run_at(text, file, at.frame)
        finally:
            tools.profiler = None
            tools.update_gate()
            self.profiling = None
            on.close()

    def breakpoint(self):
        """`(breakpoint)`: the nested prompt's value, or a notice without one."""
        from .frames import caller_env
        env = caller_env()
        if self.on_breakpoint is not None:
            return self.on_breakpoint(env)
        from .frames import where
        err = self.err if self.err is not None else sys.stderr
        err.write('; breakpoint at %s skipped: no terminal\n' % where(env.span))
        err.flush()
        return NIL

    def run_at(self, text: str, file: str, frame):
        """Evaluate `text` in Lisp frame `frame` (None: globally), nested in a
        running evaluation (a breakpoint's prompt); the last value. Definitions
        are global."""
        return self._call(self._run_at, text, file, frame)

    def _run_at(self, text: str, file: str, frame):
        self.sources[file] = text
        scope = frame[1] if frame.__class__ is list else None
        value = NIL
        saved = self.depth.n
        try:
            forms = read(text, file)
            is_macro = macro_test(self.genv, forms)
            for cell in forms.cells():
                check(cell.car, cell.span, is_macro)
                here = None if _defines(cell.car) else scope
                value = ev.comp(cell.car, here, False, cell.span, self.unit)(frame if here is not None else None)
        except BaseException as e:
            raise top_level_error(e, self.depth) from None
        finally:
            self.depth.n = saved
        return value

    # ── Host interface for builtins and special forms ──

    def display(self, x) -> str:
        return display_form(x)

    def global_names(self) -> list[str]:
        return self.genv.names()

    def call_bounded(self, p, args: list, room: int):
        """Apply p on this thread with at most `room` more levels (a callback from Python: interop.py)."""
        D = self.depth
        limit, gate = D.limit, D.gate
        D.limit = min(limit, D.n + room)
        D.set_gate(D.limit if gate == limit else gate)
        try:
            return self.call(p, args)
        finally:
            D.limit = limit
            D.set_gate(gate)

    def attribute_completions(self, word: str) -> list[str]:
        """Completions of `math.sq` and the like (names bound by import)."""
        from .interop import attribute_completions
        head = word.rpartition('.')[0]
        v = self.genv.lookup(sym(head)) if head else MISSING
        return [] if v is MISSING else attribute_completions(self.genv, word, v)

    def global_value(self, name: str):
        v = self.genv.lookup(sym(name))
        return None if v is MISSING else v

    def documentation(self, name: str) -> str | None:
        """`(doc 'name)`: the documentation text of a name, or None."""
        from . import docs      # loaded when documentation is first asked for
        return docs.documentation(self, name)

    def eval_string(self, text: str):
        fresh = Session(self.out, args=self.args, inp=self.inp, err=self.err,
                        depth=self.depth)     # nested: the same stack
        fresh.sources = self.sources
        self.sources['<string>'] = text
        return fresh._eval_forms(read(text, '<string>'))

    def make_lambda(self, template: Lambda, body):
        """A lambda with `template`'s parameters and environment but a new body."""
        parent = template.scope.parent if template.scope is not None else None
        make = specials.lambda_maker(template.params, template.rest, body, parent, None, self.unit)
        env = template.env      # (a value compiled code made: built when asked, compile/frame_views.LazyEnv)
        return make(env if env is None or env.__class__ is list else env.frames(template))

    def load(self, path: str, relative: bool, span):
        """`load` / `load-relative`: read all of a file, evaluate it globally."""
        full = path
        if relative and not os.path.isabs(path) and self.files:
            full = os.path.join(os.path.dirname(self.files[-1]), path)
        try:
            with open(full, encoding='utf-8') as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError, ValueError) as e:     # ValueError: a NUL in the path
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
        while form.__class__ is List and form is not EMPTY and form.car.__class__ is Symbol:
            m = self.genv.lookup(form.car)
            if m.__class__ is not Macro:
                break
            try:
                form = ev.to_code(run(m, make_frame(m, list(form.cdr)), None, self.depth))
            except BaseException as e:
                raise top_level_error(e, self.depth)
            if once:
                break
        return form

    def python_source(self, value) -> str | None:
        """`,py`: the Python the compiler to Python makes of a lambda value (None: not a lambda)."""
        if value.__class__ is not Lambda:
            return None
        if self.unit.compile_lambda is None:
            return '# the compiler is off (RUSTY_SPECIALIZE=0): the reference evaluator runs it'
        return import_module('rusty.compile.shown').python_source(value, self.unit)

    def compile_native(self, specs, who: str, span):
        """defrust / defrust*: compile through the JIT into Native values."""
        try:
            codegen = import_module('rusty.jit.codegen')
            natives = codegen.compile_defrust(specs, who)
            if self.profiling is not None:      # made while profiling: timed like those made before
                for native in natives:
                    self.profiling.wrap(native)
            return natives
        except RustyError as e:
            if e.span is None:
                e.span = span
            raise


MACRO_HEADS = (sym('defmacro'), sym('define-macro'))
DEFINING_HEADS = (sym('define'), sym('def'), sym('defmacro'), sym('define-macro'), sym('defrust'), sym('defrust*'))


def _defines(x) -> bool:
    """Whether form x is a definition (evaluated globally at a breakpoint's prompt)."""
    return x.__class__ is List and x is not EMPTY and x.car in DEFINING_HEADS


def macro_test(genv, forms):
    """is_macro for syntax.check: a global of `genv` holding a macro, or a
    name a top-level defmacro among `forms` defines (a function may use a
    macro defined further down the file: its call is checked when expanded)."""
    later = set()
    for x in forms:
        if x.__class__ is List and x is not EMPTY and x.car in MACRO_HEADS \
                and x.cdr is not EMPTY and x.cdr.car.__class__ is Symbol:
            later.add(x.cdr.car)
    if not later:
        return genv.is_macro
    return lambda s: s in later or genv.is_macro(s)


def with_globals(unit, genv):
    """A copy of compilation unit `unit` (every field shared) whose globals
    are `genv` (copy.copy without the copy module's import)."""
    new = object.__new__(unit.__class__)
    for name in unit.__class__.__slots__:
        setattr(new, name, getattr(unit, name))
    new.genv = genv
    return new


def _bind_host(fn, host):
    def bound(*args):
        return fn(host, *args)
    bound.__name__ = getattr(fn, '__name__', 'builtin')
    return bound
