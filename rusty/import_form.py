"""The special forms `import` and `.` (forms.py's rows name this module).

`import` binds globals and records them in the session's `imports`, which
is how the resolver knows that `math.sqrt` means an attribute (resolve.implicit).
"""
from .errors import EvalError, RustyError
from .eval import comp, special, sub_span
from .interop import attribute, from_py, python_error, run_python, to_py_plain
from .values import NIL, List, Py, sym


@special('import')
def comp_import(x, scope, tail, span, unit):
    target = x.cdr.car
    if target.__class__ is List:
        module, names = target.car.name, list(target.cdr)
        alias = None
    else:
        module, names = target.name, None
        alias = x.cdr.cdr.cdr.car if len(x) == 4 else None
    genv = unit.genv

    def ev(f):
        mod = load_module(module, span, unit.depth)
        if names is not None:
            for n in names:
                genv.define(n, _member(mod, module, n.name, span))
                genv.imports.add(n)
        elif alias is not None:
            genv.define(alias, Py(mod))
            genv.imports.add(alias)
        else:
            first = module.split('.')[0]
            top = load_module(first, span, unit.depth) if first != module else mod
            genv.define(sym(first), Py(top))
            genv.imports.add(sym(first))
        return NIL
    return ev


def load_module(name: str, span, D):
    """The Python module `name`, imported on the Python thread."""
    import importlib

    def load():
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as e:
            raise EvalError("import: no module named '%s'" % (e.name or name), span) from None
    try:
        return run_python(D, load, span, name)
    except RustyError as e:
        if not e.message.startswith('import: '):
            e.message = 'import: ' + e.message
            e.args = (e.message,)
        raise


def _member(mod, module: str, name: str, span):
    """Attribute `name` of module `mod`, for (import (module name…))."""
    try:
        return from_py(getattr(mod, name))
    except AttributeError:
        raise EvalError("import: cannot import name '%s' from '%s'" % (name, module), span) from None
    except Exception as e:
        raise python_error(e, span, module) from None


@special('.')
def comp_attribute(x, scope, tail, span, unit):
    obj_code = comp(x.cdr.car, scope, False, sub_span(x.cdr, span, unit), unit)
    name = x.cdr.cdr.car.name

    def ev(f):
        obj = to_py_plain(obj_code(f))
        return run_python(unit.depth, lambda: attribute(obj, name, span), span, '.')
    return ev
