;; Everyday script: read a text file and wrap its paragraphs to 60 columns,
;; fully justified, then write the result and report on it.
;; Usage: rusty text_wrap.lisp PARAGRAPHS

(define words
  (string-split
   "rusty is a small lisp that runs on python and it tries to be quick for the programs people write every day such as little scripts loops and the classic benchmarks that lisp people have used for forty years"))

(define (make-text n)
  (string-join
   (map (lambda (p) (string-join (take (+ 20 (modulo (* p 7) 17)) (drop (modulo p 9) (append words words))) " "))
        (iota n))
   "\n\n"))

(define (justify line-words width)
  (if (null? (cdr line-words))
      (car line-words)
      (let* ((chars (foldl + 0 (map string-length line-words)))
             (gaps (- (length line-words) 1))
             (spaces (- width chars))
             (base (quotient spaces gaps))
             (extra (remainder spaces gaps)))
        (let loop ((ws (cdr line-words)) (i 0) (acc (list (car line-words))))
          (if (null? ws)
              (string-append-list (reverse acc))
              (loop (cdr ws)
                    (+ i 1)
                    (cons (car ws) (cons (string-repeat " " (+ base (if (< i extra) 1 0))) acc))))))))

(define (wrap paragraph width)
  (let loop ((ws (string-split paragraph)) (line '()) (len 0) (out '()))
    (cond ((null? ws) (reverse (if (null? line) out (cons (string-join (reverse line) " ") out))))
          ((null? line) (loop (cdr ws) (list (car ws)) (string-length (car ws)) out))
          ((> (+ len 1 (string-length (car ws))) width)
           (loop ws '() 0 (cons (justify (reverse line) width) out)))
          (else (loop (cdr ws) (cons (car ws) line) (+ len 1 (string-length (car ws))) out)))))

(file-write "essay.txt" (make-text (string->number (car (command-line-args)))))
(define wrapped
  (map (lambda (p) (string-join (wrap p 60) "\n")) (string-split (file-read "essay.txt") "\n\n")))
(file-write "essay-wrapped.txt" (string-join wrapped "\n\n"))
(define lines (string-split (file-read "essay-wrapped.txt") "\n" 'all))
(println (length lines) (count (lambda (l) (= (string-length l) 60)) lines))
(println (cadr lines))
