"""Names that mean something by their spelling (Python interop), for the
global environment's by-name lookup (resolve.GlobalEnv.lookup), which both
evaluators share: `:name` is itself, `.name` calls method name, and `a.b.c`
reads attributes when `a` was bound by `import`."""
from .errors import EvalError, RustyError
from .values import Symbol, sym


def spelling(name: str, imports) -> str | None:
    """What an unbound name means by its spelling: 'keyword' for `:name`,
    'method' for `.name`, 'attribute' for `a.b.c` whose `a` is in `imports`
    (names bound by `import`); else None. (rusty lsp asks it too.)"""
    if len(name) < 2 or (name[0] != ':' and '.' not in name):
        return None
    if name[0] == ':':
        return 'keyword'
    if name[0] == '.':
        return 'method' if name[1:].isidentifier() else None
    head, *path = name.split('.')
    return 'attribute' if sym(head) in imports and all(p.isidentifier() for p in path) else None


def implicit(genv, s: Symbol):
    """The value of an unbound name that means something by its spelling:
    `:name` is itself (a keyword), `.name` the procedure calling method name,
    and `a.b.c` whose `a` was bound by `import` the attribute path; else
    None (a missing attribute too: `attribute_problem` says why)."""
    kind = spelling(s.name, genv.imports)
    if kind is None:
        return None
    if kind == 'keyword':
        return s
    if genv.refuse_python is not None:
        genv.refuse_python(s.name)
    from .interop import attribute_path, method_caller
    if kind == 'method':
        return method_caller(s.name)
    head, *path = s.name.split('.')
    try:
        return attribute_path(genv.lookup(sym(head)), path)
    except Exception:
        return None


def attribute_problem(genv, s: Symbol):
    """The error of an `import`ed name's attribute path that failed, or None."""
    head, *path = s.name.split('.')
    if not path or sym(head) not in genv.imports:
        return None
    from .interop import attribute_path
    try:
        attribute_path(genv.lookup(sym(head)), path)
    except RustyError as e:
        return e
    except Exception as e:
        return EvalError('.: %s: %s' % (type(e).__name__, e))
    return None
