"""The distribution as pip builds it: the wheel holds every module and every
file the code opens beside its modules (a hand-kept package list once left
rusty.compile out, and an installed rusty failed every program), under the
name `rusty-lisp`, with the `rusty` command and the extras the hints name.
`make wheel-check` goes further: it installs the wheel into a fresh virtual
environment and runs the examples, `rusty lsp` and `rusty kernel` from it."""
import email
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OFFLINE = re.compile(r'Could not find a version that satisfies|NewConnectionError|Temporary failure in name '
                     r'resolution|Name or service not known|Network is unreachable')


def required() -> bool:
    """Under CI (or RUSTY_REQUIRE_EXTRAS=1) nothing skips."""
    return os.environ.get('RUSTY_REQUIRE_EXTRAS') == '1' or os.environ.get('CI', '').lower() == 'true'


def package_files() -> list[str]:
    """The files under rusty/ that git knows of (tracked or new, not ignored)."""
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard', 'rusty'],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return sorted(f for f in out if os.path.exists(os.path.join(ROOT, f)))


def can_build_wheels() -> bool:
    """Whether this Python's setuptools can build a wheel (bdist_wheel: setuptools >= 70.1, or `wheel`)."""
    import importlib.util
    try:
        return (importlib.util.find_spec('setuptools.command.bdist_wheel') is not None
                or importlib.util.find_spec('wheel') is not None)
    except ImportError:
        return False


@pytest.fixture(scope='module')
def wheel(tmp_path_factory):
    """The wheel pip builds from a copy of the project's files (the checkout's
    own build/ directory, which may hold stale modules, is not used)."""
    if shutil.which('git') is None or not os.path.isdir(os.path.join(ROOT, '.git')) and \
            not os.path.isfile(os.path.join(ROOT, '.git')):
        pytest.skip('needs a git checkout to list the package files')
    src = tmp_path_factory.mktemp('src')
    for f in package_files() + ['pyproject.toml', 'README.md']:
        os.makedirs(os.path.dirname(src / f), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), src / f)
    out = tmp_path_factory.mktemp('dist')
    # offline with this Python's setuptools when it can build wheels, else in pip's isolated build environment
    isolation = ['--no-build-isolation'] if can_build_wheels() else []
    done = subprocess.run([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', *isolation,
                           '-w', str(out), str(src)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0 and not isolation and OFFLINE.search(done.stderr) and not required():
        pytest.skip('building a wheel needs setuptools>=70.1 or `wheel` here, or PyPI for pip to fetch them')
    assert done.returncode == 0, done.stdout + done.stderr
    [name] = os.listdir(out)
    with zipfile.ZipFile(out / name) as z:
        yield name, set(z.namelist()), {n: z.read(n).decode('utf-8') for n in z.namelist() if '.dist-info/' in n}


def test_the_wheel_holds_every_module_and_data_file(wheel):
    _name, names, _meta = wheel
    wanted = [f for f in package_files() if '__pycache__' not in f and not f.endswith('.pyc')]
    assert 'rusty/compile/__init__.py' in wanted and 'rusty/stdlib.lisp' in wanted
    missing = [f for f in wanted if f not in names]
    assert missing == []


def test_the_files_the_code_opens_are_package_files():
    from rusty.jit import codegen
    from rusty.runtime import STDLIB_PATH
    opened = [STDLIB_PATH, os.path.join(ROOT, 'rusty', 'jit', 'kernels.rs'),
              os.path.join(ROOT, 'rusty', 'jit', codegen.PRELUDE_FILE)]
    files = package_files()
    for path in opened:
        assert os.path.relpath(path, ROOT) in files


def test_the_distribution_is_rusty_lisp_with_the_rusty_command(wheel):
    name, _names, meta = wheel
    assert name.startswith('rusty_lisp-')
    [metadata] = [v for k, v in meta.items() if k.endswith('/METADATA')]
    msg = email.message_from_string(metadata)
    assert msg['Name'] == 'rusty-lisp'
    extras = msg.get_all('Provides-Extra')
    assert {'lsp', 'jupyter', 'notebook', 'test'} <= set(extras)
    requires = msg.get_all('Requires-Dist')
    assert any(r.startswith('nbconvert') and 'extra == "jupyter"' in r for r in requires)
    assert any(r.startswith('pygls') and 'extra == "lsp"' in r for r in requires)
    [entry] = [v for k, v in meta.items() if k.endswith('/entry_points.txt')]
    assert 'rusty = rusty.cli:console_main' in entry


def test_the_install_hints_name_the_distribution():
    from rusty.kernel.command import INSTALL_HINT as kernel_hint
    from rusty.lsp.command import INSTALL_HINT as lsp_hint
    assert "pip install 'rusty-lisp[jupyter]'" in kernel_hint
    assert "pip install 'rusty-lisp[lsp]'" in lsp_hint


# ── make install with the Jupyter extras ─────────────────────────────────

def make_commands(tmp_path, target, managed, extras):
    from test_setup import make_n
    return [line for line in make_n(tmp_path, target, managed, extras).splitlines() if not line.startswith('make[')]


@pytest.mark.skipif(shutil.which('make') is None, reason='make not installed')
def test_make_install_with_jupyter_registers_the_kernel_in_that_environment(tmp_path):
    managed = make_commands(tmp_path, 'install', True, 'test,jupyter')
    assert ".venv/bin/python -m pip install -q -e '.[test,jupyter]' --config-settings editable_mode=compat" in managed
    assert '.venv/bin/rusty kernel install --prefix "$(.venv/bin/python -c \'import sys; print(sys.prefix)\')"' \
        in managed
    plain = make_commands(tmp_path, 'install', False, 'notebook')
    assert any(' -m rusty kernel install --prefix ' in line for line in plain)
    assert not any('kernel install' in line for line in make_commands(tmp_path, 'install', True, 'test,lsp'))


@pytest.mark.skipif(shutil.which('make') is None, reason='make not installed')
def test_make_notebook_installs_jupyterlab_and_starts_it(tmp_path):
    lines = make_commands(tmp_path, 'notebook', True, 'test')
    assert ".venv/bin/python -m pip install -q -e '.[test,notebook]' --config-settings editable_mode=compat" in lines
    assert lines[-1] == '.venv/bin/python -m jupyterlab'
