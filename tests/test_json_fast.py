"""json-decode's one-match paths for strings and object keys without escapes,
against the general scanner they skip (made to never match): the same
values and the same error messages, document by document (the host's
scanner, json_host.py, left out: these are the reference's own paths)."""
import re

import pytest

from rusty.builtins import json_host, json_text
from rusty.errors import RustyError
from rusty.printer import write_form

DOCS = [
    '"plain"', '""', '"a\\nb"', '"tab\\there"', '"\\u00e9t\\u00e9"', '"\\ud83d\\ude00"', '"é ü 😀"',
    '{"a": 1, "b": [1, 2, {"c": "d"}]}', '{ "k" :  "v" , "e\\"q" : 2 }', '{"a":1}', '{"": []}',
    '[{"x": {"y": {"z": "w"}}}, "s", 1.5e3, true, false, null]', '{"a\\u0041": 1}',
    # malformed: each error must name the same place
    '"unterminated', '"ctl\x01"', '"bad \\x escape"', '{"a" 1}', '{"a": }', '{"a":', '{"a"', '{a: 1}',
    '{"a": 1,}', '"\\ud800"', '{"k\x02": 1}', '{"k": "v\x1f"}', '["a", "b"', '{"a": "b" "c": 1}',
]


def decode(text):
    try:
        return ('value', write_form(json_text.json_decode(text)))
    except RustyError as e:
        return ('error', e.message)


@pytest.mark.parametrize('text', DOCS)
def test_fast_paths_agree_with_the_general_scanner(monkeypatch, text):
    monkeypatch.setattr(json_host, 'decode', lambda text, hash_object=None: None)
    fast = decode(text)
    never = re.compile(r'(?!)')
    monkeypatch.setattr(json_text, '_SIMPLE_STRING', never)
    monkeypatch.setattr(json_text, '_SIMPLE_KEY', never)
    assert decode(text) == fast
