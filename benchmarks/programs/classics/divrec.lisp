;; divrec: halving a list recursively (Gabriel; r7rs-benchmarks src/divrec.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. Usage: rusty divrec.lisp N REPEAT —
;; prints the length of the result.

(define (create-n n)
  (do ((n n (- n 1))
       (a '() (cons '() a)))
    ((= n 0) a)))

(define (recursive-div2 l)
  (cond ((null? l) '())
        (else (cons (car l) (recursive-div2 (cddr l))))))

(define args (map string->number (command-line-args)))
(define ll (create-n (car args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (recursive-div2 ll)))
    (if (< i n)
        (loop (+ i 1) (recursive-div2 ll))
        result)))

(println (length (run-benchmark (cadr args))))
