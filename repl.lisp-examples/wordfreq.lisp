; Word frequencies of a text file: a real script, with hash tables and the
; string builtins.
;
;   rusty repl.lisp-examples/wordfreq.lisp FILE [TOP]
;
; prints the TOP (default 10) most frequent words, most frequent first (ties
; in alphabetical order), and a summary line. Words are the whitespace-separated
; pieces, lower-cased, with surrounding punctuation trimmed.
; args: data/sample.txt 6

(define punctuation ".,;:!?\"'()[]{}<>-_*/")

(define (usage)
  (eprintln "usage: rusty wordfreq.lisp FILE [TOP]")
  (exit 2))

(define args (command-line-args))
(if (null? args) (usage))

(define path (car args))
(define top (if (null? (cdr args)) 10 (string->number (cadr args))))
(unless (and top (integer? top) (> top 0)) (usage))

; word -> count, in the order words are first seen
(define counts (make-hash))

(for-each (lambda (piece)
            (let ((word (string-trim piece punctuation)))
              (unless (equal? word "")
                (hash-update! counts word inc 0))))
          (string-split (string-downcase (file-read path))))

; alphabetically, then (a stable sort) by count, more frequent first
(define ranked
  (sort (sort (hash-keys counts))
        (lambda (a b) (> (hash-ref counts a) (hash-ref counts b)))))
(define shown (take (min top (length ranked)) ranked))
(define width (foldl (lambda (w widest) (max widest (string-length w))) 4 shown))

(for-each (lambda (word rank)
            (println (string-pad-left (number->string rank) 3)
                     (string-pad-right word width)
                     (string-pad-left (number->string (hash-ref counts word)) 6)))
          shown
          (range 1 (+ top 1)))
(println (format "~a words, ~a distinct" (sum (hash-values counts)) (hash-count counts)))
; expect:   1 the      14
; expect:   2 to        6
; expect:   3 and       5
; expect:   4 of        5
; expect:   5 a         4
; expect:   6 is        4
; expect: 74 words, 35 distinct
