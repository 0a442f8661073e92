"""The boundary with Python, in one place: the conversion table used by calls,
attributes, callbacks and the embedding API, and the call protocol of a
Python callable (apply.apply_procedure hands every `Py` procedure here).

| Python -> rusty (`from_py`)                 | rusty -> Python (`to_py`)                      |
|---------------------------------------------|------------------------------------------------|
| int, float, bool, str as themselves         | the same                                       |
| None -> Nil                                 | Nil -> None                                    |
| anything else -> a `Py` holding it          | a `Py` -> the object it holds                  |
|                                             | list, vector -> new list; hash -> new dict;    |
|                                             | procedure -> callable; tensor -> itself;       |
|                                             | symbol -> its name                             |

Python code runs on the thread that waits for the evaluation (the REPL's or
the embedding program's: `on_python`), so Ctrl-C stops a blocking call such
as time.sleep, and objects bound to a thread (sqlite3) see one thread.
"""
from _thread import get_ident

from .errors import (Abort, EvalError, Exit, Interrupted, RecursionLimit, RustyError, give_back_if_out_of_memory,
                     is_out_of_memory)
from .printer import display_form
from .values import (NIL, Builtin, Hash, Lambda, List, Macro, Native, NativeGrad, NilType, Py, Symbol, Tensor,
                     Trainer, Vector, hash_key, make_list, py_text, sym)

_PLAIN = (int, float, str, bool)
_PROCEDURES = (Lambda, Builtin, Native, NativeGrad)
_RUSTY = (List, NilType, Symbol, Vector, Hash, Tensor, Lambda, Builtin, Macro, Native, NativeGrad, Trainer, Py)


class Unconvertible(Exception):
    """A rusty value with no Python meaning (a macro, a trainer)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


# ── Python -> rusty ──────────────────────────────────────────────────────

def from_py(x):
    """A Python result or attribute as a rusty value (shallow)."""
    cls = x.__class__
    if cls is int or cls is float or cls is str or cls is bool:
        return x
    if x is None:
        return NIL
    if cls is LispCallable:
        return x.proc
    if cls in _RUSTY:
        return x
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, str):
        return str(x)
    if getattr(x, 'ndim', None) == 0 and type(x).__module__ == 'numpy':      # a NumPy scalar (bool_, int64…)
        item = x.item()
        if item.__class__ in _PLAIN:
            return item
    return Py(x)


def deep_from_py(x, D, who: str = 'py->lisp'):
    """py->lisp: sequences and iterators -> lists, mappings -> hashes, the
    rest as from_py; the walk (which runs Python: iterators, __getitem__)
    runs on the Python thread, in one hand-over."""
    if x.__class__ is Py:
        x = x.obj
    if x.__class__ in _RUSTY or x.__class__ in _PLAIN or x is None:
        return from_py(x)
    return run_python(D, lambda: _deep(x, who), None, who)


def _deep(x, who: str):
    if isinstance(x, (str, bytes, bytearray)) or x.__class__ in _RUSTY or x.__class__ in _PLAIN or x is None:
        return from_py(x)
    if hasattr(x, 'keys') and hasattr(x, '__getitem__'):
        h = Hash()
        for k in elements(x.keys()):
            key = _deep(k, who)
            try:
                hk = hash_key(key)
            except Exception:
                raise EvalError('%s: %s cannot be a hash key' % (who, display_form(key))) from None
            h.table[hk] = (key, _deep(x[k], who))
        return h
    if hasattr(x, '__iter__'):
        return make_list([_deep(e, who) for e in elements(x)])
    return from_py(x)


def elements(iterable) -> list:
    """The elements of a Python iterable, in a loop Ctrl-C can stop (list()
    of an endless C iterator such as itertools.count never checks)."""
    out = []
    add = out.append
    for e in iterable:
        add(e)
    return out


# ── rusty -> Python ──────────────────────────────────────────────────────

def to_py(v, D):
    """A rusty value as a Python argument (lists, vectors and hashes copied
    deeply; procedures as callables running in their session)."""
    cls = v.__class__
    if cls is int or cls is float or cls is str or cls is bool:
        return v
    if cls is Py:
        return v.obj
    if cls is NilType:
        return None
    if cls is List:
        return [to_py(e, D) for e in v]
    if cls is Vector:
        return [to_py(e, D) for e in v.items]
    if cls is Hash:
        return {_key_py(k, D): to_py(x, D) for k, x in v.table.values()}
    if cls is Symbol:
        return v.name
    if cls is Tensor:
        return v
    if cls in _PROCEDURES:
        return LispCallable(v, D)
    raise Unconvertible(v)


def _key_py(k, D):
    """A hash key as a Python dict key (a list key becomes a tuple)."""
    if k.__class__ is List:
        return tuple(_key_py(e, D) for e in k)
    return to_py(k, D)


def convert_error(who: str, u: Unconvertible, span=None) -> EvalError:
    """`WHO: cannot pass X to Python`."""
    return EvalError('%s: cannot pass %s to Python' % (who, display_form(u.value)), span)


# Callbacks from Python into rusty in progress (each level holds C stack on
# the thread that called Python, an ordinary 8 MiB one): past the bound, the
# recursion error rather than a crash.
CALLBACK_NESTING = 100
_nesting = [0]


class LispCallable:
    """A rusty procedure seen from Python: calling it runs it in its session
    (on the evaluation thread; from any other thread it waits its turn) and
    raises rusty's errors as rusty.RustyError."""
    __slots__ = ('proc', 'D', '__weakref__')

    def __init__(self, proc, D):
        self.proc = proc
        self.D = D

    def __call__(self, *args, **kwargs):
        rargs = [from_py(a) for a in args]
        for k, v in kwargs.items():
            rargs += [sym(':' + k), from_py(v)]
        host = self.D.host
        if host is None:
            raise EvalError('python: this rusty procedure has no session to run in')
        if _nesting[0] >= CALLBACK_NESTING:
            raise RecursionLimit('recursion limit exceeded (depth %d): Python and rusty calling each other '
                                 'too deeply' % CALLBACK_NESTING)
        _nesting[0] += 1
        try:
            me = get_ident()
            if me == host.worker.thread.ident:
                return to_py(host.call(self.proc, rargs), self.D)
            if me in _answering:
                return to_py(host.call_bounded(self.proc, rargs, CALLBACK_DEPTH), self.D)
            return to_py(host.worker.call(host.call, self.proc, rargs), self.D)
        finally:
            _nesting[0] -= 1

    def __repr__(self) -> str:
        return '<rusty %s>' % display_form(self.proc)




