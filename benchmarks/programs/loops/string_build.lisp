;; Build a string in a loop by appending to it, as a beginner does.
;; Usage: rusty string_build.lisp N — prints the length and the last 12 characters.

(define (numbers-line n)
  (let ((s ""))
    (dotimes (i n)
      (set! s (string-append s (number->string i) ",")))
    s))

(define s (numbers-line (string->number (car (command-line-args)))))
(println (string-length s) (substring s (- (string-length s) 12) (string-length s)))
