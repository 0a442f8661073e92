"""Python values held by rusty: a Python object that has no rusty meaning of
its own (a module, a function, a list, a NumPy array…) is wrapped as a `Py`.

The wrapper keeps the boundary in one place: a Python tuple or list never
stands for a rusty value by accident (the run loop treats tuples as tail
calls, frames are lists), and the printer, `type-of` and `equal?` see one
class. What converts and what is wrapped is decided by rusty/interop.py.
"""

REPR_WIDTH = 60      # a Python value prints its repr cut to this many characters


class Py:
    """A Python object held as a rusty value (`type-of` ⇒ py)."""
    __slots__ = ('obj',)

    def __init__(self, obj):
        self.obj = obj

    def __repr__(self) -> str:
        return py_text(self)


def py_text(v: Py) -> str:
    """`#<py TYPE TEXT>`: TEXT is a callable's or module's qualified name,
    else the object's repr cut at REPR_WIDTH characters."""
    obj = v.obj
    kind = type(obj).__name__
    text = _name_of(obj)
    if text is None:
        try:
            text = repr(obj)
        except Exception as e:        # a broken __repr__ still prints something
            text = '<repr failed: %s>' % type(e).__name__
        if len(text) > REPR_WIDTH:
            text = text[:REPR_WIDTH - 3] + '...'
    return '#<py %s %s>' % (kind, text)


def _name_of(obj) -> str | None:
    """The qualified name of a module, function, class or method, else None."""
    module_name = getattr(type(obj), '__name__', '') == 'module' and getattr(obj, '__name__', None)
    if isinstance(module_name, str):
        return module_name
    if not callable(obj) or not hasattr(obj, '__qualname__'):
        return None
    try:
        qual = obj.__qualname__
        module = getattr(obj, '__module__', None)
    except Exception:
        return None
    if not isinstance(qual, str):
        return None
    if isinstance(module, str) and module != 'builtins':
        return module + '.' + qual
    return qual
