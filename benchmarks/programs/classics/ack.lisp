;; ack: Ackermann's function (r7rs-benchmarks src/ack.scm, ecraven/r7rs-benchmarks),
;; ported to rusty. Usage: rusty ack.lisp M N REPEAT

(define (ack m n)
  (cond ((= m 0) (+ n 1))
        ((= n 0) (ack (- m 1) 1))
        (else (ack (- m 1) (ack m (- n 1))))))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (ack (car args) (cadr args))))
    (if (< i n)
        (loop (+ i 1) (ack (car args) (cadr args)))
        result)))

(println (run-benchmark (caddr args)))
