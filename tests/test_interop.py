"""Python from Lisp: import, attributes, calls, the conversion table, errors
(docs/reference.md, "Python from Lisp, Lisp from Python"). Each table runs on
both evaluators: the reference and the compiled fast path must agree."""
import io

import pytest

from rusty.errors import RustyError
from rusty.printer import write_form
from rusty.runtime import Session


@pytest.fixture(params=[True, False], ids=['fast', 'reference'])
def run(request, monkeypatch):
    """run(src) -> (write form of the last value or 'error: MESSAGE', stdout)
    in a fresh session on one path; a warm-up runs every definition's
    functions several times so the fast path compiles them."""
    def run_src(src):
        monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if request.param else '0')
        s = Session(out=io.StringIO(), err=io.StringIO())
        try:
            v = write_form(s.run(src, '<test>'))
        except RustyError as e:
            assert 'internal error' not in e.message, e.message
            v = 'error: ' + e.message
        return v, s.out.getvalue()
    return run_src


def value(run, src):
    return run(src)[0]


IMPORTS = [
    ('(import math) math.pi', '3.141592653589793'),
    ('(import math) (math.sqrt 16)', '4'),
    ('(import os.path) os.path.sep', '"/"'),
    ('(import os.path) (os.path.join "a" "b")', '"a/b"'),
    ('(import math :as m) (m.floor 2.5)', '2'),
    ('(import (math sqrt pi)) (list (sqrt 9) (> pi 3))', '(3 #t)'),
    ('(import math) math', '#<py module math>'),
    ('(import math) math.sqrt', '#<py builtin_function_or_method math.sqrt>'),
    ('(import math) (type-of math.sqrt)', 'py'),
    ('(import nosuch)', "error: import: no module named 'nosuch'"),
    ('(import os.nosuch)', "error: import: no module named 'os.nosuch'"),
    ('(import (math sqrtt))', "error: import: cannot import name 'sqrtt' from 'math'"),
    ('(import math) math.sqrtt', "error: .: 'module' object has no attribute 'sqrtt' — did you mean 'sqrt'?"),
    ('(import math) (math.sqrtt 2)', "error: .: 'module' object has no attribute 'sqrtt' — did you mean 'sqrt'?"),
    # a dotted symbol whose first part was not imported keeps its old meaning
    ('(define a.b 5) a.b', '5'),
    ('x.y', "error: Undefined: 'x.y'"),
    ("'math.pi", 'math.pi'),
    ('(import math) (let ((math 5)) math.pi)', '3.141592653589793'),
    # a definition of the dotted name itself wins
    ('(import math) (define math.tau 1) math.tau', '1'),
]


@pytest.mark.parametrize('src,expected', IMPORTS)
def test_import_and_attributes(run, src, expected):
    assert value(run, src) == expected


ATTRIBUTES = [
    ('(.upper "abc")', '"ABC"'),
    ('(.join ", " (list "a" "b"))', '"a, b"'),
    ('(. 5 real)', '5'),
    ('(import math) (. math e)', '2.718281828459045'),
    ('(.uper "abc")', "error: .: 'str' object has no attribute 'uper' — did you mean 'upper'?"),
    ('(. "abc" uper)', "error: .: 'str' object has no attribute 'uper' — did you mean 'upper'?"),
    ("(py-get (lisp->py '(10 20 30)) 1)", '20'),
    ("(py-get (lisp->py (list 1)) 5)", 'error: python: IndexError: list index out of range'),
    ("(let ((xs (lisp->py '(1 2)))) (py-item-set! xs 0 9) xs)", '#<py list [9, 2]>'),
    ("(let ((xs (lisp->py '(1 2)))) (.append xs 4) (py->lisp xs))", '(1 2 4)'),
    ("(import types) (define o (types.SimpleNamespace)) (py-set! o 'x 5) (list (. o x) (py-set! o \"y\" 1))",
     '(5 ())'),
    ("(import types) (py-set! (types.SimpleNamespace) 5 1)", 'error: py-set!: expected an attribute name, got 5'),
]


@pytest.mark.parametrize('src,expected', ATTRIBUTES)
def test_attributes_items_and_methods(run, src, expected):
    assert value(run, src) == expected


