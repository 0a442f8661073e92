;; Everyday script: a stock ledger. Write N transactions (purchases and sales of 40
;; items, prices in cents) as lines of text, read them back, total each item in a
;; hash table and report the most profitable items, the oversold ones and the totals.
;; Usage: rusty inventory_ledger.lisp N — N transactions.

(define seed 42)

(define (random-below n)
  (set! seed (modulo (+ (* seed 1103515245) 12345) 2147483648))
  (modulo (quotient seed 65536) n))

(define (sku-name k)
  (str "sku" (string-pad-left (number->string k) 3 "0")))

(define (transaction i)
  (let* ((k (random-below 40))
         (kind (if (< (random-below 10) 5) "buy" "sell"))
         (qty (+ 1 (random-below 20)))
         (price (+ 150 (* k 37) (random-below 100))))
    (str "2026-" (string-pad-left (number->string (+ 1 (modulo i 12))) 2 "0") ","
         (sku-name k) "," kind "," qty "," (if (equal? kind "buy") price (+ price 40)))))

(define (make-ledger n)
  (string-join (map transaction (iota n)) "\n"))

(define (money cents)
  (let ((a (abs cents)))
    (str (if (< cents 0) "-" "") "$" (quotient a 100) "."
         (string-pad-left (number->string (remainder a 100)) 2 "0"))))

(define (entry items sku)
  (or (hash-ref items sku #f)
      (let ((v (make-vector 4 0)))
        (hash-set! items sku v)
        v)))

(define (add! v i x)
  (vector-set! v i (+ (vector-ref v i) x)))

;; an item's entry: #(bought sold spent earned)
(define (read-ledger text)
  (let ((items (make-hash)))
    (for-each
     (lambda (line)
       (let* ((fields (string-split line ","))
              (v (entry items (list-ref fields 1)))
              (qty (string->number (list-ref fields 3)))
              (total (* qty (string->number (list-ref fields 4)))))
         (if (equal? (list-ref fields 2) "buy")
             (begin (add! v 0 qty) (add! v 2 total))
             (begin (add! v 1 qty) (add! v 3 total)))))
     (string-split text "\n"))
    items))

(define (profit v)
  (- (vector-ref v 3) (vector-ref v 2)))

(define (report items)
  (let* ((skus (hash-keys items))
         (by-profit
          (sort skus
                (lambda (a b)
                  (let ((pa (profit (hash-ref items a)))
                        (pb (profit (hash-ref items b))))
                    (or (> pa pb) (and (= pa pb) (string<? a b)))))))
         (oversold
          (sort-strings
           (filter (lambda (sku)
                     (let ((v (hash-ref items sku)))
                       (> (vector-ref v 1) (vector-ref v 0))))
                   skus)))
         (spent (sum (map (lambda (sku) (vector-ref (hash-ref items sku) 2)) skus)))
         (earned (sum (map (lambda (sku) (vector-ref (hash-ref items sku) 3)) skus))))
    (for-each (lambda (sku)
                (let ((v (hash-ref items sku)))
                  (println (format "~7a ~6d ~6d ~14@a" sku (vector-ref v 0) (vector-ref v 1)
                                   (money (profit v))))))
              (take 5 by-profit))
    (println "oversold:" (length oversold) (string-join (take (min 3 (length oversold)) oversold) " "))
    (println "spent" (money spent) "earned" (money earned) "net" (money (- earned spent)))))

(file-write "ledger.csv" (make-ledger (string->number (car (command-line-args)))))
(report (read-ledger (file-read "ledger.csv")))
