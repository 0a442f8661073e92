"""The matmul bridge of compiled grad kernels: the
CFUNCTYPE callback a graph-compile-grad kernel calls for each matmul over the
crossover, running the host's banded native product (rusty.jit.kernels) on
raw addresses. The callback's address is an argument of every kernel call,
never baked into the generated source, so the source stays address-free.

    make_bridge(matmul_into) -> MmBridge
"""
from __future__ import annotations

import ctypes
import threading

from rusty.jit import ffi

MM_BRIDGE_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                  ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.c_size_t, ctypes.c_size_t)


class MmBridge:
    """The CFUNCTYPE callback grad kernels call for big matmuls. It must write
    every element of `out` (kernels pass uninitialised scratch buffers).

    A callback cannot raise into Rust, so an exception is kept (with the thread
    it happened on, which is the thread that called the kernel) and `check()`
    re-raises it once the kernel has returned. Once an interrupt is asked for
    (rusty.jit.ffi's flag) it skips its work, so a long kernel ends soon; the
    kernel's caller then raises the interrupt and returns nothing."""
    __slots__ = ('fn', 'errors')

    def __init__(self, matmul_into):
        errors: list = []
        ident = threading.get_ident
        flag = ffi.stop_flag()
        asked, seen = ffi.STOP_ASKED, ffi.STOP_SEEN

        def bridge(a, alen, b, blen, out, n, k, m):
            try:
                if flag.value == asked or flag.value == seen:
                    flag.value = seen      # interrupted: the caller discards everything
                    return
                matmul_into(a, b, out, n, k, m)
            except BaseException as e:
                errors.append((ident(), e))

        self.fn = MM_BRIDGE_TYPE(bridge)
        self.errors = errors

    def check(self) -> None:
        """Re-raise the first error the bridge caught on this thread, if any."""
        me = threading.get_ident()
        mine = [entry for entry in self.errors if entry[0] == me]
        for entry in mine:
            self.errors.remove(entry)
        if mine:
            raise mine[0][1]


def make_bridge(matmul_into) -> MmBridge:
    """A bridge running `matmul_into(a, b, out, n, k, m)` (raw addresses)."""
    return MmBridge(matmul_into)
