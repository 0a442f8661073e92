;; Fill a vector, then sum it, each in a function called once.
;; Usage: rusty vector_sum.lisp N

(define (fill-squares n)
  (let ((v (make-vector n 0)))
    (dotimes (i n)
      (vector-set! v i (modulo (* i i) 1000)))
    v))

(define (vector-sum v)
  (let ((total 0))
    (dotimes (i (vector-length v))
      (set! total (+ total (vector-ref v i))))
    total))

(println (vector-sum (fill-squares (string->number (car (command-line-args))))))
