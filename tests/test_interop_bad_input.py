"""Bad input at the boundary with Python: each a clear rusty error at the
user's form (never a host traceback or an internal error), and the session
goes on; run as `rusty -e` on both paths."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BAD = [
    ('(import)', 'import: expected (import module), got 0 parts'),
    ('(import "math")', 'import: a module name is a symbol such as os.path, got "math"'),
    ('(import math :as 5)', 'import: an alias is a plain name, got 5'),
    ('(import math extra)', 'import: expected (import module :as alias), got 2 parts'),
    ('(import math :like m)', 'import: expected :as, got :like'),
    ('(import nosuch.deeper)', "import: no module named 'nosuch'"),
    ('(.)', '.: expected (. obj name), got 0 parts'),
    ('(. 5)', '.: expected (. obj name), got 1 part'),
    ('(.upper)', '.upper: expected an object to call the method on'),
    ('(.nosuchmethod 5)', ".: 'int' object has no attribute 'nosuchmethod'"),
    ('(import math) (math.sqrt)', 'python: TypeError: math.sqrt() takes exactly one argument (0 given)'),
    ('(import math) (math.sqrt 1 :x 2)', 'python: TypeError: math.sqrt() takes no keyword arguments'),
    ('(py-get 5 1)', "python: TypeError: 'int' object is not subscriptable"),
    ('(py-item-set! (lisp->py (list)) 3 1)', 'python: IndexError: list assignment index out of range'),
    ('(memoryview 5)', 'memoryview: expected a tensor or a Python buffer, got 5'),
    ("(tensor (lisp->py '(1 2)))", 'tensor: expected a number, a nested list or a buffer of doubles, got a Python list'),
    ('(import builtins) (builtins.len (defmacro m (x) x) )', "python: TypeError: object of type 'NoneType' has no len()"),
    ("(import builtins) (import math) (py->lisp (builtins.map math.sqrt '(1 -1)))",
     'python: ValueError: math domain error'),
    ("(import functools) (import math) (functools.reduce math.sqrt '(1 2))",
     'python: TypeError: math.sqrt() takes exactly one argument (2 given)'),
    ("(import functools) (functools.reduce (lambda (a) a) '(1 2))", 'lambda: expected 1 args, got 2'),
    ("(import functools) (import math) (functools.reduce (lambda (a b) (math.sqrt -1)) '(1 2))",
     'python: ValueError: math domain error'),
    ("(import json) (json.dumps (lisp->py (list car)))",
     'python: TypeError: Object of type LispCallable is not JSON serializable'),
    ("(import functools) (define (f) (functools.reduce (lambda (a b) (f)) '(1 2))) (f)",
     'recursion limit exceeded (depth 100): Python and rusty calling each other too deeply'),
    ('(import sys) (sys.exit 3)', 'python: SystemExit: 3'),
    ('(import builtins) (builtins.object 1 2)', 'python: TypeError: object() takes no arguments'),
    ("(import types) (py-set! (types.SimpleNamespace) 'x (defmacro m (x) x))", '()'),
]


def rusty(program: str, fast: bool):
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_SPECIALIZE='1' if fast else '0')
    p = subprocess.run([sys.executable, '-m', 'rusty', '-e', program], capture_output=True, text=True, env=env,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize('fast', [True, False], ids=['fast', 'reference'])
@pytest.mark.parametrize('src,message', BAD)
def test_bad_input_is_a_clear_error_and_the_program_goes_on(src, message, fast):
    program = '(display (try-catch (begin %s) (e) e)) (display " | still here")' % src
    status, out, err = rusty(program, fast)
    assert 'internal error' not in out + err and 'Traceback' not in out + err, out + err
    if message.startswith(('import: expected', 'import: a module', 'import: an alias', '.: expected')):
        assert status == 1 and err.startswith('Error: ' + message + '\n'), err     # at read-in
        return
    assert (status, out) == (0, message + ' | still here'), err
