"""Opening a hostile document in `rusty lsp` (driven as an editor drives it)
touches nothing outside, never stops the server, and costs a bounded time;
ordinary macros still expand and get their diagnostics."""
import os
import time

import pytest

from extras import require
from lsp_client import messages, started

REFUSED = 'macro %s: %s is not allowed while expanding for the editor'


@pytest.fixture()
def lsp(tmp_path):
    require('pygls', 'lsprotocol')
    (tmp_path / 'notes.txt').write_text('keep', encoding='utf-8')
    with started(tmp_path) as c:
        yield c


def open_doc(lsp, name, text):
    uri = (lsp.dir / name).as_uri()
    lsp.open(uri, text)
    return uri, messages(lsp.diagnostics(uri))


def files(lsp):
    return sorted(p.name for p in lsp.dir.iterdir())


def test_effects_are_refused_at_the_macro_s_call(lsp):
    before = files(lsp)
    uri, found = open_doc(lsp, 'h.lisp', '(defmacro m () (begin (file-delete "notes.txt") 1))\n(define x (m))\n'
                          '(defmacro w () (try-catch (file-write "created.txt" "x") (e) 1))\n(w)\n'
                          '(defmacro d () (dir-create "made") 1)\n(d)\n'
                          '(defmacro l () (load "other.lisp") 1)\n(l)\n'
                          '(defmacro e () (eval-string "(file-delete \\"notes.txt\\")") 1)\n(e)\n')
    assert found == [(1, 10, REFUSED % ('m', 'file-delete')), (3, 0, REFUSED % ('w', 'file-write')),
                     (5, 0, REFUSED % ('d', 'dir-create')), (7, 0, REFUSED % ('l', 'load')),
                     (9, 0, REFUSED % ('e', 'file-delete'))]
    assert (lsp.dir / 'notes.txt').read_text() == 'keep'
    assert files(lsp) == before == ['notes.txt']
    assert lsp.close() == 0


def test_exit_in_a_macro_ends_the_expansion_not_the_server(lsp):
    uri, found = open_doc(lsp, 'x.lisp', '(defmacro m () (exit 3))\n(m)\n(defmacro q () (try-catch (exit 4) (e) 1))\n'
                          '(q)\n(car)\n')
    assert found == [(1, 0, REFUSED % ('m', 'exit')), (3, 0, REFUSED % ('q', 'exit')),
                     (4, 0, 'car: expected 1 arg(s), got 0')]
    assert lsp.at('textDocument/hover', uri, 4, 2)['contents']['value'].startswith('```rusty\n(car')
    assert lsp.close() == 0


HANG = '(defmacro m () (let lp () (try-catch (let l2 () (l2)) (e) (lp))))\n(m)\n(car)\n'


def test_a_macro_that_catches_the_interrupt_is_still_stopped(lsp):
    start = time.monotonic()
    uri, found = open_doc(lsp, 'hang.lisp', HANG)
    assert found == [(2, 0, 'car: expected 1 arg(s), got 0')]
    assert time.monotonic() - start < 15
    start = time.monotonic()            # the server answers at once, and an edit does not spin again
    lsp.change(uri, HANG + '(cdr)\n', 2)
    assert lsp.at('textDocument/hover', uri, 3, 2) is not None
    assert time.monotonic() - start < 3
    assert lsp.close() == 0


def test_forty_spinning_macros_cost_one_budget(lsp):
    text = ''.join('(defmacro m%d () (let lp () (try-catch (let l2 () (l2)) (e) (lp))))\n(m%d)\n' % (i, i)
                   for i in range(40)) + '(car)\n'
    start = time.monotonic()
    uri, found = open_doc(lsp, 'forty.lisp', text)
    assert found == [(80, 0, 'car: expected 1 arg(s), got 0')]
    assert time.monotonic() - start < 20
    start = time.monotonic()
    assert lsp.at('textDocument/hover', uri, 80, 2) is not None
    assert time.monotonic() - start < 3
    assert lsp.close() == 0


def test_shutdown_is_answered_whatever_the_document_does(lsp):
    uri = (lsp.dir / 'busy.lisp').as_uri()
    lsp.open(uri, HANG)
    start = time.monotonic()
    assert lsp.close() == 0
    assert time.monotonic() - start < 15


def test_a_memory_bomb_is_stopped(lsp):
    text = '(defmacro m () (let lp ((x (list 1 2))) (lp (append x x x x))))\n(m)\n(car)\n'
    start = time.monotonic()
    uri, found = open_doc(lsp, 'bomb.lisp', text)
    assert found == [(2, 0, 'car: expected 1 arg(s), got 0')]
    assert time.monotonic() - start < 20
    assert lsp.at('textDocument/hover', uri, 2, 2) is not None
    assert lsp.close() == 0


