"""The disk cache of compiled code (rusty/compile/codecache.py, recipes.py)
holds code in which a pure macro's call was expanded while lowering and
lowered in place (rusty/compile/macros.py): a second run of a script whose
lambdas and loops use such macros (its own, and the library's `while`)
compiles nothing, with the same output and reports (message, position,
backtrace) as the first and as the reference; the expansion is made again
at load, so a changed macro, or a changed global its body reads, means
compiling afresh with the new behaviour; a change while the loaded code
runs is seen as the reference sees it; a damaged entry is compiled afresh."""
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from cache_runs import damage as spoil, counts, entries, stats_run    # noqa: E402

UNLESS = "(defmacro my-unless (c . body) `(if ,c #f (begin ,@body)))\n"
SCRIPT = UNLESS + """\
(defmacro swap! (a b) `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp)))
(define (count-down n)
  (let ((acc '()))
    (while (> n 0)
      (my-unless (= n 3) (set! acc (cons n acc)))
      (set! n (- n 1)))
    acc))
(define (swapper a b) (swap! a b) (list a b))
(define (bad x) (my-unless (= x 0) (+ 1 (car x))))
(display (count-down 6)) (newline)
(display (swapper 1 2)) (newline)
(display (do ((i 0 (+ i 1)) (s 0 s)) ((= i 10) s) (my-unless (= i 2) (set! s (+ s i)))))
(newline)
(define (outer x) (list (bad x)))
(outer 5)
"""


# Runs rusty, then prints why the disk cache did not store or load code (codecache.WHY).
WHY = """\
import atexit, runpy, sys
from rusty.compile import codecache
atexit.register(lambda: sys.stderr.write('why: %r\\n' % sorted(codecache.WHY)))
sys.argv = ['rusty'] + sys.argv[1:]
runpy.run_module('rusty', run_name='__main__')
"""


def run(tmp_path, text, cache='cache', why=False, **env):
    """(status, stdout, stderr without the stats line, the stats line) of a fresh `rusty --stats` on text
    (why: the cache's reasons are printed last on stderr)."""
    if why:
        (tmp_path / 'why.py').write_text(WHY)
    return stats_run(tmp_path, text, cache, '0', (str(tmp_path / 'why.py'),) if why else ('-m', 'rusty'), **env)


def test_a_second_run_compiles_nothing_and_reports_the_same(tmp_path):
    first = run(tmp_path, SCRIPT)
    second = run(tmp_path, SCRIPT)
    reference = run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    assert counts(first[3]) == (4, 1, 0, 0), first[3]
    assert counts(second[3]) == (0, 0, 4, 1), second[3]
    assert first[:3] == second[:3] == reference[:3]
    status, out, err = second[:3]
    assert status != 0 and out == '(1 2 4 5 6)\n(2 1)\n43\n', out
    assert 'Error: car: not a pair\n  at ' in err and 'script.lisp:10:17\n' in err, err
    assert '10 | (define (bad x) (my-unless (= x 0) (+ 1 (car x))))\n' \
           '     |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' in err, err
    assert re.search(r'script.lisp:16:1 in outer\n.*script.lisp:15:25 in bad\n$', err), err
    assert len(entries(tmp_path)) == 5


def test_a_changed_macro_compiles_afresh_with_its_new_behaviour(tmp_path):
    run(tmp_path, SCRIPT)
    changed = SCRIPT.replace(UNLESS, "(defmacro my-unless (c . body) `(if (not ,c) (begin ,@body) #f))\n"
                             "(define (twice x) (* 2 x))\n")
    changed = changed.replace('(set! s (+ s i))', '(set! s (+ s (twice i)))')
    first = run(tmp_path, changed)
    # count-down and bad (my-unless changed), twice (new), the loop (edited): compiled; swapper, outer loaded
    assert counts(first[3]) == (3, 1, 2, 0), first[3]
    assert first[:3] == run(tmp_path, changed, RUSTY_SPECIALIZE='0')[:3]
    assert first[1] == '(1 2 4 5 6)\n(2 1)\n86\n'
    assert counts(run(tmp_path, changed)[3]) == (0, 0, 5, 1)
    other = SCRIPT.replace("#f (begin ,@body)", "'no (begin ,@body)")         # (bad's value when x is 0)
    other = other.replace('(display (count-down 6))', '(print (bad 0))')
    status, out, err, stats = run(tmp_path, other)
    assert counts(stats) == (1, 1, 2, 0) and out.startswith('no\n'), (out, stats)
    assert (status, out, err) == run(tmp_path, other, RUSTY_SPECIALIZE='0')[:3]


