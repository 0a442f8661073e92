"""`rusty fmt` (docs/reference.md §6.8, `fmt-string`): output, --write, --check, `-`, parse errors,
exit statuses and messages, and atomic rewrites under simulated crashes."""
import io
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from rusty import fmt_command
from rusty.cli import HELP, main

MESSY = '(define   (f x)\n(* x x))\n'
CLEAN = '(define (f x)\n  (* x x))\n'
BAD = '(define (g)\n  (h\n'
BAD_REPORT = "Error: unexpected end of input: a '(' is never closed\n  at %s:2:3\n  2 |   (h\n    |   ^\n"


def run(*argv, stdin=''):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err, io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'messy.lisp').write_text(MESSY)
    (tmp_path / 'clean.lisp').write_text(CLEAN)
    (tmp_path / 'bad.lisp').write_text(BAD)
    return tmp_path


# ── Printing, stdin ──────────────────────────────────────────────────────

def test_fmt_file_writes_the_formatted_text_to_stdout(files):
    assert run('fmt', 'messy.lisp') == (0, CLEAN, '')
    assert (files / 'messy.lisp').read_text() == MESSY


def test_fmt_dash_formats_stdin_to_stdout():
    assert run('fmt', '-', stdin=MESSY) == (0, CLEAN, '')
    assert run('fmt', '-', stdin='') == (0, '', '')
    status, out, err = run('fmt', '-', stdin='(a')
    assert (status, out) == (1, '')
    assert err == "Error: unexpected end of input: a '(' is never closed\n  at <stdin>:1:1\n  1 | (a\n    | ^\n"


# ── --write ──────────────────────────────────────────────────────────────

def test_write_rewrites_only_the_files_that_change_and_keeps_the_mode(files):
    os.chmod(files / 'messy.lisp', 0o640)
    before = os.stat(files / 'clean.lisp')
    assert run('fmt', '--write', 'messy.lisp', 'clean.lisp') == (0, 'formatted messy.lisp\n', '')
    assert (files / 'messy.lisp').read_text() == CLEAN
    assert os.stat(files / 'messy.lisp').st_mode & 0o777 == 0o640
    after = os.stat(files / 'clean.lisp')
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert sorted(os.listdir(files)) == ['bad.lisp', 'clean.lisp', 'messy.lisp']    # no temporary left


def test_write_keeps_an_executable_mode_and_writes_through_a_symlink(files):
    os.chmod(files / 'messy.lisp', 0o755)
    os.symlink('messy.lisp', files / 'link.lisp')
    assert run('fmt', '--write', 'link.lisp') == (0, 'formatted link.lisp\n', '')
    assert os.path.islink(files / 'link.lisp')
    assert (files / 'messy.lisp').read_text() == CLEAN
    assert os.stat(files / 'messy.lisp').st_mode & 0o777 == 0o755


def test_write_normalises_crlf_outside_strings(files):
    (files / 'crlf.lisp').write_bytes(b'(a\r\n"x\r\ny")\r\n')
    assert run('fmt', '--write', 'crlf.lisp')[0] == 0
    assert (files / 'crlf.lisp').read_bytes() == b'(a\n "x\r\ny")\n'


def test_a_file_that_does_not_parse_is_reported_untouched_and_the_others_are_still_done(files):
    status, out, err = run('fmt', '--write', 'bad.lisp', 'messy.lisp')
    assert status == 1
    assert out == 'formatted messy.lisp\n'
    assert err == BAD_REPORT % 'bad.lisp'
    assert (files / 'bad.lisp').read_text() == BAD
    assert (files / 'messy.lisp').read_text() == CLEAN


def test_an_unreadable_file_is_reported_and_the_others_still_done(files):
    status, out, err = run('fmt', '--write', 'missing.lisp', 'messy.lisp')
    assert (status, out) == (1, 'formatted messy.lisp\n')
    assert err == 'Error reading missing.lisp: No such file or directory (os error 2)\n'


# ── --check ──────────────────────────────────────────────────────────────

