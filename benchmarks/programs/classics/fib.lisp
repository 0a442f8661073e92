;; fib (r7rs-benchmarks src/fib.scm, ecraven/r7rs-benchmarks), ported to rusty.
;; Usage: rusty fib.lisp N REPEAT

(define (fib n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (fib (car args))))
    (if (< i n)
        (loop (+ i 1) (fib (car args)))
        result)))

(println (run-benchmark (cadr args)))
