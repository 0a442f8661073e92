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
    'threading',       # the evaluation thread is a bare _thread thread
    'functools',       # (threading's own import)
    'types',           # (functools' own import)
    '_weakrefset',     # (threading's own import)
    'collections',     # records are tuple subclasses or slotted classes, not namedtuples
    'keyword',         # (collections' own import)
    'reprlib',         # (collections' own import)
    'array',           # a tensor's buffer: imported when the first tensor is made
    'operator',        # field getters come from the builtin _operator
    '__future__',      # no start-up module needs postponed annotations
    '_queue',          # the evaluation thread's jobs wait in a Mailbox on a bare lock
)
# The modules of special forms the standard library's loading does not
# compile: each loads when a program first uses one of its forms.
FORMS_ON_USE = ('rusty.let_forms', 'rusty.case_form', 'rusty.patterns',
                'rusty.macro_cache')     # (the macro purity check: on the first expansion)
# rusty's own modules a batch run must not import: the JIT, the graph
# package proper (its builtins' table is light), the formatter, the REPL.
RUSTY_KEPT_OUT = ('rusty.jit', 'rusty.graph.grad', 'rusty.graph.interp', 'rusty.graph.ir',
                  'rusty.graph.optimize', 'rusty.graph.shapes', 'rusty.graph.trace',
                  'rusty.fmt', 'rusty.pretty', 'rusty.repl', 'rusty.manual', 'rusty.fmt_command',
                  'rusty.report', 'rusty.docs', 'rusty.tensor',
                  'rusty.suggest') + FORMS_ON_USE       # (suggest: the 'did you mean' of a failing run)

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
    # Expanding a library macro compiles its body (on first use): still no heavy
    # import. Off, nothing else; on, the loop it makes runs compiled, and the compiler
    # imports none of them either (nor the ast module: compile/pyast.py, from _ast).
    src = '(let ((acc 0)) (dotimes (i 4) (set! acc (+ acc i))) (while #f 1) acc)'
    status, out, err, modules = batch_modules('-e', src, RUSTY_SPECIALIZE='0')
    assert (status, out, err) == (0, '6\n', '')
    assert [m for m in kept_out_found(modules) if m not in FORMS_ON_USE] == []
    status, out, err, modules = batch_modules('-e', src, RUSTY_SPECIALIZE='1', RUSTY_COMPILE_CALLS='0')
    assert (status, out, err) == (0, '6\n', '')
    assert 'rusty.compile.lower' in modules and 'ast' not in modules
    assert [m for m in kept_out_found(modules) if m not in FORMS_ON_USE] == []


def test_a_batch_run_compiles_nothing_it_calls_once():
    # A lambda runs compiled from its second call: one called once costs no compile.
    status, out, err, modules = batch_modules('-e', '((lambda (x) (+ x 1)) 1)', RUSTY_SPECIALIZE='1',
                                              RUSTY_COMPILE_CALLS='1')
    assert (status, out, err) == (0, '2\n', '')
    assert 'ast' not in modules and 'rusty.compile.lower' not in modules


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
    ("(tensor-sum (tensor '((1 2) (3 4))))", 'array', '10'),
    ('(let ((x 2)) (* x 3))', 'rusty.let_forms', '6'),
    ('(begin (define (f x) (mod x 4)) (f 7))', 'math', '3'),
    ('(do ((i 0 (+ i 1))) ((= i 3) i))', 'rusty.let_forms', '3'),
    ("(case 2 ((1) 'one) ((2) 'two))", 'rusty.case_form', 'two'),
    ("(match '(1 2) ((a b) (+ a b)))", 'rusty.patterns', '3'),
    ("(begin (defmacro twice (x) (list '* 2 x)) (twice 4))", 'rusty.macro_cache', '8'),
])
def test_what_is_kept_out_is_imported_when_first_used(expr, module, shown):
    status, out, err, modules = batch_modules('-e', expr)
    assert (status, out.strip(), err) == (0, shown, '')
    assert module in modules


@pytest.mark.parametrize('expr,module,message', [
    ("(match 7 ('seven 1))", 'rusty.patterns', 'match: no clause matched 7'),
    ("(case 'x ((y) (car 5)))", 'rusty.case_form', None),
])
def test_a_form_loaded_on_first_use_reports_its_own_errors(expr, module, message):
    # The first compile goes through the form's stand-in, which loads its module.
    status, out, err, modules = batch_modules('-e', expr)
    assert (status, out) == ((1, '') if message else (0, ''))
    assert err.startswith('Error: %s\n  at <expr>:1:1\n' % message) if message else err == ''
    assert module in modules


