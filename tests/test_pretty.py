"""Pretty printing (docs/reference.md §6.8, `pretty-string`): the spec's example verbatim, the fitting
rule at its edges, hashes, and the stack-based layout compared with a plain
recursive reference of the rule on generated values."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import err, out, value
from rusty.printer import MAX_DEPTH, write_form
from rusty.pretty import flat_within, pretty_string
from rusty.reader import read
from rusty.values import EMPTY, NIL, Hash, List, hash_key, make_list, sym


def form(text):
    return read(text).car


# ── The spec ─────────────────────────────────────────────────────────────

def test_spec_example_verbatim():
    assert out("(pretty-print '(define (f x) (if (> x 0) (list 'pos x) (list 'neg x))) 30)") == '''\
(define
 (f x)
 (if
  (> x 0)
  (list (quote pos) x)
  (list (quote neg) x)))
'''


def test_pretty_print_returns_nil_and_pretty_string_has_no_final_newline():
    assert value("(pretty-print '(1 2))") is NIL
    assert value("(pretty-string '(1 2) 4)") == '(1\n 2)'
    assert value("(pretty-string '(a \"b\\nc\"))") == '(a "b\\nc")'       # write form
    assert value('(pretty-string "x")') == '"x"'


def test_default_width_is_80():
    row = '(' + ' '.join(['abcdefghi'] * 7 + ['abcdefgh']) + ')'
    assert len(row) == 80
    assert value("(pretty-string '%s)" % row) == row
    longer = '(' + ' '.join(['abcdefghi'] * 8) + ')'
    assert value("(pretty-string '%s)" % longer) == longer[:-11] + '\n abcdefghi)'      # filled
    nested = '(' + ' '.join(['(abcdefghi)'] * 7) + ')'
    assert value("(pretty-string '%s)" % nested).count('\n') == 6


def test_width_must_be_a_positive_integer():
    for bad, shown in (('0', '0'), ('-3', '-3'), ('2.5', '2.5'), ('"80"', '"80"'), ('1e400', 'inf')):
        assert err("(pretty-string '(a) %s)" % bad) == 'pretty-string: expected a positive integer width, got ' + shown
        assert err("(pretty-print '(a) %s)" % bad) == 'pretty-print: expected a positive integer width, got ' + shown


# ── The fitting rule at its edges ────────────────────────────────────────

def test_fits_exactly_at_the_width():
    assert pretty_string(form('(a b c)'), 7) == '(a b c)'
    assert pretty_string(form('(a b c)'), 6) == '(a b\n c)'
    assert pretty_string(form('(a b (c))'), 8) == '(a\n b\n (c))'


def test_closing_parentheses_that_follow_are_not_counted():
    # (b c) at column 3 of width 8 fits (3 + 5 = 8) though '))' follow it
    assert pretty_string(form('(a (b c) (d e))'), 8) == '(a\n (b c)\n (d e))'
    assert pretty_string(form('(x (a (b c)))'), 9) == '(x\n (a\n  (b c)))'


def test_the_first_element_is_laid_out_by_the_same_rule():
    assert pretty_string(form('((alpha beta) gamma)'), 8) == '((alpha\n  beta)\n gamma)'


def test_an_atom_that_does_not_fit_is_written_anyway():
    assert pretty_string(form('(a "a long string" b)'), 5) == '(a\n "a long string"\n b)'
    assert pretty_string(sym('averyverylongsymbol'), 3) == 'averyverylongsymbol'


def test_the_start_column_counts():
    assert pretty_string(form('(a b)'), 8, 3) == '(a b)'
    assert pretty_string(form('(a b)'), 7, 3) == '(a\n    b)'
    assert pretty_string(form('(a b c)'), 9, 3) == '(a b\n    c)'


def test_a_flat_list_that_does_not_fit_is_filled():
    text = value('(pretty-string (iota 30) 40)')
    rows = text.split('\n')
    assert text == ('(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n'
                    ' 16 17 18 19 20 21 22 23 24 25 26 27 28\n'
                    ' 29)')
    assert all(len(r) <= 40 for r in rows)
    assert all(len(r.split()) > 1 for r in rows[:-1])
    assert value('(pretty-string (list "ab" \'cd #t () 1.5 "ef") 13)') == '("ab" cd #t\n () 1.5 "ef")'
    # a list holding a list is laid out one element per line, its atom rows filled
    assert value('(pretty-string (list 1 (iota 12) 2) 20)') == '(1\n (0 1 2 3 4 5 6 7 8\n  9 10 11)\n 2)'


def test_empty_lists_and_nil_are_atoms():
    assert pretty_string(make_list([]), 1) == '()'
    assert pretty_string(NIL, 1) == '()'


def _hash(*pairs):
    h = Hash()
    for k, v in pairs:
        h.table[hash_key(k)] = (k, v)
    return h


def test_hashes():
    h = _hash(('a', 1.0), (sym('b'), make_list([1.0, 2.0, 3.0])), ('long key here', 'x\ny'))
    assert pretty_string(h, 200) == write_form(h) == '#hash(("a" 1) (b (1 2 3)) ("long key here" "x\\ny"))'
    assert pretty_string(h, 20) == '#hash(("a" 1)\n      (b (1 2 3))\n      ("long key here"\n       "x\\ny"))'
    assert pretty_string(Hash(), 1) == '#hash()'
    assert pretty_string(make_list([h, 1.0]), 30).splitlines()[1] == '       (b (1 2 3))'


def test_deep_and_long_values_do_not_recurse_or_crawl():
    deep = form('(' * 5000 + ')' * 5000)
    assert pretty_string(deep, 80) == write_form(deep)            # `(...)` past MAX_DEPTH, like the printers
    assert '(...)' in pretty_string(deep, 80)
    long = make_list([float(i) for i in range(100_000)])
    text = pretty_string(long, 80)
    assert text.count('\n') > 5000 and max(len(line) for line in text.split('\n')) <= 80
    tall = make_list([make_list([float(i)]) for i in range(100_000)])
    assert pretty_string(tall, 80).count('\n') == 99_999


def test_flat_within_stops_at_the_room_left():
    assert flat_within(form('(a b c)'), 7) == '(a b c)'
    assert flat_within(form('(a b c)'), 6) is None


# ── The stack-based layout against a recursive reference ─────────────────

def reference(x, width, col=0, depth=0):
    """The rule of pretty-string (docs/reference.md §6.8) read literally, recursively (small values only)."""
    flat = write_form(x)
    if col + len(flat) <= width or depth >= MAX_DEPTH:
        return flat
    if x.__class__ is List and x is not EMPTY:
        items, opening = list(x), '('
    elif x.__class__ is Hash and x.table:
        items, opening = [make_list([k, v]) for k, v in x.table.values()], '#hash('
    else:
        return flat
    inner = col + len(opening)
    if opening == '(' and not any(i.__class__ is Hash or (i.__class__ is List and i is not EMPTY) for i in items):
        return fill_reference(items, width, col)
    parts = [reference(items[0], width, inner, depth + 1)]
    for item in items[1:]:
        parts.append('\n' + ' ' * inner + reference(item, width, inner, depth + 1))
    return opening + ''.join(parts) + ')'


def fill_reference(items, width, col):
    """The filled layout of a list of atoms: rows of whole elements, greedily,
    each row starting a column after the `(`; the last counts its `)`."""
    texts = [write_form(i) for i in items]
    rows = [[texts[0]]]
    for k, t in enumerate(texts[1:], 1):
        used = col + 1 + len(' '.join(rows[-1]))
        closing = 1 if k == len(texts) - 1 else 0
        if used + 1 + len(t) + closing <= width:
            rows[-1].append(t)
        else:
            rows.append([t])
    return '(' + ('\n' + ' ' * (col + 1)).join(' '.join(r) for r in rows) + ')'


ATOMS = st.one_of(st.sampled_from([sym('a'), sym('define'), sym('x'), True, False, NIL]),
                  st.floats(allow_nan=False, allow_infinity=False, width=32),
                  st.text(alphabet='ab "\\\n\t', max_size=6))
VALUES = st.recursive(ATOMS, lambda c: st.one_of(
    st.lists(c, max_size=5).map(make_list),
    st.lists(st.tuples(st.sampled_from(['k', 'l', 'm']), c), max_size=3).map(lambda ps: _hash(*ps))),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=10))
def test_layout_matches_the_recursive_reference(v, width, col):
    text = pretty_string(v, width, col)
    assert text == reference(v, width, col)
    # only the whitespace between elements changes
    assert ' '.join(line.strip() for line in text.split('\n')) == write_form(v)


@pytest.mark.parametrize('width', [10, 30, 80])
def test_what_reads_back_is_the_value(width):
    v = form('(define (f x) (let ((s "a \\"q\\"\\nb")) (list s (quote x) 1.5 -2 #t)))')
    assert write_form(read(pretty_string(v, width)).car) == write_form(v)


# ── The documentation of the layout builtins ─────────────────────────────

@pytest.mark.parametrize('name', ['fmt-string', 'pretty-string', 'pretty-print'])
def test_layout_builtins_are_documented_and_their_examples_hold(name):
    from helpers import session
    s = session()
    b = s.global_value(name)
    assert b.sig.startswith('(%s ' % name) and b.doc and b.examples
    for expr, expected in b.examples:
        assert write_form(session().run(expr, '<example>')) == expected, expr
