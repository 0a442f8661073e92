"""At the prompt: `,frames ,locals ,up ,down` after an uncaught error,
`(breakpoint)`'s nested prompt (`,continue`, Ctrl-D), `,trace`, `,untrace` and
`,profile`, with the fast paths on and off; and `(breakpoint)` in batch mode
without a terminal. Driven headlessly (tests/repl_driver.py); the real
terminal is tests/test_toolbox_terminal.py."""
import pytest

from repl_driver import CTRL_D, ENTER, drive
from rusty.runtime import Session
from test_cli import proc

FACT = '(define (fact n) (if (= n 0) (car n) (* n (fact (- n 1)))))'


def lines(*inputs) -> str:
    return ''.join(text + ENTER for text in inputs)


@pytest.fixture(params=[False, True], ids=['reference', 'fast'])
def session(request, monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if request.param else '0')
    s = Session()
    monkeypatch.delenv('RUSTY_SPECIALIZE')
    return s


def after(out: str, marker: str) -> list:
    """The output lines after the first line containing marker."""
    all_lines = out.splitlines()
    for i, line in enumerate(all_lines):
        if marker in line:
            return all_lines[i + 1:]
    raise AssertionError('%r not in output:\n%s' % (marker, out))


# ── Post-mortem ──────────────────────────────────────────────────────────

def test_frames_locals_up_down_after_an_error(session):
    out, _ = drive(lines(FACT, '(fact 2)', ',frames', ',locals', ',up', ',locals', ',locals 2', ',down',
                         ',down', ',up', ',up', ',up', ',frame 0', ',locals') + CTRL_D, session=session)
    shown = after(out, 'in fact')
    shown = shown[shown.index('Error: car: not a pair'):]
    assert shown[:4] == [
        'Error: car: not a pair',
        '>  0: fact  at <repl:1>:1:30',        # the failing (car n)
        '   1: fact  at <repl:1>:1:43',        # the call (fact (- n 1)) in it
        '   2: fact  at <repl:1>:1:43',
    ]
    assert shown[4:13] == [
        '0: fact  at <repl:1>:1:30', '  n = 0',
        '>  1: fact  at <repl:1>:1:43',
        '1: fact  at <repl:1>:1:43', '  n = 1',
        '2: fact  at <repl:1>:1:43', '  n = 2',     # ,locals 2 looks at frame 2: frame 1 stays current
        '>  0: fact  at <repl:1>:1:30',             # so ,down goes from 1 to 0
        'Already at the innermost frame.',
    ]
    assert shown[13:16] == ['>  1: fact  at <repl:1>:1:43', '>  2: fact  at <repl:1>:1:43',
                            'Already at the outermost frame.']
    assert shown[16:19] == ['>  0: fact  at <repl:1>:1:30', '0: fact  at <repl:1>:1:30', '  n = 0']


def test_locals_n_leaves_the_current_frame_and_frame_n_moves(session):
    out, _ = drive(lines(FACT, '(fact 2)', ',locals 2', ',frames', ',frame 2', ',frames', ',locals', ',up',
                         ',frame 9', ',frame') + CTRL_D, session=session)
    shown = after(out, 'in fact')
    listings = [i for i, line in enumerate(shown) if line == 'Error: car: not a pair']
    first, second = listings
    assert shown[first + 1] == '>  0: fact  at <repl:1>:1:30'          # ,locals 2 moved nothing
    assert shown[second - 1] == '>  2: fact  at <repl:1>:1:43'         # ,frame 2 says where it moved
    assert shown[second + 1:second + 4] == ['   0: fact  at <repl:1>:1:30', '   1: fact  at <repl:1>:1:43',
                                            '>  2: fact  at <repl:1>:1:43']
    assert shown[second + 4:second + 6] == ['2: fact  at <repl:1>:1:43', '  n = 2']
    assert shown[second + 6] == 'Already at the outermost frame.'
    assert out.count('usage: ,frame N with N a frame number from 0 to 2 (,frames lists them)') == 2


def test_locals_are_pretty_printed_and_enclosing_variables_shown(session):
    code = ('(define (outer xs) (let ((ys (map (lambda (x) (list x "s")) xs)))'
            ' (define (inner k) (car k)) (inner (length ys))))')
    out, _ = drive(lines(code, '(outer (iota 12))', ',locals') + CTRL_D, session=session, width=40)
    shown = after(out, '0: inner')
    assert shown[0] == '  k = 12'
    assert shown[1] == '  enclosing:'
    body = '\n'.join(shown[2:])
    assert '    ys = ((0 "s")\n          (1 "s")\n' in body     # write form, laid out in the width
    assert max(len(line) for line in shown[2:] if line.startswith(' ')) <= 40
    assert 'xs = (0 1 2 3' in body


def test_frames_without_an_error_or_out_of_range_say_so(session):
    out, _ = drive(lines(',frames', FACT, '(fact 1)', ',locals 9', ',locals x') + CTRL_D, session=session)
    assert 'No error to inspect: ,frames lists the frames of the last uncaught error.' in out
    assert out.count('usage: ,locals [N] with N a frame number from 0 to 1 (,frames lists them)') == 2
    assert out.count('No error to inspect') == 1
    assert 'Traceback' not in out and 'internal error' not in out


