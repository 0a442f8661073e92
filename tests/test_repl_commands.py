"""The REPL's meta-commands, one by one (issue 3): ,help ,doc ,apropos
,describe ,time ,expand ,load ,rust ,py ,graph ,quit, unknown commands."""
import pytest

from repl_driver import CTRL_D, ENTER, drive, lines, private_home


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)


def run(*inputs, width=None):
    out, _ = drive(''.join(i + ENTER for i in inputs) + CTRL_D, width=width)
    body = lines(out)
    return body[:-3]      # without '', 'Goodbye.', ''


def test_help_lists_every_command_and_the_keys():
    out = '\n'.join(run(',help'))
    for name in ('help', 'doc', 'apropos', 'describe', 'time', 'expand', 'load', 'rust', 'py', 'graph', 'quit'):
        assert '  ,' + name in out
    assert 'Meta-Enter' in out and 'Ctrl-R' in out and '*1 *2 *3' in out


def test_doc_of_a_builtin_comes_from_its_table_entry():
    assert run(',doc map')[:2] == ['(map f lst ...)',
                                   '  builtin. A list of (f x …) over the elements of the lists (or vectors), to the shortest.']
    assert "  (map + '(1 2 3) '(10 20)) ⇒ (11 22)" in run(',doc map')


def test_doc_of_a_stdlib_function_shows_its_structured_docstring():
    out = run(',doc iota')
    assert out[0] == '(iota n)'
    assert out[1].startswith('  function (body at ') and out[1].endswith('. The numbers 0 to n-1: (range 0 n).')
    assert out[2:] == ['  (iota 4) ⇒ (0 1 2 3)']


def test_doc_of_a_special_form():
    out = run(',doc try-catch')
    assert out[0] == '(try-catch body (err) handler)'
    assert out[1].startswith('  special form. ')


def test_doc_of_case_and_of_an_alias_come_from_the_forms_table():
    out = run(',doc case')
    assert out[0] == '(case key ((datum...) body...)... (else body...))'
    assert out[1].startswith('  special form. Evaluates key once')
    out = run(',doc fn')
    assert out[0] == '(fn params body...)'
    assert out[1].startswith('  special form. Alias of lambda. A closure')


def test_every_special_form_has_documentation():
    from rusty.docs import SPECIAL_FORM_DOCS
    from rusty.runtime import Session
    assert set(SPECIAL_FORM_DOCS) == set(Session.special_names)


def test_doc_of_a_user_function_with_a_docstring():
    out = run('(define (sq x) "Square x." (* x x))', ',doc sq')
    assert out == ['(sq x)', '  function (body at <repl:1>:1). Square x.']


def test_doc_of_a_macro_and_of_a_plain_value():
    out = run('(defmacro twice (e) `(begin ,e ,e))', ',doc twice', '(define n 3)', ',doc n')
    assert out[0] == '(twice e)'
    assert out[1].startswith('  macro')
    assert out[2:] == ['n: 3', '  a number value (not a procedure).']


def test_doc_of_an_unknown_name_suggests_one():
    assert run(',doc mapp') == ["mapp: undefined — did you mean 'map'?"]


def test_doc_without_a_name_shows_usage():
    assert run(',doc') == ['usage: ,doc NAME']


def test_apropos_lists_names_with_signatures():
    assert run(',apropos string-app') == ['  string-append       (string-append s ...)',
                                          '  string-append-list  (string-append-list lst)']
    assert run(',apropos zzzq') == ["No names contain 'zzzq'."]


def test_describe_a_builtin_a_lambda_and_a_special_form():
    out = run(',describe car')
    assert out[:3] == ['car: #<builtin:car>', '  type: builtin', '  arity: 1']
    out = run('(define (add a . more) (apply + a more))', ',describe add')
    assert out == ['add: #<lambda (a . more)>', '  type: lambda', '  parameters: a . more',
                   '  arity: at least 1', '  body at: <repl:1>:1', '  body:', '    (apply + a more)']
    assert run(',describe let')[0] == 'let: special form'
    assert run(',describe zzqx-thing') == ['zzqx-thing: undefined']


def test_time_shows_the_value_then_wall_and_cpu():
    out = run('(define (f n) (if (= n 0) 0 (f (- n 1))))', ',time (f 1000)')
    assert out[0] == '=> 0'
    assert out[1].startswith('; wall ') and ', cpu ' in out[1]
    assert run(',time') == ['usage: ,time EXPR']


def test_time_continues_over_lines_while_the_expression_is_open():
    out = run(',time (+ 1', '2)')
    assert out[0] == '=> 3'


def test_expand_shows_the_macro_expansion():
    assert run(',expand (-> 5 (+ 1) (* 2))') == ['(* (+ 5 1) 2)']
    not_a_macro = '; not a macro call (%s is not a macro): nothing to expand'
    assert run(',expand (+ 1 2)') == ['(+ 1 2)', not_a_macro % '+']
    assert run(',expand (list "a")') == ['(list "a")', not_a_macro % 'list']     # code: strings quoted


