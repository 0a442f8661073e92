"""The call path of compiled grad kernels: the graph-compile-grad
argument checks, one foreign call with every pointer in place, and the
`(loss grad…)` result list.

    grad_native(lib, symbol, source, param_shapes, out_shapes, bridge, show) -> NativeGrad

`grad_caller` generates the per-kernel `call(args)` as Python source and execs
it against an explicit namespace (`env`), so the checks and the marshalling of
each argument are straight-line code for that kernel's shapes.
"""
from __future__ import annotations

import ctypes
import math
import threading
from array import array

from rusty.errors import EvalError
from rusty.jit import ffi
from rusty.jit.matmul_bridge import MmBridge
from rusty.values import EMPTY, List, NativeGrad, Tensor, cons, to_f64

GRAD_NAME = 'grad-kernel'


def shape_text(shape) -> str:
    """`[8, 16]`, `[]` for rank 0 (as rusty.tensor writes shapes)."""
    return '[' + ', '.join(str(d) for d in shape) + ']'


def _bad_argument(name: str, want, x, show) -> EvalError:
    if want is None:
        return EvalError('%s: expected a number, got %s' % (name, show(x)))
    if x.__class__ is Tensor:
        return EvalError('%s: compiled for shape %s, got %s — run graph-compile-grad again '
                         'for new shapes' % (name, shape_text(want), shape_text(x.shape)))
    return EvalError('%s: expected a tensor of shape %s, got %s' % (name, shape_text(want), show(x)))


def grad_caller(fn, param_shapes: tuple, out_shapes: tuple, bridge: MmBridge, show,
                name: str = GRAD_NAME):
    """`call(args) -> (loss grad…)` for a loaded grad kernel: the argument checks,
    then one foreign call with every pointer in place.

    The pointer arrays, the scalar argument and result cells are built once;
    a call stores the tensors' buffer addresses and the scalars, allocates the
    result arrays (the kernel writes into them; they become the result tensors
    as they are) and makes the call. While it runs, the worker sends no
    asynchronous exception (`ffi.kernel_calls`, counted under
    `ffi.kernel_gate`, which the worker holds while it decides and sends, so
    an exception sent just before a kernel starts is raised at the gate,
    never in a matmul callback): an interrupt asks the kernel (which polls
    the flag between nodes) and the matmul bridge to stop instead, and the
    call then raises KeyboardInterrupt — the whole call is aborted, nothing
    is returned, and a bridge callback never sees an exception it could lose.

    The gate is taken by a `with` statement (the lock's C-level enter and the
    exit handler are set up in one step, so no asynchronous exception can
    land between taking it and the promise to give it back), and the count
    is undone only if it was made. The shared cells belong to the first
    thread that calls (claimed by one dict.setdefault); any other thread gets
    fresh ones, so no lock is held across a point an interrupt could split.
    """
    nin, nout = len(param_shapes), len(out_shapes)
    scalar_in = [i for i, s in enumerate(param_shapes) if s is None]
    scalar_out = [k for k, s in enumerate(out_shapes) if s is None]
    env = {
        'fn': fn, 'bridge_fn': bridge.fn, 'errors': bridge.errors, 'check': bridge.check,
        'Tensor': Tensor, 'List': List, 'cons': cons, 'EMPTY': EMPTY, 'new': object.__new__, 'to_f64': to_f64,
        'zero': array('d', [0.0]),
        'EvalError': EvalError, 'owner': {}, 'ident': threading.get_ident,
        'kernels': ffi.kernel_calls, 'take_stop': ffi.take_stop,
        'stop': ctypes.c_void_p(ctypes.addressof(ffi.stop_flag())),
        'gate': ffi.kernel_gate,
        'bad': lambda i, x: _bad_argument(name, param_shapes[i], x, show),
        'arity_message': '%s: expected %d arg(s), got %%d' % (name, nin),
        'cells': lambda: _cells(nin, nout, scalar_in, scalar_out),
    }
    env.update(('s%d' % i, s) for i, s in enumerate(param_shapes))
    env.update(('r%d' % k, s) for k, s in enumerate(out_shapes))
    a = ['a%d' % i for i in range(nin)]
    L = ['def call(args):',
         '    if len(args) != %d:' % nin,
         '        raise EvalError(arity_message % len(args))']
    if nin:
        L.append('    %s, = args' % ', '.join(a))
    for i, s in enumerate(param_shapes):
        if s is None:
            L += ['    if %s.__class__ is not float:' % a[i],
                  '        if %s.__class__ is not int: raise bad(%d, %s)' % (a[i], i, a[i]),
                  '        %s = to_f64(%s)' % (a[i], a[i])]
        else:
            L.append('    if %s.__class__ is not Tensor or %s.shape != s%d: raise bad(%d, %s)'
                     % (a[i], a[i], i, i, a[i]))
    # The foreign call, on the shared cells under the lock (or, contended, on
    # fresh ones); then the result list, outside the lock. Under the lock a
    # tensor's address is stored only when its buffer is not the one already
    # there (`last…` keeps that buffer alive, so identity is reliable).
    def marshal(shared):
        lines = []
        for j, i in enumerate(scalar_in):
            lines.append('sin[%d] = %s' % (j, a[i]))
        for i, s in enumerate(param_shapes):
            if s is None:
                continue
            if shared:
                lines += ['if %s.data is not last%d:' % (a[i], i),
                          '    inp[%d] = %s.data.buffer_info()[0]' % (i, a[i]),
                          '    last%d = %s.data' % (i, a[i])]
            else:
                lines.append('inp[%d] = %s.data.buffer_info()[0]' % (i, a[i]))
        for k, s in enumerate(out_shapes):
            if s is not None:
                lines.append('o%d = zero * %d' % (k, math.prod(s)))
                lines.append('outp[%d] = o%d.buffer_info()[0]' % (k, k))
        lines += ['entered = False',
                  'try:',
                  '    with gate:',
                  '        kernels[0] += 1',
                  '        entered = True',
                  '    fn(inp, outp, bridge_fn, stop)',
                  'finally:',
                  '    if entered:',
                  '        kernels[0] -= 1']
        for j, k in enumerate(scalar_out):
            lines.append('o%d = sout[%d]' % (k, j))
        return lines

    lasts = ['last%d' % i for i, s in enumerate(param_shapes) if s is not None]
    results = ','.join('o%d' % k for k in range(nout))
    L += ['    me = ident()',
          '    if owner.setdefault(0, me) == me:']
    if lasts:
        L.insert(1, '    global %s' % ', '.join(lasts))
        env.update((name, None) for name in lasts)
    L += ['        ' + line for line in marshal(True)]
    L += ['    else:',
          '        %s%s = contended(%s)' % (results, ',' if nout == 1 else '', ', '.join(a)),
          '    if errors: check()',
          '    if take_stop(): raise KeyboardInterrupt()']
    L += ['    ' + line for line in _result_list(out_shapes)]
    L += ['', 'def contended(%s):' % ', '.join(a),
          '    inp, outp, sin, sout = cells()']
    L += ['    ' + line for line in marshal(False)]
    L.append('    return %s%s' % (results, ',' if nout == 1 else ''))
    source = '\n'.join(L) + '\n'
    env['inp'], env['outp'], env['sin'], env['sout'] = _cells(nin, nout, scalar_in, scalar_out)
    exec(compile(source, '<grad-kernel call>', 'exec'), env)
    call = env['call']
    call.source = source
    return call


