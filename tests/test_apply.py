"""Application's one home (rusty/apply.py) and the state that belongs to a
session: the depth counter and limit, the dyn flags, the epoch."""
import ast
import dis
import pathlib

import pytest

from rusty import apply
from rusty.errors import RustyError
from rusty.runtime import Session
from rusty.values import sym
from rusty.compile.entry import direct_of

PKG = pathlib.Path(apply.__file__).resolve().parent

DEEP = '(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1)))))'


def make_session(monkeypatch, limit=None, fast=True) -> Session:
    if limit is not None:
        monkeypatch.setenv('RUSTY_RECURSION_LIMIT', str(limit))
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    s = Session()
    monkeypatch.delenv('RUSTY_RECURSION_LIMIT', raising=False)
    monkeypatch.delenv('RUSTY_SPECIALIZE')
    return s


def error_of(s, src):
    try:
        s.run(src, '<test>')
    except RustyError as e:
        return e.message
    raise AssertionError('no error from %r' % src)


# ── Per-session state ────────────────────────────────────────────────────

@pytest.mark.parametrize('fast', [False, True])
def test_two_sessions_keep_their_own_depth_limits(monkeypatch, fast):
    roomy = make_session(monkeypatch, 5000, fast)
    tight = make_session(monkeypatch, 100, fast)    # made second: must not lower roomy's
    for s in (roomy, tight):
        s.run(DEEP, '<test>')
    assert roomy.run('(down 1000)', '<test>') == 1000.0
    assert error_of(tight, '(down 1000)').startswith('recursion limit exceeded (depth 100):')
    assert roomy.run('(down 1000)', '<test>') == 1000.0
    assert error_of(roomy, '(down 10000)').startswith('recursion limit exceeded (depth 5000):')
    assert tight.run('(down 50)', '<test>') == 50.0


@pytest.mark.parametrize('fast', [False, True])
def test_eval_of_a_define_in_one_session_leaves_another_alone(monkeypatch, fast):
    src = '(define k 1) (define (get-k) k) (define (twice) (list k ((lambda () k))))'
    a = make_session(monkeypatch, fast=fast)
    b = make_session(monkeypatch, fast=fast)
    for s in (a, b):
        s.run(src, '<test>')
    epoch = b.genv.epoch[0]
    # In a, a frame gains a binding of k at run time: k becomes dyn there.
    assert a.run('(define (outer) (eval (quote (define k 2))) ((lambda () k))) (outer)', '<test>') == 2.0
    assert a.genv.cell(sym('k')).dyn
    assert a.run('(list (get-k) k)', '<test>').car == 1.0
    # b's lookups and fast paths are untouched: no dyn flag, value in the cell,
    # no epoch bump (its macro expansion caches stay valid).
    k = b.genv.cell(sym('k'))
    assert not k.dyn and k.value == 1.0
    assert b.genv.epoch[0] == epoch
    assert [v for v in b.run('(twice)', '<test>')] == [1.0, 1.0]


def test_sessions_count_depth_separately(monkeypatch):
    a = make_session(monkeypatch, 300)
    b = make_session(monkeypatch, 300)
    b.run(DEEP, '<test>')
    # a procedure of b called from inside a's evaluation counts on b's stack.
    down = b.genv.lookup(sym('down'))
    a.genv.define(sym('down-in-b'), down)
    a.run(DEEP, '<test>')
    assert a.run('(define (via n) (if (= n 0) (down-in-b 250) (+ 0 (via (- n 1))))) (via 200)',
                 '<test>') == 250.0
    assert a.depth.n == 0 and b.depth.n == 0


# ── One source for application ───────────────────────────────────────────

def test_compiled_code_names_only_what_its_namespace_holds(monkeypatch):
    from rusty.compile.link import session_namespace
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = make_session(monkeypatch)
    s.run('(define (f a b) (if (null? a) (nth b 1) (car (cdr (cons a b))))) (define (g x) (f x (list 1 2)))'
          '(define (h n) (let ((m (- n 1))) (if (< m 0) 0 (+ 1 (h m))))) (h 5) (g 1)'
          '(define (k n) (let loop ((i 0) (fs (list))) (if (< i n) (loop (+ i 1) (cons (lambda () i) fs)) fs)))'
          '(k 3)', '<test>')
    ns = session_namespace(s.depth)
    missing = set()
    for n in 'fghk':
        fn = direct_of(s.genv.lookup(sym(n)))
        assert fn.__globals__['__builtins__'] is ns      # the session's helpers, after the function's own objects
        codes = [fn.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if hasattr(c, 'co_code')]
            for ins in dis.get_instructions(code):
                if ins.opname == 'LOAD_GLOBAL' and ins.argval not in ns and ins.argval not in fn.__globals__:
                    missing.add(ins.argval)
    assert missing == set()


def test_no_import_cycle_even_through_imports_inside_functions():
    graph = {module_name(p): imports_anywhere(p) for p in PKG.rglob('*.py')}
    cycles = sorted(m for m in graph if m in reachable(graph, m))
    assert cycles == []


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG).with_suffix('').parts)
    if parts[-1] == '__init__':
        parts = parts[:-1] or ['__init__']
    return '.'.join(parts)


def imports_anywhere(path: pathlib.Path) -> set:
    """rusty modules `path` imports, at module level or inside functions."""
    package = module_name(path).split('.')
    if path.name != '__init__.py':
        package = package[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            target = base + ([node.module] if node.module else [])
            for a in node.names:
                sub = '.'.join(target + [a.name])
                found.add(sub if is_module(sub) else '.'.join(target) or '__init__')
        elif isinstance(node, ast.ImportFrom) and (node.module or '').startswith('rusty.'):
            found.add(node.module[len('rusty.'):])
        elif isinstance(node, ast.Import):
            found.update(a.name[len('rusty.'):] for a in node.names if a.name.startswith('rusty.'))
    return found


def is_module(name: str) -> bool:
    p = PKG.joinpath(*name.split('.'))
    return p.with_suffix('.py').exists() or (p / '__init__.py').exists()


def reachable(graph: dict, start: str) -> set:
    seen, todo = set(), [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_the_cycle_check_sees_a_cycle():
    # Guard the guard: the checker finds a lazy import of eval from the compiler.
    graph = {'eval': {'compile.link'}, 'compile.link': {'resolve'}}
    assert reachable(graph, 'eval') == {'compile.link', 'resolve'}
    graph['compile.link'].add('eval')
    assert 'eval' in reachable(graph, 'eval')
    assert {'apply', 'eval', 'specials'} <= imports_anywhere(PKG / 'runtime.py')
    assert 'runtime' in imports_anywhere(PKG / 'repl' / 'session.py')    # inside a method


def test_a_dropped_sessions_compiled_namespace_goes_with_it(monkeypatch):
    """Each session's compiled code has its own namespace (its GATE); a
    session that is gone leaves none behind."""
    import gc

    from rusty.compile import link
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    before = len(link._SESSIONS)
    for _ in range(10):
        s = make_session(monkeypatch)
        s.run('(define (f n) (if (= n 0) 0 (f (- n 1)))) (f 3) (f 3)')
        assert link._SESSIONS[id(s.depth)].D() is s.depth
        del s
    gc.collect()
    assert len(link._SESSIONS) <= before + 1        # the last one may still be the worker's to drop
