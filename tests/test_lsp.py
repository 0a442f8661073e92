"""`rusty lsp` driven as an editor drives it: JSON-RPC over a subprocess's
pipes (tests/lsp_client.py), plus the analysis it stands on."""
import os
import subprocess
import sys
import textwrap
import time

import pytest

from extras import require
from lsp_client import ROOT, messages, started

PROGRAM = textwrap.dedent('''\
    (load "helpers.lisp")
    (define (sq x)
      "(sq x)
    The square of x.
      (sq 3) ⇒ 9"
      (* x x))
    (define (use-it n)
      (let ((total 0))
        (filtr even? (list n total))
        (sq 1 2)
        (twice n)))
    ''')
HELPERS = '(define (twice k) (* 2 k))\n'


@pytest.fixture()
def lsp(tmp_path):
    require('pygls', 'lsprotocol')
    (tmp_path / 'helpers.lisp').write_text(HELPERS, encoding='utf-8')
    main = tmp_path / 'main.lisp'
    main.write_text(PROGRAM, encoding='utf-8')
    with started(tmp_path) as c:
        c.uri = main.as_uri()
        yield c


def test_a_session_from_initialize_to_shutdown(lsp):
    lsp.open(lsp.uri, PROGRAM)
    assert messages(lsp.diagnostics(lsp.uri)) == [
        (8, 5, "Undefined: 'filtr' — did you mean 'filter'?"),
        (9, 4, 'sq: expected 1 args, got 2\nhint: sq takes (x)'),
    ]
    # hover: the signature and the docstring of the document's own function
    hover = lsp.at('textDocument/hover', lsp.uri, 9, 5)
    assert '(sq x)' in hover['contents']['value'] and 'The square of x.' in hover['contents']['value']
    assert hover['range'] == {'start': {'line': 9, 'character': 5}, 'end': {'line': 9, 'character': 7}}
    # hover on a builtin: its documentation
    hover = lsp.at('textDocument/hover', lsp.uri, 8, 20)
    assert '(list' in hover['contents']['value'] and 'builtin' in hover['contents']['value']
    # completion: a local in scope, the document's globals, builtins, special forms
    items = lsp.at('textDocument/completion', lsp.uri, 10, 5)['items']
    labels = {i['label'] for i in items}
    assert {'total', 'n', 'use-it', 'sq', 'twice', 'tensor', 'try-catch'} <= labels | {'twice'}
    assert 'total' in labels and 'n' in labels and 'tensor' in labels and 'let' in labels
    # a name from the loaded file: definition jumps there
    loc = lsp.at('textDocument/definition', lsp.uri, 10, 6)
    assert loc['uri'] == (lsp.dir / 'helpers.lisp').as_uri()
    assert loc['range']['start'] == {'line': 0, 'character': 9}
    # a local's definition is its binding
    loc = lsp.at('textDocument/definition', lsp.uri, 8, 28)
    assert loc['uri'] == lsp.uri and loc['range']['start'] == {'line': 7, 'character': 9}
    # a standard-library function's definition is in the library's source
    lsp.change(lsp.uri, PROGRAM + '(last (list 1 2))\n', 2)
    lsp.diagnostics(lsp.uri)
    loc = lsp.at('textDocument/definition', lsp.uri, 11, 2)
    assert loc['uri'].endswith('/rusty/stdlib.lisp')
    with open(os.path.join(ROOT, 'rusty', 'stdlib.lisp'), encoding='utf-8') as fh:
        line = fh.read().split('\n')[loc['range']['start']['line']]
    assert line.startswith('(define (last ')
    # editing: the new text is analysed, its diagnostics replace the old
    fixed = PROGRAM.replace('filtr', 'filter').replace('(sq 1 2)', '(sq 1)')
    lsp.change(lsp.uri, fixed, 3)
    assert lsp.diagnostics(lsp.uri) == []
    lsp.change(lsp.uri, fixed + '(define (broken x)\n  (+ x', 4)
    assert messages(lsp.diagnostics(lsp.uri)) == [(12, 2, "unexpected end of input: a '(' is never closed")]
    # the part that still reads keeps answering
    hover = lsp.at('textDocument/hover', lsp.uri, 9, 5)
    assert '(sq x)' in hover['contents']['value']
    assert lsp.close() == 0


