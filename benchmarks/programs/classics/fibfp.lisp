;; fibfp: fib on floats (r7rs-benchmarks src/fibfp.scm, ecraven/r7rs-benchmarks),
;; ported to rusty. Usage: rusty fibfp.lisp N REPEAT

(define (fibfp n)
  (if (< n 2.0)
      n
      (+ (fibfp (- n 1.0)) (fibfp (- n 2.0)))))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (fibfp (inexact (car args)))))
    (if (< i n)
        (loop (+ i 1) (fibfp (inexact (car args))))
        result)))

(println (run-benchmark (cadr args)))
