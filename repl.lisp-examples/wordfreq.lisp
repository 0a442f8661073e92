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
(define total 0)

(for-each (lambda (piece)
            (let ((word (string-trim piece punctuation)))
              (unless (equal? word "")
                (set! total (+ total 1))
                (hash-update! counts word inc 0))))
          (string-split (string-downcase (file-read path))))

; more frequent first; equal counts alphabetically
(define (before? a b)
  (or (> (cadr a) (cadr b))
      (and (= (cadr a) (cadr b)) (string<? (car a) (car b)))))

(define ranked (sort (hash->list counts) before?))
(define width (foldl (lambda (e w) (max w (string-length (car e)))) 4 (take top ranked)))

(for-each (lambda (entry rank)
            (println (string-pad-left (number->string rank) 3)
                     (string-pad-right (car entry) width)
                     (string-pad-left (number->string (cadr entry)) 6)))
          (take top ranked)
          (range 1 (+ top 1)))
(println (format "~a words, ~a distinct" total (hash-count counts)))
; expect:   1 the      14
; expect:   2 to        6
; expect:   3 and       5
; expect:   4 of        5
; expect:   5 a         4
; expect:   6 is        4
; expect: 74 words, 35 distinct
