;; Everyday script: convert numbers to Roman numerals and back, checking each.
;; Usage: rusty roman_numerals.lisp N — converts 1..N (N at most 3999), REPEAT times.

(define table '((1000 "M") (900 "CM") (500 "D") (400 "CD") (100 "C") (90 "XC") (50 "L") (40 "XL") (10 "X") (9 "IX") (5 "V") (4 "IV") (1 "I")))

(define (to-roman n)
  (let loop ((n n) (t table) (acc ""))
    (cond ((= n 0) acc)
          ((>= n (caar t)) (loop (- n (caar t)) t (string-append acc (cadr (car t)))))
          (else (loop n (cdr t) acc)))))

(define values (hash "I" 1 "V" 5 "X" 10 "L" 50 "C" 100 "D" 500 "M" 1000))

(define (from-roman s)
  (let loop ((i 0) (total 0))
    (if (= i (string-length s))
        total
        (let ((v (hash-ref values (string-ref s i)))
              (next (if (< (+ i 1) (string-length s)) (hash-ref values (string-ref s (+ i 1))) 0)))
          (loop (+ i 1) (if (< v next) (- total v) (+ total v)))))))

(define n (string->number (car (command-line-args))))
(define longest "")
(define bad 0)
(do ((i 1 (+ i 1)))
  ((> i n))
  (let ((r (to-roman i)))
    (unless (= (from-roman r) i) (set! bad (+ bad 1)))
    (when (> (string-length r) (string-length longest)) (set! longest r))))
(println bad longest (from-roman longest) (to-roman n))