@pytest.mark.parametrize('expr,module,message,col', [
    ('(let 5)', 'rusty.let_forms', 'let: expected (let ((name expr)...) body...), got 1 part', 1),
    ('(let ((1 2)) 3)', 'rusty.let_forms', 'let: each binding must be (name expr)', 7),
    ('(case)', 'rusty.case_form', 'case: expected (case key ((datum...) body...)... (else body...)), got 0 parts', 1),
    ('(match)', 'rusty.patterns', 'match: expected (match expr (pattern body...)...), got 0 parts', 1),
])
def test_a_malformed_form_is_reported_without_loading_its_module(expr, module, message, col):
    # The syntax check reads the forms table only: the form never compiles.
    status, out, err, modules = batch_modules('-e', expr)
    assert (status, out) == (1, '')
    assert err.startswith('Error: %s\n  at <expr>:1:%d\n' % (message, col)), err
    assert module not in modules


def test_an_undefined_name_loads_the_suggestions_only_then():
    status, out, err, modules = batch_modules('-e', "(lenght '(1))")
    assert (status, out) == (1, '')
    assert err.startswith("Error: Undefined: 'lenght' — did you mean 'length'?\n"), err
    assert 'rusty.suggest' in modules


def test_an_error_report_loads_the_renderer_only_then():
    status, out, err, modules = batch_modules('-e', '(car 1)')
    assert status == 1 and err.startswith('Error: ') and 'internal error' not in err
    assert 'rusty.report' in modules


# ── Macros compile their bodies when first expanded ──────────────────────

def test_a_macro_body_sees_globals_defined_after_the_macro():
    assert ev('(begin (defmacro m (x) (helper x))'
              '       (define (helper x) (list (quote quote) x))'
              '       (m abc))') == 'abc'


def test_a_malformed_macro_body_is_reported_when_the_macro_is_read_in():
    status, out, err, _ = batch_modules('-e', '(begin (defmacro bad (x) (if)) 1)')
    assert (status, out) == (1, '')
    assert err == ('Error: if: expected (if test then [else]), got 0 parts\n'
                   '  at <expr>:1:26\n'
                   '  1 | (begin (defmacro bad (x) (if)) 1)\n'
                   '    |                          ^^^^\n')


def test_a_malformed_expansion_is_reported_when_expanded_at_the_call():
    status, out, err, _ = batch_modules('-e', "(begin (defmacro bad (x) '(if)) 1 (bad 1))")
    assert (status, out) == (1, '')
    assert err == ('Error: if: expected (if test then [else]), got 0 parts\n'
                   '  at <expr>:1:35\n'
                   "  1 | (begin (defmacro bad (x) '(if)) 1 (bad 1))\n"
                   '    |                                   ^^^^^^^\n')


@pytest.mark.parametrize('program,out,err', [
    # A macro that a macro body calls is looked up when the body first runs.
    ("(defmacro a (x) (b x)) (defmacro b (y) (list 'quote y)) (a 5)", '',
     "Error: Undefined: 'x'\n"
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


def test_a_run_that_loads_threading_on_the_evaluation_thread_still_exits():
    # threading, first imported by a job (the tensor kernels' locks), takes the
    # evaluation thread for the main one; exit must not wait for that thread.
    env = dict(os.environ)
    env['PYTHONPATH'] = str(REPO)
    script = ("import sys; from rusty import cli;"
              " status = cli.main(['-e', \"(tensor->list (tensor-add (tensor '(1 2)) 10))\"]);"
              " print('threading' in sys.modules); sys.exit(status)")
    proc = subprocess.run([sys.executable, '-S', '-c', script], capture_output=True, text=True,
                          env=env, timeout=60, cwd=str(REPO))
    assert (proc.returncode, proc.stdout, without_fallback_note(proc.stderr)) == (0, '(11 12)\nTrue\n', '')


def without_fallback_note(err: str) -> str:
    """stderr without the note a machine without rustc gets when tensors first run."""
    from rusty.jit.kernels import FALLBACK_NOTE
    note = FALLBACK_NOTE.split('%s')[0]
    return ''.join(line for line in err.splitlines(True) if not line.startswith(note))


def test_the_evaluator_and_its_compiler_import_no_math():
    # math is for the builtins that need it.
    env = dict(os.environ)
    env['PYTHONPATH'] = str(REPO)
    script = ('import sys; import rusty.compile.link, rusty.compile.support, rusty.compile.lower, rusty.specials,'
              " rusty.worker, rusty.apply; print('math' in sys.modules)")
    proc = subprocess.run([sys.executable, '-S', '-c', script], capture_output=True, text=True,
                          env=env, timeout=60, cwd=str(REPO))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, 'False\n', '')
