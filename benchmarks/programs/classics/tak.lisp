;; tak (Gabriel; r7rs-benchmarks src/tak.scm, ecraven/r7rs-benchmarks), ported to rusty.
;; Usage: rusty tak.lisp X Y Z REPEAT — prints the result of the last run.

(define (tak x y z)
  (if (not (< y x))
      z
      (tak (tak (- x 1) y z)
           (tak (- y 1) z x)
           (tak (- z 1) x y))))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (tak (car args) (cadr args) (caddr args))))
    (if (< i n)
        (loop (+ i 1) (tak (car args) (cadr args) (caddr args)))
        result)))

(println (run-benchmark (cadddr args)))
