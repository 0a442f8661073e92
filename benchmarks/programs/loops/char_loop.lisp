;; Walk a string character by character counting vowels (string-ref in a loop).
;; Usage: rusty char_loop.lisp N — the text is N copies of a sentence.

(define text (string-repeat "the quick brown fox jumps over the lazy dog. " (string->number (car (command-line-args)))))

(define (count-vowels s)
  (let loop ((i 0) (n 0))
    (if (= i (string-length s))
        n
        (loop (+ i 1) (if (member (string-ref s i) '("a" "e" "i" "o" "u")) (+ n 1) n)))))

(println (count-vowels text))
