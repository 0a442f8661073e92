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
