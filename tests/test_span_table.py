"""Spans live beside the cells (values._SPANS), not in them: a cell has two
slots, and only cells made with a span are in the table. A span stays
readable exactly as long as something holds its cell; cells nothing else
holds leave the table when it is purged, a whole form in one pass, so
reading and evaluating text again and again does not grow it."""
import io
import sys

from rusty import values
from rusty.reader import read
from rusty.runtime import Session
from rusty.values import EMPTY, List, cons, make_list


def test_a_cell_is_two_slots_and_48_bytes():
    assert List.__slots__ == ('car', 'cdr')
    assert sys.getsizeof(cons(1.0, EMPTY)) == 48       # the collector's header included


def test_cells_built_at_run_time_have_no_span_and_no_entry():
    before = len(values._SPANS)
    lst = make_list([1.0, 2.0, 3.0])
    lst = cons(0.0, lst)
    assert all(c.span is None for c in lst.cells()) and EMPTY.span is None
    assert len(values._SPANS) == before


def test_held_cells_keep_their_spans_and_unheld_ones_leave():
    form = read('(a (b c) d)', 'spans.lisp')
    inner = form.car.cdr.car                  # (b c)
    b_span = (inner.span.line, inner.span.col)
    assert inner.span is not None and b_span == (1, 5)
    values._purge_spans()
    assert inner.span is not None and inner in values._SPANS
    outer_cells = list(form.car.cells())
    assert all(c in values._SPANS for c in outer_cells)
    del form, outer_cells
    values._purge_spans()
    # the outer list and its top-level cell are gone; (b c) is still held
    assert (inner.span.line, inner.span.col) == b_span and inner.cdr.span is not None
    keys = set(map(id, values._SPANS))
    del inner
    values._purge_spans()
    assert len(set(map(id, values._SPANS)) & keys) < len(keys)


def test_one_purge_frees_a_whole_deep_form():
    values._purge_spans()
    base = len(values._SPANS)
    form = read('(' * 300 + ')' * 300 + ' (x (y (z)))', 'deep.lisp')
    assert len(values._SPANS) > base
    del form
    values._purge_spans()
    assert len(values._SPANS) == base


def test_evaluating_text_again_and_again_does_not_grow_the_table():
    s = Session(out=io.StringIO())
    s.run('(define (f x) (car x))')
    for _ in range(3):
        s.run('(f (quote (1 2 3)))')
    values._purge_spans()
    base = len(values._SPANS)
    for i in range(3000):
        s.run('(f (quote (%d 2 3 (4 5) "six")))' % i)
    values._purge_spans()
    assert len(values._SPANS) <= base + 50


def test_error_positions_still_come_from_the_spans():
    s = Session(out=io.StringIO())
    try:
        s.run('(define (g x)\n  (car x))\n(g 5)', 'pos.lisp')
    except Exception as e:      # the rusty error, with its position
        assert (e.span.line, e.span.col) == (2, 3)
    else:
        raise AssertionError('no error')
