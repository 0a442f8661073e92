"""`(trace 'f)` / `(untrace 'f)`: entry and return lines on standard error,
indented by traced depth, tail calls keeping theirs; the same with the fast
paths on and off (docs/reference.md, "Debugging")."""

import pytest

from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.report import render
from helpers import session_on_path
from rusty.runtime import Session

FACT = '(define (fact n) (if (= n 0) 1 (* n (fact (- n 1)))))'
LOOP = '(define (loop n acc) (if (= n 0) acc (loop (- n 1) (+ acc n))))'


def session(monkeypatch, fast: bool) -> Session:
    return session_on_path(monkeypatch, fast)


def traced(s, code: str) -> list:
    """The trace lines `code` writes to the session's standard error."""
    s.err.seek(0)
    s.err.truncate()
    s.run(code, '<test>')
    return s.err.getvalue().splitlines()


@pytest.fixture(params=[False, True], ids=['reference', 'fast'])
def s(request, monkeypatch):
    return session(monkeypatch, request.param)


def test_non_tail_recursion_indents_by_depth(s):
    s.run(FACT)
    s.run("(trace 'fact)")
    assert traced(s, '(fact 3)') == [
        '> (fact 3)',
        '  > (fact 2)',
        '    > (fact 1)',
        '      > (fact 0)',
        '      < 1',
        '    < 1',
        '  < 2',
        '< 6',
    ]


def test_tail_calls_keep_the_depth_and_return_once(s):
    s.run(LOOP)
    s.run("(trace 'loop)")
    assert traced(s, '(loop 2 0)') == ['> (loop 2 0)', '> (loop 1 2)', '> (loop 0 3)', '< 3']


def test_arguments_and_values_in_write_form_rest_arguments_spread(s):
    s.run('(define (tag label . xs) (cons label xs))')
    s.run("(trace 'tag)")
    assert traced(s, '(tag "a b" 1 \'c)') == ['> (tag "a b" 1 c)', '< ("a b" 1 c)']


def test_calls_from_builtins_and_between_traced_procedures(s):
    s.run('(define (sq x) (* x x))')
    s.run('(define (sum-sq xs) (apply + (map sq xs)))')
    s.run("(trace 'sq 'sum-sq)")
    assert traced(s, "(sum-sq '(1 2))") == [
        '> (sum-sq (1 2))', '  > (sq 1)', '  < 1', '  > (sq 2)', '  < 4', '< 5']


def test_untrace_stops_and_trace_lists_names(s):
    s.run(FACT + LOOP)
    assert write_form(s.run("(trace 'fact 'loop)")) == '(fact loop)'
    assert write_form(s.run('(trace)')) == '(fact loop)'
    s.run("(untrace 'fact)")
    assert traced(s, '(fact 2)') == []
    assert traced(s, '(loop 1 0)') == ['> (loop 1 0)', '> (loop 0 1)', '< 1']
    assert s.depth.gate == -1                   # something is still traced
    s.run('(untrace)')
    assert traced(s, '(loop 1 0)') == []
    assert s.depth.gate == s.depth.limit        # nothing traced: application as before


def test_an_error_ends_the_traced_calls_and_reports_as_untraced(s, monkeypatch):
    bad = '(define (bad n) (if (= n 0) (car n) (+ 1 (bad (- n 1)))))'
    plain = session(monkeypatch, s.unit.compile_lambda is not None)
    for sess in (s, plain):
        sess.run(bad, 'bad.lisp')
    s.run("(trace 'bad)")
    reports = []
    for sess in (s, plain):
        with pytest.raises(RustyError) as e:
            sess.run('(bad 2)', '<test>')
        reports.append(render(e.value, sess.sources))
    assert reports[0] == reports[1]
    assert 'internal error' not in reports[0]
    s.err.seek(0)
    s.err.truncate()
    s.run('(try-catch (bad 0) (e) 0)')
    s.run("(define (ok) 1) (trace 'ok) (ok)")
    assert s.err.getvalue().splitlines() == ['> (bad 0)', '> (ok)', '< 1']   # depth back at 0


def test_tracing_what_is_not_a_lisp_procedure_is_a_clear_error(s):
    for code, message in [("(trace 'car)", 'trace: car is not a procedure written in rusty (it is a builtin)'),
                          ("(trace 5)", 'trace: expected a symbol naming a procedure, got 5'),
                          ("(define v 5) (trace 'v)",
                           'trace: v is not a procedure written in rusty (it is a number, not a procedure)'),
                          ("(defmacro m (x) x) (trace 'm)", 'trace: m is not a procedure written in rusty (it is a macro)'),
                          ("(trace 'when)", 'trace: when is a special form, not a procedure'),
                          ("(trace 'no-such-thing)", "Undefined: 'no-such-thing'")]:
        with pytest.raises(RustyError) as e:
            s.run(code)
        assert message in e.value.message
        assert 'internal error' not in e.value.message


def test_library_procedures_computed_inline_are_traced_as_called(s):
    s.run("(define (second xs) (cadr xs))")
    s.run("(trace 'cadr)")
    assert traced(s, "(second '(1 2 3))") == ['> (cadr (1 2 3))', '< 2']


def test_trace_in_a_piped_program_writes_to_standard_error():
    from test_cli import proc
    r = proc(['-'], input=FACT + "\n(trace 'fact)\n(print (fact 1))\n(untrace)\n(fact 2)\n")
    assert r.returncode == 0
    assert r.stdout == '1\n2\n'
    assert r.stderr.splitlines() == ['> (fact 1)', '  > (fact 0)', '  < 1', '< 1']


def test_a_fast_path_watching_the_gate_is_told_when_it_moves(s):
    seen = []
    s.depth.watchers.append(lambda gate, counting: seen.append((gate, counting is not None)))
    s.run(FACT)
    s.run("(trace 'fact)")
    s.run('(untrace)')
    s.profile('(fact 2)')
    s.run("(trace 'fact)")
    s.profile('(fact 2)')
    limit = s.depth.limit
    # the profiler alone lets compiled code count its own calls; with a trace, every call goes to the tools
    assert seen == [(-1, False), (limit, False), (-1, True), (limit, False), (-1, False), (-1, False), (-1, False)]
