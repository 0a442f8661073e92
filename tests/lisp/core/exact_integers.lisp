; Exact integers beside floats; comparisons of one or more numbers; messages
; that name the operator as called and the procedure by its name.
(println (* 99999999999 99999999999))
(println (* 1.0 4) (/ 10 2) (/ 1 3))
(println (exact? (/ 10 2)) (exact? (* 1.0 4)) (round 2.5) (exact? (round 2.5)))
(println (= 9007199254740993 9007199254740992.0) (= 2 2.0) (equal? 2 2.0))
(define (fact n) (if (< n 2) 1 (* n (fact (- n 1)))))
(println (fact 25))
(define port 8080)
(println (< 0 port 65536) (< 1) (number->string 255 16) (string->number "ff" 16))
(println (exact 2.0) (inexact 7) (exact? (inexact 7)))
(println (json-encode (list (expt 2 70) 0.5)))
(println (try-catch (+ 1 #f) (e) e))
(println (try-catch (< 1 "a") (e) e))
(println (try-catch (add 1 "a") (e) e))
(println (try-catch (<) (e) e))
(println (try-catch (exact 2.5) (e) e))
(define (f x y) x)
(f 1)
; expect: 9999999999800000000001
; expect: 4 5 0.3333333333333333
; expect: #t #f 3 #t
; expect: #f #t #t
; expect: 15511210043330985984000000
; expect: #t #t ff 255
; expect: 2 7 #f
; expect: [1180591620717411303424, 0.5]
; expect: +: expected a number, got #f
; expect: <: expected a number, got "a"
; expect: add: expected a number, got "a"
; expect: <: expected at least 1 arg, got 0
; expect: exact: no exact integer for 2.5
; expect-stderr: Error: f: expected 2 args, got 1
; expect-stderr:   at exact_integers.lisp:19:1
; expect-stderr:   19 | (f 1)
; expect-stderr:      | ^^^^^
; expect-stderr:   hint: f takes (x y)
; expect-exit: 1
