(define (dive n)
  (if (= n 0) (error "bottom reached at" n) (+ 1 (dive (- n 1)))))
(println "diving")
(dive 12)
; 13 frames: 3 outermost, the count, 7 innermost
; expect: diving
; expect-stderr: Error: bottom reached at 0
; expect-stderr:   at backtrace_elision.lisp:2:15
; expect-stderr:   2 |   (if (= n 0) (error "bottom reached at" n) (+ 1 (dive (- n 1)))))
; expect-stderr:     |               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
; expect-stderr: Backtrace (innermost last):
; expect-stderr:   backtrace_elision.lisp:4:1 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   ... 3 more
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-stderr:   backtrace_elision.lisp:2:50 in dive
; expect-exit: 1
