"""json-decode and json-encode's host fast paths (rusty/builtins/json_host.py)
against the reference walks in json_text.py they stand in for: the same values,
texts and error messages, document by document, and the fast path really
taken where it claims to be."""
import random

import pytest

from rusty.builtins import json_host, json_text
from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session


def outcome(fn, *args):
    try:
        return ('value', write_form(fn(*args)))
    except RustyError as e:
        return ('error', e.message)


def both(monkeypatch, fn, *args):
    """(fast, reference) outcomes of builtin fn: with json_host, then without."""
    fast = outcome(fn, *args)
    with monkeypatch.context() as m:
        m.setattr(json_host, 'decode', lambda text, hash_object=None: None)
        m.setattr(json_host, 'encode', lambda v: None)
        return fast, outcome(fn, *args)


HASH = json_text.sym('hash')

DOCS = [
    '1', '-0', '0.5', '-1.25e-3', '1E5', '1e400', '"s"', 'true', 'false', 'null', '[]', '{}', ' [ ] ',
    '[1, [2, [3, []]], {}]', '{"a": 1, "a": 2}', '{"a": {"b": [null, {"c": null}]}}',
    '{"id": 1, "name": "item1", "tags": [1, 2, 3], "ok": true}', '["é ü 😀", "tab\\there", "q\\"b\\\\s\\/"]',
    '12345678901234567890123', '1' * 5000, '[' + '9' * 4400 + ']',
    # what the host accepts and rusty's JSON does not, or reads otherwise
    'NaN', '[Infinity]', '{"a": -Infinity}', '"\\ud800"', '"\\ud83d\\ude00"', '"\\u00e9"', '\ufeff[1]',
    # malformed
    '', ' ', '[1,]', '[1 2]', '{"a" 1}', '{"a":', '"ctl\x01"', '"bad \\x"', '01', '1.', '.5', '-', '[1]]',
    'tru', '{"a": 1}}', '["a", "b"', '{a: 1}', '[1] x',
]


@pytest.mark.parametrize('text', DOCS)
def test_decode_agrees_with_the_reference(monkeypatch, text):
    fast, ref = both(monkeypatch, json_text.json_decode, text)
    assert fast == ref
    fast, ref = both(monkeypatch, json_text.json_decode, text, HASH)
    assert fast == ref


def test_the_host_decodes_plain_documents_and_leaves_the_rest():
    assert json_host.decode('{"a": [1, {"b": null}], "c": "d"}', None) is not None
    assert json_host.decode('[1, 2]', json_text._hash_object) is not None
    for text in ('NaN', '[1,]', '"\\u00e9"', '"\\ud800"'):
        assert json_host.decode(text, None) is None


