;; chudnovsky: digits of pi by the Chudnovsky brothers' series with binary
;; splitting, in exact integers (r7rs-benchmarks src/chudnovsky.scm,
;; ecraven/r7rs-benchmarks), ported to rusty unchanged but for the driver and
;; integer-sqrt: rusty has no exact-integer-sqrt, so it is Newton's method on exact
;; integers, started from a power of ten above the root (the CPython port uses
;; the same helper). Usage: rusty chudnovsky.lisp FROM TO STEP REPEAT — computes
;; pi to FROM, FROM+STEP, ... TO digits; prints how many, and the digit count and
;; the last 12 digits of the longest.

(define ch-A 13591409)
(define ch-B 545140134)
(define ch-C 640320)
(define ch-C^3 (expt 640320 3))
(define ch-D 12)

(define (ch-split a b)
  (if (= 1 (- b a))
      (let ((g (* (- (* 6 b) 5) (- (* 2 b) 1) (- (* 6 b) 1))))
        (list g
              (quotient (* ch-C^3 (expt b 3)) 24)
              (* (expt -1 b) g (+ (* b ch-B) ch-A))))
      (let* ((mid (quotient (+ a b) 2))
             (gpq1 (ch-split a mid))
             (gpq2 (ch-split mid b))
             (g1 (car gpq1)) (p1 (cadr gpq1)) (q1 (caddr gpq1))
             (g2 (car gpq2)) (p2 (cadr gpq2)) (q2 (caddr gpq2)))
        (list (* g1 g2)
              (* p1 p2)
              (+ (* q1 p2) (* q2 g1))))))

(define (integer-sqrt x)
  (if (< x 2)
      x
      (let loop ((q (expt 10 (quotient (+ (string-length (number->string x)) 1) 2))))
        (let ((next (quotient (+ q (quotient x q)) 2)))
          (if (>= next q)
              q
              (loop next))))))

(define (pi digits)
  (let* ((num-terms (exact (floor (+ 2 (/ digits 14.181647462)))))
         (sqrt-C (integer-sqrt (* ch-C (expt 100 digits)))))
    (let* ((gpq (ch-split 0 num-terms))
           (g (car gpq)) (p (cadr gpq)) (q (caddr gpq)))
      (quotient (* p ch-C sqrt-C) (* ch-D (+ q (* p ch-A)))))))

(define (pies n m s)
  (if (< m n)
      '()
      (cons (pi n)
            (pies (+ n s) m s))))

(define args (map string->number (command-line-args)))

(define (run-benchmark k)
  (let loop ((i 1) (result (pies (car args) (cadr args) (caddr args))))
    (if (< i k)
        (loop (+ i 1) (pies (car args) (cadr args) (caddr args)))
        result)))

(define result (run-benchmark (cadddr args)))
(define longest (number->string (last result)))
(println (length result) (string-length longest)
         (substring longest (- (string-length longest) 12) (string-length longest)))
