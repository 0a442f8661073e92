;; A `while` loop with set!: digit sums of 0..N-1, at top level.
;; Usage: rusty while_loop.lisp N

(define n (string->number (car (command-line-args))))
(define i 0)
(define total 0)
(while (< i n)
  (let ((x i))
    (while (> x 0)
      (set! total (+ total (remainder x 10)))
      (set! x (quotient x 10))))
  (set! i (+ i 1)))
(println total)
