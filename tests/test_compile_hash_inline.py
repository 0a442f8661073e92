"""hash-ref (two or three arguments) and hash-set! computed in place by
compiled code (inline.INLINE, BINARY: a hash and a key that is its own
image, a string, a symbol or an exact integer), against the reference
evaluator: keys of every kind (present, missing, 1 against 1.0 and #t, a
list key, NaN), defaults, a non-hash, in shapes that put the call as the
value, an operand, a let's init, an if's test, inside a loop and read from a
frame further out; the same values, the same hashes afterwards (keys in
their order, an existing key keeping its place) and the same errors."""
import pytest

from rusty.compile.inline import inline_spec
from rusty.values import Builtin
from test_compile_paths import outcome, session

DEFS = r"""
(define (fresh) (hash "a" 1 'b 2 3 "three" 1.5 'x '(1 2) 'list))
(define (ref2 h k) (hash-ref h k))
(define (ref3 h k d) (hash-ref h k d))
(define (operand h k) (list (hash-ref h k 'none)))
(define (let-init h k) (let ((r (hash-ref h k 0))) r))
(define (test h k) (if (hash-ref h k #f) 'yes 'no))
(define (outer h k) ((lambda () (hash-ref h k))))
(define (set h k v) (hash-set! h k v) h)
(define (set-value h k v) (hash-set! h k v))
(define (outer-set h k v) ((lambda () (hash-set! h k v))) h)
(define (count-in h ks) (for-each (lambda (k) (hash-set! h k (+ 1 (hash-ref h k 0)))) ks) h)
(define (loop-set h n) (do ((i 0 (+ i 1))) ((= i n) h) (hash-set! h (mod i 3) i)))
"""

KEYS = ['"a"', '"z"', "'b", "'q", '3', '3.0', '1', '#t', '1.5', "'(1 2)", "'(1 2.0)", '(/ 0. 0.)', '""', '-0.0', '0']
CALLS = (['(ref2 (fresh) %s)' % k for k in KEYS] + ['(ref3 (fresh) %s 42)' % k for k in KEYS]
         + ['(%s (fresh) %s)' % (f, k) for f in ('operand', 'let-init', 'test', 'outer') for k in KEYS]
         + ['(%s (fresh) %s "v")' % (f, k) for f in ('set', 'set-value', 'outer-set') for k in KEYS]
         + ['(set (fresh) "a" 9)', '(set (make-hash) 1 2)', '(ref2 5 "a")', '(ref3 (list 1) 1 0)', '(set 5 1 2)',
            "(set (fresh) 'b (fresh))", '(count-in (make-hash) (list "a" "b" "a" 1 1 \'c 1.0 "a"))',
            '(count-in (fresh) (list 3 3 "x" \'(1 2)))', '(loop-set (make-hash) 10)', '(loop-set (fresh) 5)'])


def test_the_calls_are_inlined():
    for op, nargs in (('hash-ref', 2), ('hash-ref', 3), ('hash-set!', 3)):
        assert inline_spec(Builtin(op, None), nargs) is not None, (op, nargs)


@pytest.mark.parametrize('call', CALLS)
def test_hash_inlines_match_the_reference(monkeypatch, call):
    got = []
    for fast in (False, True):
        s = session(monkeypatch, fast)
        s.run(DEFS, '<defs>')
        for _ in range(2):
            outcome(lambda: s.run(call, '<warm>'))       # (compiled at the first call; run again compiled)
        got.append(outcome(lambda: s.run('(let ((r %s)) (if (hash? r) (hash->list r) r))' % call, '<call>')))
    assert got[0] == got[1], call
