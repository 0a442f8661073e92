;; cpstak: tak in continuation-passing style (r7rs-benchmarks src/cpstak.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. Usage: rusty cpstak.lisp X Y Z REPEAT

(define (cpstak x y z)
  (define (tak x y z k)
    (if (not (< y x))
        (k z)
        (tak (- x 1)
             y
             z
             (lambda (v1)
               (tak (- y 1)
                    z
                    x
                    (lambda (v2)
                      (tak (- z 1) x y (lambda (v3) (tak v1 v2 v3 k)))))))))
  (tak x y z (lambda (a) a)))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (cpstak (car args) (cadr args) (caddr args))))
    (if (< i n)
        (loop (+ i 1) (cpstak (car args) (cadr args) (caddr args)))
        result)))

(println (run-benchmark (cadddr args)))
