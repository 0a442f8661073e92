;; A `do` loop at top level counting the multiples of 3 or 5 below N.
;; Usage: rusty toplevel_do.lisp N

(define n (string->number (car (command-line-args))))

(println (do ((i 0 (+ i 1))
              (total 0 (if (or (= 0 (modulo i 3)) (= 0 (modulo i 5))) (+ total i) total)))
           ((= i n) total)))
