"""`equal?` answers strings, numbers and symbols itself (builtins/core.py);
the reference is values.equal, which it must agree with on every pair."""
import itertools
import math

from rusty.builtins.core import _equal
from rusty.values import EMPTY, NIL, make_list, sym

VALUES = [0.0, -0.0, 1.0, math.nan, math.inf, 'a', '', 'A', '1', sym('a'), sym('b'), True, False,
          NIL, EMPTY, make_list([1.0]), make_list(['a']), make_list([sym('a')]), 1.5]


def test_fast_equal_agrees_with_the_reference_on_every_pair():
    from rusty.values import equal
    for a, b in itertools.product(VALUES, repeat=2):
        assert _equal(a, b) is equal(a, b), (a, b)
