"""Tests of the optional extras (lsp, jupyter) skip only where the extra is
missing and nobody asked for it: under CI (CI=true) or RUSTY_REQUIRE_EXTRAS=1
a missing extra fails the test instead."""
import importlib.util
import os

import pytest


def require(*modules: str) -> None:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    if os.environ.get('RUSTY_REQUIRE_EXTRAS') == '1' or os.environ.get('CI', '').lower() == 'true':
        pytest.fail('%s required (CI or RUSTY_REQUIRE_EXTRAS=1) but not installed' % ', '.join(missing))
    pytest.skip('%s not installed' % ', '.join(missing))
