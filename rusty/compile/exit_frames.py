"""The frames an exit to the reference runs in (exits.py; a macro expanded
at run time: expansion.py): made of the compiled locals visible from the
call, read from the frame of the compiled function taking the exit (its
own locals and its closure cells' contents: `f_locals`), and each slot
the form changed written back into that frame after it. An exit is taken
only once an assumption failed, so it may be slow: the code taking it is
one short statement, `r = EXIT(key)`, whatever the number of locals."""
import sys
from _operator import is_not, itemgetter   # (the C module: operator.py costs start-up time)
from sys import _getframe

from ..eval import expand_macro
from ..resolve import UNBOUND
from . import support


def reference_exit(key):
    """reference_site in the frames of the compiled locals visible from the
    call (exits.to_reference: `key` adds the frames' layout, ((scope, the
    Python names of its slots)…) outermost first, and a slot for its
    _Layout), built from the locals of the compiled function calling it
    (its frame's, closure cells included: also E, the frames around it,
    and its depth d), the slots the form changed written back into them
    after it, also when it fails (the reference's frames keep what it set)."""
    fr = _getframe(1)
    lay = key[7] or _layout(key, 7)
    f, vals, made = lay.frames(fr)
    try:
        return support.reference_site(key, f, vals[-1], fr.f_globals['D'])
    finally:
        lay.written_back(vals, made, fr)


def expand_exit(m, key, tail):
    """expand_at in frames built and written back as reference_exit's
    (`key` adds the layout and its _Layout's slot to expand_at's)."""
    fr = _getframe(1)
    lay = key[6] or _layout(key, 6)
    f, vals, made = lay.frames(fr)
    fr.f_globals['D'].n = vals[-1]
    arg_forms, scope, span, unit, cache = key[:5]
    try:
        return expand_macro(m, arg_forms, f, scope, tail, span, unit, cache)
    finally:
        lay.written_back(vals, made, fr)


def _layout(key, i):
    """The _Layout of the layout in key[i - 1], kept in key[i]."""
    lay = key[i] = _Layout(key[i - 1])
    return lay


class _Layout:
    """How an exit's frames are made from the compiled locals (a layout:
    ((scope, Python names of its slots)…) outermost first), and written back."""
    __slots__ = ('scopes', 'names', 'get')

    def __init__(self, layout):
        self.scopes = [(sc, len(names)) for sc, names in layout]
        self.names = tuple(py for _, names in layout for py in names) + ('d',)
        self.get = itemgetter(*self.names)

    def frames(self, fr):
        """(The frame chain of the scopes around E (a closure cell of frame
        fr's function, or its global), holding the values of its Python
        locals (UNBOUND: none), those values and d's after them, the frames
        made)."""
        here = fr.f_locals
        try:
            vals = self.get(here)
        except KeyError:        # (a local not bound yet)
            vals = tuple([here.get(py, UNBOUND) for py in self.names])
        f = here['E'] if 'E' in here else fr.f_globals['E']
        made, i = [], 0
        for sc, n in self.scopes:
            f = [f, sc, *vals[i:i + n]]
            made.append(f)
            i += n
        return f, vals, made

    def written_back(self, vals, made, fr) -> None:
        """Each slot of the frames `made` holding another value than was put
        in it (vals), written into its Python local in frame fr (the others
        left alone: a compiled closure's write meanwhile stays)."""
        now = []
        for f, (_, n) in zip(made, self.scopes):
            now += f[2:2 + n]
        if not any(map(is_not, now, vals)):
            return
        here = fr.f_locals      # (read again: the locals as they are now)
        for py, v, old in zip(self.names, now, vals):
            if v is not old:
                here[py] = v
        if not _TO_FAST:
            _TO_FAST.append(_locals_to_fast())
        if _TO_FAST[0] is not None:
            _TO_FAST[0](fr)


_TO_FAST: list = []     # [_locals_to_fast()], made at the first write-back


def _locals_to_fast():
    """What writes a frame's f_locals back into its locals and cells
    (before Python 3.13, whose f_locals writes through), or None."""
    if sys.version_info >= (3, 13):
        return None
    import ctypes
    f = ctypes.pythonapi.PyFrame_LocalsToFast
    f.argtypes, f.restype = (ctypes.py_object, ctypes.c_int), None
    return lambda fr: f(fr, 0)
