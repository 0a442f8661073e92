"""Set-up on a stock machine: a rustc that cannot run (rustup without a default
toolchain) gives the test session one clear message, and `make` uses a project
virtual environment where PEP 668 forbids installing outside one."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUSTUP_SAYS = ("error: rustup could not choose a version of rustc to run, because one wasn't specified "
               "explicitly, and no default is configured.")
NATIVE_TEST = 'tests/test_jit_codegen.py::test_constants_survive_compilation'


def fake_rustc(tmp_path):
    """A directory whose `rustc` fails the way rustup's proxy does without a toolchain."""
    d = tmp_path / 'bin'
    d.mkdir()
    exe = d / 'rustc'
    exe.write_text('#!/bin/sh\necho "%s" >&2\nexit 1\n' % RUSTUP_SAYS)
    exe.chmod(0o755)
    return str(d)


def pytest_in(tmp_path, require):
    # only the failing rustc: no working one further along PATH
    path = [d for d in os.environ['PATH'].split(os.pathsep) if d and not os.path.exists(os.path.join(d, 'rustc'))]
    env = dict(os.environ, PATH=os.pathsep.join([fake_rustc(tmp_path)] + path),
               RUSTY_CACHE_DIR=str(tmp_path / 'cache'))
    env.pop('RUSTY_REQUIRE_RUSTC', None)
    if require:
        env['RUSTY_REQUIRE_RUSTC'] = '1'
    return subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-rs', NATIVE_TEST],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_rustup_without_toolchain_stops_a_required_session_with_one_message(tmp_path):
    done = pytest_in(tmp_path, require=True)
    assert done.returncode == 3
    assert ('RUSTY_REQUIRE_RUSTC=1, but rustc on PATH (%s/rustc) cannot compile: %s (with rustup: '
            '`rustup default stable`)' % (tmp_path / 'bin', RUSTUP_SAYS)) in done.stdout + done.stderr
    assert 'FAILED' not in done.stdout and 'passed' not in done.stdout


@pytest.mark.slow
def test_rustup_without_toolchain_skips_native_tests_otherwise(tmp_path):
    done = pytest_in(tmp_path, require=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '1 skipped' in done.stdout
    assert done.stdout.count('note: native tests skipped: rustc on PATH') == 1


# ── make on a PEP 668 Python ─────────────────────────────────────────────

def make_n(tmp_path, target, managed, extras='test'):
    """`make -n TARGET` with a stand-in system Python that says whether it is externally managed."""
    py = tmp_path / 'python3'
    py.write_text('#!/bin/sh\necho %d\n' % int(managed))
    py.chmod(0o755)
    # EXTRAS pinned: CI exports EXTRAS=test,lsp,jupyter, which these texts do not expect
    done = subprocess.run(['make', '-n', target, 'SYSPYTHON=%s' % py, 'BINDIR=%s' % (tmp_path / 'bin'), 'EXTRAS=%s' % extras],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


needs_make = pytest.mark.skipif(shutil.which('make') is None, reason='make not installed')


@needs_make
def test_make_install_uses_a_project_venv_when_pip_is_externally_managed(tmp_path):
    text = make_n(tmp_path, 'install', managed=True)
    assert '-m venv .venv' in text
    assert ".venv/bin/python -m pip install -q -e '.[test]'" in text
    assert 'ln -sf %s/.venv/bin/rusty %s/rusty' % (ROOT, tmp_path / 'bin') in text
    assert '.venv/bin/python -m pytest -q' in make_n(tmp_path, 'test', managed=True)


@needs_make
def test_make_install_uses_the_python_found_first_otherwise(tmp_path):
    text = make_n(tmp_path, 'install', managed=False)
    assert '.venv' not in text
    assert "-m pip install -q -e '.[test]'" in text


@needs_make
def test_make_install_takes_the_extras_ci_asks_for(tmp_path):
    assert "-m pip install -q -e '.[test,lsp,jupyter]'" in make_n(tmp_path, 'install', False, 'test,lsp,jupyter')


@needs_make
def test_make_lint_installs_pyflakes_first(tmp_path):
    lines = make_n(tmp_path, 'lint', managed=False).splitlines()
    install = [i for i, line in enumerate(lines) if 'pip install -q pyflakes' in line]
    run = [i for i, line in enumerate(lines) if '-m pyflakes rusty tests benchmarks' in line]
    assert install and run and install[0] < run[0]


@needs_make
def test_make_tour_runs_the_rusty_just_installed(tmp_path):
    # The README's first command: with a project venv its rusty, whether or
    # not BINDIR is on PATH yet; elsewhere the Python found first runs it.
    def commands(managed):      # (under `make test`, make -n also says which directory it is in)
        return [line for line in make_n(tmp_path, 'tour', managed).splitlines() if not line.startswith('make[')]
    managed = commands(True)
    assert managed[-1] == '.venv/bin/rusty repl.lisp-examples/tour.lisp'
    assert any("pip install -q -e '.[test]'" in line for line in managed[:-1])
    plain = commands(False)
    assert plain[-1] == '%s -m rusty repl.lisp-examples/tour.lisp' % (tmp_path / 'python3')


def test_the_readme_starts_with_make_tour_and_make_test():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as fh:
        text = fh.read()
    block = text[text.index('```sh\n') + 6:text.index('```', text.index('```sh\n') + 6)]
    assert [line.split('#')[0].strip() for line in block.strip().splitlines()] == ['make tour', 'make test']
