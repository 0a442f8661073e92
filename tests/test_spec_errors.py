"""docs/reference.md §7 Errors and error reports: the error model, core messages, Undefined suggestions."""
import pytest

from rusty.errors import RustyError

from helpers import dv, err, session

DASH = '\u2014'


@pytest.mark.parametrize('src,msg', [
    # the spec's own examples
    ('(filtr even? (list 1 2))', "Undefined: 'filtr' — did you mean 'filter'?"),
    ('(defin x 5)', "Undefined: 'defin' — did you mean 'define'?"),
    # (the spec's example name string-upcase is a builtin now: an unbound string-… name instead)
    ('(string-capitalize "hi")', "Undefined: 'string-capitalize' (try (apropos \"string\"))"),
    ('(zzqx 1)', "Undefined: 'zzqx'"),
    # threshold is by UTF-8 byte length: 'ékk' is 3 code points but 4 bytes -> threshold 2
    ('(define ézz 1) ékk', "Undefined: 'ékk' — did you mean 'ézz'?"),
    # 3 bytes -> threshold 1: distance 2 is too far
    ('(define zqq 1) zkk', "Undefined: 'zkk'"),
    # 4 ASCII bytes -> threshold 2
    ('(define zzqq 1) zzkk', "Undefined: 'zzkk' — did you mean 'zzqq'?"),
    # distance counts code points: 'éb' -> 'ab' is one substitution (threshold 1, 3 bytes)
    ('(define ab 1) éb', "Undefined: 'éb' — did you mean 'ab'?"),
    # ties broken by the code-point-smallest name, not by definition order
    ('(define kqb 1) (define kqa 1) kqc', "Undefined: 'kqc' — did you mean 'kqa'?"),
    ('(define zqz 1) (define zqé 1) zqa', "Undefined: 'zqa' — did you mean 'zqz'?"),
    # the smallest distance wins over a code-point-smaller but farther name
    ('(define mmmmxz 1) (define ammmxz 1) mmmmxy', "Undefined: 'mmmmxy' — did you mean 'mmmmxz'?"),
    # special-form names are candidates
    ('(lambd (x) x)', "Undefined: 'lambd' — did you mean 'lambda'?"),
    ('(try-cath 1 (e) 2)', "Undefined: 'try-cath' — did you mean 'try-catch'?"),
    # names from every frame of the current chain are candidates
    ('(define (f) (let ((wxyzzz 1)) wxyzzq)) (f)', "Undefined: 'wxyzzq' — did you mean 'wxyzzz'?"),
    ('(define (f qwxparam) (lambda () qwxparan)) ((f 1))', "Undefined: 'qwxparan' — did you mean 'qwxparam'?"),
    # frames not in the chain are not
    ('(define (g) (let ((qwertyu 1)) qwertyu)) (g) qwertyz', "Undefined: 'qwertyz'"),
    # the apropos hint: a '-' after the first character
    ('(zq-foo 1)', "Undefined: 'zq-foo' (try (apropos \"zq\"))"),
    ('zzqq-', "Undefined: 'zzqq-' (try (apropos \"zzqq\"))"),
    ('zzq-a-b', "Undefined: 'zzq-a-b' (try (apropos \"zzq\"))"),
    ('-zzqqxx', "Undefined: '-zzqqxx'"),
    # a close name wins over the hint
    ('(string-apend "a")', "Undefined: 'string-apend' — did you mean 'string-append'?"),
    # the undefined name itself is never a candidate
    ("(map eval '(1))", "Undefined: 'eval'"),
    ('(zqundefined-thing)', "Undefined: 'zqundefined-thing' (try (apropos \"zqundefined\"))"),
])
def test_undefined_messages(src, msg):
    assert err(src) == msg


def test_em_dash_is_u2014_with_spaces():
    m = err('(filtr even? (list 1 2))')
    assert (' ' + DASH + ' ') in m
    assert '--' not in m and '\u2013' not in m


def test_undefined_in_argument_and_body_positions():
    assert err('(+ 1 zzqnope)') == "Undefined: 'zzqnope'"
    assert err('(define (f) zzqnope) (f)') == "Undefined: 'zzqnope'"


def test_undefined_is_catchable():
    assert dv('(try-catch zzqnope (e) e)') == '"Undefined: \'zzqnope\'"'


@pytest.mark.parametrize('src,msg', [
    ('(5 1)', 'Not callable: 5'),
    ('((lambda (x) x))', 'lambda: expected 1 args, got 0'),
    ('((lambda (x . y) x))', 'lambda: expected at least 1 args, got 0'),
    ('(/ 1 0)', 'Division by zero'),
    ('(mod 1 0)', 'mod: division by zero'),
    ('(+ "a")', '+: expected a number, got "a"'),
    ('(< 1 "a")', '<: expected a number, got "a"'),
    ('(<)', '<: expected at least 1 arg, got 0'),
    ('(set! zzqnope 1)', "set!: undefined variable 'zzqnope'"),
])
def test_core_messages(src, msg):
    assert err(src) == msg


def test_errors_are_rusty_errors_with_message_attribute():
    s = session()
    with pytest.raises(RustyError) as e:
        s.run('(car 5)', '<test>')
    assert e.value.message == 'car: not a pair'


def test_session_survives_errors():
    s = session()
    s.run('(define zqkept 5)', '<test>')
    with pytest.raises(RustyError):
        s.run('(car 5)', '<test>')
    assert s.run('zqkept', '<test>') == 5.0


def test_host_failures_never_escape_as_python_exceptions():
    # every one of these must be a RustyError (or succeed), never another exception
    for src in ['(expt 10 1000)', '(exp 1e308)', '(floor 1e400)', '(round 1e400)', '(nth (list 1) 1e400)',
                '(substring "abc" 0 1e400)', '(string-ref "abc" 1e400)', '(list-tail (list 1) 1e400)',
                '(string-repeat "a" -1)', '(gcd 1e400 2)', '(odd? 1e400)', '(take 1e400 (list 1))',
                '(number->string 1e400)', '(json-decode "[1e400]")', '(iota -1)']:
        s = session()
        try:
            s.run(src, '<test>')
        except RustyError as e:
            assert 'internal error:' not in e.message, (src, e.message)
