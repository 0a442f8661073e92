"""The lowering of the rest of a `do` loop the reference began (osr.py): a
root function `f(d, E, slot…)` over the loop's frame as the reference made
it (the do's variables, then the body's defines), entered at the test:
loops.do_loop's loop and the result forms, in the root's handler (errors
located as a lambda's, no backtrace entry of its own: the loop's level is
the reference's around it). The lowering is lower.Lowering's, root and
passes included; only the root's body and the functions it may make differ."""
from . import pyast as ast
from time import perf_counter

from ..values import sym
from . import link, loops, support
from .lets import _only_called
from .lower import Lowering
from .special_forms import _MakerSpec
from .nodes import Unsupported

OSR_NAME = 'lambda'     # (the root is no named lambda: no self calls, no loop of its own)


class LoopLowering(Lowering):
    """Lowering whose root body is do form x's loop over the root scope
    (the reference's own scope of the loop's frame)."""

    def __init__(self, unit, x):
        super().__init__(unit, OSR_NAME)
        self.loop_form = x.cdr
        self.specs = [(c.car, c) for c in x.cdr.car.cells()]

    def body(self, forms, scope, span, fn, tail):
        if forms is not self.loop_form:
            return super().body(forms, scope, span, fn, tail)
        names = fn.params
        self.stable.difference_update(names)            # (every slot may change at each iteration)
        self.bound_once.difference_update(names)
        test_clause, body_forms = forms.cdr.car, forms.cdr.cdr
        return loops.do_loop(self, self.specs, names[:len(self.specs)], test_clause, body_forms, scope, span,
                             fn, True)

    def nested(self, params, rest, body, scope, span, fn, lname, loopvar=None, pyname=None, pending=None):
        """Only a named let's loop, its name only called (it cannot outlive
        its let): any other function made here might be one the reference
        made before the switch, over the frame compiled code leaves behind."""
        if loopvar is None or not _only_called(body, sym(lname), self.expanded):
            raise Unsupported('a function made in a loop')
        return super().nested(params, rest, body, scope, span, fn, lname, loopvar, pyname, pending)


def lowered_loop(x, dscope, span, unit, key=None):
    """The link.Compiled of do form x's loop continued (its function's
    parameters: d, E, then dscope's slots), or None when it stays on the
    reference; with `key`, stored in the disk cache under that name
    (codecache.loop_key: its paths lead into x, its scopes from dscope)."""
    t = perf_counter()
    low = LoopLowering(unit, x)
    try:
        mod = low.root(tuple(dscope.names), None, low.loop_form, dscope, span)
        fdef = mod.body[0]
        fdef.args.args.insert(1, ast.copy_location(ast.arg('E'), fdef))     # the frame around the loop: this run's
        code = compile(mod, link.FILENAME, 'exec', dont_inherit=True)
    except Unsupported:
        return None
    except (RecursionError, SyntaxError, ValueError):     # past what Python compiles (nesting)
        return None
    pyname = low.root_fn.pyname
    fcode = next(c for c in code.co_consts if c.__class__ is code.__class__ and c.co_name == pyname)
    assumed, heads = tuple(low.assumed.values()), tuple(low.heads.values())
    if key:
        link.codecache().store(key, fcode, pyname, False, low.consts, low.table, assumed, heads,
                               perf_counter() - t, (), None, x, dscope, span, unit)
    consts = [support.maker_of(c, unit.depth) if c.__class__ is _MakerSpec else c for c in low.consts]
    return link.Compiled(fcode, link.module_globals(consts, unit.depth, low.table, unit.genv), pyname, assumed,
                         False, heads)

