;; destruc: destructive list operations (Gabriel; r7rs-benchmarks src/destruc.scm,
;; ecraven/r7rs-benchmarks), ported to rusty. rusty's lists are immutable, so a
;; mutable pair is a two-slot vector #(car cdr) and '() the empty list;
;; set-car!/set-cdr! become vector-set! on slot 0/1. Usage: rusty destruc.lisp N M REPEAT

(define (mcons a d) (vector a d))
(define (mcar p) (vector-ref p 0))
(define (mcdr p) (vector-ref p 1))
(define (set-mcar! p v) (vector-set! p 0 v))
(define (set-mcdr! p v) (vector-set! p 1 v))

(define (mlength l)
  (let loop ((l l) (n 0))
    (if (null? l) n (loop (mcdr l) (+ n 1)))))

(define (append-to-tail! x y)
  (if (null? x)
      y
      (let loop ((a x) (b (mcdr x)))
        (if (null? b)
            (begin
              (set-mcdr! a y)
              x)
            (loop b (mcdr b))))))

(define (destructive n m)
  (let ((l (do ((i 10 (- i 1)) (a '() (mcons '() a))) ((= i 0) a))))
    (do ((i n (- i 1)))
      ((= i 0) l)
      (cond ((null? (mcar l))
             (do ((l l (mcdr l)))
               ((null? l))
               (when (null? (mcar l)) (set-mcar! l (mcons '() '())))
               (append-to-tail! (mcar l) (do ((j m (- j 1)) (a '() (mcons '() a))) ((= j 0) a)))))
            (else
             (do ((l1 l (mcdr l1))
                  (l2 (mcdr l) (mcdr l2)))
               ((null? l2))
               (set-mcdr! (do ((j (quotient (mlength (mcar l2)) 2) (- j 1))
                               (a (mcar l2) (mcdr a)))
                            ((= j 0) a)
                            (set-mcar! a i))
                          (let ((n (quotient (mlength (mcar l1)) 2)))
                            (cond ((= n 0)
                                   (set-mcar! l1 '())
                                   (mcar l1))
                                  (else
                                   (do ((j n (- j 1))
                                        (a (mcar l1) (mcdr a)))
                                     ((= j 1)
                                      (let ((x (mcdr a)))
                                        (set-mcdr! a '())
                                        x))
                                     (set-mcar! a i))))))))))))

(define (mlist->list x)
  (if (vector? x)
      (let loop ((p x) (acc '()))
        (if (null? p) (reverse acc) (loop (mcdr p) (cons (mlist->list (mcar p)) acc))))
      x))

(define args (map string->number (command-line-args)))

(define (run-benchmark k)
  (let loop ((i 1) (result (destructive (car args) (cadr args))))
    (if (< i k)
        (loop (+ i 1) (destructive (car args) (cadr args)))
        result)))

(println (mlist->list (run-benchmark (caddr args))))
