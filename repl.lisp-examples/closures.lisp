; Closures and proper tail calls.

; A closure captures the environment it is created in.
(define (adder n) (lambda (x) (+ x n)))
(define add5 (adder 5))
(println (add5 10) ((adder 1) 1))
; expect: 15 2

; Closures share the frame they close over: a bank account.
(define (account balance)
  (define (deposit! amount) (set! balance (+ balance amount)) balance)
  (define (withdraw! amount)
    (if (> amount balance)
        (error "insufficient funds:" balance)
        (begin (set! balance (- balance amount)) balance)))
  (lambda (op amount)
    (cond ((eq? op 'deposit) (deposit! amount))
          ((eq? op 'withdraw) (withdraw! amount))
          (else (error "unknown operation" op)))))
(define acc (account 100))
(acc 'deposit 50)
(println (acc 'withdraw 30))
; expect: 120
(println (try-catch (acc 'withdraw 500) (e) e))
; expect: insufficient funds: 120

; Mutual tail recursion runs in constant space: a million calls deep.
(define (my-even? n) (if (= n 0) #t (my-odd? (- n 1))))
(define (my-odd? n) (if (= n 0) #f (my-even? (- n 1))))
(println (my-even? 1000000) (my-odd? 777777))
; expect: #t #t

; Named let is a loop; do is a loop with steps.
(println (let loop ((i 0) (acc '())) (if (= i 5) (reverse acc) (loop (+ i 1) (cons (* i i) acc)))))
; expect: (0 1 4 9 16)
(println (do ((i 0 (+ i 1)) (sum 0 (+ sum i))) ((= i 100) sum)))
; expect: 4950

; Non-tail recursion works deep too (the limit is 200,000 by default).
(define (depth n) (if (= n 0) 0 (+ 1 (depth (- n 1)))))
(println (depth 100000))
; expect: 100000

; compose, curry and memoize build procedures from procedures.
(define inc-then-square (compose square inc))
(println (inc-then-square 4) ((curry + 1 2) 3))
; expect: 25 6
(define slow-fib (lambda (n) (if (< n 2) n (+ (fast-fib (- n 1)) (fast-fib (- n 2))))))
(define fast-fib (memoize slow-fib))
(println (fast-fib 70))
; expect: 190392490709135