CALLS = [
    ("(import math) (map math.sqrt '(1 4 9))", '(1 2 3)'),
    ("(import math) (foldl (lambda (x acc) (+ acc (math.floor x))) 0 '(1.5 2.5))", '3'),
    ("(import math) (sort '(3 1 2) (lambda (a b) (< (math.fabs a) (math.fabs b))))", '(1 2 3)'),
    ("(import operator) (sort '(3 1 2) operator.lt)", '(1 2 3)'),
    ("(import math) (apply math.pow '(2 10))", '1024'),
    ("(import builtins) (builtins.sorted '(3 1 2) :reverse #t)", '#<py list [3, 2, 1]>'),
    ('(import builtins) (builtins.sorted (list "bb" "a" "ccc") :key builtins.len)', '#<py list [\'a\', \'bb\', \'ccc\']>'),
    ("(import builtins) (apply builtins.sorted (list '(3 1 2)) (hash :reverse #t))", '#<py list [3, 2, 1]>'),
    ("(import builtins) (apply builtins.sorted (list '(3 1 2)) (hash \"reverse\" #t))", '#<py list [3, 2, 1]>'),
    ("(import functools) (functools.reduce (lambda (a b) (+ a b)) '(1 2 3 4) 10)", '20'),
    ("(import builtins) (builtins.sorted '(3 1 2) :key (lambda (x) (- x)))", '#<py list [3, 2, 1]>'),
    ("(import math) (procedure? math.sqrt)", '#t'),
    ('(import builtins) (match "x" ((? builtins.callable) 1) ((? builtins.str.isalpha) 2) (_ 3))', '2'),
    ("(import math) (math.sqrt 1 2)", 'error: python: TypeError: math.sqrt() takes exactly one argument (2 given)'),
    ("(import math) (math.sqrt \"x\")", 'error: python: TypeError: must be real number, not str'),
    ("(import math) (math.sqrt -1)", 'error: python: ValueError: math domain error'),
    ("(import math) (try-catch (math.sqrt -1) (e) (string-append \"caught \" e))",
     '"caught python: ValueError: math domain error"'),
    ("(import builtins) (defmacro m (x) x) (builtins.len m)", "error: len: cannot pass #<macro (x)> to Python"),
    ("(import math) (math.pi 1)", 'error: Not callable: 3.141592653589793'),
    ("((lisp->py '(1)) 2)", "error: Not callable: #<py list [1]>"),
    # a rusty error inside a callback Python called: the error itself, at its form
    ("(import functools) (functools.reduce (lambda (a b) (car a)) '(1 2 3))", 'error: car: not a pair'),
    # a callback Python makes while rusty waits for it runs on Python's thread, its depth bounded
    ("(import functools) (define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n"
     "(list (functools.reduce (lambda (a b) (deep 300)) '(1 2)) "
     "(try-catch (functools.reduce (lambda (a b) (deep 1000)) '(1 2)) (e) (substring e 0 24)))",
     '(300 "recursion limit exceeded")'),
    # a Python error inside a callback called from Python
    ("(import functools) (import math) (functools.reduce (lambda (a b) (math.sqrt -1)) '(1 2))",
     'error: python: ValueError: math domain error'),
]


@pytest.mark.parametrize('src,expected', CALLS)
def test_python_callables_are_procedures(run, src, expected):
    assert value(run, src) == expected


