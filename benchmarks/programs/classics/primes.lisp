;; primes: a list sieve (r7rs-benchmarks src/primes.scm, ecraven/r7rs-benchmarks),
;; ported to rusty. Usage: rusty primes.lisp N REPEAT — prints how many primes
;; there are up to N and the largest.

(define (interval-list m n)
  (if (> m n)
      '()
      (cons m (interval-list (+ 1 m) n))))

(define (sieve l)
  (letrec ((remove-multiples
            (lambda (n l)
              (if (null? l)
                  '()
                  (if (= (remainder (car l) n) 0)
                      (remove-multiples n (cdr l))
                      (cons (car l) (remove-multiples n (cdr l))))))))
    (if (null? l)
        '()
        (cons (car l) (sieve (remove-multiples (car l) (cdr l)))))))

(define (primes<= n) (sieve (interval-list 2 n)))

(define args (map string->number (command-line-args)))

(define (run-benchmark n)
  (let loop ((i 1) (result (primes<= (car args))))
    (if (< i n)
        (loop (+ i 1) (primes<= (car args)))
        result)))

(define result (run-benchmark (cadr args)))
(println (length result) (last result))
