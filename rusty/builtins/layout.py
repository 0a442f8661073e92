"""Layout builtins: `fmt-string` (canonical program text) and
`pretty-print` / `pretty-string` (values laid out within a width)."""
import math

from ..printer import display_form
from ..values import NIL, BuiltinTable
from ..errors import EvalError
from .args import string_arg

TABLE = BuiltinTable()
DEFAULT_WIDTH = 80


def width_arg(name: str, width) -> int:
    """A width: a positive integer."""
    if width.__class__ is float and math.isfinite(width) and width == int(width):
        width = int(width)
    if width.__class__ is not int or width < 1:
        raise EvalError('%s: expected a positive integer width, got %s' % (name, display_form(width)))
    return int(width)


@TABLE.fn('fmt-string', 1, 1, sig='(fmt-string s)',
          doc='The canonical layout of the program text s (the layout of rusty fmt): line breaks kept, '
              'spacing normalised, lines re-indented, comments and strings untouched. '
              'A text that does not parse raises its parse error.',
          examples=(('(fmt-string "(define   (f x)\\n(* x x))")', '"(define (f x)\\n  (* x x))\\n"'),
                    ('(fmt-string "(list 1\\n2)  ; two")', '"(list 1\\n      2) ; two\\n"'),
                    ('(fmt-string "")', '""')))
def fmt_string(s):
    from ..fmt import fmt_string     # the formatter is loaded when first used
    return fmt_string(string_arg('fmt-string', s))


@TABLE.fn('pretty-string', 1, 2, sig='(pretty-string v [width])',
          doc='The write form of v laid out within width columns (default 80): what fits on the rest '
              'of a line stays on it; a list that does not fit puts each element after the first on its '
              'own line, aligned with the first, except a list of atoms only, which is filled: as many '
              'elements per line as fit.',
          examples=(("(pretty-string '((a) b c) 6)", '"((a)\\n b\\n c)"'),
                    ("(pretty-string '(a b c) 6)", '"(a b\\n c)"'),
                    ("(pretty-string '(a \"b\" c))", '"(a \\"b\\" c)"')))
def pretty_string(v, width=DEFAULT_WIDTH):
    from ..pretty import pretty_string
    return pretty_string(v, width_arg('pretty-string', width))


@TABLE.fn('pretty-print', 1, 2, host=True, sig='(pretty-print v [width])',
          doc='Write v as pretty-string lays it out, and a newline; returns Nil.',
          examples=(("(pretty-print '(1 2) 4)", '()'),))
def pretty_print(host, v, width=DEFAULT_WIDTH):
    from ..pretty import pretty_string
    host.out.write(pretty_string(v, width_arg('pretty-print', width)) + '\n')
    return NIL