# Results are built cell by cell with object.__new__ and slot stores, which is
# faster than values.cons and Tensor's constructor (Python functions); only
# while the classes have exactly the slots written here.
_FAST_RESULTS = (List.__slots__ == ('car', 'cdr')
                 and Tensor.__slots__ == ('data', 'shape'))


def _result_list(out_shapes) -> list:
    """Statements returning `(o0 o1 …)`, tensor outputs wrapped as Tensors."""
    n = len(out_shapes)
    if not _FAST_RESULTS:
        result = 'EMPTY'
        for k in range(n - 1, -1, -1):
            item = 'o%d' % k if out_shapes[k] is None else 'Tensor(o%d, r%d)' % (k, k)
            result = 'cons(%s, %s)' % (item, result)
        return ['return ' + result]
    lines = []
    for k, s in enumerate(out_shapes):
        if s is not None:
            lines.append('t%d = new(Tensor); t%d.data = o%d; t%d.shape = r%d' % (k, k, k, k, k))
    rest = 'EMPTY'
    for k in range(n - 1, -1, -1):
        item = 'o%d' % k if out_shapes[k] is None else 't%d' % k
        lines.append('c%d = new(List); c%d.car = %s; c%d.cdr = %s' % (k, k, item, k, rest))
        rest = 'c%d' % k
    lines.append('return ' + rest)
    return lines


def _cells(nin, nout, scalar_in, scalar_out):
    """Pointer arrays for the arguments and outputs, with the scalar cells
    (`c_double` arrays) and the pointers into them filled in."""
    inp = (ctypes.c_void_p * max(nin, 1))()
    outp = (ctypes.c_void_p * max(nout, 1))()
    sin = (ctypes.c_double * max(len(scalar_in), 1))()
    sout = (ctypes.c_double * max(len(scalar_out), 1))()
    for j, i in enumerate(scalar_in):
        inp[i] = ctypes.addressof(sin) + 8 * j
    for j, k in enumerate(scalar_out):
        outp[k] = ctypes.addressof(sout) + 8 * j
    return inp, outp, sin, sout


def grad_native(lib, symbol: str, source: str, param_shapes, out_shapes, bridge: MmBridge,
                show) -> NativeGrad:
    """The NativeGrad `grad-kernel` for a loaded grad kernel."""
    fn = lib.symbol(symbol)
    fn.restype = None
    fn.argtypes = None
    param_shapes = tuple(param_shapes)
    call = grad_caller(fn, param_shapes, tuple(out_shapes), bridge, show)
    return NativeGrad(GRAD_NAME, param_shapes, call, source, lib)