def test_an_entry_whose_expansion_is_not_the_one_made_again_is_not_used(tmp_path):
    # The key names the macros' definitions; should two differ and share a key
    # all the same, the expansion made again at load tells them apart.
    text = UNLESS + "(define (h x) (my-unless (= x 0) (list x)))\n(print (h 1))\n"
    other = text.replace("`(if ,c #f (begin ,@body))", "`(if ,c #f (vector ,@body))")
    assert run(tmp_path, text)[1] == '(1)\n'
    before = {p.name: p.read_bytes() for p in entries(tmp_path)}
    assert run(tmp_path, other)[1] == '#((1))\n'
    after = [p for p in entries(tmp_path) if p.name not in before]
    assert len(after) == 1 and after[0].name.count('-') == 2, after
    base = after[0].name.split('-')[1]
    (stored,) = [data for name, data in before.items() if name.split('-')[1] == base]
    after[0].write_bytes(stored)                # (the first definition's code under the second's key)
    status, out, err, stats = run(tmp_path, other, why=True)
    assert out == '#((1))\n' and counts(stats)[0] == 1, (out, stats)
    assert "'expansion changed'" in err.splitlines()[-1], err
    assert counts(run(tmp_path, other)[3])[:3] == (0, 0, 1)


GLOBAL = """\
(define loud '(yes))
(define factor 1000000)
(defmacro shout (x) (if (car loud) `(list ,x ,x ,factor) x))
(define (f x) (shout (+ x 1)))
(display (f 1)) (newline)
"""


def test_a_changed_global_the_macro_reads_compiles_afresh(tmp_path):
    first = run(tmp_path, GLOBAL)
    assert first[1] == '(2 2 1000000)\n' and counts(first[3])[0] == 1, first
    again = run(tmp_path, GLOBAL)           # (the globals are new objects, their values the same: loaded)
    assert again[:3] == first[:3] and counts(again[3]) == (0, 0, 1, 0), again[3]
    quiet = GLOBAL.replace("'(yes)", "'(#f)")
    status, out, err, stats = run(tmp_path, quiet)
    assert out == '2\n' and counts(stats) == (1, 0, 0, 0), (out, stats)
    seven = GLOBAL.replace('1000000)', '7)')
    status, out, err, stats = run(tmp_path, seven)
    assert out == '(2 2 7)\n' and counts(stats) == (1, 0, 0, 0), (out, stats)


def test_changes_while_loaded_code_runs_are_seen_as_the_reference_sees_them(tmp_path):
    text = GLOBAL + """\
(set! loud '(#f))
(display (f 1)) (newline)
(set! loud '(yes))
(set! factor 5)
(display (f 1)) (newline)
(defmacro shout (x) `(vector ,x))
(display (f 1)) (newline)
(define (g x) (my-unless (car x) 'never))
(display (g '(1))) (newline)
(define (my-unless . xs) 'now-a-function)
(display (g '(1))) (newline)
""".replace('(define (g', UNLESS + '(define (g')
    first = run(tmp_path, text)
    second = run(tmp_path, text)
    assert counts(second[3]) == (0, 0, counts(first[3])[0], 0), (first[3], second[3])   # (each variant kept)
    assert ', 4 deoptimised' in first[3] and ', 4 deoptimised' in second[3], second[3]
    assert first[:3] == second[:3] == run(tmp_path, text, RUSTY_SPECIALIZE='0')[:3]
    assert second[1] == '(2 2 1000000)\n2\n(2 2 5)\n#(2)\n#f\nnow-a-function\n', second[1]


def test_a_top_level_while_is_loaded(tmp_path):
    text = '(define i 0)\n(define total 0)\n(while (< i 20) (let ((x i)) (while (> x 0) ' \
           '(set! total (+ total (remainder x 10))) (set! x (quotient x 10)))) (set! i (+ i 1)))\n(println total)\n'
    first = run(tmp_path, text)
    second = run(tmp_path, text)
    assert first[1] == second[1] == '100\n' and counts(first[3])[0] >= 1, first
    assert counts(second[3])[:2] == (0, 0) and counts(second[3])[2] >= 1, second[3]


@pytest.mark.parametrize('damage', ['truncate', 'garbage', 'flip'])
def test_a_damaged_entry_is_compiled_afresh(tmp_path, damage):
    first = run(tmp_path, SCRIPT)
    spoil(tmp_path, damage)
    second = run(tmp_path, SCRIPT)
    assert second[:3] == first[:3]
    assert counts(second[3]) == (4, 1, 0, 0), second[3]
    assert counts(run(tmp_path, SCRIPT)[3]) == (0, 0, 4, 1)          # rewritten whole


def test_the_reference_and_the_cache_off_write_nothing(tmp_path):
    reference = run(tmp_path, SCRIPT, RUSTY_SPECIALIZE='0')
    off = run(tmp_path, SCRIPT, RUSTY_CODE_CACHE='0')
    assert not entries(tmp_path) and counts(off[3]) == (4, 1, 0, 0)
    assert off[:3] == reference[:3]


