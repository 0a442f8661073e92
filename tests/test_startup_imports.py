"""Start-up's import diet: `rusty -e 1` loads only what such a run uses.

The modules below are kept out of start-up on purpose (each is imported
where it is first needed); these tests make sure none comes back silently.
They look at sys.modules after a real batch run in a fresh `python3 -S`
process, so nothing a test run imported earlier can hide or add a module.
"""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ev
from rusty import cli

REPO = Path(__file__).resolve().parents[1]

# Standard-library modules a batch run must not import, and why they could.
KEPT_OUT = (
    'typing',          # NamedTuple rows: forms.py and docs.py use collections.namedtuple
    'ctypes',          # the worker's interrupt path imports it on Ctrl-C
    'fractions',       # quotient of non-integers
    'decimal',         # (fractions' own import)
    'random',          # the random builtins' generator
    'copy',            # the library's unit is built, not copied
    'importlib',       # runtime imports its tables with __import__
    'dataclasses',
    'hashlib',         # the caches use _blake2 directly
    'pickle',
    'weakref',
    're',              # the reader scans by hand; string->number and JSON compile theirs on first use
    'enum',            # (re's own import)
    'prompt_toolkit',  # the REPL only
    'pygments',
)
# rusty's own modules a batch run must not import: the JIT, the graph
# package proper (its builtins' table is light), the formatter, the REPL.
RUSTY_KEPT_OUT = ('rusty.jit', 'rusty.graph.grad', 'rusty.graph.interp', 'rusty.graph.ir',
                  'rusty.graph.optimize', 'rusty.graph.shapes', 'rusty.graph.trace',
                  'rusty.fmt', 'rusty.pretty', 'rusty.repl', 'rusty.manual', 'rusty.fmt_command',
                  'rusty.report', 'rusty.docs', 'rusty.tensor')

SCRIPT = '''
import io, sys
from rusty import cli
out, err = io.StringIO(), io.StringIO()
status = cli.main(sys.argv[1:], stdout=out, stderr=err, stdin=io.StringIO(''))
modules = sorted(sys.modules)       # before json, which imports re
import json
print(json.dumps({'status': status, 'out': out.getvalue(), 'err': err.getvalue(),
                  'modules': modules}))
'''


def batch_modules(*argv, **env_vars):
    """(status, stdout, stderr, modules loaded) of `rusty ARGV` in a fresh
    `python3 -S`, with these environment variables added."""
    env = dict(os.environ, **env_vars)
    env['PYTHONPATH'] = str(REPO)
    proc = subprocess.run([sys.executable, '-S', '-c', SCRIPT] + list(argv), capture_output=True,
                          text=True, env=env, timeout=120, cwd=str(REPO))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    return got['status'], got['out'], got['err'], set(got['modules'])


def kept_out_found(modules):
    """The modules of KEPT_OUT / RUSTY_KEPT_OUT (or their submodules) in `modules`."""
    def hit(m, names):
        return any(m == n or m.startswith(n + '.') for n in names)
    return sorted(m for m in modules if hit(m, KEPT_OUT) or hit(m, RUSTY_KEPT_OUT))


def test_a_batch_run_imports_none_of_the_kept_out_modules():
    status, out, err, modules = batch_modules('-e', '1')
    assert (status, out, err) == (0, '1\n', '')
    assert 'rusty.runtime' in modules     # it did run
    assert kept_out_found(modules) == []


def test_a_batch_run_imports_only_the_builtin_tables_it_uses():
    # (with the fast paths on: off, every global is made at start-up)
    batch_modules('-e', '1', RUSTY_SPECIALIZE='1')     # the table index is cached (if no run did yet)
    _, _, _, modules = batch_modules('-e', '1', RUSTY_SPECIALIZE='1')
    assert sorted(m for m in modules if m.startswith(('rusty.builtins.', 'rusty.graph'))) == []
    status, out, _, modules = batch_modules('-e', '(string-upcase "a")', RUSTY_SPECIALIZE='1')
    assert (status, out) == (0, 'A\n')
    from rusty.runtime import TABLE_MODULES, table_index
    owner = [m for m, names in table_index() if 'string-upcase' in names]
    assert sorted(m for m in modules if m in TABLE_MODULES) == owner


