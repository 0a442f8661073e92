;; Everyday script: format amounts with thousands separators and two decimals, right-aligned.
;; Usage: rusty number_format.lisp N — prints a few lines and the total width.

(define (group-thousands digits)
  (let loop ((s digits) (parts '()))
    (if (<= (string-length s) 3)
        (string-join (cons s parts) ",")
        (loop (substring s 0 (- (string-length s) 3))
              (cons (substring s (- (string-length s) 3) (string-length s)) parts)))))

(define (money cents)
  (let ((sign (if (< cents 0) "-" ""))
        (c (abs cents)))
    (str sign
         "$"
         (group-thousands (number->string (quotient c 100)))
         "."
         (string-pad-left (number->string (remainder c 100)) 2 "0"))))

(define (amount i) (- (modulo (* i i 7919) 1000000007) 300000000))

(define lines (map (lambda (i) (string-pad-left (money (amount i)) 18 " ")) (iota (string->number (car (command-line-args))))))
(file-write "ledger.txt" (string-join lines "\n"))
(define text (file-read "ledger.txt"))
(for-each println (take 3 lines))
(println (string-length text) (last lines))
