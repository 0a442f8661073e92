;; A beginner's first loop: a named let at top level summing squares.
;; Usage: rusty toplevel_named_let.lisp N

(define n (string->number (car (command-line-args))))

(println (let loop ((i 0) (total 0))
           (if (< i n)
               (loop (+ i 1) (+ total (* i i)))
               total)))
