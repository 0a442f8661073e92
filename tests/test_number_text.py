"""The printer's float text takes repr's digits when they have no exponent:
the same text as the Decimal rendering (the reference, below) for every
float, integral or not, tiny or huge."""
import math
import random
import struct
from decimal import Decimal

from rusty.printer import format_number


def reference_text(x: float) -> str:
    """Exact integers plainly, NaN and the infinities by name, else Decimal's positional digits of repr."""
    if -1e15 < x < 1e15 and int(x) == x:
        return str(int(x))
    if x != x:
        return 'NaN'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    text = format(Decimal(repr(x)), 'f')
    return text[:-2] if text.endswith('.0') else text


EDGES = [0.0, -0.0, 0.1, -2.5, 1e-4, 1.5e-4, 9.999e-5, 1e-5, 5e-324, 1e15 + 0.5, -1e15 - 0.5, 1e15, 1e16, 1e20,
         1e22, 9999999999999998.0, 1.7976931348623157e308, -1.7976931348623157e308, 123.456, 2 ** 53 + 0.0,
         math.inf, -math.inf, math.nan]


def test_edges():
    for x in EDGES:
        assert format_number(x) == reference_text(x), x


def test_random_floats():
    r = random.Random(31)
    for _ in range(20000):
        for x in (struct.unpack('d', struct.pack('Q', r.getrandbits(64)))[0], r.uniform(-1e6, 1e6),
                  r.random() * 10.0 ** r.randint(-30, 30), float(r.randint(10 ** 14, 10 ** 18))):
            assert format_number(x) == reference_text(x), x
