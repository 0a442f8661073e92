;; takl: tak on lists as unary numbers (Gabriel; r7rs-benchmarks src/takl.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. Usage: rusty takl.lisp X Y Z REPEAT
;; (X, Y, Z are list lengths); prints the length of the last result.

(define (listn n)
  (if (= n 0)
      '()
      (cons n (listn (- n 1)))))

(define (mas x y z)
  (if (not (shorterp y x))
      z
      (mas (mas (cdr x) y z)
           (mas (cdr y) z x)
           (mas (cdr z) x y))))

(define (shorterp x y)
  (and (not (null? y))
       (or (null? x)
           (shorterp (cdr x) (cdr y)))))

(define args (map string->number (command-line-args)))
(define lx (listn (car args)))
(define ly (listn (cadr args)))
(define lz (listn (caddr args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (mas lx ly lz)))
    (if (< i n)
        (loop (+ i 1) (mas lx ly lz))
        result)))

(println (length (run-benchmark (cadddr args))))
