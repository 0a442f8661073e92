;; Everyday script: write a text file, count its words, print the ten most common.
;; Usage: rusty word_count.lisp WORDS

(define vocabulary
  (list->vector
   (string-split "the of and to in is was that for it with as his on be at by had are but from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three")))

(define (make-text n)
  (let loop ((i 0) (seed 12345) (words '()))
    (if (= i n)
        (string-join words " ")
        (let ((next (modulo (+ (* seed 1103515245) 12345) 2147483648)))
          (loop (+ i 1)
                next
                (cons (vector-ref vocabulary (modulo (quotient next 65536) (vector-length vocabulary)))
                      words))))))

(define (count-words text)
  (let ((counts (make-hash)))
    (for-each (lambda (w) (hash-set! counts w (+ 1 (hash-ref counts w 0)))) (string-split text))
    counts))

(define (top-words counts k)
  (take k
        (sort (hash->list counts)
              (lambda (a b)
                (or (> (cadr a) (cadr b)) (and (= (cadr a) (cadr b)) (string<? (car a) (car b))))))))

(file-write "words.txt" (make-text (string->number (car (command-line-args)))))
(define counts (count-words (file-read "words.txt")))
(println (hash-count counts))
(for-each (lambda (p) (println (car p) (cadr p))) (top-words counts 10))
