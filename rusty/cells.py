"""Walking a list's cells fast: the builtins that read a whole list (string-join,
apply, list->vector, length…) share these loops.

A list is a chain of List cells ending in EMPTY, whose cdr is EMPTY again,
so a walk may step past the end and find EMPTY: each step below follows
eight cdrs and tests only the last, and takes the eight elements in one go
(about half the time of a cell-by-cell loop). The last few cells, fewer
than eight, are walked one by one. tests/test_cells.py compares them with
the cell-by-cell walk.
"""
from .values import EMPTY


def cars(lst) -> list:
    """The elements of list lst (a List, possibly EMPTY), in order, as a fresh Python list."""
    items = []
    end = EMPTY
    while True:
        c2 = lst.cdr
        c3 = c2.cdr
        c4 = c3.cdr
        c5 = c4.cdr
        c6 = c5.cdr
        c7 = c6.cdr
        c8 = c7.cdr
        if c8 is end:
            break
        items += (lst.car, c2.car, c3.car, c4.car, c5.car, c6.car, c7.car, c8.car)
        lst = c8.cdr
    add = items.append
    while lst is not end:
        add(lst.car)
        lst = lst.cdr
    return items


def count(lst) -> int:
    """The number of elements of list lst (a List, possibly EMPTY)."""
    n = 0
    end = EMPTY
    while True:
        c8 = lst.cdr.cdr.cdr.cdr.cdr.cdr.cdr.cdr
        if c8 is end:
            break
        n += 8
        lst = c8
    while lst is not end:
        n += 1
        lst = lst.cdr
    return n


def skip(lst, k: int) -> tuple:
    """(the cell k cdrs down list lst, 0); when lst has fewer than k elements, (EMPTY, the steps left)."""
    end = EMPTY
    while k >= 8:
        c8 = lst.cdr.cdr.cdr.cdr.cdr.cdr.cdr.cdr
        if c8 is end:           # (perhaps past the end: the rest one by one)
            break
        lst = c8
        k -= 8
    while k > 0 and lst is not end:
        lst = lst.cdr
        k -= 1
    return lst, k
