;; Everyday script: write an INI file of N service sections, parse it back into a
;; table of sections and report on it (per host, missing keys, the longest timeout).
;; Usage: rusty ini_report.lisp N — N sections.

(define (section-lines i)
  (append
   (list (str "[svc" i "]")
         (str "host = node" (modulo i 7) ".example")
         (str "port=" (+ 8000 (modulo (* i 37) 1000))))
   (if (= 0 (modulo i 9))
       '()
       (list (str "workers = " (+ 1 (modulo i 8)) "   # one per core")))
   (list (str "enabled = " (if (= 0 (modulo i 3)) "no" "yes"))
         "; timeout in seconds"
         (str "timeout = " (modulo (* i 13) 90) "s")
         "")))

(define (make-ini n)
  (string-join (append-map section-lines (iota n)) "\n"))

(define (strip-comment line)
  (let ((i (string-first-index line "#")))
    (if i (substring line 0 i) line)))

(define (parse-ini text)
  (let ((sections (make-hash))
        (current #f))
    (for-each
     (lambda (raw)
       (let ((line (string-trim (strip-comment raw))))
         (cond ((or (equal? line "") (string-prefix? line ";")) #f)
               ((string-prefix? line "[")
                (set! current (substring line 1 (- (string-length line) 1)))
                (hash-set! sections current (make-hash)))
               (else
                (let ((i (string-first-index line "=")))
                  (hash-set! (hash-ref sections current)
                             (string-trim (substring line 0 i))
                             (string-trim (substring line (+ i 1) (string-length line)))))))))
     (string-split text "\n" 'all))
    sections))

(define (seconds text)
  (string->number (substring text 0 (- (string-length text) 1))))

(define (report sections)
  (let ((hosts (make-hash))
        (enabled 0)
        (workers 0)
        (missing '())
        (worst #f)
        (worst-t -1))
    (for-each
     (lambda (name)
       (let* ((s (hash-ref sections name))
              (port (string->number (hash-ref s "port")))
              (t (seconds (hash-ref s "timeout"))))
         (hash-update! hosts (hash-ref s "host")
                       (lambda (old) (list (+ 1 (car old)) (+ port (cadr old))))
                       (list 0 0))
         (when (equal? (hash-ref s "enabled") "yes")
           (set! enabled (+ enabled 1))
           (set! workers (+ workers (string->number (hash-ref s "workers" "1")))))
         (unless (hash-has? s "workers")
           (set! missing (cons name missing)))
         (when (> t worst-t)
           (set! worst name)
           (set! worst-t t))))
     (hash-keys sections))
    (println "sections" (hash-count sections) "enabled" enabled "workers" workers)
    (println "missing workers:" (length missing) "last" (car missing))
    (println (str "longest timeout: " worst-t "s in " worst))
    (for-each (lambda (host)
                (let ((entry (hash-ref hosts host)))
                  (println (format "~14a ~5d ~9d" host (car entry) (cadr entry)))))
              (sort-strings (hash-keys hosts)))))

(file-write "services.ini" (make-ini (string->number (car (command-line-args)))))
(report (parse-ini (file-read "services.ini")))
