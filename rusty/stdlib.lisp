; The rusty standard library, loaded after the builtins.
; Ordinary global bindings: a program may redefine any of them.
; List functions return lists (possibly empty), never Nil.

; ── car/cdr compositions ────────────────────────────────────────────────
(define (caar x)
  "(caar x)
The first element of the first element: (car (car x)).
  (caar '((1 2) 3)) ⇒ 1"
  (%caar x))
(define (cadr x)
  "(cadr x)
The second element: (car (cdr x)).
  (cadr '(1 2 3)) ⇒ 2"
  (%cadr x))
(define (cdar x)
  "(cdar x)
The rest of the first element: (cdr (car x)).
  (cdar '((1 2) 3)) ⇒ (2)"
  (%cdar x))
(define (cddr x)
  "(cddr x)
The list without its first two elements.
  (cddr '(1 2 3)) ⇒ (3)"
  (%cddr x))
(define (caddr x)
  "(caddr x)
The third element.
  (caddr '(1 2 3)) ⇒ 3"
  (%caddr x))
(define (cadddr x)
  "(cadddr x)
The fourth element.
  (cadddr '(1 2 3 4)) ⇒ 4"
  (%cadddr x))

; ── Building and slicing lists ──────────────────────────────────────────
(define (last lst)
  "(last lst)
The last element of a non-empty list.
  (last '(1 2 3)) ⇒ 3"
  (%last lst))

(define (range a b)
  "(range a b)
The numbers a, a+1, ... below b.
  (range 2 6) ⇒ (2 3 4 5)
  (range 3 3) ⇒ ()"
  (%range a b))

(define (iota n)
  "(iota n)
The numbers 0 to n-1: (range 0 n).
  (iota 4) ⇒ (0 1 2 3)"
  (%range 0 n))

(define (take n lst)
  "(take n lst)
The first n elements; n from 0 to the length of the list.
  (take 2 '(a b c)) ⇒ (a b)
  (take 5 '(a)) ⇒ error: take: index 5 out of range [0, 1]"
  (%take n lst))

(define (drop n lst)
  "(drop n lst)
The list without its first n elements; n from 0 to the length of the list.
  (drop 2 '(a b c)) ⇒ (c)
  (drop -1 '(a b c)) ⇒ error: drop: index -1 out of range [0, 3]"
  (%drop n lst))

(define (take-while p lst)
  "(take-while p lst)
The longest prefix whose elements satisfy p.
  (take-while odd? '(1 3 4 5)) ⇒ (1 3)"
  (if (macro? p)
      (let loop ((lst lst) (acc '()))
        (if (and (pair? lst) (p (car lst))) (loop (cdr lst) (cons (car lst) acc)) (reverse acc)))
      (%take-while p lst)))

(define (drop-while p lst)
  "(drop-while p lst)
The list from the first element that fails p.
  (drop-while odd? '(1 3 4 5)) ⇒ (4 5)"
  (cond ((not (macro? p)) (%drop-while p lst))
        ((null? lst) '())
        ((p (car lst)) (drop-while p (cdr lst)))
        (else lst)))

(define (flatten tree)
  "(flatten tree)
The atoms of nested lists, in order, as one flat list.
  (flatten '(1 (2 (3)) 4)) ⇒ (1 2 3 4)"
  (define (walk x acc)
    (cond ((pair? x) (walk-list x acc))
          ((list? x) acc)
          (else (cons x acc))))
  (define (walk-list lst acc)
    (if (pair? lst) (walk-list (cdr lst) (walk (car lst) acc)) acc))
  (reverse (walk tree '())))

(define (flatten1 lst)
  "(flatten1 lst)
Splice one level: list elements are spliced, other elements kept.
  (flatten1 '((1 2) 3 ((4)))) ⇒ (1 2 3 (4))"
  (apply append (map (lambda (x) (if (list? x) x (list x))) lst)))

(define (zip a b)
  "(zip a b)
Lists of corresponding elements, as long as the shorter list.
  (zip '(1 2 3) '(a b)) ⇒ ((1 a) (2 b))"
  (zip-with list a b))

(define (zip-with f a b)
  "(zip-with f a b)
(f x y) for corresponding elements, as long as the shorter list.
  (zip-with + '(1 2) '(10 20)) ⇒ (11 22)"
  (if (macro? f)
      (let loop ((a a) (b b) (acc '()))
        (if (and (pair? a) (pair? b))
            (loop (cdr a) (cdr b) (cons (f (car a) (car b)) acc))
            (reverse acc)))
      (%zip-with f a b)))

(define (interleave sep lst)
  "(interleave sep lst)
The elements of lst with sep between each two.
  (interleave 0 '(1 2 3)) ⇒ (1 0 2 0 3)"
  (if (null? lst)
      '()
      (cons (car lst) (foldr (lambda (x acc) (cons sep (cons x acc))) '() (cdr lst)))))

; ── Folds and searches ──────────────────────────────────────────────────
; any?, all?, find and count (and take-while, drop-while and zip-with above)
; loop in host primitives; a macro given as p is expanded at each call, as it
; always was, by their rusty loops.
(define (sum lst)
  "(sum lst)
The sum of a list of numbers (0 for an empty list).
  (sum '(1 2 3)) ⇒ 6"
  (foldl + 0 lst))
(define (product lst)
  "(product lst)
The product of a list of numbers (1 for an empty list).
  (product '(2 3 4)) ⇒ 24"
  (foldl * 1 lst))

(define (any? p lst)
  "(any? p lst)
#t if some element satisfies p, else #f.
  (any? even? '(1 2 3)) ⇒ #t"
  (cond ((not (macro? p)) (%any? p lst))
        ((null? lst) #f) ((p (car lst)) #t) (else (any? p (cdr lst)))))

(define (all? p lst)
  "(all? p lst)
#t if every element satisfies p (#t for an empty list).
  (all? even? '(2 4 5)) ⇒ #f"
  (cond ((not (macro? p)) (%all? p lst))
        ((null? lst) #t) ((p (car lst)) (all? p (cdr lst))) (else #f)))

(define (none? p lst)
  "(none? p lst)
#t if no element satisfies p.
  (none? even? '(1 3)) ⇒ #t"
  (not (any? p lst)))

(define (count p lst)
  "(count p lst)
How many elements satisfy p.
  (count even? '(1 2 4)) ⇒ 2"
  (if (macro? p)
      (foldl (lambda (x n) (if (p x) (+ n 1) n)) 0 lst)
      (%count p lst)))

(define (find p lst)
  "(find p lst)
The first element that satisfies p, else #f.
  (find even? '(1 2 4)) ⇒ 2"
  (cond ((not (macro? p)) (%find p lst))
        ((null? lst) #f) ((p (car lst)) (car lst)) (else (find p (cdr lst)))))

(define (partition p lst)
  "(partition p lst)
Two lists: the elements that satisfy p and those that do not.
  (partition even? '(1 2 3 4)) ⇒ ((2 4) (1 3))"
  (list (filter p lst) (filter (lambda (x) (not (p x))) lst)))

(define (remove-duplicates lst)
  "(remove-duplicates lst)
The list with later duplicates (equal?) removed.
  (remove-duplicates '(1 2 1 3 2)) ⇒ (1 2 3)"
  (let loop ((lst lst) (seen '()))
    (cond ((null? lst) (reverse seen))
          ((member (car lst) seen) (loop (cdr lst) seen))
          (else (loop (cdr lst) (cons (car lst) seen))))))

(define (map* lst f)
  "(map* lst f)
map with the list first: (map f lst).
  (map* '(1 2) inc) ⇒ (2 3)"
  (map f lst))
(define (filter* lst p)
  "(filter* lst p)
filter with the list first: (filter p lst).
  (filter* '(1 2 3) odd?) ⇒ (1 3)"
  (filter p lst))
(define (foldl* lst f init)
  "(foldl* lst f init)
foldl with the list first: (foldl f init lst).
  (foldl* '(1 2 3) + 0) ⇒ 6"
  (foldl f init lst))

(define (print-list lst)
  "(print-list lst)
Print each element on its own line; returns Nil.
  (print-list '(1 2)) ⇒ ()"
  (for-each println lst))

; ── Association lists and records ───────────────────────────────────────
(define (assoc k alist)
  "(assoc k alist)
The first (key value ...) entry whose key is equal? to k, else #f.
  (assoc 'b '((a 1) (b 2))) ⇒ (b 2)
  (assoc 'z '((a 1))) ⇒ #f"
  (%assoc k alist))

(define (assq k alist)
  "(assq k alist)
Same as assoc.
  (assq 'a '((a 1))) ⇒ (a 1)"
  (assoc k alist))

(define (alist-get k alist default)
  "(alist-get k alist default)
The value stored under k in an association list, else default.
  (alist-get 'b '((a 1) (b 2)) 0) ⇒ 2
  (alist-get 'z '((a 1)) 0) ⇒ 0"
  (let ((hit (assoc k alist)))
    (if hit (car (cdr hit)) default)))

(define (make-record . kvs)
  "(make-record k1 v1 k2 v2 ...)
An association list ((k1 v1) (k2 v2) ...) used as a record.
  (make-record \"name\" \"Ada\" \"age\" 36) ⇒ ((\"name\" \"Ada\") (\"age\" 36))"
  (let loop ((kvs kvs) (acc '()))
    (if (and (pair? kvs) (pair? (cdr kvs)))
        (loop (cdr (cdr kvs)) (cons (list (car kvs) (car (cdr kvs))) acc))
        (reverse acc))))

(define (get-field k rec)
  "(get-field k rec)
The value of field k of a record, else #f.
  (get-field \"age\" (make-record \"age\" 36)) ⇒ 36"
  (alist-get k rec #f))

(define (record-set rec k v)
  "(record-set rec k v)
A new record with field k set to v (added at the end when missing).
  (record-set (make-record \"a\" 1) \"b\" 2) ⇒ ((\"a\" 1) (\"b\" 2))"
  (if (assoc k rec)
      (map (lambda (kv) (if (and (pair? kv) (equal? (car kv) k)) (list k v) kv)) rec)
      (append rec (list (list k v)))))

(defmacro field (name rec)
  "(field name rec)
Macro: the field named by the symbol name, as (get-field \"name\" rec).
  (field age (make-record \"age\" 36)) ⇒ 36"
  (list 'get-field (symbol->string name) rec))

; ── Strings ─────────────────────────────────────────────────────────────
; The loops of string-join, assoc, the string searches and tests, range and
; last run in host primitives (%name, bound for this library only, with the
; messages the former rusty definitions gave): linear, and fast.
(define (string-join lst sep)
  "(string-join lst sep)
The strings of lst joined with sep between them.
  (string-join '(\"a\" \"b\" \"c\") \", \") ⇒ \"a, b, c\"
  (string-join '() \",\") ⇒ \"\""
  (%string-join lst sep))

;; s repeated n times (n truncated; NaN or below 1: none); a count past 2^53
;; (or inf) is refused, and so is a result longer than 2^28 characters, before
;; anything is built.
(define (string-repeat s n)
  "(string-repeat s n)
s repeated n times. A result longer than 268,435,456 (2^28) characters is
refused before it is built: string-repeat: result too large.
  (string-repeat \"ab\" 3) ⇒ \"ababab\""
  (%string-repeat s n))

(define (string-starts-with? s p)
  "(string-starts-with? s prefix)
#t if s begins with prefix.
  (string-starts-with? \"hello\" \"he\") ⇒ #t"
  (%string-starts-with? s p))

(define (string-first-index s sub)
  "(string-first-index s sub)
The index of the first occurrence of sub in s, else #f.
  (string-first-index \"banana\" \"an\") ⇒ 1
  (string-first-index \"abc\" \"x\") ⇒ #f"
  (%string-first-index s sub))

(define (string-last-index s sub)
  "(string-last-index s sub)
The index of the last occurrence of sub in s, else #f.
  (string-last-index \"banana\" \"an\") ⇒ 3"
  (%string-last-index s sub))

(define (string-contains? s sub)
  "(string-contains? s sub)
#t if sub occurs in s.
  (string-contains? \"hello\" \"ll\") ⇒ #t"
  (%string-contains? s sub))

(define (extract-sexp s)
  "(extract-sexp s)
The text of the first balanced (...) in s, else #f.
  (extract-sexp \"say (+ 1 (f 2)) now\") ⇒ \"(+ 1 (f 2))\""
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
  "(string<? a b)
#t if a sorts before b (by code point).
  (string<? \"apple\" \"banana\") ⇒ #t"
  (%string<? a b))

(define (sort-strings lst)
  "(sort-strings lst)
The strings sorted by code point.
  (sort-strings '(\"b\" \"a\" \"c\")) ⇒ (\"a\" \"b\" \"c\")"
  (sort lst))

; ── Threading, looping and other macros ─────────────────────────────────
(defmacro -> (x . steps)
  "(-> x step ...)
Macro: thread x through the steps as their first argument.
  (-> 5 (- 2) (* 10)) ⇒ 30"
  (foldl (lambda (step acc)
           (if (pair? step) (cons (car step) (cons acc (cdr step))) (list step acc)))
         x steps))

(defmacro ->> (x . steps)
  "(->> x step ...)
Macro: thread x through the steps as their last argument.
  (->> 5 (- 2) (* 10)) ⇒ -30"
  (foldl (lambda (step acc)
           (if (pair? step) (append step (list acc)) (list step acc)))
         x steps))

(defmacro while (test . body)
  "(while test body ...)
Macro: run the body while test is true; returns Nil.
  (let ((i 0)) (while (< i 3) (set! i (+ i 1))) i) ⇒ 3"
  `(let loop () (when ,test ,@body (loop))))

(defmacro dotimes (spec . body)
  "(dotimes (var n) body ...)
Macro: run the body with var bound to 0, 1, ... n-1.
  (let ((acc '())) (dotimes (i 3) (set! acc (cons i acc))) acc) ⇒ (2 1 0)"
  `(let ((limit ,(car (cdr spec))))
     (let loop ((,(car spec) 0))
       (when (< ,(car spec) limit) ,@body (loop (+ ,(car spec) 1))))))

(defmacro dolist (spec . body)
  "(dolist (var lst) body ...)
Macro: run the body with var bound to each element in turn.
  (let ((n 0)) (dolist (x '(1 2 3)) (set! n (+ n x))) n) ⇒ 6"
  `(let loop ((rest ,(car (cdr spec))))
     (when (pair? rest)
       (let ((,(car spec) (car rest))) ,@body)
       (loop (cdr rest)))))

(defmacro repeat (n . body)
  "(repeat n body ...)
Macro: run the body n times.
  (let ((n 0)) (repeat 4 (set! n (+ n 1))) n) ⇒ 4"
  `(let loop ((k ,n)) (when (> k 0) ,@body (loop (- k 1)))))

(defmacro swap! (a b)
  "(swap! a b)
Macro: exchange the values of two variables.
  (let ((a 1) (b 2)) (swap! a b) (list a b)) ⇒ (2 1)"
  `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp)))

(defmacro assert (test . msgs)
  "(assert test [message ...])
Macro: Nil when test holds, else an error \"assertion failed: ...\".
  (assert (= 1 1)) ⇒ ()
  (assert (= 1 2)) ⇒ error: assertion failed: (= 1 2)"
  `(if ,test () (error "assertion failed:" ,@(if (null? msgs) (list (list 'quote test)) msgs))))

(defmacro time (expr)
  "(time expr)
Macro: evaluate expr, print the seconds it took, and return its value.
  (time (+ 1 2)) ⇒ 3"
  `(let ((start (now-micros)))
     (let ((value ,expr))
       (println "time: " (/ (- (now-micros) start) 1000000) " s")
       value)))

; ── Functions on functions ──────────────────────────────────────────────
(define (identity x)
  "(identity x)
x itself.
  (identity 5) ⇒ 5"
  x)
(define (const v)
  "(const v)
A procedure that ignores its arguments and returns v.
  ((const 7) 1 2) ⇒ 7"
  (lambda args v))
(define (flip f)
  "(flip f)
A two-argument procedure calling f with its arguments swapped.
  ((flip -) 3 10) ⇒ 7"
  (lambda (a b) (f b a)))
(define (negate p)
  "(negate p)
A procedure returning the opposite truth of p.
  ((negate even?) 3) ⇒ #t"
  (lambda args (not (apply p args))))
(define (curry f . args)
  "(curry f arg ...)
f with its first arguments fixed.
  ((curry + 10) 5) ⇒ 15"
  (lambda rest (apply f (append args rest))))

(define (compose . fs)
  "(compose f ...)
The composition: ((compose f g) x) is (f (g x)).
  ((compose inc square) 3) ⇒ 10"
  (cond ((null? fs) identity)
        ((null? (cdr fs)) (car fs))
        (else (let ((f (car fs)) (g (apply compose (cdr fs))))
                (lambda args (f (apply g args)))))))

(define (memoize f)
  "(memoize f)
A procedure caching f's results per argument list (equal?).
  ((memoize square) 4) ⇒ 16"
  (let ((cache '()))
    (lambda args
      (let ((hit (assoc args cache)))
        (if hit
            (car (cdr hit))
            (let ((v (apply f args)))
              (set! cache (cons (list args v) cache))
              v))))))

; ── Numbers ─────────────────────────────────────────────────────────────
(define (square x)
  "(square x)
x times x.
  (square 5) ⇒ 25"
  (* x x))
(define (cube x)
  "(cube x)
x times x times x.
  (cube 3) ⇒ 27"
  (* x x x))
(define (inc x)
  "(inc x)
x plus 1.
  (inc 41) ⇒ 42"
  (+ x 1))
(define (dec x)
  "(dec x)
x minus 1.
  (dec 43) ⇒ 42"
  (- x 1))
(define (add1 x)
  "(add1 x)
x plus 1 (the same as inc).
  (add1 41) ⇒ 42"
  (+ x 1))
(define (sub1 x)
  "(sub1 x)
x minus 1 (the same as dec).
  (sub1 43) ⇒ 42"
  (- x 1))
(define (average . xs)
  "(average x ...)
The mean of the arguments (Division by zero with none).
  (average 4 6) ⇒ 5
  (average) ⇒ error: Division by zero"
  (/ (sum xs) (length xs)))
(define (clamp x lo hi)
  "(clamp x lo hi)
x limited to the range lo..hi.
  (clamp 15 0 10) ⇒ 10"
  (min (max x lo) hi))
(define (sign x)
  "(sign x)
1, -1 or 0: the sign of x.
  (sign -4) ⇒ -1"
  (cond ((> x 0) 1) ((< x 0) -1) (else 0)))
