"""The interpreted trainer (graph-train): the reference for compiled trainers.

A step is graph-grad on the current arguments, then the optimizer's rule
(rusty.graph.optimizers) over whole tensors with the tensor ops. A compiled
trainer (rusty.jit.train_codegen) runs the same graph and the same rule in
native code and must give the same bits.

    InterpretedTrainer(f, trained, rule, hyper, args, show)
      .train(steps, data) -> loss    .params() -> list    .reset()
"""
from __future__ import annotations

from .. import tensor as T
from ..values import Tensor
from . import optimizers as O
from .builtins import gradient


def zeros_like(x):
    """A zero of x's kind and shape."""
    return T.filled(x.shape, 0.0) if x.__class__ is Tensor else 0.0


class InterpretedTrainer:
    """Parameters, optimizer state and step count of one graph-train trainer.
    `now` is (args, state per trained parameter, steps done), replaced whole
    by each step, so an interrupt leaves the last completed step."""

    def __init__(self, f, trained: tuple, rule: O.Rule, hyper: tuple, args: list, show):
        self.f = f
        self.trained = trained              # parameter indices, in the order named
        self.rule = rule
        self.hyper = hyper
        self.show = show
        self.initial = list(args)
        self.now = self._start(self.initial)

    def _start(self, args: list) -> tuple:
        state = [[zeros_like(args[i]) for _ in self.rule.state] for i in self.trained]
        return list(args), state, 0.0

    def train(self, steps: int, data: dict | None):
        """Run `steps` steps (0: only the loss), after replacing the data
        arguments in `data` (index -> value); the last step's loss."""
        if data:
            args, state, t = self.now
            args = list(args)
            for i, x in data.items():
                args[i] = x
            self.now = args, state, t
        if steps == 0:
            return gradient(self.f, self.now[0], self.show)[0]
        loss = None
        for _ in range(steps):
            loss, self.now = self.step(*self.now)
        return loss

    def step(self, args: list, state: list, t: float) -> tuple:
        """(loss, the next (args, state, t)): one forward, backward and update."""
        values = gradient(self.f, args, self.show)
        t += 1.0
        env = O.step_scalars(self.rule, self.hyper, t)
        args, new_state = list(args), []
        for k, i in enumerate(self.trained):
            args[i], s = O.update(self.rule, env, args[i], values[1 + i], state[k])
            new_state.append(s)
        return values[0], (args, new_state, t)

    def params(self) -> list:
        args = self.now[0]
        return [args[i] for i in self.trained]

    def reset(self) -> None:
        """Back to the initial parameters and a fresh optimizer (the data stays)."""
        args = list(self.now[0])
        for i in self.trained:
            args[i] = self.initial[i]
        self.now = self._start(args)
