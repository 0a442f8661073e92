"""Familiar names: the names people who write Scheme, Racket or Clojure reach
for first are bound, documented and listed by apropos; an unbound name that
another Lisp uses for something rusty has gets rusty's own name as its
suggestion. Checked in a session, in batch mode and at the prompt."""
import pytest

from helpers import err, ev, out, session, value
from repl_driver import CTRL_D, ENTER, drive, lines, private_home
from rusty.eval import SPECIAL_FORM_NAMES
from rusty.printer import write_form
from rusty.suggest import OTHER_LISPS
from test_cli import main, proc

NAMES = ('first second third rest list-ref add1 sub1 empty? displayln string-prefix? string-suffix? '
         'string->list list->string reduce filter-map append-map hash-for-each').split()


def wv(src):
    return write_form(value(src))


@pytest.mark.parametrize('name', NAMES)
def test_each_name_is_bound_documented_and_listed(name):
    s = session()
    doc = s.run("(doc '%s)" % name, '<t>')
    assert doc.startswith('(%s' % name) and '⇒' in doc
    s.run('(apropos "%s")' % name, '<t>')
    assert '  %s\n' % name in s.out.getvalue()


@pytest.mark.parametrize('src, want', [
    ("(first '(1 2 3))", '1'), ("(second '(1 2 3))", '2'), ("(third '(1 2 3))", '3'),
    ("(rest '(1 2 3))", '(2 3)'), ("(rest '(1))", '()'),
    ("(list-ref '(a b c) 2)", 'c'),
    ('(add1 41)', '42'), ('(sub1 43)', '42'), ('(add1 0.5)', '1.5'),
    ("(empty? '())", '#t'), ('(empty? (nil))', '#t'), ("(empty? '(1))", '#f'), ('(empty? "")', '#f'),
    ('(string-prefix? "racket" "rac")', '#t'), ('(string-prefix? "rac" "racket")', '#f'),
    ('(string-prefix? "abc" "")', '#t'),
    ('(string-suffix? "notes.txt" ".txt")', '#t'), ('(string-suffix? "a" "ba")', '#f'),
    ('(string->list "héllo")', '("h" "é" "l" "l" "o")'), ('(string->list "")', '()'),
    ("(list->string '(\"a\" \"b\" \"c\"))", '"abc"'), ("(list->string '())", '""'), ('(list->string (nil))', '""'),
    ('(list->string (string->list "round trip"))', '"round trip"'),
    ("(reduce + 0 '(1 2 3))", '6'), ("(reduce cons '() '(1 2 3))", '(3 2 1)'), ("(reduce + 7 '())", '7'),
    ("(filter-map (lambda (x) (and (even? x) (* x x))) '(1 2 3 4))", '(4 16)'),
    ("(filter-map (lambda (a b) (and (< a b) (list a b))) '(1 5 3) '(2 4 6))", '((1 2) (3 6))'),
    ("(filter-map identity '())", '()'),
    ("(append-map (lambda (x) (list x x)) '(1 2))", '(1 1 2 2)'),
    ("(append-map (lambda (x) '()) '(1 2))", '()'),
    ("(append-map list '(1 2) '(a b))", '(1 a 2 b)'),
    ("(let ((acc '())) (hash-for-each (hash 'a 1 'b 2) (lambda (k v) (set! acc (cons (list k v) acc)))) acc)",
     '((b 2) (a 1))'),
    ('(hash-for-each (make-hash) car)', '()'),
])
def test_familiar_names(src, want):
    assert wv(src) == want


def test_displayln():
    assert out('(displayln "a" 1 (list "b"))') == 'a1("b")\n'
    assert out('(displayln)') == '\n'
    assert ev('(displayln 1)') == '()'


def test_hash_for_each_may_change_the_table():
    assert ev("(define h (hash 'a 1 'b 2)) (hash-for-each h (lambda (k v) (hash-set! h k (* v 10)) "
              "(hash-set! h 'c 0))) (hash->list h)") == '((a 10) (b 20) (c 0))'


@pytest.mark.parametrize('src, msg', [
    ("(first '())", 'first: not a pair'), ('(first (nil))', 'first: empty list'), ('(first 5)', 'first: not a pair'),
    ("(rest '())", 'rest: not a pair'), ('(rest (nil))', 'rest: empty list'),
    ("(second '(1))", 'second: index 1 out of range [0, 1)'), ('(second 5)', 'second: expected a list, got 5'),
    ("(third '(1 2))", 'third: index 2 out of range [0, 2)'),
    ("(list-ref '(1) 1)", 'list-ref: index 1 out of range [0, 1)'),
    ('(add1 "a")', None), ('(empty?)', 'empty?: expected 1 arg(s), got 0'),
    ('(string-prefix? "a" 1)', 'string-prefix?: expected a string, got 1'),
    ('(string-suffix? 1 "a")', 'string-suffix?: expected a string, got 1'),
    ("(list->string '(\"ab\"))", 'list->string: expected a one-character string, got "ab"'),
    ("(list->string '(1))", 'list->string: expected a one-character string, got 1'),
    ('(list->string "abc")', 'list->string: expected a list, got "abc"'),
    ("(reduce 5 0 '(1))", 'reduce: expected a procedure, got 5'),
    ('(reduce + 0 5)', 'reduce: expected a list, got 5'),
    ('(reduce + 0 (nil))', 'reduce: not a list'),
    ("(filter-map 5 '(1))", 'filter-map: expected a procedure, got 5'),
    ("(append-map (lambda (x) x) '(1))", 'append-map: expected a list, got 1'),
    ("(append-map list 5)", 'append-map: expected a list, got 5'),
    ('(hash-for-each 5 car)', 'hash-for-each: expected a hash, got 5'),
    ("(hash-for-each (hash 'a 1) 5)", 'hash-for-each: expected a procedure, got 5'),
    ("(hash-for-each (hash 'a 1) car)", 'car: expected 1 arg(s), got 2'),
])
def test_familiar_name_errors(src, msg):
    m = err(src)
    assert 'internal error' not in m
    if msg is not None:
        assert m == msg