def test_check_names_the_files_that_would_change_and_changes_nothing(files):
    status, out, err = run('fmt', '--check', 'clean.lisp', 'messy.lisp', 'bad.lisp')
    assert status == 1
    assert out == 'would reformat messy.lisp\n'
    assert err == BAD_REPORT % 'bad.lisp'
    assert (files / 'messy.lisp').read_text() == MESSY


def test_check_is_quiet_and_exits_0_when_everything_is_canonical(files):
    assert run('fmt', '--check', 'clean.lisp') == (0, '', '')


def test_print_mode_with_a_bad_file_still_prints_the_good_ones(files):
    status, out, err = run('fmt', 'bad.lisp', 'messy.lisp')
    assert (status, out, err) == (1, CLEAN, BAD_REPORT % 'bad.lisp')


# ── Usage ────────────────────────────────────────────────────────────────

@pytest.mark.parametrize('argv, message', [
    ([], 'fmt: no file given'),
    (['--write'], 'fmt: no file given'),
    (['--check'], 'fmt: no file given'),
    (['--write', '--check', 'a'], 'fmt: --check must come first, once'),
    (['a', '--write'], 'fmt: --write must come first, once'),
    (['a', '-'], "fmt: '-' must be the only argument"),
    (['--frob', 'a'], 'fmt: unknown option: --frob'),
])
def test_usage_errors(argv, message):
    assert run('fmt', *argv) == (2, '', 'rusty: %s\n%s\n' % (message, fmt_command.USAGE))


def test_help_texts():
    status, out, err = run('fmt', '--help')
    assert (status, err) == (0, '')
    assert out.startswith(fmt_command.USAGE + '\n')
    assert 'rusty ./fmt' in HELP
    assert 'rusty fmt' in run('--help')[1]


# ── The real command ─────────────────────────────────────────────────────

