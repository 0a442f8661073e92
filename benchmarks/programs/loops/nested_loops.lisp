;; Nested `do` loops over a grid held in a vector of vectors (a multiplication table mod 7).
;; Usage: rusty nested_loops.lisp N

(define (grid n)
  (let ((rows (make-vector n)))
    (do ((i 0 (+ i 1)))
      ((= i n) rows)
      (let ((row (make-vector n 0)))
        (do ((j 0 (+ j 1)))
          ((= j n))
          (vector-set! row j (modulo (* i j) 7)))
        (vector-set! rows i row)))))

(define (grid-sum g)
  (let ((total 0))
    (do ((i 0 (+ i 1)))
      ((= i (vector-length g)) total)
      (do ((j 0 (+ j 1)))
        ((= j (vector-length (vector-ref g i))))
        (set! total (+ total (vector-ref (vector-ref g i) j)))))))

(println (grid-sum (grid (string->number (car (command-line-args))))))
