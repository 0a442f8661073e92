"""`format` parses a template once and remembers its parts: the same text,
and the same error at the same point, as the directive-by-directive
interpreter it replaced (kept below as the reference), for templates met
the first time and again."""
import itertools

import pytest

from rusty.builtins import format_directives as fd
from rusty.errors import EvalError
from rusty.printer import display_form, print_form
from rusty.values import make_list, sym


def reference_format(template, *args):
    """The former `format`: each directive interpreted as it is reached."""
    out = []
    pending = iter(args)
    i, n = 0, len(template)
    while i < n:
        j = template.find('~', i)
        if j < 0:
            out.append(template[i:])
            break
        out.append(template[i:j])
        i = _reference_directive(template, j, pending, out)
    return ''.join(out)


def _reference_directive(template, j, pending, out):
    n = len(template)
    k = j + 1
    while k < n and template[k] in fd._DIGITS:
        k += 1
    width = fd._field(template[j + 1:k], 0)
    precision = None
    if k < n and template[k] == ',':
        m = k + 1
        while m < n and template[m] in fd._DIGITS:
            m += 1
        precision = fd._field(template[k + 1:m], None)
        k = m
    right = k < n and template[k] == '@'
    if right:
        k += 1
    d = template[k].lower() if k < n else ''
    text = template[j:k + 1]
    if d in fd._FORMAT_TEXT and k == j + 1:
        out.append(fd._FORMAT_TEXT[d])
    elif d == 'a' or d == 's':
        x = _next(pending)
        piece = (x if x.__class__ is str else print_form(x)) if d == 'a' else display_form(x)
        out.append(piece.rjust(width) if right else piece.ljust(width))
    elif d == 'f':
        out.append(fd._fixed(_next(pending), precision).rjust(width))
    elif d == 'd':
        out.append(str(fd._integer('d', _next(pending))).rjust(width))
    elif d in fd._BASES:
        out.append(format(fd._integer(d, _next(pending)), fd._BASES[d]).rjust(width))
    else:
        raise EvalError('format: unknown directive %s' % text)
    return k + 1


def _next(pending):
    try:
        return next(pending)
    except StopIteration:
        raise EvalError('format: not enough args') from None


def outcome(f, template, args):
    try:
        return ('value', f(template, *args))
    except EvalError as e:
        return ('error', e.message)
    except MemoryError:
        return ('error', 'out of memory')


PIECES = ['', 'x', '~a', '~s', '~5a', '~5@s', '~8,2f', '~,3f', '~f', '~4d', '~x', '~O', '~b', '~%', '~t', '~~',
          '~q', '~3%', '~', '~A', '~99999999999a', '~1,99999999999f', '~2,1@a', ' | ']
ARGS = [(), (1,), ('ab', 2.5), (255, 'x', 3.14159, -7), (2.0, 8, 5, 1.5, 'q', 0),
        (10 ** 15, -(10 ** 15) + 1, True, 10 ** 20, -3, 0), (sym('s'), make_list([1, 'a']), -(10 ** 15), 7)]


@pytest.mark.parametrize('first', PIECES)
def test_parsed_templates_agree_with_the_reference(first):
    for second, third in itertools.product(PIECES, ['', '~a', 'end', '~q']):
        template = first + second + third
        for args in ARGS:
            want = outcome(reference_format, template, args)
            assert outcome(fd.format_, template, args) == want, (template, args)
            assert outcome(fd.format_, template, args) == want, (template, args)      # parsed, remembered


def test_the_remembered_templates_are_bounded():
    for i in range(fd._PARSED_MAX + 10):
        fd.format_('~a %d' % i, 1)
    assert len(fd._PARSED) <= fd._PARSED_MAX
