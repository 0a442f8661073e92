; closures, environments (docs/reference.md §4), proper tail calls (§4), named let, do
(define (make-counter)
  (let ((n 0))
    (lambda () (set! n (+ n 1)) n)))
(define c1 (make-counter))
(define c2 (make-counter))
(c1) (c1)
(println (c1) (c2))

(define x 10)
(define (f) (display x) (define x 2) (display x))
(f)
(newline)
(println x)

(define (loop n acc) (if (= n 0) acc (loop (- n 1) (+ acc 1))))
(println (loop 300000 0))

(define (my-even? n) (if (= n 0) #t (my-odd? (- n 1))))
(define (my-odd? n) (if (= n 0) #f (my-even? (- n 1))))
(println (my-even? 100001))

(println (let loop ((i 0) (acc 0)) (if (= i 5) acc (loop (+ i 1) (+ acc i)))))
(println (do ((i 0 (+ i 1)) (acc 0 (+ acc i))) ((= i 5) acc)))

(define (count-down n) (if (= n 0) 0 (+ 1 (count-down (- n 1)))))
(println (count-down 20000))

(define (g) 1)
(define (caller) (g))
(define r (caller))
(define (g) 2)
(list r (caller))
; expect: 3 1
; expect: 102
; expect: 10
; expect: 300000
; expect: #f
; expect: 10
; expect: 10
; expect: 20000
; expect: (1 2)
