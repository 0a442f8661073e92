"""The lowering's node readers (nodes._made): one compiled code per shape of
reader, shared by the classes whose readers differ in field names alone,
kept in the disk cache (codecache.load_readers / store_readers) so a
process's first compile compiles none an earlier run compiled."""
import _ast
import ast
import os
import subprocess
import sys
from pathlib import Path

from rusty.compile import nodes

REPO = Path(__file__).resolve().parents[1]


def node_classes():
    return [c for c in vars(_ast).values() if isinstance(c, type) and issubclass(c, _ast.AST) and c._fields]


def sample(cls):
    """A node of cls with every field filled as its signature types it: a list of two nodes, a node, a name."""
    n = cls.__new__(cls)
    for kind, f in _typed(cls):
        base = kind.rstrip('*?')
        if base in ('identifier', 'string', 'constant', 'int'):
            setattr(n, f, [f] if kind.endswith('*') else f)
        elif base in BARE:
            setattr(n, f, [BARE[base](), BARE[base]()] if kind.endswith('*') else BARE[base]())
        elif kind.endswith('*'):
            setattr(n, f, [ast.Name('a', ast.Load()), ast.Name('b', ast.Load())])
        else:
            setattr(n, f, ast.Name(f, ast.Load()))
    return n


BARE = {'expr_context': ast.Load, 'operator': ast.Add, 'boolop': ast.And, 'cmpop': ast.Eq, 'unaryop': ast.Not}


def _typed(cls):
    sig = (cls.__doc__ or '').split('\n')[0]
    return [tuple(t.split(' ')) for t in sig[sig.find('(') + 1:-1].split(', ') if t]


def test_every_class_is_read_as_ast_reads_it():
    for cls in node_classes():
        n = sample(cls)
        assert nodes.children(n) == list(ast.iter_child_nodes(n)), cls.__name__
        assert nodes.parts(n) == [x for x in ast.iter_child_nodes(n) if x.__class__._fields or x.__class__._attributes]


def test_classes_of_one_shape_share_one_code():
    for cls in (_ast.Expr, _ast.Await, _ast.YieldFrom):          # (one field holding a node each)
        nodes.children(sample(cls))
    codes = {nodes._CHILDREN[c].__code__.co_code for c in (_ast.Expr, _ast.Await, _ast.YieldFrom)}
    assert len(codes) == 1
    assert len(nodes._SHAPES) < len(nodes._CHILDREN) + len(nodes.PARTS)


COUNT = '''
import sys, io
from rusty.compile import nodes
made = []
real = nodes._made
def made_(body, fname, fields):
    if (body, fname) not in nodes._SHAPES:
        made.append(body)
    return real(body, fname, fields)
nodes._made = made_
from rusty import cli
cli.main(['-e', '(define (f x) (if (< x 2) x (+ (f (- x 1)) (f (- x 2))))) (f 12)'], stdout=io.StringIO(),
         stderr=io.StringIO(), stdin=io.StringIO())
print(len(made))
'''


def compiled_readers(cache) -> int:
    env = dict(os.environ, PYTHONPATH=str(REPO), RUSTY_CACHE_DIR=str(cache), RUSTY_COMPILE_CALLS='0',
               RUSTY_SPECIALIZE='1')
    env.pop('RUSTY_CODE_CACHE', None)
    proc = subprocess.run([sys.executable, '-c', COUNT], capture_output=True, text=True, env=env, timeout=120,
                          cwd=str(cache.parent))
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split()[-1])


def test_a_later_run_compiles_no_reader_an_earlier_one_kept(tmp_path):
    cache = tmp_path / 'cache'
    assert compiled_readers(cache) > 5
    (entry,) = [p for p in cache.iterdir() if p.name.endswith('.readers')]
    assert entry.stat().st_mode & 0o777 == 0o600
    for p in cache.iterdir():
        if p.name.startswith('code-'):
            p.unlink()                      # (the lambda is compiled again: its readers are loaded)
    assert compiled_readers(cache) == 0
    entry.write_bytes(entry.read_bytes()[:-3] + b'???')    # (damaged: compiled afresh, never an error)
    for p in cache.iterdir():
        if p.name.startswith('code-'):
            p.unlink()
    assert compiled_readers(cache) > 5


def rusty_e(cache, *extra_env):
    """`rusty -e 1` with cache as its cache directory."""
    env = dict(os.environ, PYTHONPATH=str(REPO), RUSTY_CACHE_DIR=str(cache))
    env.pop('RUSTY_CODE_CACHE', None)
    env.update(extra_env)
    proc = subprocess.run([sys.executable, '-m', 'rusty', '-e', '1'], capture_output=True, text=True, env=env,
                          timeout=120, cwd=str(cache.parent))
    assert proc.returncode == 0 and proc.stdout == '1\n', proc.stderr


def test_a_cache_directorys_first_run_makes_the_compilers_entries_with_its_own(tmp_path):
    # The run that makes start-up's own entries (the library's forms, the tables' index) also makes
    # the compiler's version and readers, so no later first compile makes them; the reference none.
    ref = tmp_path / 'ref'
    rusty_e(ref, ('RUSTY_SPECIALIZE', '0'))
    assert [p.name for p in ref.iterdir() if p.name.startswith('compiler-')] == []
    cache = tmp_path / 'cache'
    rusty_e(cache, ('RUSTY_SPECIALIZE', '1'))
    made = sorted(p.name.rsplit('.', 1)[1] for p in cache.iterdir() if p.name.startswith('compiler-'))
    assert made == ['readers', 'version']
    assert compiled_readers(cache) == 0
