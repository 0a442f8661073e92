(define (f x) (/ x 0))
(define (g y) (+ 1 (f y)))
(g 2)
; docs/reference.md §7 Errors and error reports, verbatim:
; expect-stderr: Error: Division by zero
; expect-stderr:   at demo.lisp:1:15
; expect-stderr:   1 | (define (f x) (/ x 0))
; expect-stderr:     |               ^^^^^^^
; expect-stderr: Backtrace (innermost last):
; expect-stderr:   demo.lisp:3:1 in g
; expect-stderr:   demo.lisp:2:20 in f
; expect-exit: 1
