"""Shared fixtures: a private cache directory per test run, and the rustc marker."""
import os
import shutil

import pytest


@pytest.fixture(scope='session', autouse=True)
def _private_jit_cache(tmp_path_factory):
    """Point the caches (the JIT's libraries, the compiled lambdas, the
    standard library's read forms) at a temporary directory for the whole
    run: the suite never writes to ~/.rusty."""
    if 'RUSTY_CACHE_DIR' not in os.environ:
        d = tmp_path_factory.mktemp('jit-cache')
        os.chmod(d, 0o700)
        os.environ['RUSTY_CACHE_DIR'] = str(d)
    # Compiled code from a lambda's second call (not when hot, as by
    # default): the suite's programs are short, and must run compiled.
    os.environ.setdefault('RUSTY_COMPILE_CALLS', '1')
    yield


def pytest_runtest_setup(item):
    if item.get_closest_marker('rustc') and shutil.which('rustc') is None:
        if os.environ.get('RUSTY_REQUIRE_RUSTC') == '1':
            pytest.fail('rustc is required (RUSTY_REQUIRE_RUSTC=1) but not on PATH')
        pytest.skip('rustc not on PATH')
