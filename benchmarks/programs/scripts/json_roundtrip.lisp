;; Everyday script: build records, write them as JSON, read them back, total them, write a report.
;; Usage: rusty json_roundtrip.lisp N

(define (make-record i)
  (list (list "id" i)
        (list "name" (str "item-" i))
        (list "price" (* 25 (modulo (* i 37) 400)))
        (list "tags" (list (if (even? i) "even" "odd") (str "g" (modulo i 5))))
        (list "stock" (list (list "shelf" (modulo i 9)) (list "count" (modulo (* i 7) 23))))))

(define n (string->number (car (command-line-args))))
(file-write "items.json" (json-encode (map make-record (iota n)) 2))

(define items (json-decode (file-read "items.json") 'hash))
(define (stock-value item)
  (* (hash-ref item "price") (hash-ref (hash-ref item "stock") "count")))
(define by-group (make-hash))
(for-each (lambda (item)
            (let ((g (cadr (hash-ref item "tags"))))
              (hash-set! by-group g (+ (stock-value item) (hash-ref by-group g 0)))))
          items)
(file-write "report.json" (json-encode by-group))
(println (length items) (file-read "report.json"))
