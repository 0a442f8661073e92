; The rusty standard library (LANGUAGE.md §8.9), loaded after the builtins.
; Ordinary global bindings: a program may redefine any of them.
; List functions return lists (possibly empty), never Nil.

; ── car/cdr compositions ────────────────────────────────────────────────
(define (caar x) (car (car x)))
(define (cadr x) (car (cdr x)))
(define (cdar x) (cdr (car x)))
(define (cddr x) (cdr (cdr x)))
(define (caddr x) (car (cdr (cdr x))))
(define (cadddr x) (car (cdr (cdr (cdr x)))))

; ── Building and slicing lists ──────────────────────────────────────────
(define (last lst)
  (if (null? (cdr lst)) (car lst) (last (cdr lst))))

(define (range a b)
  (let loop ((i a) (acc '()))
    (if (< i b) (loop (+ i 1) (cons i acc)) (reverse acc))))

(define (iota n) (range 0 n))

(define (take n lst)
  (let loop ((n n) (lst lst) (acc '()))
    (if (or (<= n 0) (null? lst)) (reverse acc) (loop (- n 1) (cdr lst) (cons (car lst) acc)))))

(define (drop n lst)
  (cond ((null? lst) '())
        ((<= n 0) lst)
        (else (drop (- n 1) (cdr lst)))))

(define (take-while p lst)
  (let loop ((lst lst) (acc '()))
    (if (and (pair? lst) (p (car lst))) (loop (cdr lst) (cons (car lst) acc)) (reverse acc))))

(define (drop-while p lst)
  (cond ((null? lst) '())
        ((p (car lst)) (drop-while p (cdr lst)))
        (else lst)))

(define (flatten tree)
  (define (walk x acc)
    (cond ((pair? x) (walk-list x acc))
          ((list? x) acc)
          (else (cons x acc))))
  (define (walk-list lst acc)
    (if (pair? lst) (walk-list (cdr lst) (walk (car lst) acc)) acc))
  (reverse (walk tree '())))

(define (flatten1 lst)
  (apply append (map (lambda (x) (if (list? x) x (list x))) lst)))

(define (zip a b) (zip-with list a b))

(define (zip-with f a b)
  (let loop ((a a) (b b) (acc '()))
    (if (and (pair? a) (pair? b))
        (loop (cdr a) (cdr b) (cons (f (car a) (car b)) acc))
        (reverse acc))))

(define (interleave sep lst)
  (if (null? lst)
      '()
      (cons (car lst) (foldr (lambda (x acc) (cons sep (cons x acc))) '() (cdr lst)))))

; ── Folds and searches ──────────────────────────────────────────────────
(define (sum lst) (foldl + 0 lst))
(define (product lst) (foldl * 1 lst))

(define (any? p lst)
  (cond ((null? lst) #f) ((p (car lst)) #t) (else (any? p (cdr lst)))))

(define (all? p lst)
  (cond ((null? lst) #t) ((p (car lst)) (all? p (cdr lst))) (else #f)))

(define (none? p lst) (not (any? p lst)))

(define (count p lst)
  (foldl (lambda (x n) (if (p x) (+ n 1) n)) 0 lst))

(define (find p lst)
  (cond ((null? lst) #f) ((p (car lst)) (car lst)) (else (find p (cdr lst)))))

(define (partition p lst)
  (list (filter p lst) (filter (lambda (x) (not (p x))) lst)))

(define (remove-duplicates lst)
  (let loop ((lst lst) (seen '()))
    (cond ((null? lst) (reverse seen))
          ((member (car lst) seen) (loop (cdr lst) seen))
          (else (loop (cdr lst) (cons (car lst) seen))))))

(define (map* lst f) (map f lst))
(define (filter* lst p) (filter p lst))
(define (foldl* lst f init) (foldl f init lst))

(define (print-list lst) (for-each println lst))

; ── Association lists and records ───────────────────────────────────────
(define (assoc k alist)
  (cond ((null? alist) #f)
        ((and (pair? (car alist)) (equal? (car (car alist)) k)) (car alist))
        (else (assoc k (cdr alist)))))

(define (assq k alist) (assoc k alist))

(define (alist-get k alist default)
  (let ((hit (assoc k alist)))
    (if hit (car (cdr hit)) default)))

(define (make-record . kvs)
  (let loop ((kvs kvs) (acc '()))
    (if (and (pair? kvs) (pair? (cdr kvs)))
        (loop (cdr (cdr kvs)) (cons (list (car kvs) (car (cdr kvs))) acc))
        (reverse acc))))

(define (get-field k rec) (alist-get k rec #f))

(define (record-set rec k v)
  (if (assoc k rec)
      (map (lambda (kv) (if (and (pair? kv) (equal? (car kv) k)) (list k v) kv)) rec)
      (append rec (list (list k v)))))

(defmacro field (name rec) (list 'get-field (symbol->string name) rec))

; ── Strings ─────────────────────────────────────────────────────────────
; One string-append over all the pieces: linear, where appending piece by
; piece would copy the growing result each time.
(define (string-join lst sep)
  (cond ((null? lst) "")
        ((null? (cdr lst)) (car lst))
        (else (apply string-append
                     (cons (car lst)
                           (foldr (lambda (x acc) (cons sep (cons x acc))) '() (cdr lst)))))))

(define (string-repeat s n)
  (let loop ((n n) (acc '()))
    (if (< n 1) (apply string-append acc) (loop (- n 1) (cons s acc)))))

(define (string-starts-with? s p)
  (and (<= (string-length p) (string-length s))
       (string=? (substring s 0 (string-length p)) p)))

(define (string-first-index s sub)
  (let ((n (string-length s)) (m (string-length sub)))
    (let loop ((i 0))
      (cond ((> (+ i m) n) #f)
            ((string=? (substring s i (+ i m)) sub) i)
            (else (loop (+ i 1)))))))

(define (string-last-index s sub)
  (let ((m (string-length sub)))
    (let loop ((i (- (string-length s) m)))
      (cond ((< i 0) #f)
            ((string=? (substring s i (+ i m)) sub) i)
            (else (loop (- i 1)))))))

(define (string-contains? s sub) (if (string-first-index s sub) #t #f))

(define (extract-sexp s)
  (let ((start (string-first-index s "(")))
    (if (not start)
        #f
        (let loop ((i start) (depth 0))
          (if (>= i (string-length s))
              #f
              (let ((c (string-ref s i)))
                (cond ((string=? c "(") (loop (+ i 1) (+ depth 1)))
                      ((string=? c ")")
                       (if (= depth 1) (substring s start (+ i 1)) (loop (+ i 1) (- depth 1))))
                      (else (loop (+ i 1) depth)))))))))

(define (string<? a b)
  (and (not (string=? a b)) (string=? (car (sort (list a b))) a)))

(define (sort-strings lst) (sort lst))

; ── Threading, looping and other macros ─────────────────────────────────
(defmacro -> (x . steps)
  (foldl (lambda (step acc)
           (if (pair? step) (cons (car step) (cons acc (cdr step))) (list step acc)))
         x steps))

(defmacro ->> (x . steps)
  (foldl (lambda (step acc)
           (if (pair? step) (append step (list acc)) (list step acc)))
         x steps))

(defmacro while (test . body)
  `(let loop () (when ,test ,@body (loop))))

(defmacro dotimes (spec . body)
  `(let ((limit ,(car (cdr spec))))
     (let loop ((,(car spec) 0))
       (when (< ,(car spec) limit) ,@body (loop (+ ,(car spec) 1))))))

(defmacro dolist (spec . body)
  `(let loop ((rest ,(car (cdr spec))))
     (when (pair? rest)
       (let ((,(car spec) (car rest))) ,@body)
       (loop (cdr rest)))))

(defmacro repeat (n . body)
  `(let loop ((k ,n)) (when (> k 0) ,@body (loop (- k 1)))))

(defmacro swap! (a b)
  `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp)))

(defmacro assert (test . msgs)
  `(if ,test () (error "assertion failed:" ,@(if (null? msgs) (list (list 'quote test)) msgs))))

(defmacro time (expr)
  `(let ((start (now-micros)))
     (let ((value ,expr))
       (println "time: " (/ (- (now-micros) start) 1000000) " s")
       value)))

; ── Functions on functions ──────────────────────────────────────────────
(define (identity x) x)
(define (const v) (lambda args v))
(define (flip f) (lambda (a b) (f b a)))
(define (negate p) (lambda args (not (apply p args))))
(define (curry f . args) (lambda rest (apply f (append args rest))))

(define (compose . fs)
  (cond ((null? fs) identity)
        ((null? (cdr fs)) (car fs))
        (else (let ((f (car fs)) (g (apply compose (cdr fs))))
                (lambda args (f (apply g args)))))))

(define (memoize f)
  (let ((cache '()))
    (lambda args
      (let ((hit (assoc args cache)))
        (if hit
            (car (cdr hit))
            (let ((v (apply f args)))
              (set! cache (cons (list args v) cache))
              v))))))

; ── Numbers ─────────────────────────────────────────────────────────────
(define (square x) (* x x))
(define (cube x) (* x x x))
(define (inc x) (+ x 1))
(define (dec x) (- x 1))
(define (average . xs) (/ (sum xs) (length xs)))
(define (clamp x lo hi) (min (max x lo) hi))
(define (sign x) (cond ((> x 0) 1) ((< x 0) -1) (else 0)))