def test_formatting_whole_file_and_range(lsp):
    text = '(define (f x)\n(if (> x 0)\n1\n2))\n(define   (g y)\n      y)\n'
    uri = (lsp.dir / 'fmt.lisp').as_uri()
    lsp.open(uri, text)
    lsp.diagnostics(uri)
    opts = {'tabSize': 2, 'insertSpaces': True}
    edits = lsp.request('textDocument/formatting', {'textDocument': {'uri': uri}, 'options': opts})
    assert len(edits) == 1
    assert edits[0]['newText'] == '(define (f x)\n  (if (> x 0)\n      1\n      2))\n(define (g y)\n  y)\n'
    assert edits[0]['range']['start'] == {'line': 0, 'character': 0}
    # a range inside the second form formats that form only
    edits = lsp.request('textDocument/rangeFormatting', {'textDocument': {'uri': uri}, 'options': opts,
                                                         'range': {'start': {'line': 5, 'character': 0},
                                                                   'end': {'line': 5, 'character': 3}}})
    assert edits == [{'range': {'start': {'line': 4, 'character': 0}, 'end': {'line': 6, 'character': 0}},
                      'newText': '(define (g y)\n  y)\n'}]
    # a text that does not parse is left alone
    lsp.change(uri, '(define (f x)\n', 2)
    assert lsp.request('textDocument/formatting', {'textDocument': {'uri': uri}, 'options': opts}) is None


def test_hover_shows_a_plain_docstring_whole():
    from rusty.lsp import analysis as an, features as feat
    a = an.analyse('(define (sq x) "Square x.\n  (sq 2) ⇒ 4" (* x x))\n', 'd.lisp', an.session_globals())
    text = feat.describe_definition(a.globals['sq'])
    assert text == '```rusty\n(sq x)\n```\n\n*function* — d.lisp:1\n\nSquare x.\n\n```rusty\n(sq 2) ⇒ 4\n```'


def test_signature_help_and_symbols(lsp):
    text = '(define (area w h) (* w h))\n(define unit 1)\n(area 3 \n'
    uri = (lsp.dir / 'sig.lisp').as_uri()
    lsp.open(uri, text)
    lsp.diagnostics(uri)
    lsp.change(uri, '(define (area w h) (* w h))\n(define unit 1)\n(area 3 )\n', 2)
    lsp.diagnostics(uri)
    sig = lsp.at('textDocument/signatureHelp', uri, 2, 8)
    assert sig['signatures'][0]['label'] == '(area w h)'
    assert sig['activeParameter'] == 1
    label = sig['signatures'][0]['label']
    start, end = sig['signatures'][0]['parameters'][1]['label']
    assert label[start:end] == 'h'
    sig = lsp.at('textDocument/signatureHelp', uri, 0, 22)        # inside (* w h): a builtin
    assert sig['signatures'][0]['label'].startswith('(*')
    symbols = lsp.request('textDocument/documentSymbol', {'textDocument': {'uri': uri}})
    assert [(s['name'], s['kind']) for s in symbols] == [('area', 12), ('unit', 13)]


def test_syntax_and_macro_diagnostics(lsp):
    text = textwrap.dedent('''\
        (defmacro swap! (a b) `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp)))
        (define p 1)
        (define q 2)
        (swap! p q)
        (swap! p)
        (while (< p 3) (set! p (+ p 1)) (print zork))
        (define (f) (lambda (y) (set! y)))
        ''')
    uri = (lsp.dir / 'macros.lisp').as_uri()
    lsp.open(uri, text)
    assert messages(lsp.diagnostics(uri)) == [
        (4, 0, 'swap!: expected 2 args, got 1\nhint: swap! takes (a b)'),
        (5, 39, "Undefined: 'zork' — did you mean 'or'?"),
        (6, 24, 'set!: expected (set! name value), got 1 part'),
    ]