VALUES = [
    ('(import builtins) (list (builtins.int "12345678901234567890") (builtins.float "1.5") (builtins.bool 0))',
     '(12345678901234567890 1.5 #f)'),
    ('(import builtins) (builtins.print :end "")', '()'),
    ('(import builtins) (builtins.str 1.0)', '"1.0"'),
    ("(lisp->py '(1 (2 \"a\") #t))", "#<py list [1, [2, 'a'], True]>"),
    ("(lisp->py #(1 2))", '#<py list [1, 2]>'),
    ("(lisp->py (hash \"a\" 1))", "#<py dict {'a': 1}>"),
    ("(lisp->py 'sym)", '"sym"'),
    ('(lisp->py 5)', '5'),
    ("(py->lisp (lisp->py '(1 (2 3))))", '(1 (2 3))'),
    ('(import builtins) (py->lisp (builtins.dict :a 1 :b (list 1 2)))', '#hash(("a" 1) ("b" (1 2)))'),
    ('(import builtins) (py->lisp (builtins.range 3))', '(0 1 2)'),
    ('(import builtins) (py->lisp (builtins.tuple (list 1 #f ())))', '(1 #f ())'),
    ('(import builtins) (builtins.tuple (list 1 2))', '#<py tuple (1, 2)>'),
    ("(equal? (lisp->py '(1 2)) (lisp->py '(1 2)))", '#t'),
    ("(equal? (lisp->py '(1 2)) (lisp->py '(1 3)))", '#f'),
    ("(equal? (lisp->py '(1 2)) '(1 2))", '#f'),
    ("(type-of (lisp->py '(1)))", 'py'),
    ('(import builtins) (builtins.list (builtins.range 30))',
     '#<py list [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16...>'),
    ("(import builtins) (list (length (builtins.range 7)) (length (builtins.iter '(1 2))))", '(7 2)'),
    ("(import builtins) (map (lambda (x) (* x x)) (builtins.range 4))", '(0 1 4 9)'),
    ("(import builtins) (filter even? (builtins.range 6))", '(0 2 4)'),
    ("(import builtins) (foldl + 0 (builtins.range 5))", '10'),
    ("(import builtins) (for-each display (builtins.range 3))", '()'),
    ("(import itertools) (map + (itertools.islice (itertools.count 1) 3) '(10 20 30))", '(11 22 33)'),
    ("(import builtins) (length (builtins.object))", 'error: length: not a list'),
]


@pytest.mark.parametrize('src,expected', VALUES)
def test_values_at_the_boundary(run, src, expected):
    assert value(run, src) == expected


def test_a_python_error_names_where_python_raised_it(run):
    from rusty.runtime import Session
    s = Session(out=io.StringIO())
    with pytest.raises(RustyError) as got:
        s.run('(import json)\n(json.loads "{")', 'j.lisp')
    e = got.value
    assert e.message.startswith('python: JSONDecodeError: Expecting property name')
    assert (e.span.line, e.span.col) == (2, 1)
    assert len(e.hints) == 1 and e.hints[0].startswith('raised at ') and 'json' in e.hints[0], e.hints
    with pytest.raises(RustyError) as got:
        s.run('(import math)\n(math.sqrt -1)', 'm.lisp')
    assert got.value.hints == ['raised by math.sqrt (no Python source)']


def test_import_is_checked_at_read_in_even_in_code_that_never_runs():
    s = Session(out=io.StringIO())
    for src, message in [('(define (f) (import math :as))', 'import: expected (import module :as alias), got 2 parts'),
                         ('(define (f) (import 5))', 'import: a module name is a symbol such as os.path, got 5'),
                         ('(define (f) (import math :like m))', 'import: expected :as, got :like'),
                         ('(define (f) (import (math)))', 'import: expected (import (module name...)), got (math)'),
                         ('(define (f) (import))', 'import: expected (import module), got 0 parts'),
                         ('(define (f) (. x 5))', '.: expected an attribute name, got 5')]:
        with pytest.raises(RustyError) as got:
            s.run('(begin (display "ran")\n' + src + ')', 'c.lisp')
        assert got.value.message == message
        assert s.out.getvalue() == ''       # checked before any of the form ran


def test_keywords_evaluate_to_themselves():
    s = Session(out=io.StringIO())
    assert write_form(s.run("(list :key (eq? :key ':key))")) == '(:key #t)'


def test_callbacks_from_other_threads_run_in_their_session(run):
    src = ('(import concurrent.futures)\n'
           '(define pool (concurrent.futures.ThreadPoolExecutor 4))\n'
           '(define (sq x) (* x x))\n'
           '(define got (py->lisp (.map pool sq (iota 50))))\n'
           '(.shutdown pool)\n'
           '(list (length got) (foldl + 0 got))')
    assert value(run, src) == '(50 40425)'


def test_an_error_in_a_callback_from_another_thread_is_a_rusty_error(run):
    src = ('(import concurrent.futures)\n'
           '(define pool (concurrent.futures.ThreadPoolExecutor 2))\n'
           '(define fut (.submit pool (lambda () (car 5))))\n'
           '(try-catch (.result fut) (e) e)')
    assert value(run, src) == '"car: not a pair"'


