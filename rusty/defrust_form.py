"""defrust and defrust*: numeric functions handed to the native half (the
runtime's `compile_native`) and bound as they are evaluated; docs/reference.md
describes both."""
from .eval import Usage, special
from .specials import definer, items
from .syntax import usage_message
from .values import NIL, List, Symbol


def _rust_spec(spec, usage):
    """(name, [param names], body) of one defrust function, or Usage."""
    if spec.__class__ is not List or len(spec) != 3:
        raise Usage(usage)
    name, params, body = items(spec)
    if name.__class__ is not Symbol or params.__class__ is not List or \
            any(p.__class__ is not Symbol for p in params):
        raise Usage(usage)
    return name, [p.name for p in params], body


@special('defrust')
def comp_defrust(x, scope, tail, span, unit):
    if len(x) != 4:
        raise Usage(usage_message(x))
    name, params, body = _rust_spec(x.cdr, 'defrust: (defrust name (params...) body)')
    return _rust_binder([(name, params, body)], 'defrust', scope, span, unit)


@special('defrust*')
def comp_defrust_star(x, scope, tail, span, unit):
    specs = [_rust_spec(s, 'defrust*: each function must be (name (params...) body)') for s in x.cdr]
    return _rust_binder(specs, 'defrust*', scope, span, unit)


def _rust_binder(specs, who, scope, span, unit):
    stores = [definer(name, scope, span, unit) for name, _, _ in specs]
    interp = unit.interp

    def ev(f):
        natives = interp.compile_native([(n.name, p, b) for n, p, b in specs], who, span)
        for store, native in zip(stores, natives):
            store(f, native)
        return NIL
    return ev


