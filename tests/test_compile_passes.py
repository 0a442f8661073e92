"""The passes after lowering that only tidy the generated code
(compile/finish.py: tests fused with the temporaries they read,
temporaries sharing names, from one walk), seen in the Python a lambda
compiles to; and benchmarks/compile_cost.py, which measures what lowering
costs against CPython's compile() of its result."""
import io
import os
import re
import subprocess
import sys

from rusty.runtime import Session
from rusty.values import sym

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
F = '(define (f a b) (if (< a b) (+ (* a 2) (* b 3)) (list (- a b) (+ a b) (* a b))))'


def source(monkeypatch, program, fname):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    s = Session(out=io.StringIO())
    s.run(program)
    assert s.run('(list (f 1 2) (f 2 1) (f 1.5 2))') is not None      # (compiled at the first call)
    return s.python_source(s.genv.lookup(sym(fname)))


def test_a_test_reads_its_value_directly(monkeypatch):
    # `t = a < b` then `if t:` is fused into `if a < b:` (the temporary's one use)
    src = source(monkeypatch, F, 'f')
    assert re.search(r'\n\s+if v_a_\d+ < v_b_\d+:\n', src), src


def test_temporaries_share_a_few_names(monkeypatch):
    # every temporary is renamed x0, x1, … and names are reused once a temporary is dead
    src = source(monkeypatch, F, 'f')
    code = '\n'.join(line for line in src.splitlines() if not line.startswith('#'))
    assert not re.search(r'\b[tprqg]\d+\b', code), code       # no temporary keeps lowering's own name
    assigned = re.findall(r'\n\s+(x\d+) = ', code)
    assert len(set(assigned)) < len(assigned)                 # some name serves several temporaries


def test_the_compile_cost_script_measures_a_program():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, os.path.join(ROOT, 'benchmarks', 'compile_cost.py'), '--only', 'fib',
                          '--repeat', '1'], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines() if line.strip()}
    assert int(rows['fib'][1]) >= 1 and float(rows['fib'][4]) > 0 and float(rows['all'][6]) > 0, out.stdout


def test_lowering_and_compiling_run_with_the_collector_paused(monkeypatch):
    # link.lowered pauses the collector while it lowers and compiles (lower.lower_compiled: the
    # nodes all live until compiled), and gives it back after, also when
    # the lowering refuses the lambda
    import gc

    from rusty.compile import link, lower
    states = []
    real = lower.lower

    def spy(*args, **kw):
        if sys._getframe(1).f_code.co_name == 'lower_compiled':        # (not ,py's source view)
            states.append(gc.isenabled())
        return real(*args, **kw)
    monkeypatch.setattr(lower, 'lower', spy)
    monkeypatch.setenv('RUSTY_CODE_CACHE', '0')
    src = source(monkeypatch, F.replace('(* a 2)', '(* a 5)'), 'f')
    assert states and not any(states) and gc.isenabled() and 'def ' in src

    def refusing(*args, **kw):
        raise lower.Unsupported('no')
    monkeypatch.setattr(lower, 'lower', refusing)
    assert link.lowered(None, None, None, None, None, None, 'g') is None
    assert gc.isenabled()


def test_the_copy_of_a_tree_keeps_marks_positions_and_sharing():
    # kinds._clone: every attribute (positions, lowering's marks) kept, a
    # node met twice copied once, a mark holding a node copied with it,
    # any other mark's value (a set) shared; twin renames the temporaries
    import ast

    from rusty.compile import kinds
    tree = ast.parse('def f(a, *b, c=1):\n  t1 = {1: 2, **y}\n  if a is not t1 and c < 3:\n'
                     '    return [i for i in a]\n  g(t1, k=t1)\n')
    st = tree.body[0].body[1]
    st.holds, st.written, st.integer_copy = st.test, {'v'}, True
    shared = ast.Name('t2', ast.Load())
    tree.body[0].body[2].value.args.append(shared)
    tree.body[0].body[2].value.args.append(shared)
    copy = kinds.clone(tree)
    assert ast.dump(copy, include_attributes=True) == ast.dump(tree, include_attributes=True)
    cst = copy.body[0].body[1]
    assert cst.holds is cst.test and cst.test is not st.test and cst.written is st.written and cst.integer_copy
    args = copy.body[0].body[2].value.args
    assert args[-1] is args[-2] and args[-1] is not shared
    fresh = iter(['t8', 't9'])
    renamed = kinds.twin(tree.body, lambda n: n[:1] == 't' and n[1:].isdigit(), lambda: next(fresh))
    text = ast.unparse(ast.Module(renamed, []))
    assert 't1' not in text and 't8' in text and 't9' in text and ast.unparse(tree).count('t1') == 4