def test_deep_recursion_in_a_callback_from_a_thread_is_the_recursion_error(run):
    src = ('(import concurrent.futures)\n'
           '(define pool (concurrent.futures.ThreadPoolExecutor 1))\n'
           '(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n'
           '(list (.result (.submit pool deep 50000)) (try-catch (.result (.submit pool deep 10000000)) (e) (substring e 0 24)))')
    assert value(run, src) == '(50000 "recursion limit exceeded")'


# ── Tensors and buffers ──────────────────────────────────────────────────

def test_tensors_share_their_memory_with_memoryview():
    s = Session(out=io.StringIO())
    m = s.run("(memoryview (tensor '((1 2 3) (4 5 6))))").obj
    assert (m.format, m.shape, m.readonly, m.tolist()) == ('d', (2, 3), True, [[1, 2, 3], [4, 5, 6]])
    t = s.run("(define t (tensor '((1 2) (3 4)))) t")
    assert t.view().obj is t.data            # the tensor's own buffer, not a copy
    assert write_form(s.run("(. (memoryview (tensor 5)) shape)")) == '#<py tuple ()>'


def test_numpy_sees_a_tensor_without_copying():
    numpy = pytest.importorskip('numpy')
    s = Session(out=io.StringIO())
    t = s.run("(tensor '((1 2) (3 4)))")
    a = numpy.asarray(t)
    assert a.shape == (2, 2) and a.dtype == numpy.float64 and not a.flags.writeable
    assert a.ctypes.data == t.data.buffer_info()[0]
    assert write_form(s.run("(import numpy) (numpy.sum (tensor '(1 2 3)))")) == '6'


def test_tensor_copies_a_buffer_of_doubles_once_keeping_its_shape():
    s = Session(out=io.StringIO())
    assert write_form(s.run('(import array) (tensor (array.array "d" (list 1 2 3)))')) == '#<tensor 3 [1 2 3]>'
    assert write_form(s.run("(tensor (memoryview (tensor '((1 2) (3 4)))))")) == '#<tensor 2x2 [1 2 3 4]>'
    with pytest.raises(RustyError) as got:
        s.run('(tensor (array.array "i" (list 1 2)))')
    assert got.value.message == "tensor: expected a buffer of doubles (format 'd'), got format 'i'"
    with pytest.raises(RustyError) as got:
        s.run('(import builtins) (tensor (builtins.object))')
    assert got.value.message.startswith('tensor: expected a number, a nested list or a buffer of doubles')


def test_numpy_arrays_become_tensors():
    numpy = pytest.importorskip('numpy')
    s = Session(out=io.StringIO())
    s.genv.define(__import__('rusty.values').values.sym('a'), __import__('rusty.values').values.Py(
        numpy.arange(6, dtype=numpy.float64).reshape(2, 3)[:, ::2]))
    assert write_form(s.run('(tensor a)')) == '#<tensor 2x2 [0 2 3 5]>'     # not contiguous: copied in C order


def test_numpy_scalars_convert_and_python_values_are_hash_keys(run):
    pytest.importorskip('numpy')
    assert value(run, '(import numpy :as np) (define a (np.array (list 1 2 3)))\n'
                      '(list (np.sum a) (np.all (np.greater a 0)) (if (np.any (np.greater a 5)) 1 2))') == '(6 #t 2)'
    assert value(run, '(import builtins) (define h (make-hash))\n'
                      '(hash-set! h (builtins.tuple (list 1 2)) "t")\n'
                      '(list (hash-ref h (builtins.tuple (list 1 2))) (hash-count h))') == '("t" 1)'
    assert value(run, "(hash-set! (make-hash) (lisp->py '(1)) 1)").startswith('error: ')


def test_quick_calls_run_here_and_the_rest_on_the_python_thread():
    import math
    import time

    from rusty.interop import MethodCaller, quick
    assert quick(math.sqrt, [2]) and quick(len, ['ab']) and quick('a,b'.split, [',']) and quick(list, [()])
    assert quick(MethodCaller('upper'), ['abc'])
    assert not quick(time.sleep, [1]) and not quick(input, []) and not quick(open, ['f'])
    assert not quick(MethodCaller('execute'), [object()])