# ── Breakpoints ──────────────────────────────────────────────────────────

BP = '(define (f x) (let ((y (* x 2))) (+ (breakpoint) y)))'


def test_a_breakpoint_reads_and_sets_locals_and_continues_with_the_last_value(session):
    out, repl = drive(lines(BP, '(f 5)', 'x', 'y', ',locals', '(set! y 100)', '7', ',continue', '(f 1)')
                      + CTRL_D + lines('(+ 1 2)') + CTRL_D, session=session)
    shown = after(out, '; breakpoint at <repl:1>:1:37')
    assert shown[:7] == ['=> 5', '=> 10', 'breakpoint at <repl:1>:1:37', '  y = 10', '  enclosing:',
                         '    x = 5', '=> 7']
    assert shown[7] == '=> 107'                     # (+ 7 y) with y set to 100
    # Ctrl-D resumes with Nil (nothing evaluated there): + complains, the session goes on
    assert 'Error: +: expected a number, got ()' in out
    assert '=> 3' in out
    assert repl.level == 0 and repl.breaks == []


def test_breakpoints_nest_and_definitions_made_there_stay(session):
    keys = lines('(define (g) (breakpoint) 1)', '(g)', '(define kept 42)', '(g)', 'kept', ',continue',
                 ',continue', 'kept', ',continue')
    out, repl = drive(keys + CTRL_D, session=session)
    assert out.count('; breakpoint at <repl:1>:1:13') == 2
    assert out.count('=> 42') == 2          # inside the inner breakpoint and after both
    assert 'Not at a breakpoint: (breakpoint) in code opens one.' in out
    assert repl.level == 0


def test_breakpoint_without_a_terminal_is_a_notice(tmp_path):
    prog = tmp_path / 'bp.lisp'
    prog.write_text('(define (f x) (begin (breakpoint) x))\n(print (f 3))\n')
    r = proc([str(prog)], input='')
    assert r.returncode == 0
    assert r.stdout == '3\n'
    assert r.stderr == '; breakpoint at %s:1:22 skipped: no terminal\n' % prog


# ── Trace and profile at the prompt ──────────────────────────────────────

def test_trace_untrace_and_profile_commands(session, capsys):
    loop = '(define (loop n) (if (= n 0) (quote done) (loop (- n 1))))'
    out, _ = drive(lines(loop, ',trace loop', '(loop 2)', ',untrace', '(loop 2)', ',trace', ',trace car',
                         ',profile (loop 30)') + CTRL_D, session=session)
    assert '; tracing: loop' in out
    assert '; tracing: nothing' in out
    assert 'trace: car is not a procedure written in rusty (it is a builtin)' in out
    assert capsys.readouterr().err.splitlines() == ['> (loop 2)', '> (loop 1)', '> (loop 0)', '< done']
    table = after(out, '; profile: ')
    assert table[0].split()[:2] == ['procedure', 'calls']
    assert table[1].split()[:4] == ['loop', '(<repl:1>:1)', '31', table[1].split()[3]]
    assert out.count('=> done') == 3


def test_a_session_that_uses_every_tool_keeps_its_definitions(session, capsys):
    keys = lines(FACT, '(define (sq x) (* x x))', ',trace sq', '(sq 3)', ',untrace sq', ',profile (sq 4)',
                 '(fact 2)', ',frames', ',locals 1', '(define (h) (+ 1 (breakpoint)))', '(h)', '(sq 5)',
                 ',continue', '(list (sq 6) (h))') + CTRL_D + CTRL_D
    out, _ = drive(keys, session=session)
    assert '=> 9' in out and '=> 16' in out and '=> 25' in out
    assert '=> 26' in out                    # (h) resumed with (sq 5)
    assert 'Error: +: expected a number, got ()' in out    # the second (h), resumed by Ctrl-D
    assert 'internal error' not in out
    assert capsys.readouterr().err.splitlines() == ['> (sq 3)', '< 9']


def test_help_lists_the_debugging_commands():
    out, _ = drive(lines(',help') + CTRL_D)
    for usage in (',trace NAME…', ',untrace [NAME…]', ',profile EXPR', ',frames', ',locals [N]', ',frame N', ',up', ',down',
                  ',continue'):
        assert '\n  ' + usage in out
    assert '  (breakpoint)         in code: a rusty[1]> prompt there (set! its locals); ,continue resumes' in out


def test_a_deep_error_lists_its_innermost_and_outermost_frames(session):
    deep = '(define (down n) (if (= n 0) (car n) (+ 1 (down (- n 1)))))'
    out, _ = drive(lines(deep, '(down 500)', ',frames', ',locals 499') + CTRL_D, session=session)
    shown = out.splitlines()
    listing = shown[shown.index('>  0: down  at <repl:1>:1:30'):]
    assert listing[19] == '  19: down  at <repl:1>:1:43'
    assert listing[20] == '  ... 478 more (,locals N shows any of them)'     # 501 frames: n = 0 … 500
    assert listing[21:24] == ['  %d: down  at <repl:1>:1:43' % n for n in (498, 499, 500)]
    assert listing[24:26] == ['499: down  at <repl:1>:1:43', '  n = 499']