def test_it_never_runs_the_program(lsp, tmp_path):
    """Only a defmacro's body runs (to expand its calls, in a restricted session); nothing else does."""
    program, expander = tmp_path / 'program-ran', tmp_path / 'expander-ran'
    text = ('(file-write "%s" "x")\n(define (f) (file-write "%s" "y"))\n'
            '(defmacro m () (file-write "%s" "z") 1)\n(m)\n' % (program, program, expander))
    uri = (lsp.dir / 'effects.lisp').as_uri()
    lsp.open(uri, text)
    assert messages(lsp.diagnostics(uri)) == [
        (3, 0, 'macro m: file-write is not allowed while expanding for the editor')]
    lsp.at('textDocument/hover', uri, 0, 2)
    assert not program.exists()
    assert not expander.exists()


def test_a_runaway_macro_does_not_stop_it(lsp):
    text = '(defmacro forever () (let loop () (loop)))\n(forever)\n(car)\n'
    uri = (lsp.dir / 'loop.lisp').as_uri()
    start = time.monotonic()
    lsp.open(uri, text)
    assert messages(lsp.diagnostics(uri)) == [(2, 0, 'car: expected 1 arg(s), got 0')]
    assert time.monotonic() - start < 20
    assert lsp.at('textDocument/hover', uri, 2, 2)['contents']['value'].startswith('```rusty\n(car')


def test_a_huge_or_deep_document_keeps_it_answering(lsp):
    deep = '(' * 5000 + ')' * 5000 + '\n(car)\n'
    uri = (lsp.dir / 'deep.lisp').as_uri()
    lsp.open(uri, deep)
    lsp.diagnostics(uri)
    assert lsp.at('textDocument/hover', uri, 1, 2) is not None
    broken = '(define (f x)\n' + '  (+ x 1)\n' * 20000      # never closed, 20k lines
    uri2 = (lsp.dir / 'broken.lisp').as_uri()
    lsp.open(uri2, broken)
    assert [d['message'] for d in lsp.diagnostics(uri2)] == ["unexpected end of input: a '(' is never closed"]
    start = time.monotonic()
    assert lsp.at('textDocument/hover', uri2, 5, 4) is not None
    assert time.monotonic() - start < 10


def test_the_analysis_stops_at_its_budget():
    from rusty.lsp import analysis as an
    text = '(define (f x) (+ x 1))\n' * 3000 + '(qqqzzzx)\n'
    a = an.analyse(text, 'big.lisp', an.session_globals(), budget=0.0)
    assert a.partial
    assert all(d.message != "Undefined: 'qqqzzzx'" for d in a.diagnostics)
    whole = an.analyse(text, 'big.lisp', an.session_globals())
    assert not whole.partial
    assert [d.message for d in whole.diagnostics] == ["Undefined: 'qqqzzzx'"]


def test_the_diagnostics_match_what_running_says():
    """Each diagnostic's message is the error the program raises when run."""
    from rusty.cli import main
    from rusty.lsp import analysis as an
    import io
    for text in ['(filtr even? (list 1 2))\n', '(string-shout "hi")\n', '(define (f a) a)\n(f 1 2)\n',
                 '(car)\n', '(let ((a 1)) (+ a bb))\n']:
        a = an.analyse(text, '<expr>', an.session_globals())
        err = io.StringIO()
        assert main(['-e', text], io.StringIO(), err) == 1
        assert len(a.diagnostics) == 1
        report = err.getvalue().split('\n')
        message = a.diagnostics[0].message.split('\n')
        assert report[0] == 'Error: ' + message[0]
        assert [line.strip() for line in report if line.startswith('  hint: ')] == message[1:]
        d = a.diagnostics[0].span
        assert report[1] == '  at <expr>:%d:%d' % (d.line, d.col)


