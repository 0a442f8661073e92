"""Hostile bytes and sizes get rusty answers, never host errors: a byte-order
mark opening a file, names and strings with undecodable bytes (what getenv
gives for them), a working directory or RUSTUP_TOOLCHAIN that is not UTF-8,
and a string-repeat whose result would not fit."""
import os
import shutil
import subprocess
import sys

import pytest

from rusty.errors import RustyError
from helpers import err, session

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rusty(args, cwd=REPO, env=None, timeout=300):
    e = dict(os.environ)
    e['PYTHONPATH'] = REPO + os.pathsep + e.get('PYTHONPATH', '')
    e.update(env or {})
    return subprocess.run([sys.executable, '-m', 'rusty'] + args, capture_output=True, cwd=cwd, env=e,
                          timeout=timeout)


# ── A byte-order mark ────────────────────────────────────────────────────

def test_a_byte_order_mark_opening_a_file_is_skipped(tmp_path):
    f = tmp_path / 'bom.lisp'
    f.write_bytes(b'\xef\xbb\xbf(display 42)\n(car 5)\n')
    r = rusty([str(f)])
    assert r.stdout == b'42'
    assert r.stderr.decode().startswith('Error: car: not a pair\n  at %s:2:1\n' % f)


def test_the_reader_counts_columns_after_the_mark():
    from rusty.reader import read
    forms = read('\ufeff(a b)', '<t>')
    assert str(forms.car.car) == 'a'
    assert forms.cells().__next__().span[1:3] == (1, 1)
    with pytest.raises(RustyError) as e:          # only at the very start
        session().run('(list 1 \ufeff)', '<t>')
    assert 'internal error' not in e.value.message


# ── Undecodable bytes from getenv ────────────────────────────────────────

@pytest.mark.parametrize('text,message', [
    ('a\udcffb', "Undefined: 'a\udcffb' — did you mean 'abs'?"),
    ('(qq\udcffzz 1)', "Undefined: 'qq\udcffzz'"),
    ('\udcff', "Undefined: '\udcff'"),
    ('(filte\udcff even? (list 1))', "Undefined: 'filte\udcff' — did you mean 'filter'?"),
])
def test_eval_string_of_undecodable_bytes_gives_rusty_errors(monkeypatch, text, message):
    monkeypatch.setenv('RUSTY_ODD', text)
    assert err('(eval-string (getenv "RUSTY_ODD"))') == message


def test_undecodable_bytes_in_a_real_environment_variable():
    r = rusty(['-e', '(list (eval-string (string-append "(quote " (getenv "ODD") ")")) '
                     '(try-catch (eval-string (getenv "ODD")) (e) (string-length e)))'],
              env={'ODD': os.fsdecode(b'ca\xffe')})
    assert r.returncode == 0, r.stderr
    assert b'internal error' not in r.stdout + r.stderr


# ── string-repeat checks the size first ──────────────────────────────────

def test_string_repeat_refuses_a_result_too_large_before_building_it():
    assert err('(string-repeat "a" 1e12)') == 'string-repeat: result too large'
    assert err('(string-repeat "ab" 134217729)') == 'string-repeat: result too large'
    s = session()
    assert s.run('(string-repeat "" 1e12)', '<t>') == ''
    assert s.run('(string-length (string-repeat "ab" 1000))', '<t>') == 2000


def test_string_repeat_too_large_is_quick_under_an_address_space_limit():
    r = subprocess.run(['bash', '-c', 'ulimit -v 1000000; exec "$0" -m rusty -e \'(string-repeat "a" 1e12)\'',
                        sys.executable], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=REPO))
    assert r.stderr.startswith('Error: string-repeat: result too large\n'), r.stderr


# ── Native code from a directory or toolchain name that is not UTF-8 ─────

@pytest.mark.rustc
def test_defrust_works_from_a_working_directory_that_is_not_utf8(tmp_path):
    if shutil.which('rustc') is None:
        pytest.skip('rustc not on PATH')
    odd = os.path.join(os.fsencode(str(tmp_path)), b'dir-\xff\xfe')
    os.mkdir(odd)
    r = rusty(['-e', '(defrust sq (x) (* x x)) (sq 3)'], cwd=odd,
              env={'RUSTY_CACHE_DIR': str(tmp_path / 'cache')})
    assert (r.returncode, r.stdout) == (0, b'9\n'), r.stderr


@pytest.mark.rustc
def test_a_toolchain_name_that_is_not_utf8_is_a_rustc_failure_not_a_host_error(tmp_path):
    if shutil.which('rustc') is None:
        pytest.skip('rustc not on PATH')
    r = rusty(['-e', '(defrust sq (x) (* x x)) (sq 3)'],
              env={'RUSTY_CACHE_DIR': str(tmp_path / 'cache'), 'RUSTUP_TOOLCHAIN': os.fsdecode(b'st\xffable')})
    text = r.stderr.decode('utf-8', 'replace')
    assert 'internal error' not in text and 'Traceback' not in text
    if r.returncode:                  # rustup refuses the name; a plain rustc ignores it
        assert text.startswith('Error: defrust: rustc failed:'), text
    else:
        assert r.stdout == b'9\n'


def test_undecodable_bytes_are_written_back_as_bytes_even_on_a_strict_stdout():
    # a UTF-8 locale other than C gives Python a strict stdout
    r = rusty(['-e', '(display (getenv "ODD")) (getenv "ODD")'],
              env={'ODD': os.fsdecode(b'ca\xffe'), 'PYTHONIOENCODING': 'utf-8:strict'})
    assert (r.returncode, r.stdout, r.stderr) == (0, b'ca\xffeca\xffe\n', b'')
