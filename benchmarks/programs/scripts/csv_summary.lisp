;; Everyday script: write a CSV file, then summarise it by city (count, total, mean, max).
;; Usage: rusty csv_summary.lisp ROWS

(define cities '("Lisbon" "Oslo" "Kyoto" "Lima" "Accra" "Perth"))

(define (make-csv n)
  (let loop ((i 0) (seed 7) (lines '("id,city,amount")))
    (if (= i n)
        (string-join (reverse lines) "\n")
        (let ((next (modulo (+ (* seed 1103515245) 12345) 2147483648)))
          (loop (+ i 1)
                next
                (cons (str i "," (list-ref cities (modulo next 6)) "," (modulo (quotient next 7) 10000) "." (modulo next 100))
                      lines))))))

(define (summarise text)
  (let ((table (make-hash)))
    (for-each (lambda (line)
                (let* ((fields (string-split line ","))
                       (city (cadr fields))
                       (amount (string->number (caddr fields)))
                       (old (hash-ref table city '(0 0 0))))
                  (hash-set! table city (list (+ 1 (car old)) (+ amount (cadr old)) (max amount (caddr old))))))
              (cdr (string-split text "\n")))
    table))

(file-write "sales.csv" (make-csv (string->number (car (command-line-args)))))
(define table (summarise (file-read "sales.csv")))
(for-each (lambda (city)
            (let ((row (hash-ref table city)))
              (println (format "~8a ~5d ~12,2f ~9,2f ~9,2f" city (car row) (cadr row) (/ (cadr row) (car row)) (caddr row)))))
          (sort-strings (hash-keys table)))
