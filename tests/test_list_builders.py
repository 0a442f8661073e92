"""The list builders that fill fresh cells in place (values.cons, make_list,
copy_onto, reverse_onto; used by cons, list, map, filter, append, reverse)
against the reference: cells made one by one, `List()` filled in place. Every cell's
car and span, where the list ends (at the one EMPTY), and the sharing of the
tail, must agree."""
import random

from rusty.values import EMPTY, List, cons, copy_onto, make_list, reverse_onto


def ref_list(items, tail=EMPTY):
    out = tail
    for x in reversed(items):
        cell = List()
        cell.car, cell.cdr = x, out
        out = cell
    return out


def cells(lst):
    out = []
    while True:
        out.append((lst.car, lst is EMPTY, lst.span))
        if lst is EMPTY:
            return out
        lst = lst.cdr


def same(a, b):
    return cells(a) == cells(b) and all(x is y for (x, _, _), (y, _, _) in zip(cells(a), cells(b)))


def samples():
    rng = random.Random(13)
    yield [], []
    yield [1.0], []
    yield [], [2.0]
    for _ in range(50):
        yield ([rng.random() for _ in range(rng.randrange(0, 300))],
               [rng.random() for _ in range(rng.randrange(0, 5))])


def test_make_list_is_cons_by_cons():
    for items, _ in samples():
        assert same(make_list(items), ref_list(items))


def test_cons_is_the_constructor():
    for items, rest in samples():
        tail = ref_list(rest)
        out = tail
        for x in reversed(items):
            out = cons(x, out)
        assert same(out, ref_list(items, tail))
        assert len(out) == len(items) + len(rest)


def test_copy_onto_shares_the_tail_and_copies_the_rest():
    for items, rest in samples():
        lst, tail = ref_list(items), ref_list(rest)
        got = copy_onto(lst, tail)
        assert same(got, ref_list(items, tail))
        walk = got
        for _ in items:
            assert walk is not lst or not items     # fresh cells
            walk = walk.cdr
        assert walk is tail


def test_reverse_onto_is_cons_by_cons_reversed():
    for items, rest in samples():
        tail = ref_list(rest)
        assert same(reverse_onto(ref_list(items), tail), ref_list(items[::-1], tail))


def test_spanned_source_lists_copy_without_spans():
    from rusty.reader import read
    form = read('(a b c)', 'x').car
    assert all(sp is None for _, _, sp in cells(copy_onto(form, EMPTY)))
    assert all(sp is None for _, _, sp in cells(reverse_onto(form, EMPTY)))
