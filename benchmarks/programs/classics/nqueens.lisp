;; nqueens (r7rs-benchmarks src/nqueens.scm, ecraven/r7rs-benchmarks), ported to
;; rusty. Usage: rusty nqueens.lisp N REPEAT — prints the number of solutions.

(define (nqueens n)
  (define (iota1 n)
    (let loop ((i n) (l '()))
      (if (= i 0) l (loop (- i 1) (cons i l)))))
  (define (my-try x y z)
    (if (null? x)
        (if (null? y) 1 0)
        (+ (if (ok? (car x) 1 z)
               (my-try (append (cdr x) y) '() (cons (car x) z))
               0)
           (my-try (cdr x) (cons (car x) y) z))))
  (define (ok? row dist placed)
    (if (null? placed)
        #t
        (and (not (= (car placed) (+ row dist)))
             (not (= (car placed) (- row dist)))
             (ok? row (+ dist 1) (cdr placed)))))
  (my-try (iota1 n) '() '()))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (nqueens (car args))))
    (if (< i n)
        (loop (+ i 1) (nqueens (car args)))
        result)))

(println (run-benchmark (cadr args)))
