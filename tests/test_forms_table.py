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
        forms._form('new-form', 'specials', 'sequence', frame=False, indent='call',
                    sig='(new-form)', doc='x', examples=[])


def test_importing_the_table_loads_nothing_else_of_rusty():
    import subprocess
    import sys
    code = ('import sys, rusty.forms; '
            'print(sorted(m for m in sys.modules if m.startswith("rusty")))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['rusty', 'rusty.forms']"