# ── Suggestions naming rusty's own ───────────────────────────────────────

def test_the_manual_example():
    assert err('(string-index "a.b" ".")') == "Undefined: 'string-index' — rusty calls it 'string-first-index'"


@pytest.mark.parametrize('other, ours', sorted(OTHER_LISPS.items()))
def test_every_other_lisp_name_suggests_a_bound_rusty_name(other, ours):
    s = session()
    assert other not in SPECIAL_FORM_NAMES and s.global_value(other) is None
    assert ours in SPECIAL_FORM_NAMES or s.global_value(ours) is not None
    assert err('(%s 1)' % other) == "Undefined: '%s' — rusty calls it '%s'" % (other, ours)


def test_a_program_may_bind_an_other_lisp_name():
    assert ev('(define (string-index s c) 7) (string-index "a" "b")') == '7'


def test_the_suggestion_names_only_a_name_in_scope():
    from rusty.suggest import undefined_message
    assert undefined_message('fold-left', ['map', 'foldl']) == "Undefined: 'fold-left' — rusty calls it 'foldl'"
    assert undefined_message('fold-left', ['map']) == "Undefined: 'fold-left' (try (apropos \"fold\"))"


def test_first_no_longer_suggests_list():
    assert ev("(first '(a))") == 'a'
    assert err("(frist '(a))") == "Undefined: 'frist' — did you mean 'first'?"


def test_did_you_mean_and_apropos_hints_are_unchanged():
    assert err('(filtr even? (list 1 2))') == "Undefined: 'filtr' — did you mean 'filter'?"
    assert err('(string-shout "hi")') == "Undefined: 'string-shout' (try (apropos \"string\"))"
    assert err('(zzqx 1)') == "Undefined: 'zzqx'"


# ── In batch mode and at the prompt ──────────────────────────────────────

def test_in_batch_mode():
    status, o, e = main(['-e', '(displayln (first (list->vector (list 1))))'])
    assert status == 1 and o == '' and e.startswith('Error: first: not a pair\n')
    status, o, e = main(['-e', '(displayln (vector-map add1 #(1 2))) (format "~5,1f|~x" 2.25 255)'])
    assert (status, o, e) == (0, '#(2 3)\n  2.2|ff\n', '')
    status, o, e = main(['-e', '(string-index "a" "b")'])
    assert status == 1 and e.startswith("Error: Undefined: 'string-index' — rusty calls it 'string-first-index'\n")
    assert 'internal error' not in e


def test_as_a_real_process():
    p = proc(['-e', "(println (list-ref '(a b) 1) #(1 \"s\") (string-split \"a,,b\" \",\" 'all))"])
    assert (p.returncode, p.stdout, p.stderr) == (0, 'b #(1 s) (a  b)\n', '')
    p = proc(['-e', '(vector-ref #(1 2) 2)'])
    assert p.returncode == 1 and p.stderr.startswith('Error: vector-ref: index 2 out of range [0, 2)\n')


def test_at_the_prompt(tmp_path, monkeypatch):
    private_home(tmp_path, monkeypatch)
    o, _ = drive('#(1 "a" b)' + ENTER + '(vector-ref #(1' + ENTER + ' 2) 0)' + ENTER
                 + "(match 4 ((? even?) 'even) (_ 'odd))" + ENTER
                 + '(string-index "a" "b")' + ENTER + CTRL_D)
    body = lines(o)
    assert body[:3] == ['=> #(1 "a" b)', '=> 1', '=> even']
    assert "Error: Undefined: 'string-index' — rusty calls it 'string-first-index'" in body


# ── No host error escapes the new builtins, whatever they are given ─────

NEW_BUILTINS = ('first second third rest list-ref empty? displayln string-prefix? string-suffix? list->string '
                'reduce filter-map append-map hash-for-each vector make-vector vector-ref vector-set! '
                'vector-length vector->list list->vector vector-fill! vector-map vector-for-each vector? '
                'vector-copy nth list-tail substring string-ref string-pad-left string-pad-right tensor-ref '
                'format string-split json-encode length map for-each').split()
POOL_SRC = ['0', '-1', '1.5', '(sqrt -1)', '(exp 1000)', '1e300', '""', '"ab"', '"~"', '"~5,2f"', "'a", '#t',
            '#f', '(nil)', "'()", "'(1 2)", "'((a 1))", '#()', '#(1 "x")', "(hash 'k 1)", 'car', '(lambda (x) x)',
            '(lambda (a b) a)', "(tensor '(1 2))", "'all"]


def test_no_internal_error_from_any_arguments():
    import random

    from rusty.apply import call_builtin
    from rusty.errors import RustyError
    s = session()
    pool = [s.run(src, '<pool>') for src in POOL_SRC]
    rng = random.Random(19)
    for name in NEW_BUILTINS:
        b = s.global_value(name)
        trials = [[x] for x in pool] + [[x, y] for x in pool for y in pool]
        trials += [[rng.choice(pool) for _ in range(rng.randrange(0, 5))] for _ in range(300)]
        for args in trials:
            try:
                call_builtin(b, list(args), None, s.depth)
            except RustyError as e:
                assert not e.message.startswith('internal error'), (name, args, e.message)
