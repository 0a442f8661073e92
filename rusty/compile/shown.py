"""What the compiler makes of a lambda, shown as Python (`,py`): its code
lowered as it was linked, and the objects `k…` it names."""
from functools import partial


def python_source(lam, unit) -> str:
    """The Python the compiler makes of lambda value lam (for `,py`), or why
    it stays on the reference (lowered as it was linked: evidence.py)."""
    from .lower import Unsupported, lower
    code, seen = lam.code, None
    if isinstance(code, partial) and code.args and hasattr(code.args[0], '__globals__'):
        linker = code.args[0].__globals__.get('LINKER')
        seen = linker.compiled.source[-1] if linker is not None else None
    try:
        mod, consts = lower(unit, lam.params, lam.rest, lam.body, lam.scope, None, lam.name, False, seen)[:2]
    except Unsupported as e:
        return '# stays on the reference evaluator: %s' % e
    import ast
    names = ['#   k%d: %s' % (i, _shown(c)) for i, c in enumerate(consts)]
    return '\n'.join(['# %s, compiled by rusty (k…: the objects the code names)' % lam.name] + names
                     + [ast.unparse(mod)])


def _shown(obj) -> str:
    from ..printer import display_form
    cls = obj.__class__.__name__
    if cls == 'Cell':
        return 'a global cell'
    if cls in ('Span', '_MakerSpec', 'Scope', 'list', 'Unit', '_Lambda', 'Expansion'):
        return {'Span': 'a source position', '_MakerSpec': 'the maker of a nested lambda',
                'Scope': 'a scope', 'list': 'a macro call site', 'Unit': 'the compile unit',
                '_Lambda': 'the lambda of an inlined walk (its name)',
                'Expansion': "a macro call's expansion, lowered in place"}[cls]
    return display_form(obj)
