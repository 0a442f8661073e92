"""The marks file (diskcache.marked): the names a run looked up in the code
cache and missed (codecache.missed_before), one small hash each appended to
one private file, not one file per name; bounded, re-read when another
process appended, and worth nothing (never an error) when damaged or not ours."""
import os
import sys

import pytest

from rusty import diskcache

sys.path.insert(0, os.path.dirname(__file__))

from test_compile_tierup import timed_session    # noqa: E402


@pytest.fixture
def marks(tmp_path):
    d = tmp_path / 'cache'
    d.mkdir(mode=0o700)
    return str(d / 'marks-seen')


def test_a_name_is_marked_once_and_found_after(marks):
    assert not diskcache.marked(marks, 'code-a')
    assert diskcache.marked(marks, 'code-a')
    assert not diskcache.marked(marks, 'code-b')
    assert diskcache.marked(marks, 'code-b') and diskcache.marked(marks, 'code-a')
    assert os.path.getsize(marks) == 2 * diskcache.MARK
    assert os.stat(marks).st_mode & 0o777 == 0o600
    assert os.listdir(os.path.dirname(marks)) == ['marks-seen']


def test_marks_another_process_appended_are_seen(marks):
    assert not diskcache.marked(marks, 'code-a')
    other = marks + '-other'
    assert not diskcache.marked(other, 'code-b')
    with open(marks, 'ab') as fh:                 # (another process marks code-b in the same file)
        fh.write(open(other, 'rb').read())
    assert diskcache.marked(marks, 'code-b')


def test_the_file_is_bounded_and_keeps_the_newest_marks(marks, monkeypatch):
    monkeypatch.setattr(diskcache, 'MARKS_MAX', 8 * diskcache.MARK)
    names = ['code-%d' % i for i in range(30)]
    for n in names:
        assert not diskcache.marked(marks, n)
        assert os.path.getsize(marks) <= 8 * diskcache.MARK
    assert all(diskcache.marked(marks, n) for n in names[-3:])
    assert not diskcache.marked(marks, names[0])


def test_a_damaged_or_foreign_file_marks_nothing(marks):
    assert not diskcache.marked(marks, 'code-a')
    with open(marks, 'ab') as fh:
        fh.write(b'torn')                           # (an append cut short: the whole marks before it stand)
    assert diskcache.marked(marks, 'code-a')
    os.chmod(marks, 0o666)                          # (others may write it: not read, not written)
    assert not diskcache.marked(marks, 'code-a') and not diskcache.marked(marks, 'code-a')
    os.chmod(marks, 0o600)
    with open(marks, 'wb') as fh:
        fh.write(os.urandom(5 * diskcache.MARK))
    assert not diskcache.marked(marks, 'code-a')
    assert diskcache.marked(marks, 'code-a')


def test_a_run_that_misses_many_lambdas_leaves_one_file(monkeypatch, tmp_path):
    # Five lambdas looked up and left on the reference: five marks in one file, no file of their own;
    # a second run finds each marked (it leaves them on the reference: test_compile_tierup's tests).
    from rusty.compile import link
    program = ''.join('(define (f%d) (spend 0.001)) ' % i for i in range(5))
    program += '(define (run f n) (do ((i 0 (+ i 1))) ((= i n) n) (f)))'
    program += ''.join(' (run f%d 30)' % i for i in range(5))
    first = timed_session(monkeypatch, budget=0.05, cache=tmp_path)
    first.run(program)
    assert (link.STATS.compiled, link.STATS.loaded) == (0, 0)
    names = os.listdir(tmp_path)
    assert 'marks-seen' in names and not [n for n in names if n.startswith('code-seen')], names
    assert os.path.getsize(tmp_path / 'marks-seen') >= 5 * diskcache.MARK
