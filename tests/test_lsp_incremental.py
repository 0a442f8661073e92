"""The analysis after an edit reuses what the edit did not touch, and says
exactly what a fresh analysis of the new text says."""
import random

import pytest

from lsp_corpus import program

from rusty.lsp import analysis as an


@pytest.fixture(scope='module')
def known():
    return an.session_globals()


@pytest.fixture(scope='module')
def big(known):
    text = program(5000)
    return an.analyse(text, 'big.lisp', known)


def facts(a):
    """Everything an editor is told, in comparable form."""
    occ = []
    lines = a.text.split('\n')
    for line in range(1, len(lines) + 1, 7):
        for col in range(1, len(lines[line - 1]) + 2, 3):
            o = a.occurrence_at(line, col)
            occ.append(None if o is None else (o.span, o.name, o.binding))
            occ.append(tuple(sorted(a.locals_at(line, col).items())))
    return (sorted(a.diagnostics), sorted(a.globals.items()), a.symbols, a.arities, a.partial,
            [s for _, s in a.forms], occ)


def edited(text, line, new):
    lines = text.split('\n')
    lines[line - 1:line] = new if isinstance(new, list) else [new]
    return '\n'.join(lines)


def test_a_5000_line_document_reads_whole(big):
    assert big.text.count('\n') >= 5000
    assert big.diagnostics == [] and not big.partial
    assert big.walked == len(big.placed) > 1000


def test_an_edit_inside_a_function_walks_only_its_unit(known, big):
    line = big.text.split('\n').index('(define (count-400 n)') + 4
    text = edited(big.text, line, '      (set! k (+ k zork)))')
    a = an.analyse(text, 'big.lisp', known, previous=big)
    assert a.walked == 1
    assert [(d.span.line, d.message) for d in a.diagnostics] == [(line, "Undefined: 'zork' — did you mean 'or'?")]
    assert facts(a) == facts(an.analyse(text, 'big.lisp', known))


def test_inserted_lines_move_what_follows(known, big):
    text = edited(big.text, 12, ['(define (fresh a b) (+ a b))', '(fresh 1)', '', big.text.split('\n')[11]])
    a = an.analyse(text, 'big.lisp', known, previous=big)
    assert a.walked <= 3            # the new units, and the unit that calls nothing new
    assert [d.message.split('\n')[0] for d in a.diagnostics] == ['fresh: expected 2 args, got 1']
    last = big.symbols[-1]
    moved = a.globals[last.name]
    assert moved.span.line == last.span.line + 3
    assert facts(a) == facts(an.analyse(text, 'big.lisp', known))


def test_a_new_definition_rewalks_only_the_units_that_ask_about_it(known, big):
    text = big.text + '(define (walk-3 x) x)\n'        # walk-3 now defined twice: its arity no longer judged
    a = an.analyse(text, 'big.lisp', known, previous=big)
    assert 1 < a.walked < 10
    assert facts(a) == facts(an.analyse(text, 'big.lisp', known))


def test_an_unclosed_paren_is_reported_and_mended(known, big):
    line = 3000
    broken = edited(big.text, line, big.text.split('\n')[line - 1] + ' (car')
    a = an.analyse(broken, 'big.lisp', known, previous=big)
    assert a.walked <= 2
    assert [(d.span.line, d.message) for d in a.diagnostics] == [
        (line, "unexpected end of input: a '(' is never closed")]
    typing = edited(broken, line, broken.split('\n')[line - 1] + ' x')
    b = an.analyse(typing, 'big.lisp', known, previous=a)
    assert b.walked <= 2 and [d.span.line for d in b.diagnostics] == [line]
    mended = edited(typing, line, typing.split('\n')[line - 1] + ')')
    c = an.analyse(mended, 'big.lisp', known, previous=b)
    assert c.walked <= 3
    assert facts(c) == facts(an.analyse(mended, 'big.lisp', known))


def test_random_edits_agree_with_a_fresh_analysis(known):
    rng = random.Random(7)
    text = program(300)
    a = an.analyse(text, 'r.lisp', known)
    words = ['(car x)', 'zork', '(define (q1 a) a)', '(q1 1 2)', ')', '(', '"', '(while #t 1)', '(unless 1 2)',
             '(define table-2 0)', ';', '']
    for step in range(40):
        lines = text.split('\n')
        i = rng.randrange(len(lines))
        op = rng.randrange(3)
        if op == 0:
            lines[i] = lines[i] + ' ' + rng.choice(words)
        elif op == 1:
            lines.insert(i, rng.choice(words))
        else:
            del lines[i]
        text = '\n'.join(lines)
        a = an.analyse(text, 'r.lisp', known, previous=a)
        fresh = an.analyse(text, 'r.lisp', known)
        if fresh.error is None and a.error is None:
            assert facts(a) == facts(fresh), step
        else:
            assert a.error is not None and fresh.error is not None, step


def test_the_server_follows_full_and_incremental_changes(tmp_path):
    """Both kinds of change reach the analysis; answers come from the new text."""
    from extras import require
    from lsp_client import Client
    require('pygls', 'lsprotocol')
    c = Client(cwd=str(tmp_path))
    try:
        c.initialize(tmp_path.as_uri())
        uri = (tmp_path / 'big.lisp').as_uri()
        text = program(5000)
        c.open(uri, text)
        assert c.diagnostics(uri, timeout=60) == []
        lines = text.split('\n')
        line = lines.index('(define (count-700 n)') + 3         # 0-based: the (set! k (+ k 1)) line
        assert lines[line] == '      (set! k (+ k 1)))'
        col = lines[line].index('1)')
        c.notify('textDocument/didChange', {'textDocument': {'uri': uri, 'version': 2}, 'contentChanges': [
            {'range': {'start': {'line': line, 'character': col}, 'end': {'line': line, 'character': col + 1}},
             'text': 'zork'}]})
        assert [(d['range']['start']['line'], d['message']) for d in c.diagnostics(uri)] == [
            (line, "Undefined: 'zork' — did you mean 'or'?")]
        lines[line] = lines[line].replace('1)', 'k k)')
        c.change(uri, '\n'.join(lines), 3)
        hover = c.at('textDocument/hover', uri, line, col + 1)
        assert 'local variable' in hover['contents']['value']
        assert [(d['range']['start']['line'], d['message'].split('\n')[0]) for d in c.diagnostics(uri)] == []
        assert c.close() == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
