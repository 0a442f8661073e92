"""The reference manual (docs/reference.md) is generated from the same
documentation as (doc 'name), so the two cannot drift; and nothing a user reads
points outside the repository."""
import os
import re
import subprocess
import sys

import pytest

from rusty import manual
from rusty.runtime import Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANUAL = os.path.join(ROOT, 'docs', 'reference.md')


def read(path):
    with open(path, encoding='utf-8') as fh:
        return fh.read()


def test_checked_in_manual_is_what_the_generator_writes():
    text = read(MANUAL)
    assert manual.generate(text) == text, 'docs/reference.md is stale: run python3 -m rusty.manual'


def test_every_name_has_exactly_one_section():
    s = Session()
    headings = re.findall(r'^#### `(.+)`$', read(MANUAL), re.M)
    assert sorted(headings) == sorted(set(list(s.special_names) + s.global_names()))


def test_a_section_shows_signature_text_and_examples():
    assert ("#### `car`\n\n`(car lst)`\n\nFirst element of a list.\n\n```\n(car '(1 2 3)) ⇒ 1\n"
            "(car '()) ⇒ error: car: not a pair\n```\n") in read(MANUAL)
    assert "#### `iota`\n\n`(iota n)`\n\nThe numbers 0 to n-1: (range 0 n).\n\n```\n(iota 4) ⇒ (0 1 2 3)\n```\n" \
        in read(MANUAL)


def test_names_are_grouped_by_topic():
    text = read(MANUAL)
    lists = text[text.index('<!-- names: lists -->'):text.index('<!-- names: strings -->')]
    assert '#### `car`' in lists and '#### `take`' in lists and '#### `string-join`' not in lists


def test_a_stale_block_is_regenerated_and_check_fails(tmp_path):
    text = read(MANUAL).replace('First element of a list.', 'First element, edited by hand.')
    assert manual.generate(text) == read(MANUAL)
    stale = tmp_path / 'reference.md'
    stale.write_text(text, encoding='utf-8')
    run = [sys.executable, '-m', 'rusty.manual', '--check', str(stale)]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and 'out of date' in done.stderr
    subprocess.run(run[:3] + [str(stale)], check=True, timeout=120)
    assert stale.read_text(encoding='utf-8') == read(MANUAL)
    assert subprocess.run(run, timeout=120).returncode == 0


def test_prose_outside_the_blocks_is_kept():
    text = read(MANUAL)
    assert '## 7. Errors and error reports' in text
    assert manual.generate(text + '\nA closing note.\n').endswith('\nA closing note.\n')


def test_user_documents_point_only_inside_the_repository():
    for rel in ['README.md'] + ['docs/' + n for n in os.listdir(os.path.join(ROOT, 'docs'))]:
        text = read(os.path.join(ROOT, rel))
        assert '../shared' not in text and 'LANGUAGE.md' not in text and 'DESIGN.md' not in text, rel


def test_install_hints_name_this_distribution():
    """The distribution is rusty-lisp: `pip install rusty[...]` would fetch someone else's package."""
    paths = ['README.md'] + ['docs/' + n for n in os.listdir(os.path.join(ROOT, 'docs'))]
    for dirpath, _dirs, names in os.walk(os.path.join(ROOT, 'rusty')):
        paths += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in names if n.endswith('.py')]
    for rel in paths:
        text = read(os.path.join(ROOT, rel))
        assert not re.search(r"pip install '?rusty[\[ '`]", text), rel


def test_shipped_code_cites_no_unshipped_document():
    """Docstrings, comments and benchmark reports say things in their own
    words: no section numbers of the team's specification, which users lack."""
    shipped = []
    for top in ('rusty', 'benchmarks', 'repl.lisp-examples'):     # the examples are read as a tour
        for dirpath, _dirs, names in os.walk(os.path.join(ROOT, top)):
            shipped += [os.path.join(dirpath, n) for n in names
                        if n.endswith(('.py', '.lisp', '.rs', '.md'))]
    assert len(shipped) > 50
    for path in shipped:
        text = read(path)
        for bad in ('LANGUAGE.md', 'DESIGN.md', '../shared', '§'):
            assert bad not in text, (os.path.relpath(path, ROOT), bad)


def test_readme_links_the_manual():
    text = read(os.path.join(ROOT, 'README.md'))
    assert '(docs/reference.md)' in text and '(docs/architecture.md)' in text


def test_every_name_is_under_a_topic_heading():
    text = read(MANUAL)
    assert '<!-- names: other -->' not in text
    blocks = re.findall(r'<!-- names: ([\w-]+) -->', text)
    assert blocks == ['special-forms'] + list(manual.TOPICS)
    for topic in blocks:            # each block follows a heading of its own
        before = text[:text.index('<!-- names: %s -->' % topic)]
        assert re.search(r'^##+ .+$', before.rsplit('<!-- end names -->', 1)[-1], re.M), topic


def test_strings_with_strings_and_hash_tables_beside_lists():
    text = read(MANUAL)

    def block(topic):
        start = text.index('<!-- names: %s -->' % topic)
        return text[start:text.index('<!-- end names -->', start)]
    assert '#### `string-upcase`' in block('strings') and '#### `string-trim`' in block('strings')
    assert '#### `hash-ref`' in block('hashes') and '#### `make-hash`' in block('hashes')
    assert text.index('### 6.3 Lists') < text.index('### 6.4 Hash tables') < text.index('### 6.5 Vectors') \
        < text.index('### 6.6 Strings')
    assert '#### `quotient`' in block('numbers') and '#### `command-line-args`' in block('io')


def test_a_name_without_a_topic_stops_the_generator(monkeypatch):
    topics = dict(manual.TOPICS)
    del topics['hashes']
    monkeypatch.setattr(manual, 'TOPICS', topics)
    with pytest.raises(manual.NoTopic, match=r'hash-ref \(rusty\.builtins\.hashes\)'):
        manual.generate(read(MANUAL))
