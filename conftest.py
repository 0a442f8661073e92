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

Files under a `lib/` directory are helpers that goldens load; they are not
collected. A collected golden must state at least one expectation.
"""
import io
import os
import re
import shutil
import subprocess

import pytest

DIRECTIVES = ('expect-match', 'expect-error', 'expect-stderr', 'expect-exit', 'expect', 'requires', 'args',
              'stdin')


# ── A rustc that is on PATH but cannot run (rustup without a toolchain) ──

RUSTC_PROBLEM = []   # the one message about it, once known


def broken_rustc():
    """Why the rustc on PATH cannot compile (e.g. rustup's "no default
    toolchain"), or None when it runs or is absent."""
    path = shutil.which('rustc')
    if path is None:
        return None
    try:
        done = subprocess.run([path, '-vV'], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        return '%s does not run: %s' % (path, e)
    if done.returncode == 0:
        return None
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    why = lines[0] if lines else 'exit status %d' % done.returncode
    hint = ' (with rustup: `rustup default stable`)' if 'rustup' in why else ''
    return 'rustc on PATH (%s) cannot compile: %s%s' % (path, why.strip(), hint)


def pytest_sessionstart(session):
    """One clear message instead of a failure per native test: with
    RUSTY_REQUIRE_RUSTC=1 the session stops; otherwise that rustc is taken
    off PATH, so native tests skip and the interpreter's fallbacks run."""
    problem = broken_rustc()
    if problem is None:
        return
    RUSTC_PROBLEM.append(problem)
    if os.environ.get('RUSTY_REQUIRE_RUSTC') == '1':
        pytest.exit('RUSTY_REQUIRE_RUSTC=1, but ' + problem, returncode=3)
    bad = os.path.dirname(shutil.which('rustc'))
    os.environ['PATH'] = os.pathsep.join(d for d in os.environ.get('PATH', '').split(os.pathsep)
                                         if d and os.path.realpath(d) != os.path.realpath(bad))


def pytest_report_header(config):
    if RUSTC_PROBLEM:
        return ['native tests skipped: ' + RUSTC_PROBLEM[0]]
    return None


def pytest_terminal_summary(terminalreporter):
    if RUSTC_PROBLEM:
        terminalreporter.write_line('note: native tests skipped: ' + RUSTC_PROBLEM[0], yellow=True)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == '.lisp' and _is_golden_dir(file_path):
        return GoldenFile.from_parent(parent, path=file_path)


def _is_golden_dir(path):
    parts = path.parts
    if 'lib' in parts[-2:-1]:
        return False
    return 'repl.lisp-examples' in parts or ('tests' in parts and 'lisp' in parts)


def states_an_expectation(exp) -> bool:
    """Whether a golden says what it expects (a file that says nothing tests nothing)."""
    return any(exp[d] for d in DIRECTIVES if d not in ('requires', 'args', 'stdin'))


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
        if not states_an_expectation(exp):
            raise GoldenMismatch('%s states no expectation (; expect: ..., ; expect-exit: 0, ...): '
                                 'a helper belongs in a lib/ directory' % self.path.name)
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
