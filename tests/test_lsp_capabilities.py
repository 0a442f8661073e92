"""The capability table classifies every builtin and special form, and a
restricted session (the editor's macro expansion) refuses the effectful ones
on both evaluation paths."""
import os
import subprocess
import sys
import textwrap

from lsp_client import ROOT

from rusty import capabilities, forms, runtime
from rusty.lazy import import_module


def every_builtin_name() -> list:
    names = []
    for module, _ in runtime.table_index():
        names += [spec[0] for spec in import_module(module).TABLE.specs]
    return names


def test_every_builtin_and_special_form_is_classified():
    names = every_builtin_name() + list(forms.NAMES)
    unclassified = sorted(n for n in names if capabilities.capability(n) is None)
    assert unclassified == [], 'classify these in rusty/capabilities.py: %s' % unclassified
    assert set(capabilities.CAPABILITY.values()) <= set(capabilities.CLASSES)


def test_the_effectful_ones_are_refused_and_the_rest_are_not():
    refused = {n for n in every_builtin_name() + list(forms.NAMES) if capabilities.refused_for_editor(n)}
    for name in ['file-write', 'file-append', 'file-delete', 'dir-create', 'save-model', 'exit', 'read-line',
                 'read-stdin', 'load', 'load-relative', 'defrust', 'defrust*', 'graph-compile',
                 'graph-compile-grad', 'graph-compile-train', 'breakpoint']:
        assert name in refused, name
    for name in ['car', '+', 'map', 'println', 'file-read', 'eval', 'defmacro', 'eval-string', 'quasiquote']:
        assert name not in refused, name
    assert capabilities.refused_for_editor('some-new-builtin')      # unclassified: refused
    assert capabilities.refused_for_editor('import')


SCRIPT = textwrap.dedent('''\
    import os, sys
    from rusty.lsp.restricted import RestrictedSession, lock_down_forms
    from rusty.errors import RustyError
    lock_down_forms()
    notes = sys.argv[1]
    s = RestrictedSession()
    for text in sys.stdin.read().split('\\n'):
        s.refused = None
        try:
            value = s.run(text)
            print('value', value)
        except RustyError as e:
            print('refused', s.refused)
    print('exists', os.path.exists(notes))
    ''')


def run_restricted(tmp_path, lines, specialize):
    notes = tmp_path / 'notes.txt'
    notes.write_text('keep')
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop('RUSTY_SPECIALIZE', None)
    if specialize is not None:
        env['RUSTY_SPECIALIZE'] = specialize
    text = '\n'.join(line.replace('NOTES', str(notes)) for line in lines)
    r = subprocess.run([sys.executable, '-c', SCRIPT, str(notes)], input=text, env=env, capture_output=True,
                       text=True, timeout=120, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    return r.stdout.split('\n')[:-1]


def test_a_restricted_session_refuses_on_both_paths(tmp_path):
    lines = ['(file-delete "NOTES")',
             '(try-catch (file-delete "NOTES") (e) 1)',
             # called often enough to run compiled
             '(define (f) (try-catch (file-delete "NOTES") (e) 2)) (f) (f) (f) (f) (f) (f)',
             '(define (g p) (p "NOTES")) (g string-length) (g string-length) (g string-length) (g file-delete)',
             '(apply file-delete (list "NOTES"))',
             '(map file-write (list "NOTES") (list "gone"))',
             '(eval-string "(file-delete \\"NOTES\\")")',
             '(eval (list (quote file-delete) "NOTES"))',
             '(exit 3)', '(load "other.lisp")', '(defrust sq (x) (* x x))', '(graph-compile (lambda (x) x))',
             '(dir-create "made")', '(read-line)',
             '(string-length (file-read "NOTES"))']
    for specialize in (None, '0'):
        out = run_restricted(tmp_path, lines, specialize)
        assert out == ['refused file-delete'] * 5 + ['refused file-write'] + ['refused file-delete'] * 2 + [
            'refused exit', 'refused load', 'refused defrust', 'refused graph-compile', 'refused dir-create',
            'refused read-line', 'value 4', 'exists True'], specialize
        assert not (tmp_path / 'made').exists()


def test_the_compiler_inlines_no_refused_builtin_by_name():
    """The compiler to Python inlines some builtins by name, guarded only by the
    global holding the builtin it saw; in a restricted session that is the
    refusing stand-in, so no refused name may be inlined (breakpoint is sent
    to the reference evaluator, which calls the stand-in)."""
    from rusty.compile import builtin_loops, calls, inline, walks
    by_name = (set(inline.INLINE) | set(inline.VARIADIC) | set(inline.INT_CLOSED) | set(inline.PAIR_ONLY)
               | set(walks.WALKS) | set(builtin_loops._ORDERS) | set(builtin_loops._INTEGER_FOLDS))
    builtins = set(every_builtin_name())
    assert by_name & builtins, 'the tables moved: look where the compiler inlines builtins now'
    assert sorted(n for n in by_name & builtins if capabilities.refused_for_editor(n)) == []
    assert 'breakpoint' in calls.REFERENCE_CALLS


def test_a_restricted_session_keeps_python_out_of_reach(tmp_path):
    """Reaching into Python objects is refused too: from a string's class a
    program could walk to `os.system` (Python interop, manual chapter 12)."""
    lines = ['(import os)',
             '(.upper "abc")',
             '(. "abc" __class__)',
             '(py-get (lisp->py (list 1 2)) 0)',
             '(py->lisp (lisp->py (list 1 2)))',
             '(define (f s) (.upper s)) (f "a") (f "b") (f "c") (f "d") (f "e")',
             '(try-catch (.upper "abc") (e) 1)',
             '(type-of (lisp->py (list 1 2)))']
    for specialize in (None, '0'):
        out = run_restricted(tmp_path, lines, specialize)
        assert out == ['refused import', 'refused .upper', 'refused .', 'refused py-get', 'refused py->lisp',
                       'refused .upper', 'refused .upper', 'value py', 'exists True'], (specialize, out)


def test_method_names_are_of_class_python():
    assert capabilities.capability('.upper') == 'python'
    assert capabilities.refused_for_editor('.upper')
    assert capabilities.capability('.') == 'python'