# ── Running Python ───────────────────────────────────────────────────────

def on_python(D, fn):
    """fn() on the Python thread: the thread waiting for this evaluation,
    when there is one (so Ctrl-C reaches a blocking call), else here."""
    host = getattr(D, 'host', None)
    w = getattr(host, 'worker', None)
    if w is not None and w.running and w.waking is not None and get_ident() == w.thread.ident:
        return w.upcall(lambda: _answering_for(D, fn))
    return fn()


# Threads now running a Python call for an evaluation that waits for it
# (thread id -> that session's depth state): a callback into rusty made
# there runs there (LispCallable), as a nested evaluation would block.
_answering: dict = {}
CALLBACK_DEPTH = 400      # Lisp depth such a callback may reach on that thread's ordinary stack


def _answering_for(D, fn):
    me = get_ident()
    outer = _answering.get(me)
    _answering[me] = D
    try:
        return fn()
    finally:
        if outer is None:
            del _answering[me]
        else:
            _answering[me] = outer




def run_python(D, fn, span, who: str, here: bool = False):
    """on_python(D, fn) (or fn() on this thread, `here`) with Python's
    exceptions as rusty errors at `span`."""
    try:
        return fn() if here else on_python(D, fn)
    except RustyError as e:
        if e.span is None:
            e.span = span
        raise
    except (KeyboardInterrupt, Abort) as e:
        if isinstance(e, Abort):
            raise
        raise Interrupted(span=span) from None
    except Exit:
        raise
    except BaseException as e:
        give_back_if_out_of_memory(e)
        if is_out_of_memory(e) or isinstance(e, RecursionError):
            raise
        raise python_error(e, span, who) from None


def python_error(e: BaseException, span, who: str) -> EvalError:
    """`python: TYPE: MESSAGE` with a hint naming where Python raised it."""
    text = str(e)
    err = EvalError('python: %s: %s' % (type(e).__name__, text) if text else 'python: %s' % type(e).__name__, span)
    where = raised_at(e)
    err.hints.append('raised at %s' % where if where else 'raised by %s (no Python source)' % who)
    e.__traceback__ = None
    return err


