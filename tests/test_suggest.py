"""The "did you mean" suggestion (rusty/suggest.py): no misleading
suggestion, transpositions as one edit, the longest shared prefix among equals,
other dialects' names; the exact rules of docs/reference.md keep holding
(tests/test_spec_errors.py)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import err, session
from repl_driver import CTRL_D, ENTER, drive, lines
from rusty.suggest import OTHER_LISPS, closest, levenshtein, suggestion

NAMES = None


def names():
    global NAMES
    if NAMES is None:
        s = session()
        NAMES = sorted(set(s.genv.names()) | set(s.special_names))
    return NAMES


def test_the_misleading_suggestions_are_gone():
    assert err('(write "x")') == "Undefined: 'write' — rusty calls it 'print'"
    assert err('(read)') == "Undefined: 'read' — rusty calls it 'read-line'"
    assert err("(mean '(1 2))") == "Undefined: 'mean' — rusty calls it 'average'"
    # without the table, names whose first letter differs are not offered
    assert closest('read', names()) != 'grad'
    assert closest('mean', names()) != 'atan'


def test_two_edits_need_the_first_letter_or_containment():
    assert closest('mean', ['atan']) is None                # two edits, the first letter changed
    assert closest('read', ['grad']) is None
    assert closest('zork', ['or']) == 'or'                  # 'or' is inside 'zork'
    assert closest('twice', ['time']) == 'time'             # the first letter kept
    assert closest('maen', ['atan']) is None
    assert closest('xean', ['mean']) == 'mean'              # one edit: even the first letter


def test_a_transposition_is_one_edit():
    assert levenshtein('teh', 'the', 2) == 1
    assert closest('teh', ['the', 'tea']) == 'tea'          # both one edit: the longer shared prefix ('te')
    assert closest('lsit', ['list']) == 'list'
    assert closest('lsi', ['lis']) == 'lis'                 # threshold 1 for three bytes: the swap fits
    assert err("(lsit 1 2)") == "Undefined: 'lsit' — did you mean 'list'?"


def test_equally_near_names_prefer_the_longer_shared_prefix():
    assert closest('mbcd', ['abcd', 'mbce']) == 'mbce'      # 'abcd' is smaller but shares nothing
    assert closest('kqc', ['kqb', 'kqa']) == 'kqa'          # equal prefixes: the smallest name


def test_other_dialects_names_are_offered_only_when_rusty_has_the_name():
    assert suggestion('write', ['print', 'while']) == ('calls', 'print')
    assert suggestion('write', ['while']) == ('near', 'while')
    assert suggestion('sorted', ['sort']) == ('calls', 'sort')
    bound = set(names())
    for other, ours in OTHER_LISPS.items():
        assert ours in bound and other not in bound, (other, ours)


def test_doc_at_the_prompt_uses_the_same_suggestions():
    out, _ = drive(',doc write' + ENTER + ',doc mean' + ENTER + ',doc lsit' + ENTER + CTRL_D)
    body = lines(out)
    assert body[:3] == ["write: undefined — rusty calls it 'print'", "mean: undefined — rusty calls it 'average'",
                        "lsit: undefined — did you mean 'list'?"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='abcdefghijklmnopqrstuvwxyz-?!*', min_size=1, max_size=9))
def test_every_suggestion_is_near_and_plausible(name):
    cand = closest(name, names())
    if cand is None:
        return
    cap = 1 if len(name.encode()) <= 3 else 2
    d = levenshtein(name, cand, cap)
    assert cand != name and d <= cap
    assert d == 1 or name[0] == cand[0] or cand in name or name in cand
    for other in names():           # nothing plausible is strictly nearer
        if other != name and levenshtein(name, other, cap) < d:
            assert not (name[0] == other[0] or other in name or name in other)


def test_a_slip_of_another_dialects_name_gets_both_names():
    assert err('(wirte 1)') == "Undefined: 'wirte' — did you mean 'write'? rusty calls it 'print'"
    assert err("(mena '(1 2))") == "Undefined: 'mena' — did you mean 'mean'? rusty calls it 'average'"
    assert suggestion('wirte', ['print']) == ('near-other', 'write')
    assert suggestion('wirte', ['print', 'wirt']) == ('near', 'wirt')       # a bound name wins a tie
    assert suggestion('mena', ['average', 'min']) == ('near-other', 'mean')  # one edit beats two
    assert suggestion('wirte', ['while']) is None                           # write's 'print' is not bound
    assert err('(sleep 1)') == "Undefined: 'sleep'"                        # two edits from slurp: too far
    assert suggestion('pop', ['expt']) is None                             # pow: one edit, but of three letters
    assert err('(quit)') == "Undefined: 'quit' — rusty calls it 'exit'"        # before: did you mean 'quote'?
    assert err('(chr 65)') == "Undefined: 'chr' — rusty calls it 'code-char'"  # before: did you mean 'car'?
    out, _ = drive(',doc wirte' + ENTER + CTRL_D)
    assert lines(out)[0] == "wirte: undefined — did you mean 'write'? rusty calls it 'print'"


def test_a_one_letter_name_is_not_offered_another_one_letter_name():
    assert err('(+ x 1)') == "Undefined: 'x'"                  # before: did you mean '*'?
    assert closest('a', ['*', '+', 'b']) is None
    assert closest('x', ['xs']) == 'xs'                         # an added letter is still a slip
    assert err('(define xs 1) (+ x 1)') == "Undefined: 'x' — did you mean 'xs'?"


def test_unquote_outside_a_template_says_why_instead_of_offering_quote():
    assert err(',x') == "Undefined: 'unquote' — ',' (unquote) works only inside a quasiquote (`) template"
    assert err(',@x') == ("Undefined: 'unquote-splicing' — ',@' (unquote-splicing) works only inside a "
                          "quasiquote (`) template")
