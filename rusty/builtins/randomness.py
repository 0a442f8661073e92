"""Pseudo-random numbers: `random` and `random-seed!`.

One generator per process, made on first use; after `(random-seed! n)` its
sequence is a function of n alone (the seed is n's text, hashed by SHA-512, so
it does not depend on Python's per-process hash randomisation)."""
import math

from ..errors import EvalError
from ..printer import display_form, format_number
from ..values import NIL, BuiltinTable
from .args import expected

TABLE = BuiltinTable()
_state: list = []


def _generator():
    """The process's random.Random (created, unseeded, on first use; the
    module too, so start-up does without it)."""
    if not _state:
        import random
        _state.append(random.Random())
    return _state[0]


@TABLE.fn('random', 0, 1, doc='A number in [0, 1), or with n an integer in [0, n).', sig='(random [n])',
          examples=(('(integer? (random 10))', '#t'), ('(< (random) 1)', '#t')))
def random_(n=None):
    rng = _generator()
    if n is None:
        return rng.random()
    if n.__class__ is int and n >= 1:
        return rng.randrange(n)
    if n.__class__ is not float or not math.isfinite(n) or not n.is_integer() or n < 1.0:
        raise EvalError('random: expected a positive integer, got %s' % display_form(n))
    return float(rng.randrange(int(n)))


@TABLE.fn('random-seed!', 1, 1, doc='Seed the generator: later random results depend on n alone.',
          sig='(random-seed! n)',
          examples=(('(let ((a (begin (random-seed! 7) (random 1000)))) (random-seed! 7) (= a (random 1000)))',
                     '#t'),))
def random_seed(n):
    if n.__class__ is not float and n.__class__ is not int:
        raise expected('random-seed!', 'number', n)
    _generator().seed('rusty:' + format_number(n), version=2)
    return NIL
