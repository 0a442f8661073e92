"""The call path of compiled trainers: the buffers a trainer owns (its
parameters, gradients and optimizer state) and the one foreign call that
runs a whole `train!`.

    NativeTrainer(fn, lib, source, matmul, param_shapes, trained, nstate)
      .train(steps, data) -> loss    .params() -> list    .reset()
      .start(args, hyper)            (the initial arguments and hyperparameters)

The trained parameters live in arrays only the trainer holds and the kernel
updates in place; `params()` copies them out, so tensors stay immutable. The
call is entered as grad kernels enter theirs (rusty.jit.grad_call): counted
in `ffi.kernel_calls` under `ffi.kernel_gate`, so Ctrl-C reaches it through the
interrupt flag, which the kernel polls between steps (and inside big ones).
"""
from __future__ import annotations

import ctypes
import threading
from array import array

from rusty.jit import bands, ffi
from rusty.values import Tensor

def _size(shape) -> int:
    n = 1
    for d in shape or ():
        n *= d
    return n


class NativeTrainer:
    """One compiled trainer's state and its call."""

    def __init__(self, fn, lib, source: str, matmul: int, param_shapes: tuple,
                 trained: tuple, nstate: int):
        self.fn = fn
        self.lib = lib                      # keeps the library loaded
        self.source = source
        self.matmul = ctypes.c_void_p(matmul)     # rusty_k_matmul_lanes
        self.shapes = param_shapes
        self.trained = trained
        self.lock = threading.Lock()
        n = len(param_shapes)
        self.inp = (ctypes.c_void_p * max(n, 1))()
        self.held: list = [None] * n        # what each inp pointer points into
        self.loss_cell = array('d', [0.0])
        self.grads = [array('d', [0.0]) * _size(param_shapes[i]) for i in trained]
        self.out = (ctypes.c_void_p * (1 + len(trained)))(
            self.loss_cell.buffer_info()[0], *[b.buffer_info()[0] for b in self.grads])
        self.state = [array('d', [0.0]) * _size(param_shapes[i]) for i in trained
                      for _ in range(nstate)]
        self.st = (ctypes.c_void_p * max(len(self.state), 1))(
            *[b.buffer_info()[0] for b in self.state])
        self.ctl = (ctypes.c_double * 5)()
        self.initial: dict = {}
        self.hyper = None

    def start(self, args: list, hyper: tuple) -> None:
        """Take the initial arguments (floats or Tensors) and hyperparameters."""
        self.hyper = (ctypes.c_double * max(len(hyper), 1))(*hyper)
        for i, x in enumerate(args):
            self._set(i, x)
        self.initial = {i: self._copy(i) for i in self.trained}
        self.ctl[1] = 0.0

    def _set(self, i: int, x) -> None:
        """Point argument i at x: a trained parameter is copied into the
        trainer's own array, a data tensor is read where it is."""
        if x.__class__ is Tensor:
            buf = array('d', x.data) if i in self.trained else x.data
        else:
            buf = array('d', [x])
        self.held[i] = buf
        self.inp[i] = buf.buffer_info()[0]

    def _copy(self, i: int):
        buf = self.held[i]
        return Tensor(array('d', buf), self.shapes[i]) if self.shapes[i] is not None else buf[0]

    def train(self, steps: int, data: dict | None):
        """Run `steps` steps in one call (0: the loss only), after replacing the
        data arguments in `data`; the loss of the last completed step.

        One call at a time per trainer (its buffers are shared): the lock,
        like the kernel gate, is taken by `with` statements, so an
        asynchronous exception can never leave either held, and the kernel
        count is undone only if it was made."""
        with self.lock:
            for i, x in (data or {}).items():
                self._set(i, x)
            ctl = self.ctl
            ctl[0] = float(steps)
            ctl[2] = 0.0
            ctl[3] = float('nan')
            ctl[4] = float(bands.lanes())
            entered = False
            try:
                with ffi.kernel_gate:
                    ffi.kernel_calls[0] += 1
                    entered = True
                self.fn(self.inp, self.out, self.st, self.hyper, ctl, self.matmul,
                        ctypes.c_void_p(ctypes.addressof(ffi.stop_flag())))
            finally:
                if entered:
                    ffi.kernel_calls[0] -= 1
            if ffi.take_stop():
                raise KeyboardInterrupt()
            return ctl[3]

    def params(self) -> list:
        return [self._copy(i) for i in self.trained]

    def reset(self) -> None:
        """Back to the initial parameters and a fresh optimizer (the data stays)."""
        with self.lock:
            for i, x in self.initial.items():
                self._set(i, x)
            for b in self.state:
                b[:] = array('d', [0.0]) * len(b)
            self.ctl[1] = 0.0
