"""The fresh-process benchmark suite (benchmarks/bench_suite.py): every program
has its Lisp file and CPython port, every port prints the known answer at the
quick size, and the report computes its ratios and goals from timings."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, 'benchmarks')
sys.path.insert(0, BENCH)

import bench_suite  # noqa: E402
from suite_programs import PROGRAMS  # noqa: E402


def test_every_program_has_both_files_and_a_unique_name():
    names = [r[1] for r in PROGRAMS]
    assert len(names) == len(set(names)) and len(names) >= 54
    for group, name, *_ in PROGRAMS:
        for ext in ('.lisp', '.py'):
            assert os.path.exists(os.path.join(BENCH, 'programs', group, name + ext)), name


@pytest.mark.parametrize('row', PROGRAMS, ids=[r[1] for r in PROGRAMS])
def test_the_port_prints_the_known_answer(row, tmp_path):
    group, name, _full, quick, _want_full, want_quick = row
    port = os.path.join(BENCH, 'programs', group, name + '.py')
    out = subprocess.run([sys.executable, port] + quick.split(), cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip() == want_quick.rstrip()


def test_the_report_computes_ratios_and_goals():
    row = ('classics', 'tak', '1', '1', '7', '7')
    times = {'cold': [0.3], 'warm': [0.2], 'ref-cold': [0.2], 'ref-warm': [0.2],
             'cpython': [0.1]}
    body, goals, problems = bench_suite.report({row: (times, [], '')}, True, 1, ROOT, False)
    assert '3.00×' in body and problems == []
    by_name = {g['name']: g for g in goals}
    assert by_name['suite classics: geomean cold/CPython']['met'] is True
    slack = by_name['suite classics: compiled ≤ 1.15× reference + 30 ms']
    assert slack['met'] is False and 'tak (cold' in slack['note']    # 0.3 > 1.15 * 0.2 + 0.03
