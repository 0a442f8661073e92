"""A macro's watcher of the globals its body names (no `ast` here: code
loaded from the disk cache makes these too, recipes.py, without loading the
lowering)."""


class Tripper:
    """Watches a global a macro's body names: when it changes, the macro's
    expansions made while lowering may be stale, so the macro's own cell is
    tripped (as if the macro changed: link.Deopt drops the code that
    expanded it, link.Refused lowers again)."""
    __slots__ = ('cell', '__weakref__')

    def __init__(self, cell):
        self.cell = cell

    def __call__(self, changed, new):
        if self.cell.watch is not None:
            self.cell.trip()