def rusty(*argv, cwd, stdin=None):
    return subprocess.run([sys.executable, '-m', 'rusty', *argv], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_command_and_a_script_named_fmt(files):
    r = rusty('fmt', '--check', 'messy.lisp', cwd=files)
    assert (r.returncode, r.stdout, r.stderr) == (1, 'would reformat messy.lisp\n', '')
    (files / 'fmt').write_text('(display "script named fmt")\n')
    r = rusty('./fmt', cwd=files)
    assert (r.returncode, r.stdout) == (0, 'script named fmt')
    r = rusty('fmt', '-', cwd=files, stdin=MESSY)
    assert (r.returncode, r.stdout) == (0, CLEAN)


def test_stdin_is_read_as_it_is(files):
    r = subprocess.run([sys.executable, '-m', 'rusty', 'fmt', '-'], cwd=files, input=b'(a\r\n"x\r\ny")\r\n',
                       capture_output=True, timeout=120)
    assert (r.returncode, r.stdout) == (0, b'(a\n "x\r\ny")\n')
    r = subprocess.run([sys.executable, '-m', 'rusty', 'fmt', '-'], cwd=files, input=b'(a "\xff")',
                       capture_output=True, timeout=120)
    assert (r.returncode, r.stdout) == (1, b'')
    assert r.stderr == b'Error reading <stdin>: stream did not contain valid UTF-8\n'


# ── Atomicity: a crash leaves the old or the new text ───────────────────

def test_a_failing_replace_leaves_the_old_text_and_no_temporary(files, monkeypatch):
    def fail(src, dst):
        raise OSError(28, 'No space left on device')
    monkeypatch.setattr(fmt_command.os, 'replace', fail)
    status, out, err = run('fmt', '--write', 'messy.lisp', 'clean.lisp')
    assert (status, out) == (1, '')
    assert err == 'Error writing messy.lisp: No space left on device (os error 28)\n'
    assert (files / 'messy.lisp').read_text() == MESSY
    assert sorted(os.listdir(files)) == ['bad.lisp', 'clean.lisp', 'messy.lisp']


THIS_RUSTY = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KILLER = textwrap.dedent('''
    import os, signal, sys
    from rusty import fmt_command
    real = getattr(os, sys.argv[1])
    def hook(*args):
        if sys.argv[2] == 'after':
            real(*args)
        os.kill(os.getpid(), signal.SIGKILL)
    setattr(fmt_command.os, sys.argv[1], hook)
    fmt_command.main(['--write', 'messy.lisp'], sys.stdout, sys.stderr, sys.stdin)
''')


@pytest.mark.parametrize('step, when, expected', [
    ('fsync', 'before', MESSY),      # killed with the temporary half done: the old text
    ('replace', 'before', MESSY),    # killed just before the rename: the old text
    ('replace', 'after', CLEAN),     # killed just after it: the new text
])
def test_killed_mid_write_leaves_the_old_or_the_new_text(files, step, when, expected):
    os.chmod(files / 'messy.lisp', 0o604)
    r = subprocess.run([sys.executable, '-c', KILLER, step, when], cwd=files, capture_output=True, timeout=120,
                       env=THIS_RUSTY)
    assert r.returncode == -signal.SIGKILL
    assert (files / 'messy.lisp').read_text() == expected
    assert os.stat(files / 'messy.lisp').st_mode & 0o777 == 0o604


def test_killed_while_writing_leaves_no_temporary_and_a_kill_before_the_rename_is_cleaned_next_run(files):
    r = subprocess.run([sys.executable, '-c', KILLER, 'fsync', 'before'], cwd=files, capture_output=True, timeout=120,
                       env=THIS_RUSTY)
    assert r.returncode == -signal.SIGKILL
    assert sorted(os.listdir(files)) == ['bad.lisp', 'clean.lisp', 'messy.lisp']    # the text had no name yet
    r = subprocess.run([sys.executable, '-c', KILLER, 'replace', 'before'], cwd=files, capture_output=True,
                       timeout=120, env=THIS_RUSTY)
    assert r.returncode == -signal.SIGKILL
    left = [n for n in os.listdir(files) if n.endswith('.fmt-tmp')]
    assert len(left) == 1 and left[0].startswith('.messy.lisp.')      # named in the last instant
    assert run('fmt', '--write', 'messy.lisp') == (0, 'formatted messy.lisp\n', '')
    assert sorted(os.listdir(files)) == ['bad.lisp', 'clean.lisp', 'messy.lisp']    # the dead run's name removed
    assert (files / 'messy.lisp').read_text() == CLEAN


# ── What --write refuses, and what it keeps ──────────────────────────────

@pytest.mark.skipif(not hasattr(os, 'geteuid') or os.geteuid() != 0, reason='changing owners needs root')
def test_write_keeps_the_owner_and_group(files):
    os.chown(files / 'messy.lisp', 12345, 23456)
    os.chmod(files / 'messy.lisp', 0o640)
    assert run('fmt', '--write', 'messy.lisp') == (0, 'formatted messy.lisp\n', '')
    st = os.stat(files / 'messy.lisp')
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (12345, 23456, 0o640)
    assert (files / 'messy.lisp').read_text() == CLEAN


def test_write_refuses_read_only_hard_linked_and_non_regular_files(files):
    (files / 'ro.lisp').write_text(MESSY)
    os.chmod(files / 'ro.lisp', 0o444)
    (files / 'linked.lisp').write_text(MESSY)
    os.link(files / 'linked.lisp', files / 'other-name.lisp')
    os.mkfifo(files / 'fifo.lisp')
    os.mkdir(files / 'dir.lisp')
    status, out, err = run('fmt', '--write', 'ro.lisp', 'linked.lisp', 'fifo.lisp', 'dir.lisp', 'messy.lisp')
    assert (status, out) == (1, 'formatted messy.lisp\n')
    assert err == ('rusty fmt: ro.lisp is read-only\n'
                   'rusty fmt: linked.lisp has 2 hard links (replacing it would split them)\n'
                   'rusty fmt: fifo.lisp is not a regular file\n'
                   'rusty fmt: dir.lisp is not a regular file\n')
    for name in ('ro.lisp', 'linked.lisp', 'other-name.lisp'):
        assert (files / name).read_text() == MESSY
    assert os.stat(files / 'linked.lisp').st_nlink == 2
    status, out, err = run('fmt', '--check', 'fifo.lisp')           # would wait for a writer
    assert (status, err) == (1, 'rusty fmt: fifo.lisp is not a regular file\n')
