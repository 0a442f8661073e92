;; Collect the even squares in a list with cons in a loop, reverse, then sum them.
;; Usage: rusty list_accumulate.lisp N

(define (even-squares n)
  (let loop ((i 0) (acc '()))
    (cond ((= i n) (reverse acc))
          ((even? i) (loop (+ i 1) (cons (* i i) acc)))
          (else (loop (+ i 1) acc)))))

(define squares (even-squares (string->number (car (command-line-args)))))
(println (length squares) (foldl + 0 squares))
