"""Every .lisp file of the repository through the formatter: the same forms,
idempotent, every token kept; and every one not listed in .fmt-exclude is
already in canonical layout (what .ci/run checks with `rusty fmt --check`)."""
import pathlib

import pytest

from rusty.errors import RustyError
from rusty.fmt import fmt_string
from rusty.reader import read
from test_fmt import shape, tokens_and_breaks

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXCLUDE_FILE = ROOT / '.fmt-exclude'
SKIP_DIRS = {'.git', '.hypothesis', 'build', 'dist', 'node_modules', '.venv', 'venv'}


def lisp_files():
    """Every .lisp file under the repository root, as paths relative to it."""
    found = []
    for p in ROOT.rglob('*.lisp'):
        rel = p.relative_to(ROOT)
        if not SKIP_DIRS.intersection(rel.parts[:-1]) and not rel.parts[0].endswith('.egg-info'):
            found.append(rel.as_posix())
    return sorted(found)


def excluded():
    lines = EXCLUDE_FILE.read_text(encoding='utf-8').splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith('#')]


FILES = lisp_files()


def test_the_corpus_is_the_project():
    assert 'rusty/stdlib.lisp' in FILES
    assert any(f.startswith('repl.lisp-examples/') for f in FILES)
    assert any(f.startswith('tests/lisp/') for f in FILES)


def test_every_excluded_file_exists():
    assert excluded() and set(excluded()) <= set(FILES)


@pytest.mark.parametrize('rel', FILES)
def test_formatting_every_lisp_file(rel):
    text = (ROOT / rel).read_text(encoding='utf-8')
    try:
        forms = read(text, rel)
    except RustyError as want:
        with pytest.raises(RustyError) as got:
            fmt_string(text, rel)
        assert (got.value.message, got.value.span) == (want.message, want.span)
        assert rel in excluded()
        return
    out = fmt_string(text, rel)
    assert shape(read(out, rel)) == shape(forms)
    assert fmt_string(out, rel) == out
    assert tokens_and_breaks(out) == tokens_and_breaks(text)
    if rel not in excluded():
        assert out == text, '%s is not in canonical layout: run rusty fmt --write %s' % (rel, rel)
