"""The import rules of docs/architecture.md, checked on every import.

Each module belongs to a layer; a layer lists what its modules may import.
Module-level imports must follow the table. Imports inside functions (lazy
ones: the CLI importing the REPL, the runtime importing the JIT) must follow
it too, except the few listed in LAZY_CROSSINGS, each with its reason; and no
import cycle may exist, counting imports inside functions.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / 'rusty'

# layer -> (modules in it, modules it may import besides its own members)
LAYERS = {
    'errors': (['errors'], []),
    'diskcache': (['diskcache'], []),
    'toolchain': (['jit.build', 'jit.cache', 'jit.ffi', 'jit.rustc'], ['errors', 'diskcache']),
    'kernels': (['jit.kernels', 'jit.bands'], ['jit.build', 'jit.cache', 'jit.ffi', 'errors']),
    'forms': (['forms', 'capabilities'], []),
    'values': (['values', 'cells', 'pyvalue', 'tables', 'trainer_value'], ['errors']),
    'reader': (['reader', 'printer'], ['values', 'errors']),
    'layout': (['fmt', 'pretty'], ['reader', 'printer', 'values', 'errors', 'forms']),
    'tensor': (['tensor'], ['values', 'errors', 'printer', 'jit.kernels']),
    'eval': (['resolve', 'spelling', 'apply', 'call_sites', 'eval', 'specials', 'defrust_form', 'interop', 'import_form', 'import_syntax', 'let_forms',
              'quasiquote', 'patterns', 'case_form', 'hygiene', 'suggest',
              'macro_cache', 'syntax', 'syntax_usage', 'syntax_shapes', 'syntax_walks', 'builtins.*'],
             ['reader', 'printer', 'values', 'cells', 'tensor', 'errors', 'forms', 'fmt', 'pretty', 'diskcache']),
    # The compiler to Python: it reads the reference's resolver and calls its
    # application and error machinery (and keeps its code in the disk cache);
    # the reference never imports it.
    'compile': (['compile.*'], ['resolve', 'apply', 'eval', 'specials', 'defrust_form', 'let_forms', 'syntax', 'values', 'cells', 'errors', 'printer',
                                'diskcache', 'case_form', 'patterns', 'quasiquote', 'macro_cache', 'syntax_shapes',
                                'syntax_usage', 'interop']),
    'graph': (['graph.*'], ['values', 'tensor', 'errors']),
    'codegen': (['jit.codegen', 'jit.graph_codegen', 'jit.node_exprs', 'jit.grad_writer', 'jit.grad_call',
                 'jit.matmul_bridge', 'jit.train_codegen', 'jit.train_call'],
                ['values', 'graph.ir', 'jit.build', 'jit.ffi', 'jit.bands', 'jit.kernels', 'errors']),
    'report': (['report'], ['errors', 'printer']),
    'runtime': (['runtime', 'toplevel', 'gc_tuning', 'worker', 'evalthread', 'outcomes', 'compile_graph', 'training', 'docs', 'formcache',
                 'lazy', 'tools', 'profiler',
                 'frames'],
                ['errors', 'values', 'reader', 'printer', 'tensor', 'resolve', 'apply', 'eval', 'specials', 'let_forms',
                 'quasiquote', 'patterns', 'case_form', 'compile.*', 'hygiene', 'suggest', 'macro_cache', 'interop',
                 'syntax', 'builtins.*',
                 'graph.*', 'jit.*', 'report', 'forms', 'diskcache']),
    'front': (['repl.*', 'cli', '__main__', 'manual', 'fmt_command', 'embed'],
              ['runtime', 'worker', 'report', 'printer', 'errors', 'reader', 'values', 'jit.build', 'docs', 'frames',
               'suggest', '__init__', 'forms', 'fmt', 'pretty', 'lsp.command', 'kernel.command', 'syntax', 'interop',
               'resolve']),
    # rusty lsp and the Jupyter kernel: faces like the REPL, which also read
    # the resolver's body scan, the syntax check and the evaluator's form
    # compilers (to check a form's shape without running it) and the builtins'
    # arity message.
    'editors': (['lsp.*', 'kernel.*'],
                ['runtime', 'report', 'printer', 'errors', 'reader', 'values', 'docs', 'suggest', '__init__', 'spelling',
                 'forms', 'capabilities', 'fmt', 'pretty', 'resolve', 'eval', 'syntax', 'apply', 'repl.show',
                 'repl.lexer', 'repl.style', 'lazy']),
}

# Never, whatever the table says (the never-imports of docs/architecture.md, Layers and the import rule).
FORBIDDEN = {
    'reader': ['eval', 'runtime', 'repl.*', 'graph.*'],
    'tensor': ['eval', 'runtime', 'repl.*', 'graph.*'],
    'eval': ['runtime', 'repl.*', 'jit.codegen', 'graph.*', 'compile.*'],
    'graph': ['eval', 'runtime', 'repl.*', 'jit.codegen'],
    'codegen': ['eval', 'resolve', 'runtime', 'repl.*'],
    'report': ['eval', 'runtime', 'repl.*'],
    'runtime': ['repl.*', 'cli'],
}


def matches(name: str, pattern: str) -> bool:
    if pattern.endswith('.*'):
        return name.startswith(pattern[:-1]) or name == pattern[:-2]
    return name == pattern


def layer_of(mod: str) -> str | None:
    for layer, (members, _) in LAYERS.items():
        if any(matches(mod, m) for m in members):
            return layer
    return None


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PKG).with_suffix('')
    parts = list(rel.parts)
    if parts[-1] == '__init__':
        parts = parts[:-1] or ['__init__']
    return '.'.join(parts)


def is_module(name: str) -> bool:
    p = PKG.joinpath(*name.split('.'))
    return p.with_suffix('.py').exists() or (p / '__init__.py').exists()


def module_imports(path: pathlib.Path, lazy: bool = False, source: str | None = None) -> set[str]:
    """rusty-internal modules imported (names without `rusty.`): at module level,
    or with `lazy`, inside functions only."""
    mod = module_name(path)
    package = mod.split('.')[:-1] if path.name != '__init__.py' else mod.split('.')
    found = set()
    tree = ast.parse(path.read_text(encoding='utf-8') if source is None else source)
    nodes = tree.body
    if lazy:
        top = {id(n) for n in tree.body}
        nodes = [n for n in ast.walk(tree) if id(n) not in top]
    for node in nodes:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith('rusty.'):
                    found.add(a.name[len('rusty.'):])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = '.'.join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith('rusty'):
                target = node.module[len('rusty.'):] if node.module != 'rusty' else ''
            else:
                continue
            for a in node.names:
                sub = (target + '.' + a.name) if target else a.name
                if is_module(sub):
                    found.add(sub)
                elif target:
                    found.add(target)
                else:
                    found.add('__init__')
    return found


MODULES = sorted(p for p in PKG.rglob('*.py') if p.name != '__init__.py')


@pytest.mark.parametrize('path', MODULES, ids=[module_name(p) for p in MODULES])
def test_module_imports_follow_the_layers(path):
    mod = module_name(path)
    layer = layer_of(mod)
    assert layer is not None, '%s belongs to no layer: add it to LAYERS in this test' % mod
    members, allowed = LAYERS[layer]
    for dep in module_imports(path):
        ok = any(matches(dep, m) for m in members + allowed)
        assert ok, '%s (layer %s) imports %s at module level' % (mod, layer, dep)
        for bad in FORBIDDEN.get(layer, []):
            assert not matches(dep, bad), '%s must never import %s' % (mod, dep)


# (importer, imported) pairs that may cross the layers inside a function, and why.
LAZY_CROSSINGS = {
}


@pytest.mark.parametrize('path', MODULES, ids=[module_name(p) for p in MODULES])
def test_imports_inside_functions_follow_the_layers(path):
    mod = module_name(path)
    members, allowed = LAYERS[layer_of(mod)]
    for dep in module_imports(path, lazy=True):
        if (mod, dep) in LAZY_CROSSINGS:
            continue
        ok = any(matches(dep, m) for m in members + allowed)
        assert ok, '%s imports %s inside a function: not allowed by its layer (add to LAZY_CROSSINGS with a reason?)' % (
            mod, dep)
        for bad in FORBIDDEN.get(layer_of(mod), []):
            assert not matches(dep, bad), '%s must never import %s' % (mod, dep)


def test_lazy_crossings_are_all_still_used():
    used = {(module_name(p), d) for p in MODULES for d in module_imports(p, lazy=True)}
    assert set(LAZY_CROSSINGS) <= used, set(LAZY_CROSSINGS) - used


def import_graph() -> dict:
    """module -> modules it imports anywhere (module level or inside functions)."""
    return {module_name(p): module_imports(p) | module_imports(p, lazy=True) for p in MODULES}


def test_no_import_cycles():
    graph = import_graph()
    state = {}

    def visit(m, path):
        state[m] = 'open'
        for d in sorted(graph.get(m, ())):
            if d not in graph:
                continue
            assert state.get(d) != 'open', 'import cycle: ' + ' -> '.join(path + [m, d])
            if d not in state:
                visit(d, path + [m])
        state[m] = 'done'

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_errors_imports_nothing_from_rusty():
    assert module_imports(PKG / 'errors.py') == set()


def test_the_checker_sees_relative_imports():
    # Guard the guard: eval's known imports must be visible to the parser above.
    deps = module_imports(PKG / 'eval.py')
    assert {'errors', 'printer', 'values', 'resolve'} <= deps


def test_the_checker_sees_imports_inside_functions():
    # Guard the guard: imports nested in functions and blocks are seen, and only there.
    src = 'def f():\n    from .runtime import Session\n    if 1:\n        from . import eval\n'
    probe = PKG / 'probe.py'                       # never written: the source is given
    assert module_imports(probe, lazy=True, source=src) == {'runtime', 'eval'}
    assert module_imports(probe, source=src) == set()


def test_every_special_form_has_a_compiler():
    from rusty import eval as ev
    from rusty.runtime import FORM_MODULES
    from rusty.values import sym
    assert isinstance(FORM_MODULES, tuple)   # importing the runtime registered the forms (or stand-ins)
    missing = [n for n in ev.SPECIAL_FORM_NAMES
               if sym(n) not in ev.SPECIALS and n not in ('unquote', 'unquote-splicing')]
    assert missing == []


def test_the_reference_reaches_nothing_of_the_compiler():
    # The reference evaluator (the eval layer) judges the compiler: no import
    # of it, at module level or in a function, directly or through another module.
    graph = import_graph()
    reference = [m for m in graph if layer_of(m) == 'eval']
    seen, todo = set(), list(reference)
    while todo:
        for d in graph.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    assert 'eval' in reference and 'specials' in reference
    assert sorted(d for d in seen if d.startswith('compile')) == []


def test_the_switch_off_loads_no_compiler_module():
    import subprocess
    import sys
    code = ('import sys; from rusty.runtime import Session; s = Session(); '
            's.run("(define (f n) (if (< n 1) 0 (+ 1 (f (- n 1))))) (f 10) (map (lambda (x) x) (list 1))"); '
            'print(sorted(m for m in sys.modules if m.startswith("rusty.compile.")))')
    env = dict(__import__('os').environ, RUSTY_SPECIALIZE='0')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, cwd=str(ROOT))
    assert out.stdout.strip() == '[]', out.stderr
    env['RUSTY_SPECIALIZE'] = '1'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, cwd=str(ROOT))
    assert 'rusty.compile.lower' in out.stdout, out.stderr


MOST_LINES = 500        # house style: a module small enough to read top to bottom


@pytest.mark.parametrize('path', MODULES, ids=[module_name(p) for p in MODULES])
def test_every_module_is_small(path):
    # Every module of the package, the compiler's (rusty/compile/) included.
    lines = path.read_text(encoding='utf-8').count('\n')
    assert lines <= MOST_LINES, '%s has %d lines (at most %d): split it by what it does' % (
        module_name(path), lines, MOST_LINES)


def test_the_size_check_sees_the_compiler():
    # Guard the guard: the compiler's modules are among those measured.
    assert {'compile.lower', 'compile.calls', 'compile.kinds', 'compile.support'} <= {module_name(p) for p in MODULES}
