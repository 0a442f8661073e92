"""Lowering of the special forms whose work is an effect outside the
function (specials.py, import_form.py): `eval-when` (its forms, in place),
`load` and `load-relative`, `import`, `.` (a Python attribute), `set` of a
compiled local, `defrust` and `defrust*` of a body's define slot. Each runs
what the reference's compile function runs, from the run level's depth.

Left on the reference: `eval` (the form it computes would be compiled over
the reference's frames, which compiled locals are not in), `defmacro` in a
body (the macro's environment would be those frames), `set` and `defrust`
of a name that is not a slot of the compiled function (they may bind in
its frame by name).
"""
from . import pyast as ast

from ..errors import EvalError
from ..eval import SPECIALS, Usage
from ..resolve import GlobalRef, resolve
from ..values import List, Symbol, sym
from .nodes import Unsupported, assign, call, const, name


def load_at(interp, path, relative, span, d, D):
    """`load`'s run: the file's forms evaluated in the global frame."""
    if path.__class__ is not str:
        raise EvalError('load: expects 1 string argument', span)
    D.n = d
    return interp.load(path, relative, span)


def reference_at(code, d, D):
    """A reference closure that reads no frame, run at depth d."""
    D.n = d
    return code(None)


def attribute_at(obj, attr_name, span, d, D):
    """`(. obj name)`: the attribute, read on the Python thread."""
    from ..interop import attribute, run_python, to_py_plain
    D.n = d
    host = to_py_plain(obj)
    return run_python(D, lambda: attribute(host, attr_name, span), span, '.')


def natives_at(interp, specs, who, span, d, D):
    """`defrust`/`defrust*`'s natives, compiled through the JIT."""
    D.n = d
    return interp.compile_native(specs, who, span)


def f_eval_when(low, x, scope, span, fn, tail):
    if len(x) < 2 or x.cdr.car.__class__ is not List:
        raise Unsupported('eval-when')
    return low.body(x.cdr.cdr, scope, span, fn, tail)


def f_load(low, x, scope, span, fn, tail, relative=False):
    if len(x) != 2:
        raise Unsupported('load')
    s, e = low.value(x.cdr.car, scope, low.span_of(x.cdr, span), fn)
    t = low.fresh('t')
    out = s + [assign(t, call(low.k(load_at), low.k(low.unit.interp), e, const(relative), low.k(span),
                              name('d'), name('D')))]
    return low.result(out, name(t), tail)


def f_load_relative(low, x, scope, span, fn, tail):
    return f_load(low, x, scope, span, fn, tail, True)


def f_import(low, x, scope, span, fn, tail):
    """`import`: the reference's own closure (it reads no frame)."""
    try:
        code = SPECIALS[sym('import')](x, scope, False, span, low.unit)
    except Usage as u:
        raise Unsupported(u.message) from None
    t = low.fresh('t')
    return low.result([assign(t, call(low.k(reference_at), low.k(code), name('d'), name('D')))], name(t), tail)


def f_attribute(low, x, scope, span, fn, tail):
    if len(x) != 3 or x.cdr.cdr.car.__class__ is not Symbol:
        raise Unsupported('.')
    s, e = low.value(x.cdr.car, scope, low.span_of(x.cdr, span), fn)
    t = low.fresh('t')
    out = s + [assign(t, call(low.k(attribute_at), e, const(x.cdr.cdr.car.name), low.k(span),
                              name('d'), name('D')))]
    return low.result(out, name(t), tail)


def _compiled_slot(low, s, scope):
    """True if symbol s names, from scope, a local compiled code holds."""
    ref = resolve(scope, s, low.genv)
    if ref.__class__ is GlobalRef or ref.maybe_unbound:
        return False
    found, _ = low.locate(ref, scope)
    return found is not None


def f_set_plain(low, x, scope, span, fn, tail):
    """`set` of a compiled local: what set! does to it."""
    if len(x) != 3 or x.cdr.car.__class__ is not Symbol or not _compiled_slot(low, x.cdr.car, scope):
        raise Unsupported('set')
    return low.f_set(x, scope, span, fn, tail)


def _rust_specs(x, who):
    from ..defrust_form import _rust_spec
    try:
        if who == 'defrust':
            if len(x) != 4:
                raise Unsupported('defrust')
            return [_rust_spec(x.cdr, 'defrust: (defrust name (params...) body)')]
        return [_rust_spec(s, 'defrust*: each function must be (name (params...) body)') for s in x.cdr]
    except Usage as u:
        raise Unsupported(u.message) from None


def f_defrust(low, x, scope, span, fn, tail, who='defrust'):
    """`defrust`/`defrust*` binding slots of the body (a name elsewhere: the reference)."""
    specs = _rust_specs(x, who)
    slots = [low.slot(n, scope) for n, _, _ in specs]
    t = low.fresh('t')
    plain = [(n.name, p, b) for n, p, b in specs]
    out = [assign(t, call(low.k(natives_at), low.k(low.unit.interp), low.k(plain), const(who), low.k(span),
                          name('d'), name('D')))]
    out += [assign(v, ast.Subscript(name(t), const(i), ast.Load())) for i, v in enumerate(slots)]
    return low.result(out, name('NIL'), tail)


def f_defrust_star(low, x, scope, span, fn, tail):
    return f_defrust(low, x, scope, span, fn, tail, 'defrust*')
