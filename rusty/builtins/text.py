"""The practical string builtins: case, trimming,
replacing, padding, code points and `repr`. Strings are code-point sequences;
a "character" is a one-character string."""
from ..errors import EvalError
from ..printer import display_form, write_form
from ..values import BuiltinTable
from .args import count_arg, expected, string_arg

TABLE = BuiltinTable()
MAX_CODE_POINT = 0x10FFFF
MAX_PAD = 1 << 31        # longest padded string made (code points)


# ── Case ─────────────────────────────────────────────────────────────────

@TABLE.fn('string-upcase', 1, 1, doc='The string in upper case (full Unicode mapping).',
          sig='(string-upcase s)',
          examples=(('(string-upcase "abc")', '"ABC"'), ('(string-upcase "straße")', '"STRASSE"')))
def string_upcase(s):
    return string_arg('string-upcase', s).upper()


@TABLE.fn('string-downcase', 1, 1, doc='The string in lower case (full Unicode mapping).',
          sig='(string-downcase s)', examples=(('(string-downcase "Hello World")', '"hello world"'),))
def string_downcase(s):
    return string_arg('string-downcase', s).lower()


# ── Trimming ─────────────────────────────────────────────────────────────

def _trimmer(name: str, method: str):
    """A trim builtin: `method` ('strip', 'lstrip', 'rstrip') of chars or whitespace."""
    strip = getattr(str, method)

    def trim(s, chars=None):
        if s.__class__ is not str:
            raise expected(name, 'string', s)
        if chars is None:
            return strip(s)
        return strip(s, string_arg(name, chars))
    trim.__name__ = name.replace('-', '_')
    return trim


for _name, _method, _what, _example in (
        ('string-trim', 'strip', 'leading and trailing', ('(string-trim "  hi \\n")', '"hi"')),
        ('string-trim-left', 'lstrip', 'leading', ('(string-trim-left "xxhixx" "x")', '"hixx"')),
        ('string-trim-right', 'rstrip', 'trailing', ('(string-trim-right "  hi  ")', '"  hi"'))):
    TABLE.fn(_name, 1, 2, doc='The string without %s characters in chars (default: whitespace).' % _what,
             sig='(%s s [chars])' % _name, examples=(_example,))(_trimmer(_name, _method))


# ── Searching and replacing ──────────────────────────────────────────────

@TABLE.fn('string-replace', 3, 3, doc='Every non-overlapping occurrence of old replaced by new, left to right.',
          sig='(string-replace s old new)',
          examples=(('(string-replace "a-b-c" "-" "+")', '"a+b+c"'), ('(string-replace "aaa" "aa" "b")', '"ba"')))
def string_replace(s, old, new):
    s = string_arg('string-replace', s)
    old = string_arg('string-replace', old)
    new = string_arg('string-replace', new)
    if old == '':
        raise EvalError('string-replace: empty pattern')
    return s.replace(old, new)


@TABLE.fn('string-ends-with?', 2, 2, doc='True if s ends with suffix.', sig='(string-ends-with? s suffix)',
          examples=(('(string-ends-with? "notes.txt" ".txt")', '#t'), ('(string-ends-with? "a" "ba")', '#f')))
def string_ends_with(s, suffix):
    return string_arg('string-ends-with?', s).endswith(string_arg('string-ends-with?', suffix))


# ── Padding ──────────────────────────────────────────────────────────────

def _padder(name: str, method: str):
    """A pad builtin: `method` ('rjust' or 'ljust') to n with a one-character fill."""
    justify = getattr(str, method)

    def pad(s, n, fill=' '):
        if s.__class__ is str and n.__class__ is int and n >= 0 and fill.__class__ is str and len(fill) == 1:
            if n <= len(s):             # the common cases, checked in one go
                return s
            if n <= MAX_PAD:
                return justify(s, n, fill)
        s = string_arg(name, s)
        width = count_arg(name, n)
        if fill.__class__ is not str or len(fill) != 1:
            raise expected(name, 'one-character string', fill)
        if width <= len(s):
            return s
        if width > MAX_PAD:
            raise MemoryError       # reported as `out of memory`, never a host error
        return justify(s, width, fill)
    pad.__name__ = name.replace('-', '_')
    return pad


TABLE.fn('string-pad-left', 2, 3, doc='s padded on the left with fill (default a space) to length n.',
         sig='(string-pad-left s n [fill])',
         examples=(('(string-pad-left "7" 3 "0")', '"007"'), ('(string-pad-left "long" 2)', '"long"')),
         )(_padder('string-pad-left', 'rjust'))
TABLE.fn('string-pad-right', 2, 3, doc='s padded on the right with fill (default a space) to length n.',
         sig='(string-pad-right s n [fill])', examples=(('(string-pad-right "ab" 4)', '"ab  "'),),
         )(_padder('string-pad-right', 'ljust'))


# ── Code points ──────────────────────────────────────────────────────────

@TABLE.fn('char-code', 1, 1, doc='The code point of the first character.', sig='(char-code s)',
          examples=(('(char-code "A")', '65'), ('(char-code "λx")', '955')))
def char_code(s):
    s = string_arg('char-code', s)
    if s == '':
        raise EvalError('char-code: empty string')
    return ord(s[0])


@TABLE.fn('code-char', 1, 1, doc='The one-character string of a code point.', sig='(code-char n)',
          examples=(('(code-char 97)', '"a"'), ('(code-char 955)', '"λ"')))
def code_char(n):
    if n.__class__ is not float and n.__class__ is not int:
        raise expected('code-char', 'number', n)
    if not (0 <= n <= MAX_CODE_POINT) or n != int(n) or 0xD800 <= n <= 0xDFFF:
        raise EvalError('code-char: invalid code point %s' % display_form(n))
    return chr(int(n))


# ── The write form as a string ───────────────────────────────────────────

@TABLE.fn('repr', 1, 1, doc='The write form of a value: strings quoted and escaped, readable back.',
          sig='(repr v)',
          examples=(('(repr "a\\"b")', '"\\"a\\\\\\"b\\""'), ('(repr (list 1 "x" \'y))', '"(1 \\"x\\" y)"')))
def repr_(v):
    return write_form(v)