def random_json(rng, depth=0):
    """Random JSON text: every kind of value, strings with escapes, numbers in every form."""
    kind = rng.randrange(9 if depth < 5 else 6)
    if kind == 0:
        return rng.choice(['true', 'false', 'null'])
    if kind == 1:
        return str(rng.randrange(-10 ** rng.randrange(1, 25), 10 ** 20))
    if kind == 2:
        return rng.choice(['0.5', '-0.0', '1e3', '2.5E-7', '123.456e+2', '-9.75', str(rng.random())])
    if kind in (3, 4, 5):
        chars = ['a', 'é', ' ', '\\n', '\\t', '\\"', '\\\\', '\\/', '😀', 'ü', ']', '{', ',', ':']
        return '"%s"' % ''.join(rng.choice(chars) for _ in range(rng.randrange(6)))
    ws = rng.choice(['', ' ', '\n  ', '\t'])
    if kind in (6, 7):
        items = [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
        return '[' + ws + (',' + ws).join(items) + ws + ']'
    pairs = ['"%s"%s:%s%s' % (rng.choice(['k', 'a', 'é', 'k']), ws, ws, random_json(rng, depth + 1))
             for _ in range(rng.randrange(4))]
    return '{' + ws + (',' + ws).join(pairs) + ws + '}'


def test_random_documents_decode_as_the_reference_decodes(monkeypatch):
    rng = random.Random(20)
    taken = 0
    for _ in range(400):
        text = random_json(rng)
        if rng.random() < 0.2:          # damage some: the errors must agree too
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(['', ',', ']', '}', '"', 'x', ' 1']) + text[i + 1:]
        fast, ref = both(monkeypatch, json_text.json_decode, text)
        assert fast == ref, text
        taken += json_host.decode(text, None) is not None
    assert taken > 250


def test_deep_documents_are_left_to_the_reference(monkeypatch):
    monkeypatch.setattr(json_host, 'MAX_NESTING', 50)
    deep = '[' * 60 + ']' * 60
    assert json_host.nesting(deep) == 60
    assert json_host.decode(deep, None) is None
    assert json_host.decode('[' * 40 + ']' * 40, None) is not None
    wide = '[' + ', '.join(['[["]]]]"]]'] * 30) + ']'     # many brackets, shallow (some in strings)
    assert json_host.nesting(wide) == 3
    assert json_host.decode(wide, None) is not None
    fast, ref = both(monkeypatch, json_text.json_decode, deep)
    assert fast == ref


# ── Encoding ─────────────────────────────────────────────────────────────

VALUES = [
    "'((\"id\" 1) (\"name\" \"item1\") (\"tags\" (1 2 3)) (\"ok\" #t))", "'()", '#()', "'(1 (2 (3)) #(4 \"x\"))",
    "'((a 1) (\"b\" (1 2)))", "'((\"a\" 1) (\"a\" 2))", "'((a 1) (\"a\" 2))", "'((\"a\" 1 2))", "'((1 2))",
    "'(((\"k\" v)) ((\"k\" ())))", '(list 1.5 0.1 -0.0 1e15 2e15 1e16 1e-7 123.456 (/ 1.0 3) 1e300)',
    '(list (* 1e300 1e300) (- (* 1e300 1e300) (* 1e300 1e300)))', '(list (if #f #f) #f #t \'sym "")', '(expt 10 5000)', '(list (expt 2 100))',
    '"a\\nb\\tc"', '(list->string (list (code-char 13) (code-char 1) (code-char 31)))',
    '"back\\\\slash \\\\r \\\\u0041"', '"é 😀 \\"q\\""', '(let ((h (hash))) (hash-set! h "a" 1) h)',
    "(let ((h (hash))) (hash-set! h \"a\" '(1 2)) (list h))", '(let ((h (hash))) (hash-set! h "s" h) h)',
    "(list (lambda (x) x))", "'((\"f\" car))", "(list (vector 1 (list (list \"a\" #()))))",
]


@pytest.fixture(scope='module')
def session():
    return Session()


@pytest.mark.parametrize('expr', VALUES)
def test_encode_agrees_with_the_reference(monkeypatch, session, expr):
    v = session.run(expr)
    fast, ref = both(monkeypatch, json_text.json_encode, v)
    assert fast == ref


def test_the_host_encodes_plain_data_and_leaves_the_rest(session):
    plain = session.run("'(((\"id\" 1) (\"tags\" (1 2.5 #(3))) (\"ok\" #t) (\"n\" ())))")
    assert json_host.encode(plain) == json_text.encode_json(plain)
    for expr in ("'((\"a\" 1) (\"a\" 2))", '(list 1e16)', '(list (hash))', '"a\\\\rb"'):
        assert json_host.encode(session.run(expr)) is None


def test_deep_data_is_left_to_the_reference(session):
    deep = session.run("(let loop ((i 0) (x '(1))) (if (< i 300) (loop (+ i 1) (list x)) x))")
    assert json_host.encode(deep) is None
    assert json_text.json_encode(deep) == json_text.encode_json(deep)


def random_value(rng, depth=0):
    """Random rusty data of the shapes json-encode writes."""
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([True, False, json_text.NIL, json_text.EMPTY, json_text.sym('s')])
    if kind == 1:
        return rng.randrange(-10 ** 20, 10 ** 20)
    if kind == 2:
        return rng.choice([0.5, -0.0, 1e3, 2.5e-7, 1e17, 3.0, rng.random(), 1e15 + 0.5])
    if kind in (3, 4):
        return ''.join(rng.choice(['a', 'é', '\n', '\t', '"', '\\', '\r', 'r', '😀']) for _ in range(rng.randrange(5)))
    if kind == 5:
        return json_text.make_list([random_value(rng, depth + 1) for _ in range(rng.randrange(4))])
    if kind == 6:
        return json_text.Vector([random_value(rng, depth + 1) for _ in range(rng.randrange(3))])
    return json_text.make_list([json_text.make_list([rng.choice(['k', 'a', json_text.sym('a')]),
                                                     random_value(rng, depth + 1)])
                                for _ in range(rng.randrange(1, 4))])


def test_random_data_encodes_as_the_reference_encodes(monkeypatch):
    rng = random.Random(13)
    taken = 0
    for _ in range(400):
        v = random_value(rng)
        fast, ref = both(monkeypatch, json_text.json_encode, v)
        assert fast == ref
        taken += json_host.encode(v) is not None
    assert taken > 200
