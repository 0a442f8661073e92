"""Start-up binds the builtins and the standard library lazily (rusty/lazy.py):
a name's value is made when first read. A program must see exactly what
eager loading (the reference, RUSTY_SPECIALIZE=0) gives it."""
import io
import os
import re
import subprocess
import sys

import pytest

from rusty import lazy, runtime
from rusty.printer import print_form
from rusty.resolve import MISSING, Pending
from rusty.runtime import LIBRARY_PRIMITIVES, Session
from rusty.values import Builtin, Lambda, Macro, Symbol, sym

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fresh(monkeypatch, specialize: str):
    monkeypatch.setenv('RUSTY_SPECIALIZE', specialize)
    return Session(out=io.StringIO())


def pending(session, name):
    return session.genv.cells[sym(name)].pending is not None


def test_a_new_session_binds_every_name_but_makes_none(monkeypatch):
    s = fresh(monkeypatch, '1')
    assert pending(s, 'cadr') and pending(s, 'car') and pending(s, 'field')
    assert {'car', 'cadr', 'field', 'string-join', 'tensor-add'} <= set(s.global_names())
    assert not any(n.startswith('%') for n in s.global_names())     # the library's primitives stay its own


def unnumbered(body) -> str:
    """A body's print form with its gensyms' numbers (a process-wide counter) left out."""
    return re.sub(r'__\d+', '__N', print_form(body))


def test_the_lazy_globals_are_the_eager_ones(monkeypatch):
    lazy_s = fresh(monkeypatch, '1')
    eager = fresh(monkeypatch, '0')
    assert not any(c.pending for c in eager.genv.cells.values())
    assert lazy_s.global_names() == eager.global_names()
    for name in eager.global_names():
        a, b = lazy_s.global_value(name), eager.global_value(name)
        assert a.__class__ is b.__class__, name
        if a.__class__ is Builtin:
            assert (a.name, a.lo, a.hi, a.shown, a.doc, a.sig, a.examples) == \
                   (b.name, b.lo, b.hi, b.shown, b.doc, b.sig, b.examples), name
        elif a.__class__ in (Lambda, Macro):
            assert (a.name, unnumbered(a.body), a.params, a.rest) == \
                   (b.name, unnumbered(b.body), b.params, b.rest), name
        else:
            assert print_form(a) == print_form(b), name


def test_a_value_is_made_once_and_shared_with_the_library(monkeypatch):
    s = fresh(monkeypatch, '1')
    first = s.global_value('cadr')
    assert first.__class__ is Lambda and not pending(s, 'cadr')
    assert s.global_value('cadr') is first and s.library_procedure('cadr') is first
    assert s.run('cadr') is first


def test_a_name_redefined_before_its_first_use_keeps_the_library_meaning(monkeypatch):
    s = fresh(monkeypatch, '1')
    assert s.run('(define (cadr x) (quote mine)) (list (cadr (list 1 2)) (caddr (list 1 2 3)))').car.name == 'mine'
    assert s.library_procedure('cadr').__class__ is Lambda
    assert print_form(s.run('(assoc 2 (list (list 1 "a") (list 2 "b")))')) == '(2 b)'


def test_set_of_a_pending_name_and_errors_read_as_before(monkeypatch):
    for flag in ('1', '0'):
        s = fresh(monkeypatch, flag)
        assert s.run('(set! cadr car) (cadr (list 7 8))') == 7.0
    from helpers import err
    assert err('(cadr 5)') == 'cdr: not a pair'
    assert err('(string-join 5 ",")') == err('(begin (string-join 5 ","))')


def test_a_failed_make_stays_pending_and_is_retried():
    calls = []

    def make():
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return 42.0
    p = Pending(make)
    with pytest.raises(KeyboardInterrupt):
        p.get()
    assert p.get() == 42.0 and p.get() == 42.0 and len(calls) == 2


def test_a_definition_that_reads_itself_while_being_made_sees_no_value():
    box = []
    p = Pending(lambda: box.append(p.get()) or 1.0)
    assert p.get() == 1.0 and box == [MISSING]


