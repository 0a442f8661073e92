;; A counter made by a closure, called N times.
;; Usage: rusty closure_counter.lisp N

(define (make-counter)
  (let ((count 0))
    (lambda ()
      (set! count (+ count 1))
      count)))

(define counter (make-counter))
(define n (string->number (car (command-line-args))))
(dotimes (i (- n 1)) (counter))
(println (counter))
