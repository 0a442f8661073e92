"""docs/reference.md §4 Evaluation: the standard library keeps its meaning when a program
redefines the names it uses; the program's own references still see its
definitions (late binding, §4, environments)."""
import io

import pytest

from helpers import err, ev
from rusty.printer import display_form
from rusty.reader import scan
from rusty.runtime import Session, stdlib_forms
from rusty.values import EMPTY, List, Macro, Symbol, sym


# ── The standard library keeps its meaning (docs/reference.md §4): examples ──

@pytest.mark.parametrize('src, want', [
    ('(define sum 0) (average 1 2 3)', '2'),
    ("(define (range a b) 'mine) (iota 3)", '(0 1 2)'),
    ('(set! map 5) (string-join \'("a" "b") ",")', 'a,b'),
])
def test_spec_examples(src, want):
    assert ev(src) == want


def test_the_programs_own_references_see_its_definitions():
    assert ev("(define (range a b) 'mine) (list (range 1 3) (iota 2))") == '(mine (0 1))'
    assert ev('(define sum 0) sum') == '0'
    assert ev('(set! map 5) map') == '5'
    assert ev("(define (f) (sum '(1 2))) (define r1 (f)) (define (sum l) 'mine) (list r1 (f))") == '(3 mine)'


def test_a_stdlib_function_redefined_by_the_program_is_the_programs():
    assert ev("(define (last x) 'mine) (list (last '(1 2)) (caddr '(1 2 3)))") == '(mine 3)'


def test_redefining_a_builtin_as_a_macro_does_not_reach_the_library():
    assert ev("(defmacro car (x) ''macro) (list (car 1) (caddr '(1 2 3)))") == '(macro 3)'


def test_library_errors_are_unchanged():
    assert err('(average)') == 'Division by zero'
    assert err("(define null? 0) (last '())") == 'cdr: not a pair'
    assert err("(define car 0) (caar '(5))") == 'car: not a pair'


def test_a_name_the_library_does_not_bind_is_the_programs():
    from rusty.resolve import GlobalEnv, LibraryEnv
    prog = GlobalEnv()
    prog.define(sym('a'), 1.0)
    lib = LibraryEnv(prog)
    prog.define(sym('b'), 2.0)            # after the copy: late binding
    prog.define(sym('a'), 3.0)            # the library keeps its own a
    assert (lib.lookup(sym('a')), lib.lookup(sym('b'))) == (1.0, 2.0)
    assert lib.assign(sym('b'), 4.0) and prog.lookup(sym('b')) == 4.0
    assert not lib.assign(sym('zzz'), 1.0)
    assert {'a', 'b'} <= set(lib.names())


# ── Every name the library uses, redefined: every library function still works ─

