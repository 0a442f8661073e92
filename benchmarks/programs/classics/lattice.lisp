;; lattice: count the monotone maps between small lattices (Andrew Wright;
;; r7rs-benchmarks src/lattice.scm, ecraven/r7rs-benchmarks), ported to rusty.
;; Changes: rusty has no dotted pairs, so a lattice (elements . cmp) and a
;; pair (next . x) of a partial map are two-element lists (cdr -> cadr); rusty
;; lists are immutable, so xreverse! (an in-place reverse with set-cdr!) is
;; reverse; memq is member (rusty's equal? on symbols).
;; Usage: rusty lattice.lisp K REPEAT — K is 33 or 44 (count-maps l3 l3 or l4 l4;
;; 44 takes 10 s in CPython, so the suite repeats 33).

;; Given a comparison routine that returns one of
;;       less
;;       more
;;       equal
;;       uncomparable
;; return a new comparison routine that applies to sequences.
(define lexico
  (lambda (base)
    (define lex-fixed
      (lambda (fixed lhs rhs)
        (define check
          (lambda (lhs rhs)
            (if (null? lhs)
                fixed
                (let ((probe
                       (base (car lhs)
                             (car rhs))))
                  (if (or (eq? probe 'equal)
                          (eq? probe fixed))
                      (check (cdr lhs)
                             (cdr rhs))
                      'uncomparable)))))
        (check lhs rhs)))
    (define lex-first
      (lambda (lhs rhs)
        (if (null? lhs)
            'equal
            (let ((probe
                   (base (car lhs)
                         (car rhs))))
              (case probe
                ((less more)
                 (lex-fixed probe
                            (cdr lhs)
                            (cdr rhs)))
                ((equal)
                 (lex-first (cdr lhs)
                            (cdr rhs)))
                ((uncomparable)
                 'uncomparable))))))
    lex-first))

(define (make-lattice elem-list cmp-func)
  (list elem-list cmp-func))

(define lattice->elements car)

(define lattice->cmp cadr)

;; Select elements of a list which pass some test.
(define zulu-select
  (lambda (test lst)
    (define select-a
      (lambda (ac lst)
        (if (null? lst)
            (xreverse! ac)
            (select-a
             (let ((head (car lst)))
               (if (test head)
                   (cons head ac)
                   ac))
             (cdr lst)))))
    (select-a '() lst)))

(define xreverse! reverse)

;; Select elements of a list which pass some test and map a function
;; over the result.  Note, only efficiency prevents this from being the
;; composition of select and map.
(define select-map
  (lambda (test func lst)
    (define select-a
      (lambda (ac lst)
        (if (null? lst)
            (xreverse! ac)
            (select-a
             (let ((head (car lst)))
               (if (test head)
                   (cons (func head)
                         ac)
                   ac))
             (cdr lst)))))
    (select-a '() lst)))

;; This version of map-and tail-recurses on the last test.
(define map-and
  (lambda (proc lst)
    (if (null? lst)
        #t
        (letrec ((drudge
                  (lambda (lst)
                    (let ((rest (cdr lst)))
                      (if (null? rest)
                          (proc (car lst))
                          (and (proc (car lst))
                               (drudge rest)))))))
          (drudge lst)))))

(define (maps-1 source target pas new)
  (let ((scmp (lattice->cmp source))
        (tcmp (lattice->cmp target)))
    (let ((less
           (select-map
            (lambda (p)
              (eq? 'less
                   (scmp (car p) new)))
            cadr
            pas))
          (more
           (select-map
            (lambda (p)
              (eq? 'more
                   (scmp (car p) new)))
            cadr
            pas)))
      (zulu-select
       (lambda (t)
         (and
          (map-and
           (lambda (t2)
             (member (tcmp t2 t) '(less equal)))
           less)
          (map-and
           (lambda (t2)
             (member (tcmp t2 t) '(more equal)))
           more)))
       (lattice->elements target)))))

(define (maps-rest source target pas rest to-1 to-collect)
  (if (null? rest)
      (to-1 pas)
      (let ((next (car rest))
            (rest (cdr rest)))
        (to-collect
         (map
          (lambda (x)
            (maps-rest source target
                       (cons
                        (list next x)
                        pas)
                       rest
                       to-1
                       to-collect))
          (maps-1 source target pas next))))))

(define (maps source target)
  (make-lattice
   (maps-rest source
              target
              '()
              (lattice->elements source)
              (lambda (x) (list (map cadr x)))
              (lambda (x) (apply append x)))
   (lexico (lattice->cmp target))))

(define (count-maps source target)
  (maps-rest source
             target
             '()
             (lattice->elements source)
             (lambda (x) 1)
             sum))

(define (sum lst)
  (if (null? lst)
      0
      (+ (car lst) (sum (cdr lst)))))

(define (run k)
  (let* ((l2
          (make-lattice '(low high)
                        (lambda (lhs rhs)
                          (case lhs
                            ((low)
                             (case rhs
                               ((low)
                                'equal)
                               ((high)
                                'less)
                               (else
                                (error 'make-lattice "base" rhs))))
                            ((high)
                             (case rhs
                               ((low)
                                'more)
                               ((high)
                                'equal)
                               (else
                                (error 'make-lattice "base" rhs))))
                            (else
                             (error 'make-lattice "base" lhs))))))
         (l3 (maps l2 l2))
         (l4 (maps l3 l3)))
    (count-maps l2 l2)
    (count-maps l3 l3)
    (count-maps l2 l3)
    (count-maps l3 l2)
    (case k
      ((33) (count-maps l3 l3))
      ((44) (count-maps l4 l4))
      ((45) (let ((l5 (maps l4 l4)))
              (count-maps l4 l5)))
      ((54) (let ((l5 (maps l4 l4)))
              (count-maps l5 l4)))
      ((55) (let ((l5 (maps l4 l4)))
              (count-maps l5 l5)))
      (else (error "run: unanticipated problem size" k)))))

(define args (map string->number (command-line-args)))

(define (run-benchmark k)
  (let loop ((i 1) (result (run (car args))))
    (if (< i k)
        (loop (+ i 1) (run (car args)))
        result)))

(println (run-benchmark (cadr args)))
