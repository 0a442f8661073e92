;; diviter: halving a list iteratively (Gabriel; r7rs-benchmarks src/diviter.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. Usage: rusty diviter.lisp N REPEAT —
;; prints the length of the result.

(define (create-n n)
  (do ((n n (- n 1))
       (a '() (cons '() a)))
    ((= n 0) a)))

(define (iterative-div2 l)
  (do ((l l (cddr l))
       (a '() (cons (car l) a)))
    ((null? l) a)))

(define args (map string->number (command-line-args)))
(define ll (create-n (car args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (iterative-div2 ll)))
    (if (< i n)
        (loop (+ i 1) (iterative-div2 ll))
        result)))

(println (length (run-benchmark (cadr args))))