# One call of every standard-library function and macro.
PROBES = [
    "(caar '((1) 2))", "(cadr '(1 2))", "(cdar '((1 2)))", "(cddr '(1 2 3))", "(caddr '(1 2 3))",
    "(cadddr '(1 2 3 4))", "(last '(1 2 3))", '(range 2 5)', '(iota 3)', "(take 2 '(1 2 3))",
    "(drop 2 '(1 2 3))", "(take-while odd? '(1 3 4 5))", "(drop-while odd? '(1 3 4 5))",
    "(flatten '(1 (2 (3 4)) 5))", "(flatten1 '((1 2) 3 (4)))", "(zip '(1 2) '(3 4))",
    "(zip-with - '(5 6) '(1 2))", "(interleave 0 '(1 2 3))", "(sum '(1 2 3))", "(product '(2 3 4))",
    "(any? even? '(1 2))", "(all? even? '(2 4))", "(none? even? '(1 3))", "(count even? '(1 2 4))",
    "(find even? '(1 4 6))", "(partition even? '(1 2 3 4))", "(remove-duplicates '(1 2 1 3 2))",
    "(map* '(1 2) abs)", "(filter* '(1 2 3) odd?)", "(foldl* '(1 2 3) max 0)", "(print-list '(1 \"a\"))",
    "(assoc 'b '((a 1) (b 2)))", "(assq 'b '((a . 1) (b . 2)))", "(alist-get 'b '((a 1) (b 2)) 'none)",
    "(make-record 'x 1 'y 2)", "(get-field 'y '((x 1) (y 2)))", "(record-set '((x 1)) 'y 2)",
    "(record-set '((x 1) (y 2)) 'x 5)", '(field y (quote (("y" 7))))',
    '(string-join \'("a" "b" "c") "-")', '(string-repeat "ab" 3)', '(string-starts-with? "hello" "he")',
    '(string-first-index "a.b.c" ".")', '(string-last-index "a.b.c" ".")', '(string-contains? "abc" "bc")',
    '(extract-sexp "prose (foo (1) 2) more")', '(string<? "a" "b")', '(sort-strings \'("b" "a" "c"))',
    '(-> 5 (+ 1) (* 2))', "(->> '(1 2) (cons 0))",
    '(let ((i 0)) (while (< i 3) (set! i (+ i 1))) i)', '(let ((n 0)) (dotimes (i 4) (set! n (+ n i))) n)',
    "(let ((n 0)) (dolist (x '(1 2 3)) (set! n (+ n x))) n)", '(let ((n 0)) (repeat 3 (set! n (+ n 2))) n)',
    '(let ((a 1) (b 2)) (swap! a b) (list a b))', '(assert (= 1 1))', '(try-catch (assert (= 1 2)) (e) e)',
    '(time 7)', '(identity 4)', '((const 3) 1 2)', '((flip -) 3 10)', '((negate even?) 3)',
    '((curry + 1 2) 3)', '((compose abs -) 4)', '((compose) 5)', '((memoize abs) -3)', '(square 3)',
    '(cube 2)', '(inc 1)', '(dec 1)', '(add1 1)', '(sub1 1)', '(average 4 6)', '(clamp 15 0 10)', '(sign -3)',
]


def _session():
    return Session(out=io.StringIO())


def _symbols(x):
    """Every symbol in a form."""
    stack = [x]
    while stack:
        y = stack.pop()
        if y.__class__ is Symbol:
            yield y.name
        elif y.__class__ is List:
            stack.extend(y)


def _defined_name(form):
    target = form.cdr.car
    return (target.car if target.__class__ is List else target).name


def _library_definitions():
    """Names the standard library's top-level forms define."""
    return [_defined_name(form) for form in stdlib_forms()]


def _code_symbols(x):
    """Symbols in code the library itself runs: not quoted data, and of a
    quasiquote template only its unquoted parts (the rest is the caller's code)."""
    stack = [(x, False)]
    while stack:
        y, in_template = stack.pop()
        if y.__class__ is Symbol and not in_template:
            yield y.name
        elif y.__class__ is List and y is not EMPTY:
            head = y.car
            if head is sym('quote') and not in_template:
                continue
            if head in (sym('unquote'), sym('unquote-splicing')):
                stack.extend((e, False) for e in y.cdr)
            elif head is sym('quasiquote'):
                stack.extend((e, True) for e in y.cdr)
            else:
                stack.extend((e, in_template) for e in y)