def test_the_key_names_the_macros_and_what_their_expansions_read(monkeypatch):
    from rusty.compile.formtext import macros_named, text
    from rusty.reader import read
    from rusty.runtime import Session
    monkeypatch.setenv('RUSTY_SPECIALIZE', '0')
    s = Session()
    s.run("(define test 1) (define loud '(yes)) (defmacro inner (x) `(list ,x))"
          "(defmacro outer (test) (if (car loud) `(inner ,test) test))")
    syms = set()
    text(read('(lambda (y) (outer (+ y 1)))'), [], syms)

    def part():
        return macros_named(syms, s.genv)
    first = part()
    assert first.startswith('-') and part() == first
    assert macros_named({sym for sym in syms if sym.name != 'outer'}, s.genv) == ''
    s.run('(set! test 2)')                  # (a parameter's name: no global the macro reads)
    assert part() == first
    s.run("(set! loud '(#f))")              # (read by the macro's body)
    assert part() != first
    s.run("(set! loud '(yes))")
    assert part() == first
    s.run("(defmacro inner (x) `(vector ,x))")          # (named in the macro's template)
    changed = part()
    assert changed != first
    s.run("(defmacro outer (test) (if (car loud) `(inner ,test) (list test)))")
    assert part() not in (first, changed)


NESTED = """\
(defmacro my-unless (c . body) `(if ,c #f (begin ,@body)))
(defmacro unless2 (c . b) `(my-unless ,c ,@b))
(defmacro scale-all (k xs) `(map (lambda (y) (* y ,k)) ,xs))
(defmacro tagged (x) `(list ',(list 'tag x) #(1 2) "s" 2.5 ,x))
(define (f x) (unless2 (= x 0) (scale-all x (list 1 2 3))))
(define (g x) (tagged (+ x 1)))
(define (h x) (unless2 (= x 0) (car x)))
(define (loop-it n) (do ((i 0 (+ i 1)) (acc '() (cons (unless2 (= i 2) (scale-all i '(1))) acc))) ((= i n) acc)))
(print (f 2)) (print (f 0)) (print (g 1)) (print (loop-it 4))
(h 7)
"""


@pytest.mark.parametrize('calls', ['0', '1'])
def test_expansions_in_expansions_data_and_lambdas_in_them(tmp_path, calls):
    first = run(tmp_path, NESTED, RUSTY_COMPILE_CALLS=calls)
    second = run(tmp_path, NESTED, RUSTY_COMPILE_CALLS=calls)
    assert first[:3] == second[:3] == run(tmp_path, NESTED, RUSTY_SPECIALIZE='0')[:3]
    assert counts(second[3])[:2] == (0, 0) and counts(second[3])[2] >= 3, second[3]
    assert second[1] == '(2 4 6)\n#f\n((tag (+ x 1)) #(1 2) s 2.5 2)\n((3) #f (1) (0))\n', second[1]
    assert 'script.lisp:7:15\n' in second[2] and 'script.lisp:10:1 in h\n' in second[2], second[2]


HELPERS = """\
(define (safe-div a b) (try-catch (/ a b) (e) e))
(define (shape x) (match x ((a b) (list 'two a b)) ((a . rest) (list 'more a rest)) (_ 'other)))
(define (kind x) (case x ((1 2) 'small) (("s" (1)) 'data) (else 'big)))
(define (build x xs) `(x ,x ,@xs #(1 ,x)))
(define (vbad x) `#(1 ,(car x)))
(print (safe-div 1 0) (safe-div 6 3) (shape '(1 2)) (shape '(1 2 3)) (shape 5) (kind 2) (kind '(1)) (kind 9)
       (build 1 '(2 3)))
(vbad 5)
"""


def test_code_naming_the_compilers_own_functions_is_kept(tmp_path):
    # (a try's handler, match's length, case's equal?, quasiquote's list
    # makers: functions of the compiler's modules or Python's, by name)
    first = run(tmp_path, HELPERS, why=True)
    second = run(tmp_path, HELPERS, why=True)
    reference = run(tmp_path, HELPERS, RUSTY_SPECIALIZE='0')
    assert first[:2] == second[:2] == reference[:2]
    assert first[2].splitlines()[:-1] == second[2].splitlines()[:-1] == reference[2].splitlines()
    assert 'script.lisp:5:24\n' in second[2] and '^^^^^^^' in second[2], second[2]          # (in a vector)
    assert second[1] == 'Division by zero 2 (two 1 2) (more 1 (2 3)) other small data big (x 1 2 3 #(1 1))\n'
    assert counts(first[3])[0] == 5 and counts(second[3]) == (0, 0, 5, 0), second[3]
    assert first[2].splitlines()[-1] == "why: ['absent']", first[2]