def test_statements_are_read_in_their_order():
    # nodes.statements: every statement, the blocks inside them as the
    # reference order has them (a `try`'s handlers first, then its body,
    # its else and finally), not inside a nested function's body
    import ast

    from rusty.compile.nodes import statements

    def reference(stmts):
        todo = list(reversed(stmts))
        while todo:
            st = todo.pop()
            yield st
            if st.__class__ is ast.FunctionDef:
                continue
            for field in ('finalbody', 'orelse', 'body'):
                inner = getattr(st, field, None)
                if inner and inner.__class__ is list:
                    todo.extend(reversed(inner))
            for h in reversed(getattr(st, 'handlers', ())):
                todo.extend(reversed(h.body))
    tree = ast.parse('x = 1\nwhile x:\n  try:\n    a()\n  except E:\n    b()\n  else:\n    c()\n  finally:\n'
                     '    d()\n  if x:\n    def f():\n      e()\n  else:\n    g()\nh()\n')
    got = list(statements(tree.body))
    assert [id(s) for s in got] == [id(s) for s in reference(tree.body)]
    assert len(got) == 11 and not any(s.__class__ is ast.Expr and ast.unparse(s) == 'e()' for s in got)


def test_the_integer_copy_is_the_copy_entered_first(monkeypatch):
    # one copy of a small body for exact integers, entered first: the
    # general code after it holds no second copy of the body, and both
    # are inside the one try whose handler locates failures
    src = source(monkeypatch, '(define (f a b) (if (< a b) (+ a b) (- a b)))', 'f')
    code = '\n'.join(line for line in src.splitlines() if not line.startswith('#'))
    assert re.search(r'def f_f\(d, v_a_\d+, v_b_\d+\):\n    try:\n        if OK and v_a_\d+.__class__ is int and', code), code
    assert code.count('except BaseException') == 1, code      # (the copy and the general code share one handler)
    assert len(re.findall(r'return v_a_\d+ \+ v_b_\d+', code)) == 2, code     # the copy's and the general body's
    assert len(re.findall(r'return v_a_\d+ - v_b_\d+', code)) == 2, code


def test_a_body_testing_no_ok_gets_no_copy_entered_first(monkeypatch):
    # a tiny body with no OK test (builtins called through their globals):
    # a copy entered while OK holds would be the same code again
    src = source(monkeypatch, '(define (f a b) (abs a))', 'f')     # (a builtin not inlined)
    assert 'OK' not in src and src.count('.fn(') == 1, src      # (the builtin called at one place)


def test_a_repeated_class_test_and_a_literal_divisor_are_folded(monkeypatch):
    # `(* a a)`'s guard tests a's class once; `(modulo x 7)`'s `7 != 0` is decided
    src = source(monkeypatch, '(define (f a b) (modulo (* a a) 7))', 'f')
    assert not re.search(r'(v_a_\d+)\.__class__ is int and \1\.__class__ is int', src), src
    assert '7 != 0' not in src, src


def test_walks_that_skip_contexts_count_and_place_as_the_full_walk(monkeypatch):
    # nodes.BARE: parts and the contexts and operators it leaves out are
    # every child ast.iter_child_nodes gives, so kinds.specialize's size
    # (counted walking parts) is ast.walk's count; nodes.stamp (Lowering.stamp), which
    # places names and constants as it reads their parent, leaves no node
    # that has a position without one, the same line on each as a plain walk gives
    import ast

    from rusty.compile import kinds, nodes
    from rusty.compile.nodes import BARE, children, is_temp, parts, walk
    tree = ast.parse('def f(a, *b, c=1):\n  t1 = {1: 2, **y}\n  if a is not t1 and c < 3 < a <= 2:\n'
                     '    return [-i for i in a if not i]\n  g(t1, k=t1)\n  x.y[1] += (z := 2) @ 3\n')
    for node in walk(tree):
        read = parts(node)             # (BARE filled for the class as its parts reader is made)
        bare = BARE[node.__class__]
        extra = bare if bare.__class__ is int else bare(node)
        assert len(children(node)) == len(read) + extra == len(list(ast.iter_child_nodes(node)))
    stmts = tree.body[0].body
    sized = []
    kinds.specialize(stmts, ['a'], set(), is_temp, lambda: 't9', sized=sized)
    assert sized[0] == sum(1 for _ in ast.walk(ast.Module(stmts, [])))
    fresh = ast.parse('f(a, -b, [c, 1]) + g(h.i)').body
    for node in ast.walk(fresh[0]):
        for key in ('lineno', 'col_offset', 'end_lineno', 'end_col_offset'):
            node.__dict__.pop(key, None)
    inner = fresh[0].value.left.args[2]
    ast.copy_location(inner, ast.Expr(lineno=3, col_offset=0))         # (a node placed before: kept, not entered)
    inner.elts[0].lineno = 3
    inner.elts[0].col_offset = 0
    inner.elts[1].lineno = 3
    inner.elts[1].col_offset = 0
    nodes.stamp(fresh, 7)
    lines = {ast.unparse(n): n.lineno for n in ast.walk(fresh[0]) if 'lineno' in n._attributes}
    assert all(v == 7 for k, v in lines.items() if k not in ('[c, 1]', 'c', '1')), lines
    assert lines['[c, 1]'] == lines['c'] == lines['1'] == 3