def _library_uses():
    """Library definition -> every global name its code uses, through the
    library definitions it calls."""
    bound = set(_session().global_names())
    direct = {_defined_name(f): {n for body in f.cdr.cdr for n in _code_symbols(body) if n in bound}
              for f in stdlib_forms()}
    closed = {}
    for name in direct:
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            for m in direct.get(n, ()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        closed[name] = seen
    return closed


def _names_used_by_the_library():
    """Every global name (builtin or library) that the library's own code uses."""
    return sorted(set().union(*_library_uses().values()))


def _split(text):
    """(kind, token text) of every token of `text`, in order."""
    pos, out = 0, []
    while pos < len(text):
        kind, end = scan(text, pos)
        out.append((kind, text[pos:end]))
        pos = end
    return out


def _tokens(text):
    return {tok for kind, tok in _split(text) if kind == 'sym'}


BOUND = set(_session().global_names())
PROBE_NAMES = sorted((set().union(*(_tokens(p) for p in PROBES)) & BOUND) | {'list'})
# The probes call the library through aliases taken before the program redefines
# anything, so even a function whose only caller is itself (all?) is exercised.
ALIASES = ' '.join('(define probe:%s %s)' % (n, n) for n in PROBE_NAMES)


def _aliased(probe):
    """The probe with every global name it mentions replaced by its alias."""
    return ''.join('probe:' + tok if kind == 'sym' and tok in BOUND else tok
                   for kind, tok in _split(probe))


def _reference():
    """Per probe: its aliased text, its result in an untouched session, the
    names its macro expansions mention (the caller's code, which sees the
    program's definitions), and the names the library code it calls uses."""
    s = _session()
    s.run(ALIASES)
    uses = _library_uses()
    results = []
    for p in PROBES:
        text = _aliased(p)
        mentions = _expansion_symbols(s, s.run("'" + text))
        called = (_tokens(p) & BOUND) | mentions
        reaches = set().union(*(uses.get(n, set()) | {n} for n in called))
        results.append((text, display_form(s.run(text)), mentions, reaches))
    return results


def _expansion_symbols(s, form):
    """Symbols in the expansions of every macro call inside `form`."""
    found = set()
    stack = [form]
    while stack:
        x = stack.pop()
        if x.__class__ is not List or x is EMPTY:
            continue
        if x.car.__class__ is Symbol and s.global_value(x.car.name).__class__ is Macro:
            x = s.macroexpand(x)
            found.update(_symbols(x))
            stack.append(x)
            continue
        stack.extend(x)
    return found


REFERENCE = []


def test_every_library_definition_has_a_probe():
    assert [n for n in _library_definitions() if n not in PROBE_NAMES] == []


def test_the_library_uses_many_names():
    used = _names_used_by_the_library()
    assert {'sum', 'foldl', 'map', 'string-length', 'car', 'filter', 'reverse', '+', 'all?'} <= set(used)
    assert 'now-micros' not in used          # only in time's template: the caller's code


@pytest.mark.parametrize('name', _names_used_by_the_library())
def test_redefining_a_name_the_library_uses(name):
    if not REFERENCE:
        REFERENCE.extend(_reference())
    # probes that reach library code using `name`, unless a macro expansion in
    # the probe (the program's own code) uses it: that one sees the redefinition
    probes = [(text, want) for text, want, mentions, reaches in REFERENCE
              if name in reaches and name not in mentions]
    assert probes
    s = _session()
    s.run(ALIASES)
    s.run("(define %s 'clobbered)" % name)
    got = s.run('(probe:list %s)' % ' '.join(text for text, _ in probes))
    assert dict(zip((t for t, _ in probes), map(display_form, got))) == dict(probes)


def test_set_bang_of_every_used_builtin_at_once_leaves_the_library_working():
    s = _session()
    lib_defs = set(_library_definitions())
    used = [n for n in _names_used_by_the_library() if n not in lib_defs]
    assert s.run("(average 1 2 3)") == 2.0
    for n in used:
        s.run('(set! %s 0)' % n)
    assert display_form(s.run("(string-join (quote (\"a\" \"b\")) \",\")")) == '"a,b"'
    assert display_form(s.run("(flatten (quote (1 (2 (3)))))")) == '(1 2 3)'
    assert s.run("(average 1 2 3)") == 2.0


def test_program_code_is_still_late_bound():
    # the same shape as average, written by the program, does see its redefinition
    assert err("(define (my-avg . xs) (/ (sum xs) (length xs))) (define sum 0) (my-avg 1 2 3)") == \
        'Not callable: 0'
