"""A realistic rusty program of a given length, for the language server's timing and reuse tests."""
from __future__ import annotations

FUNCTION = '''\
(define (walk-{i} items acc)
  "(walk-{i} items acc)
Fold items into acc, keeping the even ones."
  (let loop ((xs items) (total acc) (seen '()))
    (cond ((null? xs) (list total (reverse seen)))
          ((even? (car xs))
           (when (> (car xs) {i})
             (set! total (+ total 1)))
           (loop (cdr xs) (+ total (car xs)) (cons (car xs) seen)))
          (else (loop (cdr xs) total seen)))))
'''
MACRO_USE = '''\
(define (count-{i} n)
  (let ((k 0))
    (while (< k n)
      (set! k (+ k 1)))
    (dotimes (j 3) (set! k (+ k j)))
    (unless (> k {i}) (println "small" k))
    (match (list k n) ((a b) (+ a b)) (_ 0))))
'''
VALUE = '''\
(define table-{i} (map (lambda (x) (* x {i})) (list 1 2 3 4)))
(define (lookup-{i} key) (assoc key (list (list 'a table-{i}) (list 'b {i}))))
'''
HEAD = '''\
(defmacro unless (test . body) `(if ,test nil (begin ,@body)))
'''


def program(lines: int = 5000) -> str:
    """About `lines` lines of definitions, macro uses and calls between them."""
    out = [HEAD]
    n = HEAD.count('\n')
    i = 0
    while n < lines:
        chunk = (FUNCTION, MACRO_USE, VALUE)[i % 3].format(i=i)
        if i % 3 == 2:
            chunk += '(walk-%d (lookup-%d (quote a)) (count-%d 2))\n' % (i - 2, i, i - 1)
        out.append(chunk)
        n += chunk.count('\n')
        i += 1
    return ''.join(out)