def test_expand_pretty_prints_at_the_terminal_width():
    # docs/reference.md §6.8, `pretty-string`: the expansion laid out like pretty-print at the width
    keys = "(defmacro twice (e) `(begin ,e ,e))" + ENTER + ',expand (twice (display "a long string"))' + ENTER
    out, _ = drive(keys + CTRL_D, width=30)
    body = lines(out)
    assert body[:3] == ['(begin', ' (display "a long string")', ' (display "a long string"))']


def test_load_a_file_and_report_a_missing_one(tmp_path):
    lib = tmp_path / 'lib.lisp'
    lib.write_text('(define loaded-x 20)\n(+ loaded-x 1)\n')
    out = run(',load %s' % lib, 'loaded-x')
    assert out == ['=> 21', '; loaded %s' % lib, '=> 20']
    out = run(',load "%s"' % (tmp_path / 'nope.lisp'))
    assert out[0] == "Error: load: cannot read '%s': No such file or directory (os error 2)" % (tmp_path / 'nope.lisp')


def test_load_reports_errors_inside_the_file_at_their_lines(tmp_path):
    lib = tmp_path / 'bad.lisp'
    lib.write_text('(define y 1)\n(car y)\n')
    out = run(',load %s' % lib)
    assert out[:4] == ['Error: car: not a pair', '  at %s:2:1' % lib, '  2 | (car y)', '    | ^^^^^^^']


def test_rust_of_something_that_is_not_native():
    assert run('(define (sq x) (* x x))', ',rust sq') == [
        'sq is #<lambda (x)>, not a native function (define one with defrust)']
    assert run(',rust nothing-here') == ['nothing-here: undefined']


@pytest.mark.rustc
def test_py_shows_the_python_a_lambda_compiles_to(monkeypatch):
    monkeypatch.setenv('RUSTY_SPECIALIZE', '0')
    assert run('(define (sq x) (* x x))', ',py sq') == [
        '# the compiler is off (RUSTY_SPECIALIZE=0): the reference evaluator runs it']
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1')
    out = run('(define (sq x) (* x x))', ',py sq')
    text = '\n'.join(out)
    assert out[0] == '# sq, compiled by rusty (k…: the objects the code names)'
    assert text.count('def f_sq(d, v_x_') == 1 and 'if OK:' in text
    assert '# f, compiled by rusty' in run('(defmacro m (x) x)', '(define (f) (m 1))', ',py f')[0]   # (expanded in place)
    assert run('(defmacro m (x) (display "e") x)', '(define (f) (m 1))', ',py f')[-1] == (
        '# stays on the reference evaluator: macro call')        # (a macro with effects is not expanded early)
    assert run(',py car') == ['car is #<builtin:car>, not a lambda']
    assert run(',py nothing-here') == ['nothing-here: undefined']


def test_rust_shows_the_generated_source_of_a_native():
    out = run('(defrust cube (x) (* x (* x x)))', ',rust cube')
    text = '\n'.join(out)
    assert 'extern "C"' in text and 'rusty_cube' in text


def test_graph_shows_the_ir_as_a_table_with_the_output_marked():
    assert run(',graph (lambda (x y) (+ (* x y) 1))') == [
        '   #  op     args / value',
        '  %0  param  0  (x)',
        '  %1  param  1  (y)',
        '  %2  mul    %0 %1',
        '  %3  const  1',
        '  %4  add    %2 %3  <- output',
    ]


def test_graph_of_a_non_lambda_is_an_error_report():
    out = run(',graph 5')
    assert out[0].startswith('Error: graph-ir: ')


def test_quit_and_unknown_commands():
    out, _ = drive(',frob' + ENTER + ',descrbe car' + ENTER + ',quit' + ENTER + '(+ 1 2)' + ENTER)
    body = lines(out)
    assert body == ["Unknown command ',frob' (,help lists the commands)",
                    "Unknown command ',descrbe' — did you mean ',describe'? (,help lists the commands)",
                    '', 'Goodbye.', '']


def test_a_bug_in_a_command_is_reported_and_the_session_goes_on(monkeypatch):
    from rusty.repl import meta

    def broken(repl, cmd):
        raise ValueError('oops')
    monkeypatch.setitem(meta.COMMANDS, 'broken', meta.Spec(broken, ',broken', 'raises', False))
    assert run(',broken', '(+ 1 2)') == ['Error: internal error: ValueError: oops', '=> 3']


def test_the_manual_lists_every_command():
    import pathlib

    from rusty.repl import meta
    manual = (pathlib.Path(__file__).resolve().parent.parent / 'docs' / 'reference.md').read_text()
    table = manual[manual.index('Commands start with a comma:'):manual.index('### Debugging at the prompt')]
    for name in meta.COMMANDS:
        assert '| `,%s' % name in table or '`,%s`' % name in table, ',%s is not in the manual' % name