def test_a_session_run_imports_only_the_tables_it_uses(tmp_path):
    code = ('import sys; from rusty.runtime import Session; s = Session(); s.run("(cadr (list 1 2))"); '
            'print(sorted(m for m in sys.modules if m.startswith("rusty.builtins.")))')
    env = dict(os.environ, PYTHONPATH=ROOT, RUSTY_CACHE_DIR=str(tmp_path), RUSTY_SPECIALIZE='1')
    runs = [subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, cwd=str(tmp_path))
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    # the second run finds the table index in the cache: no table module but
    # those of list and %cadr (which cadr's body calls) is imported
    used = {m for m, names in real_index() if {'list', '%cadr'} & set(names)}
    assert set(eval(runs[1].stdout)) & set(MODULES) == used, runs[1].stdout


# ── The table index ──────────────────────────────────────────────────────

MODULES = runtime.TABLE_MODULES + (LIBRARY_PRIMITIVES,)


def real_index():
    return tuple((m, tuple(spec[0] for spec in runtime.import_module(m).TABLE.specs)) for m in MODULES)


def test_the_cached_index_is_the_tables_names(tmp_path, monkeypatch):
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))
    assert lazy.table_index(MODULES) == real_index()
    (entry,) = [p for p in os.listdir(tmp_path) if p.endswith('.index')]
    assert lazy._load_index(str(tmp_path / entry), MODULES) == real_index()
    assert lazy.table_index(MODULES) == real_index()


def test_a_changed_table_module_makes_a_new_index_entry(tmp_path, monkeypatch):
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))
    before = lazy._index_entry(MODULES)
    path = runtime.import_module(MODULES[0]).__file__
    st = os.stat(path)
    try:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        assert lazy._index_entry(MODULES) != before
    finally:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert lazy._index_entry(MODULES) == before


@pytest.mark.parametrize('payload', [b'junk', b'', None])
def test_a_corrupt_index_entry_is_rebuilt(tmp_path, monkeypatch, payload):
    import marshal
    from rusty import diskcache
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))
    entry = lazy._index_entry(MODULES)
    data = marshal.dumps((lazy.INDEX_FORMAT, (('rusty.builtins.core', ('car',)),))) if payload is None else payload
    diskcache.store(entry, data)
    assert lazy._load_index(entry, MODULES) is None
    assert lazy.table_index(MODULES) == real_index()
    assert lazy._load_index(entry, MODULES) == real_index()


def test_the_repl_highlights_what_a_session_binds(monkeypatch):
    from rusty.repl.lexer import builtin_names
    assert builtin_names() == frozenset(fresh(monkeypatch, '1').global_names())


def test_only_lone_function_and_macro_definitions_wait_for_their_first_read():
    import marshal
    from rusty.formcache import FormFile, _encode
    from rusty.reader import read
    from rusty.resolve import GlobalEnv
    text = ('(define (f) 1) (defmacro m (x) x) (define y (f)) (define (g) 1) (define (g) 2) (println "hi")')
    forms = FormFile(marshal.loads(marshal.dumps(_encode(read(text, 'lib.lisp')))), None)
    lib, evaluated = GlobalEnv(), []

    def evaluate(cell):
        evaluated.append(print_form(cell.car))
        if cell.car.car.name in ('define', 'defmacro'):      # binds its name (to 1.0 here)
            target = cell.car.cdr.car
            lib.define(target if target.__class__ is Symbol else target.car, 1.0)
    lazy.bind_library(lib, forms, evaluate)
    # a value computed by code, a name defined twice, any other form: evaluated now, in order
    assert evaluated == ['(define y (f))', '(define (g) 1)', '(define (g) 2)', '(println hi)']
    assert lib.cells[sym('f')].pending is not None and lib.cells[sym('m')].pending is not None
    assert lib.lookup(sym('f')) == 1.0 and evaluated[-1] == '(define (f) 1)'
