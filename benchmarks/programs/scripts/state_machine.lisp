;; Everyday script: a small state machine that tokenises program text character
;; by character (identifiers, numbers, strings, punctuation) and counts the kinds.
;; Usage: rusty state_machine.lisp COPIES

(define sample "total = price * 12 + tax(\"vat\", 0.2); if x1 >= 10 { print(\"big\") } ")

(define (kind c)
  (cond ((string-contains? "abcdefghijklmnopqrstuvwxyz_" c) 'letter)
        ((string-contains? "0123456789" c) 'digit)
        ((equal? c "\"") 'quote)
        ((equal? c ".") 'dot)
        ((string-contains? " \n\t" c) 'space)
        (else 'punct)))

(define (tokenise text)
  (let ((counts (make-hash))
        (n (string-length text)))
    (define (emit k) (hash-set! counts k (+ 1 (hash-ref counts k 0))))
    (let loop ((i 0) (state 'start))
      (if (= i n)
          (begin
            (unless (eq? state 'start) (emit state))
            counts)
          (let ((k (kind (string-ref text i))))
            (case state
              ((start)
               (case k
                 ((letter) (loop (+ i 1) 'ident))
                 ((digit) (loop (+ i 1) 'number))
                 ((quote) (loop (+ i 1) 'string))
                 ((space) (loop (+ i 1) 'start))
                 (else (emit 'punct) (loop (+ i 1) 'start))))
              ((ident) (if (or (eq? k 'letter) (eq? k 'digit)) (loop (+ i 1) 'ident) (begin (emit 'ident) (loop i 'start))))
              ((number) (if (or (eq? k 'digit) (eq? k 'dot)) (loop (+ i 1) 'number) (begin (emit 'number) (loop i 'start))))
              ((string) (if (eq? k 'quote) (begin (emit 'string) (loop (+ i 1) 'start)) (loop (+ i 1) 'string)))))))))

(define counts (tokenise (string-repeat sample (string->number (car (command-line-args))))))
(for-each (lambda (k) (println k (hash-ref counts k 0))) '(ident number string punct))
