"""The shapes of `import` and `.` (Python interop) for the syntax check
(syntax.py's SHAPES and CHOOSE name these): each `shape_` function fails the
walker `w` at the offending part."""
from .printer import display_form
from .values import EMPTY, List, Symbol, sym

AS = sym(':as')


def import_alternative(x, n) -> int:
    """(import module), (import module :as alias) or (import (module name...))."""
    return 1 if n > 1 else 2 if n == 1 and x.cdr.car.__class__ is List else 0


def shape_import(w, x) -> None:
    target = x.cdr
    if target.car.__class__ is List:
        names = target.car
        if names is EMPTY or not _module_name(names.car) or len(names) < 2 \
                or any(n.__class__ is not Symbol or not n.name.isidentifier() for n in names.cdr):
            w.fail('import: expected (import (module name...)), got %s' % display_form(names), target)
        return
    if not _module_name(target.car):
        w.fail('import: a module name is a symbol such as os.path, got %s' % display_form(target.car), target)
    if target.cdr is not EMPTY:
        key, alias = target.cdr, target.cdr.cdr
        if key.car is not AS:
            w.fail('import: expected :as, got %s' % display_form(key.car), key)
        if alias.car.__class__ is not Symbol or not alias.car.name.isidentifier():
            w.fail('import: an alias is a plain name, got %s' % display_form(alias.car), alias)


def _module_name(x) -> bool:
    return x.__class__ is Symbol and all(p.isidentifier() for p in x.name.split('.'))


def shape_attribute(w, x) -> None:
    name = x.cdr.cdr
    if name.car.__class__ is not Symbol or not name.car.name.isidentifier():
        w.fail('.: expected an attribute name, got %s' % display_form(name.car), name)
