"""Tools on Python values: completion of `math.` at the REPL, `(doc math.sqrt)`."""
import io

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from rusty.repl.complete import RustyCompleter
from rusty.runtime import Session


def completions(s, text):
    c = RustyCompleter(lambda: list(s.special_names) + s.genv.names(), {}, None, lambda: s)
    return [x.text for x in c.get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_tab_completes_the_attributes_of_an_imported_module():
    s = Session(out=io.StringIO())
    s.run('(import math) (import os.path) (import math :as m)')
    assert completions(s, '(math.sq') == ['math.sqrt']
    assert 'math.pi' in completions(s, '(math.') and not any('__' in n for n in completions(s, '(math.'))
    assert completions(s, '(os.path.jo') == ['os.path.join']
    assert completions(s, '(m.fl') == ['m.floor']
    assert completions(s, '(math.__na') == ['math.__name__']
    assert completions(s, '(nothing.sq') == []      # not imported: no attributes offered


def test_doc_of_a_python_value_is_its_signature_and_docstring():
    s = Session(out=io.StringIO())
    s.run('(import math)')
    assert s.run('(doc math.sqrt)') == 'math.sqrt(x, /)\nReturn the square root of x.'
    assert s.run("(doc 'math.sqrt)") == 'math.sqrt(x, /)\nReturn the square root of x.'
    assert s.documentation('math.floor').startswith('math.floor(x, /)\nReturn the floor of x')
    assert s.run('(doc (lisp->py (list 1)))').startswith('Built-in mutable sequence.')


def test_the_session_offers_attribute_completions_to_every_face():
    s = Session(out=io.StringIO())
    s.run('(import math)')
    assert s.attribute_completions('math.sq') == ['math.sqrt']
    assert s.attribute_completions('nothing.sq') == [] and s.attribute_completions('math') == []


def test_what_a_name_means_by_its_spelling():
    from rusty.spelling import spelling
    from rusty.values import sym
    imports = {sym('math')}
    assert [spelling(n, imports) for n in (':key', '.upper', 'math.pi', 'math.sqrt.x', 'os.sep', 'a.b', '.', ':',
                                           '..', 'x', 'math.', '.2')] == \
        ['keyword', 'method', 'attribute', 'attribute', None, None, None, None, None, None, None, None]


def test_the_repl_in_a_real_terminal_completes_and_interrupts_python(tmp_path):
    import os
    import signal
    import sys
    import time

    import pexpect

    from helpers import leave_at_prompt
    env = dict(os.environ, NO_COLOR='1', PROMPT_TOOLKIT_NO_CPR='1', TERM='xterm-256color', HOME=str(tmp_path))
    child = pexpect.spawn(sys.executable, ['-m', 'rusty'], env=env, encoding='utf-8', timeout=20, dimensions=(40, 120))
    try:
        child.expect('rusty>')
        child.send('(import math)\r')
        child.expect('rusty>')
        child.send('(math.sq\t')
        time.sleep(0.5)
        child.send(' 16)\r')
        child.expect('=> 4')
        child.send('(import time)\r')
        child.expect('rusty>')
        child.send('(time.sleep 100)\r')
        time.sleep(1.0)
        child.kill(signal.SIGINT)                  # what the terminal sends for Ctrl-C
        child.expect('Error: interrupted', timeout=5)
        child.expect('rusty>')
        child.send('(math.sqrt 81)\r')
        child.expect('=> 9')
        leave_at_prompt(child)
    finally:
        child.close()
    assert child.exitstatus == 0
