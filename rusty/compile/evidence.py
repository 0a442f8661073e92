"""What a lambda's warm-up on the reference showed of its arguments, for the
lowering's choice of copies (pay for what runs).

While a lambda runs on the reference before it is compiled (tierup.door),
the arguments of the calls its warm-up samples (its first call among them;
every call when RUSTY_COMPILE_CALLS counts them) are looked at, up to LOOKS
calls: which parameters were given an exact integer, which anything else.
The lowering makes the integer copy of a body (kinds.specialize) only over
parameters that were given an exact integer at least once, or of which
nothing was seen: a copy whose entry test the calls seen never pass costs
its compile time and a failing test per call, and pays nothing (fibfp).
"""

LOOKS = 64      # calls looked at, at most


class Seen:
    """Bit i of `ints` (`others`): parameter i was given an exact integer
    (anything else); `looks`: calls still to look at (the caller tests it)."""
    __slots__ = ('ints', 'others', 'looks', 'n')

    def __init__(self, n: int):
        self.ints = self.others = 0
        self.looks = LOOKS
        self.n = n

    def observe(self, fr) -> None:
        """Look at the arguments in reference frame fr (slots 2…)."""
        self.looks -= 1
        bit = 1
        for v in fr[2:2 + self.n]:
            if v.__class__ is int:
                self.ints |= bit
            else:
                self.others |= bit
            bit <<= 1

    def never_int(self, names) -> frozenset:
        """Those of the parameters' Python `names` (in order) never given an exact integer but given something."""
        return frozenset(nm for i, nm in enumerate(names) if not self.ints >> i & 1 and self.others >> i & 1)