def test_ordinary_macros_still_expand(lsp):
    text = ('(defmacro my-when (c . body) `(if ,c (begin ,@body) nil))\n'
            '(define (f x) (my-when (> x 1) (car) (println zork)))\n'
            '(defmacro twice (e) `(begin ,e ,e))\n(twice (cdr 1 2))\n(my-when)\n'
            '(defmacro ident (x) (file-exists? "notes.txt") x)\n(ident (car 1 2))\n')
    uri, found = open_doc(lsp, 'ok.lisp', text)
    assert found == [(1, 31, 'car: expected 1 arg(s), got 0'), (1, 46, "Undefined: 'zork' — did you mean 'or'?"),
                     (3, 7, 'cdr: expected 1 arg(s), got 2'),
                     (4, 0, 'my-when: expected at least 1 args, got 0\nhint: my-when takes (c . body)'),
                     (6, 7, 'car: expected 1 arg(s), got 2')]
    assert lsp.close() == 0


def test_the_worker_does_not_outlive_a_killed_server(lsp):
    uri = (lsp.dir / 'spin.lisp').as_uri()
    lsp.open(uri, '(defmacro m (n) (let lp () (try-catch (let l2 () (l2)) (e) (lp))))\n(m 1)\n')
    time.sleep(1.0)         # the worker is spinning in (m 1)
    pid = lsp.proc.pid
    children = '/proc/%d/task/%d/children' % (pid, pid)
    if not os.path.exists(children):
        pytest.skip('no /proc children list here')
    with open(children) as fh:
        workers = [int(p) for p in fh.read().split()]
    assert workers
    lsp.proc.kill()
    lsp.proc.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(alive(p) for p in workers):
        time.sleep(0.2)
    assert not any(alive(p) for p in workers)


def alive(pid: int) -> bool:
    try:
        with open('/proc/%d/stat' % pid) as fh:
            return fh.read().split(') ')[1][0] != 'Z'
    except OSError:
        return False


def test_calls_left_for_want_of_time_are_expanded_by_the_next_analysis(lsp):
    spin = ''.join('(defmacro m%d () (let lp () (try-catch (let l2 () (l2)) (e) (lp))))\n(m%d)\n' % (i, i)
                   for i in range(2))
    text = spin + '(defmacro my-when (c . body) `(if ,c (begin ,@body) nil))\n(my-when #t (car))\n'
    uri, found = open_doc(lsp, 'later.lisp', text)
    assert found == []          # the budget went on the spinning calls
    for version in range(2, 5):
        lsp.change(uri, text + ';' * version + '\n', version)
        found = messages(lsp.diagnostics(uri))
        if found:
            break
    assert found == [(5, 12, 'car: expected 1 arg(s), got 0')]
    assert lsp.close() == 0


def test_a_document_whose_macros_spin_stops_costing_time(lsp):
    """After its macros have spun for SPIN_LIMIT seconds in all, their new calls
    are not run until a definition changes: edits cost nothing any more."""
    text = ''.join('(defmacro m%d () (let lp () (try-catch (let l2 () (l2)) (e) (lp))))\n(m%d)\n' % (i, i)
                   for i in range(40)) + '(car)\n'
    uri, found = open_doc(lsp, 'spinning.lisp', text)
    assert found == [(80, 0, 'car: expected 1 arg(s), got 0')]
    times = []
    for version in range(2, 6):
        start = time.monotonic()
        lsp.change(uri, text + ';' * version + '\n', version)
        assert lsp.at('textDocument/hover', uri, 80, 2) is not None
        times.append(time.monotonic() - start)
    assert times[-1] < 1.0, times


def test_the_worker_s_memory_is_limited():
    """A body that asks for more memory than RUSTY_LSP_EXPAND_MEMORY fails with
    `out of memory` in the worker, which goes on expanding."""
    from rusty.lsp import expansion as ex
    from rusty.reader import read
    e = ex.Expansions(None)
    defs = ('(defmacro big () (make-vector 300000000 0) 1)', '(defmacro ok (a) `(list ,a))')
    try:
        answers = []
        for text in ['(big)', '(ok 1)']:
            data, cells = ex.wire.encode_call(read(text, 'f').car)
            answers.append(e._run(defs, None, data, cells, ex.Budget(30)))
        assert answers == [('failed', 'out of memory'), ('ok', ('L', (('S', 'list'), 1), None))]
    finally:
        e.close()
