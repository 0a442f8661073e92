;; Count keys in a hash table in a loop (a histogram of i*i mod 97).
;; Usage: rusty hash_count.lisp N — prints the count of the most frequent key.

(define counts (make-hash))
(define n (string->number (car (command-line-args))))
(dotimes (i n)
  (let ((k (modulo (* i i) 97)))
    (hash-set! counts k (+ 1 (hash-ref counts k 0)))))
(println (hash-count counts) (apply max (hash-values counts)))
