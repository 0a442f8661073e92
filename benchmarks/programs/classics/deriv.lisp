;; deriv: symbolic derivative (Gabriel; r7rs-benchmarks src/deriv.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. Usage: rusty deriv.lisp REPEAT

(define (deriv a)
  (cond ((not (pair? a)) (if (eq? a 'x) 1 0))
        ((eq? (car a) '+) (cons '+ (map deriv (cdr a))))
        ((eq? (car a) '-) (cons '- (map deriv (cdr a))))
        ((eq? (car a) '*)
         (list '* a (cons '+ (map (lambda (a) (list '/ (deriv a) a)) (cdr a)))))
        ((eq? (car a) '/)
         (list '-
               (list '/ (deriv (cadr a)) (caddr a))
               (list '/ (cadr a) (list '* (caddr a) (caddr a) (deriv (caddr a))))))
        (else (error "No derivation method available"))))

(define input '(+ (* 3 x x) (* a x x) (* b x) 5))

(define (run-benchmark n)
  (let loop ((i 1) (result (deriv input)))
    (if (< i n)
        (loop (+ i 1) (deriv input))
        result)))

(println (run-benchmark (string->number (car (command-line-args)))))
