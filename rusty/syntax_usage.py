"""The syntax check's shared vocabulary: the usage messages of special forms
(who speaks them, their signatures' alternatives), the malformation a check
raises, and the symbols forms are written with."""
from .forms import BY_NAME, entry
from .values import sym

DOT = sym('.')
ELSE = sym('else')
UNQUOTES = (sym('unquote'), sym('unquote-splicing'))
QMARK = sym('?')
QUOTE = sym('quote')
CONS = sym('cons')
ELLIPSIS = sym('...')
ELLIPSIS_ALONE = "match: '...' must follow a pattern in a list pattern, as in (a b ...)"

# Names whose messages are not the row's first name's: (prefix, signature's
# name). The other aliases speak as their row (fn and λ as lambda,
# define-macro as defmacro); load-relative's messages begin `load:`.
SPEAKERS = {'letrec*': ('letrec*', 'letrec*'), 'load-relative': ('load', 'load-relative')}


def expected(x, alternative: int, parts: int) -> str:
    """`NAME: expected SIG, got N parts` for special form x and its signature's alternative."""
    prefix, own = speakers(x.car.name)
    sig = alternatives(entry(own).sig)[alternative]
    return '%s: expected %s, got %d %s' % (prefix, sig, parts, 'part' if parts == 1 else 'parts')


def speakers(name: str) -> tuple:
    """(the prefix of special form `name`'s messages, whose signature they name)."""
    found = SPEAKERS.get(name)
    if found is None:
        row = BY_NAME[name].name
        return row, row
    return found


def speaker(name: str) -> str:
    """The prefix of special form `name`'s messages."""
    return speakers(name)[0]


def alternatives(sig: str) -> list:
    """The alternatives of a signature written as forms (not `'datum` sugar)."""
    return [a for a in sig.split(' | ') if a.startswith('(')]


class Malformed(Exception):
    """A malformed form met by the walk; `span` is filled in as it unwinds."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message = message
        self.span = span