def raised_at(e: BaseException) -> str | None:
    """FILE:LINE in FUNCTION of the innermost Python frame of e outside rusty."""
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    found = None
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if not os.path.abspath(code.co_filename).startswith(here + os.sep):
            found = '%s:%d in %s' % (code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found


# ── Calls ────────────────────────────────────────────────────────────────

def is_keyword(x) -> bool:
    """A `:name` symbol."""
    return x.__class__ is Symbol and len(x.name) > 1 and x.name[0] == ':'


def split_keywords(args: list):
    """(positional, [(python name, value)…]): trailing `:name value` pairs
    are keyword arguments (`-` in the name reads as `_`)."""
    i = len(args)
    while i >= 2 and is_keyword(args[i - 2]):
        i -= 2
    pairs = [(args[j].name[1:].replace('-', '_'), args[j + 1]) for j in range(i, len(args), 2)]
    return args[:i], pairs


def call_python(p: Py, args: list, span, D, kwargs=None):
    """Apply Python callable `p` to rusty arguments (trailing `:name value`
    pairs, and `kwargs` pairs, as keywords); the result converted back."""
    fn = p.obj
    who = callable_name(fn)
    if not callable(fn):
        raise EvalError('Not callable: ' + display_form(p), span)
    pos, pairs = split_keywords(args)
    if kwargs:
        pairs += kwargs
    try:
        pyargs = [to_py(a, D) for a in pos]
        pykw = {k: to_py(v, D) for k, v in pairs}
    except Unconvertible as u:
        raise convert_error(who, u, span) from None
    here = quick(fn, pyargs)
    return from_py(run_python(D, lambda: fn(*pyargs, **pykw), span, who, here))


# Calls that cannot block in the host (no I/O, no waiting) and touch no
# object bound to a thread run on the evaluation thread itself, without the
# hand-over to the Python thread (math.sqrt in a loop): functions of these
# modules, methods of plain values, and the plain types themselves. (A long
# computation there still stops at Ctrl-C when it runs Python code.)
QUICK_MODULES = frozenset(('math', 'cmath', 'operator', '_operator', 'builtins'))
SLOW_BUILTINS = frozenset(('input', 'open', 'breakpoint', 'help', 'exec', 'eval', '__import__'))
PLAIN_TYPES = frozenset((str, int, float, bool, complex, list, tuple, dict, set, frozenset, bytes, bytearray, range))
_BUILTIN_FUNCTION = type(len)
_MODULE = type(__import__('sys'))


def quick(fn, args) -> bool:
    """Whether calling fn with Python arguments args is one of the quick calls."""
    cls = fn.__class__
    if cls is _BUILTIN_FUNCTION:
        owner = fn.__self__
        if owner.__class__ is _MODULE:
            return owner.__name__ in QUICK_MODULES and fn.__name__ not in SLOW_BUILTINS
        return owner.__class__ in PLAIN_TYPES
    if cls is MethodCaller:
        return bool(args) and args[0].__class__ in PLAIN_TYPES
    return cls is type and fn in PLAIN_TYPES


def callable_name(fn) -> str:
    text = py_text(Py(fn))
    return text[len('#<py '):-1].split(' ', 1)[-1]


# ── Attributes ───────────────────────────────────────────────────────────

def attribute(obj, name: str, span=None):
    """obj.name as a rusty value, or `.: 'T' object has no attribute 'N'`
    with the nearest name in dir(obj) as a suggestion."""
    try:
        return from_py(getattr(obj, name))
    except AttributeError:
        raise missing_attribute(obj, name, span) from None
    except Exception as e:
        raise python_error(e, span, '.') from None


def missing_attribute(obj, name: str, span=None) -> EvalError:
    from .suggest import closest
    message = ".: '%s' object has no attribute '%s'" % (type(obj).__name__, name)
    try:
        near = closest(name, [n for n in dir(obj) if n != name])
    except Exception:
        near = None
    if near is not None:
        message += " — did you mean '%s'?" % near
    return EvalError(message, span)


def attribute_path(value, names):
    """The value at the end of attribute names from a rusty value; the error
    of the first missing one."""
    for name in names:
        value = attribute(to_py_plain(value), name)
    return value


def to_py_plain(v):
    """A value as Python sees it for an attribute read or a method call
    (no session needed: procedures and hashes stay what they are)."""
    cls = v.__class__
    if cls is Py:
        return v.obj
    if cls is NilType:
        return None
    if cls is List or cls is Vector or cls is Hash or cls is Symbol:
        return to_py(v, None)
    return v


class MethodCaller:
    """The procedure `.name`: (.name obj arg …) calls obj.name(arg …), as
    Python sees obj (a string, a number, a held object)."""
    __slots__ = ('attr',)

    def __init__(self, attr: str):
        self.attr = attr

    def __call__(self, *args, **kwargs):
        if not args:
            raise EvalError('.%s: expected an object to call the method on' % self.attr)
        obj, args = args[0], args[1:]
        try:
            m = getattr(obj, self.attr)
        except AttributeError:
            raise missing_attribute(obj, self.attr) from None
        return m(*args, **kwargs)

    def __repr__(self) -> str:
        return '.' + self.attr


def method_caller(name: str) -> Py:
    """The value of the symbol `.name`."""
    return Py(MethodCaller(name[1:]))


# ── Python values ────────────────────────────────────────────────────────

def python_doc(obj) -> str | None:
    """A Python object's documentation: its name and signature as Python
    writes them (`math.sqrt(x, /)`), then its docstring; None without either."""
    import inspect
    name = py_text(Py(obj))[len('#<py '):-1].split(' ', 1)[-1]
    lines = []
    try:
        lines.append(name + str(inspect.signature(obj)))
    except (TypeError, ValueError):
        if callable(obj):
            lines.append(name + '(...)')
    try:
        text = inspect.getdoc(obj)
    except Exception:
        text = None
    if text:
        lines.append(text)
    return '\n'.join(lines) if lines else None


def attribute_completions(genv, word: str, v) -> list[str]:
    """`math.sq` -> ['math.sqrt']: the attribute names completing a dotted
    word whose first part was bound by `import`, given the value `v` of the
    part before the last dot (private names only when the part typed starts
    with `_`); [] for any other word."""
    head, _, part = word.rpartition('.')
    if not head or sym(head.split('.')[0]) not in genv.imports:
        return []
    try:
        names = dir(to_py_plain(v))
    except Exception:
        return []
    return [head + '.' + n for n in sorted(names)
            if n.startswith(part) and n != part and (part.startswith('_') or not n.startswith('_'))]