def test_the_library_macros_run_without_the_kept_out_modules():
    # Expanding a library macro compiles its body (on first use): still no heavy import.
    status, out, err, modules = batch_modules(
        '-e', '(let ((acc 0)) (dotimes (i 4) (set! acc (+ acc i))) (while #f 1) acc)')
    assert (status, out, err) == (0, '6\n', '')
    assert kept_out_found(modules) == []


@pytest.mark.parametrize('expr,module,shown', [
    ('(quotient 7.5 -2)', 'fractions', '-3'),
    ('(begin (random-seed! 7) (integer? (random 10)))', 'random', '#t'),
    ('(graph-eval (lambda (x y) (+ (* x x) y)) 3 1)', 'rusty.graph.interp', '10'),
    ('(fmt-string "(a   b)")', 'rusty.fmt', '(a b)'),
    ('(string->number "1e3")', 're', '1000'),
    ('(pretty-string (list 1 2))', 'rusty.pretty', '(1 2)'),
    ('(/ -1 1e-200 1e-200)', 'rusty.tensor', '-inf'),
    ("(tensor->list (tensor-add (tensor '(1 2)) 10))", 'rusty.tensor', '(11 12)'),
    ("(tensor-sum (tensor '((1 2) (3 4))))", 'rusty.tensor', '10'),
])
def test_what_is_kept_out_is_imported_when_first_used(expr, module, shown):
    status, out, err, modules = batch_modules('-e', expr)
    assert (status, out.strip(), err) == (0, shown, '')
    assert module in modules


def test_an_error_report_loads_the_renderer_only_then():
    status, out, err, modules = batch_modules('-e', '(car 1)')
    assert status == 1 and err.startswith('Error: ') and 'internal error' not in err
    assert 'rusty.report' in modules


# ── Macros compile their bodies when first expanded ──────────────────────

def test_a_macro_body_sees_globals_defined_after_the_macro():
    assert ev('(begin (defmacro m (x) (helper x))'
              '       (define (helper x) (list (quote quote) x))'
              '       (m abc))') == 'abc'


def test_a_malformed_macro_body_fails_when_expanded_with_its_message():
    assert ev('(begin (defmacro bad (x) (if)) 1)') == '1'     # defining it is fine
    status, out, err, _ = batch_modules('-e', '(begin (defmacro bad (x) (if)) (bad 1))')
    assert (status, out) == (1, '')
    assert err == ('Error: if: (if test then [else])\n'
                   '  at <expr>:1:8\n'
                   '  1 | (begin (defmacro bad (x) (if)) (bad 1))\n'
                   '    |        ^^^^^^^^^^^^^^^^^^^^^^^\n')


@pytest.mark.parametrize('program,out,err', [
    # A macro that a macro body calls is looked up when the body first runs.
    ("(defmacro a (x) (b x)) (defmacro b (y) (list 'quote y)) (a 5)", '',
     "Error: Undefined: 'x' — did you mean '*'?\n"
     '  at <expr>:1:57\n'
     "  1 | (defmacro a (x) (b x)) (defmacro b (y) (list 'quote y)) (a 5)\n"
     '    |                                                         ^^^^^\n'),
    # An error in a macro a macro body expands surfaces only when that body runs.
    ('(defmacro e1 () (error "boom")) (defmacro m2 () (e1)) 1', '1\n', ''),
    ('(defmacro e1 () (error "boom")) (defmacro m2 () (e1)) (m2)', '',
     'Error: boom\n'
     '  at <expr>:1:1\n'
     '  1 | (defmacro e1 () (error "boom")) (defmacro m2 () (e1)) (m2)\n'
     '    | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'),
    ("(define (f) (m3 1)) (defmacro m3 (x) x) (f)", '1\n', ''),
    ('(defmacro m5 (x) (define z 3) (+ x z)) (m5 1)', '4\n', ''),
])
def test_macros_compiled_on_first_expansion_keep_their_meaning(program, out, err):
    o, e = io.StringIO(), io.StringIO()
    status = cli.main(['-e', program], stdout=o, stderr=e, stdin=io.StringIO(''))
    assert (status, o.getvalue(), e.getvalue()) == (1 if err else 0, out, err)