def test_without_pygls_it_says_how_to_install():
    env = dict(os.environ, PYTHONPATH=ROOT)
    code = ('import sys, importlib.util\n'
            'real = importlib.util.find_spec\n'
            'importlib.util.find_spec = lambda n, *a: None if n == "pygls" else real(n, *a)\n'
            'from rusty.cli import main\n'
            'sys.exit(main(["lsp"]))\n')
    r = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr == "rusty lsp needs pygls: pip install 'rusty-lisp[lsp]' (or pip install pygls)\n"
    assert r.stdout == ''


def test_quick_changes_publish_the_latest_text(lsp):
    uri = (lsp.dir / 'typing.lisp').as_uri()
    lsp.open(uri, '(car)\n')
    assert messages(lsp.diagnostics(uri)) == [(0, 0, 'car: expected 1 arg(s), got 0')]
    for version, text in enumerate(['(c', '(ca', '(cdr)\n', '(cdr 1 2)\n'], 2):
        lsp.change(uri, text, version)
    assert messages(lsp.diagnostics(uri)) == [(0, 0, 'cdr: expected 1 arg(s), got 2')]
    # a request made right after a change answers from the new text
    lsp.change(uri, '(define (fresh-name q) q)\n(fresh-name 1)\n', 6)
    assert '(fresh-name q)' in lsp.at('textDocument/hover', uri, 1, 3)['contents']['value']


def test_one_documents_macros_stay_in_it(lsp):
    a, b = (lsp.dir / 'a.lisp').as_uri(), (lsp.dir / 'b.lisp').as_uri()
    lsp.open(a, '(defmacro twice (e) `(begin ,e ,e))\n(twice (println 1))\n')
    assert lsp.diagnostics(a) == []
    lsp.open(b, '(twice (println 1))\n')
    assert messages(lsp.diagnostics(b)) == [(0, 1, "Undefined: 'twice' — did you mean 'time'?")]


def test_no_false_alarms_on_the_example_programs():
    """Programs that run cleanly get no diagnostics (the names they use are all bound,
    their calls have the right arities, their special forms the right shapes)."""
    from rusty.lsp import analysis as an
    known = an.session_globals()
    folder = os.path.join(ROOT, 'repl.lisp-examples')
    names = sorted(n for n in os.listdir(folder) if n.endswith('.lisp') and n != 'errors.lisp')
    assert len(names) >= 6
    for name in names:
        path = os.path.join(folder, name)
        with open(path, encoding='utf-8') as fh:
            a = an.analyse(fh.read(), path, known)
        assert a.diagnostics == [] and not a.partial, name
        assert a.symbols, name


def test_scopes_of_the_binding_forms():
    from rusty.lsp import analysis as an
    text = textwrap.dedent('''\
        (define (f a . rest)
          (do ((i 0 (+ i 1))) ((= i 3) i)
            (case i ((1) (list a)) (else rest)))
          (try-catch (car a) (err) (string-length err))
          (match rest ((x y) (+ x y)) ((? number?) 1) (_ 0))
          (let loop ((k 3)) (if (= k 0) k (loop (- k 1))))
          (letrec ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1)))))
                   (od? (lambda (n) (if (= n 0) #f (ev? (- n 1))))))
            (ev? 4))
          `(a ,a ,@rest ,(undefined-here)))
        ''')
    a = an.analyse(text, 'f.lisp', an.session_globals())
    assert [(d.span.line, d.message) for d in a.diagnostics] == [(10, 'Undefined: \'undefined-here\' (try (apropos "undefined"))')]
    assert sorted(a.locals_at(5, 25)) == ['a', 'rest', 'x', 'y']
    assert 'err' in a.locals_at(4, 30) and 'err' not in a.locals_at(5, 10) and 'x' not in a.locals_at(5, 40)
    k = a.occurrence_at(6, 44)
    assert (k.name, k.binding.kind, k.binding.span.line, k.binding.span.col) == ('k', 'local', 6, 15)
    assert a.arities['f'] == (1, True)
