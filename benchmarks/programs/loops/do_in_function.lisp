;; A `do` loop inside a function that is called once: Collatz steps up to N.
;; Usage: rusty do_in_function.lisp N

(define (longest-collatz limit)
  (do ((start 1 (+ start 1))
       (best 0)
       (best-start 0))
    ((> start limit) (list best-start best))
    (do ((x start (if (even? x) (quotient x 2) (+ (* 3 x) 1)))
         (steps 0 (+ steps 1)))
      ((= x 1) (when (> steps best)
                 (set! best steps)
                 (set! best-start start))))))

(println (longest-collatz (string->number (car (command-line-args)))))
