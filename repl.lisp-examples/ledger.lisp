; A small ledger with Python's standard library: csv reads the expenses,
; sqlite3 adds them up, datetime names the days.
;
;   rusty repl.lisp-examples/ledger.lisp [CSV]
;
; reads expenses (date,category,amount) from CSV (default data/expenses.csv)
; into an in-memory SQLite database and prints the totals by month and by
; category, and the weekday with the most expenses. The weekday comes from a
; rusty function that SQLite itself calls inside the query.

(import csv)
(import sqlite3)
(import datetime)
(import builtins)

(define args (command-line-args))
(define path (if (null? args) "data/expenses.csv" (car args)))

; every row as a list of strings, the header dropped
(define rows
  (let* ((fh (builtins.open path :newline ""))
         (all (py->lisp (csv.reader fh))))
    (.close fh)
    (cdr all)))

(define db (sqlite3.connect ":memory:"))
(.execute db "create table spent (day text, category text, amount real)")
(.executemany db "insert into spent values (?, ?, ?)" rows)

(define (query sql) (py->lisp (.execute db sql)))

(define (weekday day) (.strftime (datetime.date.fromisoformat day) "%A"))
(.create_function db "weekday" 1 weekday)

(println (format "~a expenses from ~a" (length rows) path))
(println "by month:")
(for-each (lambda (row) (println (format "  ~a ~8,2f" (first row) (second row))))
          (query "select substr(day, 1, 7), sum(amount) from spent group by 1 order by 1"))
(println "by category:")
(for-each (lambda (row) (println (format "  ~10a ~8,2f" (first row) (second row))))
          (query "select category, sum(amount) from spent group by 1 order by 2 desc, 1"))
(define busiest
  (car (query "select weekday(day), count(*) from spent group by 1 order by 2 desc, 1 limit 1")))
(println (format "busiest weekday: ~a (~a expenses)" (first busiest) (second busiest)))
(.close db)
; expect: 10 expenses from data/expenses.csv
; expect: by month:
; expect:   2024-01   766.50
; expect:   2024-02   790.25
; expect: by category:
; expect:   rent        1400.00
; expect:   food          92.25
; expect:   gifts         40.00
; expect:   transport     24.50
; expect: busiest weekday: Wednesday (6 expenses)
