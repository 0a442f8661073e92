"""`rusty --stats`: what the compiler did, on standard error after the run."""
import io
import re

from rusty import cli


def stats_of(argv, monkeypatch, fast=True):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(['--stats'] + argv, stdout=out, stderr=err, stdin=io.StringIO(''))
    return status, out.getvalue(), err.getvalue()


def test_stats_count_the_lambdas_compiled(monkeypatch, tmp_path):
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CACHE_DIR', str(tmp_path))       # (an empty disk cache: compiled, not loaded)
    from rusty.compile.link import STATS
    before = STATS.compiled
    status, out, err = stats_of(['-e', '(define (f a) (if a (+ a 1) 0)) (define (g a) (f a)) (display (g 1))'], monkeypatch)
    assert status == 0 and out == '2'
    m = re.fullmatch(r'stats: (\d+) lambdas?(?: and \d+ loops?)? compiled \(\d+\.\d{3} s\), '
                     r'\d+(?: lambdas? and \d+ loops?)? loaded from the cache, '
                     r'\d+ on the reference(, \d+ deoptimised)?\n', err)
    assert m and int(m.group(1)) >= before + 2, err


def test_the_stats_line_names_what_was_done():
    from rusty.compile.link import Stats
    s = Stats()
    s.compiled, s.seconds, s.loaded, s.refused = 14, 0.021, 3, 2
    assert s.line() == 'stats: 14 lambdas compiled (0.021 s), 3 loaded from the cache, 2 on the reference'
    s.compiled, s.deopts = 1, 2
    assert s.line() == 'stats: 1 lambda compiled (0.021 s), 3 loaded from the cache, 2 on the reference, 2 deoptimised'
    s.compiled, s.loops, s.loaded, s.loops_loaded, s.deopts = 0, 1, 1, 2, 0
    assert s.line() == ('stats: 0 lambdas and 1 loop compiled (0.021 s), 1 lambda and 2 loops loaded from the cache, '
                        '2 on the reference')
    s.loops, s.loaded, s.loops_loaded, s.seconds = 0, 0, 1, 0.0
    assert s.line() == 'stats: 0 lambdas compiled (0.000 s), 0 lambdas and 1 loop loaded from the cache, 2 on the reference'


def test_stats_with_the_compiler_off(monkeypatch):
    status, out, err = stats_of(['-e', '(display 1)'], monkeypatch, fast=False)
    assert (status, out) == (0, '1') and err.startswith('stats: the compiler is off')


def test_the_stats_meta_command(monkeypatch):
    from rusty.repl import meta
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    shown = []

    class Prompt:
        def write(self, text):
            shown.append(text)
    meta.run(Prompt(), ',stats')
    assert len(shown) == 1 and re.fullmatch(r'stats: \d+ lambdas?(?: and \d+ loops?)? compiled .*\n', shown[0]), shown