def test_profile_and_locals_inside_a_breakpoint_at_top_level(session):
    out, repl = drive(lines('(define (sq x) (* x x))', '(+ 1 (breakpoint))', ',locals', ',profile (sq 4)',
                            ',continue') + CTRL_D, session=session)
    assert 'breakpoint at <repl:2>:1:6\n  (top level: globals only)' in out
    assert '=> 16' in out and 'sq (<repl:1>:1)' in out
    assert '=> 17' in out                 # resumed with the profiled value
    assert session.depth.n == 0


def test_profiling_inside_a_profiled_runs_breakpoint_is_refused(session):
    out, _ = drive(lines('(define (g) (breakpoint) 1)', ',profile (g)', ',profile (+ 1 2)', ',continue')
                   + CTRL_D, session=session)
    assert 'Error: profile: a profiled run is in progress (at a breakpoint inside it)' in out
    assert out.count('g (<repl:1>:1)') == 1          # the outer profile reports, once, at its end
    assert session.profiling is None and session.depth.gate == session.depth.limit


def test_locals_of_the_failing_frame_include_its_lets(session):
    code = '(define (f a) (let ((b (* a 2))) (let ((c (list a b))) (car (cdr (cdr c))))))'
    out, _ = drive(lines(code, '(f 3)', ',locals') + CTRL_D, session=session)
    shown = after(out, '0: f  at')
    assert shown[:4] == ['  c = (3 6)', '  enclosing:', '    b = 6', '    a = 3']


def test_locals_of_a_compiled_function_include_the_lets_it_failed_in(session):
    """Compiled code (a function's second call compiles it) shows the same
    frames as the reference: entered from run (g at the top) and by a
    compiled caller's direct call (g under h)."""
    code = '(define (g a b) (let ((x (* a 2)) (y "s")) (let* ((z (+ x 1)) (w z)) (+ z y))))'
    caller = '(define (h q) (+ 1 (g q 2)))'
    out, _ = drive(lines(code, caller, *['(g 1 2)'] * 3, ',locals', *['(h 1)'] * 3, ',locals', ',locals 1')
                   + CTRL_D, session=session)
    lets = ['  z = 3', '  w = 3', '  enclosing:', '    x = 2', '    y = "s"', '    a = 1', '    b = 2']
    all_lines = out.splitlines()
    shown = [all_lines[i + 1:i + 8] for i, line in enumerate(all_lines) if line.startswith('0: g  at')]
    assert shown == [lets, lets]
    assert after(out, '1: h  at')[:1] == ['  q = 1']
    from _functools import partial         # a compiled lambda's code (compile/support.adapter)
    compiled = [isinstance(session.global_value(n).code, partial) for n in ('g', 'h')]
    assert compiled == [session.unit.compile_lambda is not None] * 2


def test_locals_of_an_outer_frame_include_the_lets_around_its_call(session):
    """,locals N for a caller shows the lets its failing call was made in, as
    ,locals 0 does for the failing frame: after a first (reference) run and
    once h, f and g are compiled (their third calls), through run and a
    compiled caller's direct call alike, and through a builtin (map) that
    calls back into Lisp."""
    g = '(define (g y) (let ((z (* y 2))) (if (> y 100) (car z) z)))'
    f = '(define (f x) (let ((w (+ x 1))) (+ w (g w))))'
    h = '(define (h v) (let* ((a (* v 1)) (b (list a))) (+ 1 (f a))))'
    k = '(define (k xs) (let ((n (length xs))) (map (lambda (x) (let ((q (+ x n))) (f q))) xs)))'
    shown = [',locals 0', ',locals 1', ',locals 2']
    out, _ = drive(lines(g, f, h, k, '(h 200)', *shown, '(h 1)', '(h 1)', '(h 200)', *shown,
                         '(k (list 1 300))', ',locals 2') + CTRL_D, session=session)
    chain = ['0: g  at <repl:1>:1:48', '  z = 402', '  enclosing:', '    y = 201',
             '1: f  at <repl:2>:1:39', '  w = 201', '  enclosing:', '    x = 200',
             '2: h  at <repl:3>:1:53', '  a = 200', '  b = (200)', '  enclosing:', '    v = 200']
    all_lines = out.splitlines()
    starts = [i for i, line in enumerate(all_lines) if line == '0: g  at <repl:1>:1:48']
    assert [all_lines[i:i + len(chain)] for i in starts] == [chain, chain]
    assert after(out, '2: k  at <repl:4>:1:75')[:3] == ['  n = 2', '  enclosing:', '    xs = (1 300)']
    from _functools import partial         # a compiled lambda's code (compile/support.adapter)
    compiled = [isinstance(session.global_value(n).code, partial) for n in ('g', 'f', 'h')]
    assert compiled == [session.unit.compile_lambda is not None] * 3
