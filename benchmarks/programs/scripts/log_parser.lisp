;; Everyday script: write a server log, then parse it: requests per level and
;; module, the slowest request, and the mean latency per module.
;; Usage: rusty log_parser.lisp LINES

(define modules #("auth" "db" "cache" "api" "web"))
(define levels #("INFO" "INFO" "INFO" "WARN" "ERROR"))

(define (make-log n)
  (let loop ((i 0) (seed 99) (lines '()))
    (if (= i n)
        (string-join (reverse lines) "\n")
        (let ((next (modulo (+ (* seed 1103515245) 12345) 2147483648)))
          (loop (+ i 1)
                next
                (cons (format "2026-12-05 ~a:~a:~a ~a ~a: request ~a took ~ams"
                              (string-pad-left (number->string (modulo (quotient i 3600) 24)) 2 "0")
                              (string-pad-left (number->string (modulo (quotient i 60) 60)) 2 "0")
                              (string-pad-left (number->string (modulo i 60)) 2 "0")
                              (vector-ref levels (modulo (quotient next 16) 5))
                              (vector-ref modules (modulo (quotient next 256) 5))
                              i
                              (modulo (quotient next 4096) 500))
                      lines))))))

(define (parse-line line)
  (let* ((words (string-split line " "))
         (level (list-ref words 2))
         (module (substring (list-ref words 3) 0 (- (string-length (list-ref words 3)) 1)))
         (took (list-ref words 7)))
    (list level module (string->number (substring took 0 (- (string-length took) 2))))))

(file-write "server.log" (make-log (string->number (car (command-line-args)))))
(define counts (make-hash))
(define latency (make-hash))
(define slowest '("none" 0))
(for-each (lambda (line)
            (let* ((rec (parse-line line))
                   (key (str (car rec) "/" (cadr rec)))
                   (ms (caddr rec)))
              (hash-set! counts key (+ 1 (hash-ref counts key 0)))
              (hash-set! latency (cadr rec) (+ ms (hash-ref latency (cadr rec) 0)))
              (when (> ms (cadr slowest)) (set! slowest (list line ms)))))
          (string-split (file-read "server.log") "\n"))
(for-each (lambda (k) (println k (hash-ref counts k))) (sort-strings (hash-keys counts)))
(for-each (lambda (m)
            (let ((n (foldl + 0 (map (lambda (lv) (hash-ref counts (str lv "/" m) 0)) '("INFO" "WARN" "ERROR")))))
              (println m (format "~,2f" (/ (hash-ref latency m) n)))))
          (sort-strings (hash-keys latency)))
(println (car slowest))
