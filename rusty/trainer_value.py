"""The trainer value (graph-compile-train, graph-train): apart from values.py, which re-exports it."""


class Trainer:
    """A trainer (graph-compile-train, graph-train): `kind` is `native-train`
    or `train`, `name` the loss's name, `shapes` one entry per trained
    parameter (dims tuple or None), `optimizer` its name; `run` does the work
    (train(steps, data), params(), reset())."""
    __slots__ = ('kind', 'name', 'shapes', 'optimizer', 'run')

    def __init__(self, kind, name, shapes, optimizer, run):
        self.kind = kind
        self.name = name
        self.shapes = shapes
        self.optimizer = optimizer
        self.run = run
