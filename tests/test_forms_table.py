"""rusty/forms.py: the one table of special forms, and what derives from it."""
from rusty import forms

SPEC_BODY_TABLE = ('define def defmacro define-macro lambda fn λ let let* letrec letrec* let-values when unless '
                   'while dotimes dolist repeat do case match try-catch begin defrust defrust* eval-when').split()


def test_body_indent_is_exactly_the_formatters_body_table():
    assert forms.BODY_INDENT == frozenset(SPEC_BODY_TABLE)


def test_every_row_uses_the_vocabulary():
    for f in forms.TABLE:
        assert f.syntax in forms.SYNTAXES, f.name
        assert f.indent in forms.INDENTS, f.name
        assert type(f.effectful) is bool and type(f.frame) is bool, f.name


def test_names_are_unique():
    names = [n for f in forms.TABLE for n in f.names]
    assert len(names) == len(set(names))


def test_effectful_is_a_required_field():
    import pytest
    with pytest.raises(TypeError):
        forms._form('new-form', 'specials', 'sequence', frame=False, indent='call', parts=((0, 0),),
                    sig='(new-form)', doc='x', examples=[])


def test_importing_the_table_loads_nothing_else_of_rusty():
    import subprocess
    import sys
    code = ('import sys, rusty.forms; '
            'print(sorted(m for m in sys.modules if m.startswith("rusty")))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['rusty', 'rusty.forms']"


# ── Everything that walks code reads the table ───────────────────────────

BINDING_SYNTAXES = {'let', 'let*', 'letrec', 'lambda', 'do'}      # the binders macro hygiene renames (docs/reference.md §5, `defmacro`)
NO_CODE_IN_FRAME = {'quote', 'quasiquote', 'unquote', 'eval', 'load', 'import'}


def test_every_syntax_is_used_and_known_to_each_walker():
    from rusty import hygiene, macro_cache, resolve
    used = {f.syntax for f in forms.TABLE}
    assert used == set(forms.SYNTAXES)
    for f in forms.TABLE:
        if not f.effectful and f.syntax != 'unquote':
            assert f.syntax in macro_cache.CHECKS, f.name
        if not f.frame:
            known = set(resolve.DEFINES) | set(resolve.SAME_FRAME_PARTS) | NO_CODE_IN_FRAME
            assert f.syntax in known, f.name
    assert set(hygiene.RENAMERS) == BINDING_SYNTAXES


def test_names_derive_from_the_table():
    from rusty import eval as ev
    from rusty.repl import indent, lexer
    from rusty.runtime import Session
    assert ev.SPECIAL_FORM_NAMES == list(forms.NAMES)
    assert Session.special_names == list(forms.NAMES)
    assert lexer.SPECIAL_FORMS == frozenset(forms.NAMES)
    assert lexer.DEFINERS == frozenset('define def defmacro define-macro defrust defrust*'.split())
    assert all(indent.is_body_form(n) for n in forms.BODY_INDENT)
    assert not indent.is_body_form('if') and not indent.is_body_form('define-record')
    assert indent.indent_for('(case x\n') == 2


def test_every_row_has_a_registered_compile_function():
    from rusty import eval as ev
    from rusty.runtime import FORM_MODULES, import_module
    from rusty.values import sym
    assert set(FORM_MODULES) <= set(forms.modules())     # those not loaded with the runtime
    for f in forms.TABLE:
        if f.syntax != 'unquote':
            for n in f.names:
                assert sym(n) in ev.SPECIALS, n
    for f in forms.TABLE:      # once its module is loaded, the row's own function, not a stand-in
        import_module('rusty.' + f.module)
        for n in f.names:
            fn = ev.SPECIALS.get(sym(n))
            if f.syntax == 'unquote':
                assert fn is None, n
            else:
                assert fn.__module__ == 'rusty.' + f.module and fn.__name__ != 'compile_deferred', n


def test_a_stand_in_loads_its_module_and_hands_the_form_over():
    from rusty import eval as ev
    from rusty.values import sym
    loaded = []
    saved = dict(ev.SPECIALS)
    row = forms._form('new-form new-alias', 'new_module', 'sequence', frame=False, effectful=False,
                      indent='call', parts=((1, 1),), sig='(new-form x)', doc='A form.', examples=[])
    try:
        def load(module):
            loaded.append(module)
            ev.special('new-form', 'new-alias')(lambda x, scope, tail, span, unit: ('real', x.cdr.car))
        assert ev.defer_specials([row], load) == ('new_module',)
        from rusty.reader import read
        form = read('(new-alias 7)').car
        assert ev.SPECIALS[sym('new-alias')](form, None, False, None, None) == ('real', 7.0)
        assert loaded == ['new_module']
        assert ev.SPECIALS[sym('new-form')](form, None, False, None, None) == ('real', 7.0)
        assert loaded == ['new_module']         # loaded once: the real functions replaced both
        assert ev.defer_specials([row], load) == ()     # registered names keep their function
    finally:
        ev.SPECIALS.clear()
        ev.SPECIALS.update(saved)


def _pure(defn):
    from rusty.macro_cache import is_pure
    from rusty.runtime import Session
    from rusty.values import sym
    s = Session()
    s.run(defn)
    return is_pure(s.genv.lookup(sym('m')), s.genv)


# A well-formed use of each effectful form (a new one needs its line here).
EFFECTFUL_USES = {'set!': '(set! x 1)', 'set': '(set x 1)', 'eval': '(eval x)', 'eval-when': '(eval-when () x)',
                  'defmacro': '(defmacro q (y) y)', 'define-macro': '(define-macro q (y) y)', 'load': '(load x)',
                  'load-relative': '(load-relative x)', 'defrust': '(defrust q (y) y)',
                  'defrust*': '(defrust* (q (y) y))', 'import': '(import math)', '.': '(. x y)'}


def test_effectful_forms_make_a_macro_impure():
    assert set(EFFECTFUL_USES) == forms.EFFECTFUL
    for name in sorted(forms.EFFECTFUL):
        assert not _pure('(defmacro m (x) (when #f %s) x)' % EFFECTFUL_USES[name]), name
    assert _pure("(defmacro m (x) (case x ((1) ''one) (else x)))")
    assert not _pure("(defmacro m (x) (case x ((1) (display 1)) (else x)))")
    assert _pure("(defmacro m (x) (case x ((display) 1) (else x)))")    # data are not code


def test_a_new_effectful_form_is_impure_without_touching_the_check(monkeypatch):
    from rusty import macro_cache, resolve
    from rusty.values import sym
    row = forms._form('new-effect', 'specials', 'sequence', frame=False, effectful=True, indent='call',
                      parts=((1, 1),), sig='(new-effect x)', doc='An effect.', examples=[])
    monkeypatch.setitem(resolve.FORM_OF, sym('new-effect'), row)
    assert not _pure('(defmacro m (x) (new-effect x) x)')
    odd = row._replace(names=('new-shape',), effectful=False, syntax='a-syntax-nobody-knows')
    monkeypatch.setitem(resolve.FORM_OF, sym('new-shape'), odd)
    assert not _pure('(defmacro m (x) (new-shape x) x)')
    assert macro_cache.is_pure is not None


def test_body_defines_follows_the_table():
    from rusty.reader import read
    from rusty.resolve import body_defines
    src = ('(define a 1) (def b 2) (define (c) 1) (defmacro d () 1) (defrust* (e (x) x) (f (x) x)) '
           '(begin (define g 1)) (if 1 (define h 1)) (cond ((define i 1) (define j 1))) '
           '(case k ((1) (define l 1)) (else (define m 1))) (try-catch (define n 1) (e) (define o 1)) '
           '(let () (define p 1)) (lambda () (define q 1)) (quote (define r 1))')
    assert [s.name for s in body_defines(list(read(src)))] == list('abcdefghijlmn')


def test_the_frame_column_is_section_5_2s_list():
    framed = {n for f in forms.TABLE if f.frame for n in f.names}
    assert framed == set('lambda fn λ let let* letrec letrec* do match try-catch'.split())
    for name in 'begin if cond when unless and or case'.split():
        assert not forms.BY_NAME[name].frame
