"""Collects golden .lisp programs (tests/lisp/**, repl.lisp-examples/) as tests.

A golden program is run exactly as `rusty FILE` would run it (from the file's
own directory) and compared with its comments:

    ; expect: TEXT          the next line of standard output is TEXT
    ; expect-match: REGEX   the next line of standard output matches REGEX (timings)
    ; expect-error: MSG     the run ends with the uncaught error MSG (exit 1)
    ; expect-stderr: TEXT   the next line of standard error is TEXT
    ; expect-exit: N        the exit status (default 0, or 1 with expect-error)
    ; requires: rustc       needs rustc (see tests/conftest.py)
    ; args: A B …           run as `rusty FILE A B …` (words split at spaces)
    ; stdin: TEXT           a line of standard input (repeatable; none: empty stdin)
"""
import io
import os
import re
import shutil

import pytest

DIRECTIVES = ('expect-match', 'expect-error', 'expect-stderr', 'expect-exit', 'expect', 'requires', 'args',
              'stdin')


def pytest_collect_file(parent, file_path):
    if file_path.suffix == '.lisp' and _is_golden_dir(file_path):
        return GoldenFile.from_parent(parent, path=file_path)


def _is_golden_dir(path):
    parts = path.parts
    return 'repl.lisp-examples' in parts or ('tests' in parts and 'lisp' in parts)


def parse_expectations(text):
    """The directives of a golden program, as a dict of lists. Output lines
    (expect / expect-match) are kept in order in 'lines' as (regex?, text)."""
    found = {d: [] for d in DIRECTIVES}
    found['lines'] = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if not stripped.startswith(';'):
            continue
        body = stripped.lstrip(';').lstrip(' ')
        for d in DIRECTIVES:
            if body.startswith(d + ':'):
                value = body[len(d) + 1:]
                value = value[1:] if value.startswith(' ') else value
                found[d].append(value)
                if d in ('expect', 'expect-match'):
                    found['lines'].append((d == 'expect-match', value))
                break
    return found


def output_matches(lines, got: str) -> bool:
    got_lines = got.split('\n')
    if got_lines[-1] != '' or len(got_lines) - 1 != len(lines):
        return False
    for (is_re, want), line in zip(lines, got_lines):
        if is_re:
            if not re.fullmatch(want, line):
                return False
        elif want != line:
            return False
    return True


class GoldenFile(pytest.File):
    def collect(self):
        yield GoldenItem.from_parent(self, name=self.path.name)


class GoldenItem(pytest.Item):
    def runtest(self):
        from rusty import cli
        text = self.path.read_text(encoding='utf-8')
        exp = parse_expectations(text)
        if 'rustc' in exp['requires'] and shutil.which('rustc') is None:
            if os.environ.get('RUSTY_REQUIRE_RUSTC') == '1':
                pytest.fail('rustc is required (RUSTY_REQUIRE_RUSTC=1) but not on PATH')
            pytest.skip('rustc not on PATH')
        out, err = io.StringIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(self.path.parent)
        try:
            args = [a for line in exp['args'] for a in line.split()]
            stdin = io.StringIO(''.join(line + '\n' for line in exp['stdin']))
            status = cli.main([self.path.name] + args, stdout=out, stderr=err, stdin=stdin)
        finally:
            os.chdir(old)
        want_out = ''.join(('/%s/' % text if is_re else text) + '\n' for is_re, text in exp['lines'])
        want_exit = int(exp['expect-exit'][0]) if exp['expect-exit'] else (1 if exp['expect-error'] else 0)
        got_err = err.getvalue()
        problems = []
        if not output_matches(exp['lines'], out.getvalue()):
            problems.append('stdout differs:\n--- expected\n%s--- got\n%s' % (want_out, out.getvalue()))
        if exp['expect-error']:
            want_first = 'Error: ' + exp['expect-error'][0]
            if not got_err.startswith(want_first + '\n'):
                problems.append('expected error %r, stderr was:\n%s' % (want_first, got_err))
        if exp['expect-stderr']:
            want_stderr = ''.join(line + '\n' for line in exp['expect-stderr'])
            if got_err != want_stderr:
                problems.append('stderr differs:\n--- expected\n%s--- got\n%s' % (want_stderr, got_err))
        elif not exp['expect-error'] and got_err:
            problems.append('unexpected stderr:\n' + got_err)
        if status != want_exit:
            problems.append('exit status %d, expected %d' % (status, want_exit))
        if problems:
            raise GoldenMismatch('\n'.join(problems))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, GoldenMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, 'golden: %s' % self.path.name


class GoldenMismatch(Exception):
    pass
