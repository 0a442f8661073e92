;; Everyday script: turn day numbers into dates (civil-from-days), format them as
;; ISO dates with weekday names, and count the Friday-the-13ths.
;; Usage: rusty date_format.lisp DAYS

(define weekdays #("Thu" "Fri" "Sat" "Sun" "Mon" "Tue" "Wed"))

(define (civil-from-days z)
  (let* ((z (+ z 719468))
         (era (quotient (if (>= z 0) z (- z 146096)) 146097))
         (doe (- z (* era 146097)))
         (yoe (quotient (- doe (quotient doe 1460) (- (quotient doe 36524)) (quotient doe 146096)) 365))
         (y (+ yoe (* era 400)))
         (doy (- doe (- (+ (* 365 yoe) (quotient yoe 4)) (quotient yoe 100))))
         (mp (quotient (+ (* 5 doy) 2) 153))
         (d (+ (- doy (quotient (+ (* 153 mp) 2) 5)) 1))
         (m (if (< mp 10) (+ mp 3) (- mp 9))))
    (list (if (<= m 2) (+ y 1) y) m d)))

(define (pad2 n) (string-pad-left (number->string n) 2 "0"))

(define (iso day)
  (let ((ymd (civil-from-days day)))
    (str (car ymd) "-" (pad2 (cadr ymd)) "-" (pad2 (caddr ymd)) " " (vector-ref weekdays (modulo day 7)))))

(define n (string->number (car (command-line-args))))
(define stamps (map iso (iota n)))
(println (car stamps) (last stamps))
(println (count (lambda (s) (string-suffix? s "-13 Fri")) stamps))
