; A tour of rusty. Run it: rusty repl.lisp-examples/tour.lisp
; Every line of output is checked by the tests (the `; expect:` comments).

; ── Numbers: every number is an f64, printed without noise ──────────────
(println (+ 1 2) (/ 1 3) (* 1.5 4) (expt 2 10))
; expect: 3 0.3333333333333333 6 1024
(println (round 2.5) (mod -7 3) (sqrt -1) (/ 1e300 1e-300))
; expect: 3 -1 NaN inf

; ── Definitions and closures ───────────────────────────────────────────
(define (square x) (* x x))
(define (make-counter)
  (let ((n 0))
    (lambda () (set! n (+ n 1)) n)))
(define tick (make-counter))
(tick) (tick)
(println "square 12 =" (square 12) "; counter at" (tick))
; expect: square 12 = 144 ; counter at 3

; ── Lists are immutable; cdr shares structure ──────────────────────────
(define xs (list 3 1 4 1 5 9 2 6))
(println (map square xs))
; expect: (9 1 16 1 25 81 4 36)
(println (filter even? xs) (foldl + 0 xs) (sort xs))
; expect: (4 2 6) 31 (1 1 2 3 4 5 6 9)
(println (take 3 (reverse xs)) (zip '(a b c) (iota 3)))
; expect: (6 2 9) ((a 0) (b 1) (c 2))

; ── Nil is not the empty list ──────────────────────────────────────────
(println (null? '()) (null? (nil)) (equal? '() (nil)) (type-of '()) (type-of (nil)))
; expect: #t #t #f list nil

; ── Strings, format and JSON ───────────────────────────────────────────
(println (format "~a has ~s items" "the list" (length xs)))
; expect: the list has 8 items
(println (json-encode (list (list "name" "rusty") (list "tags" (list "lisp" "jit")))))
; expect: {"name": "rusty", "tags": ["lisp", "jit"]}
(println (string-join (string-split "a,b,,c" ",") "+"))
; expect: a+b+c

; ── Tail calls run in constant space ───────────────────────────────────
(define (count-up n acc) (if (= n 0) acc (count-up (- n 1) (+ acc 1))))
(println (count-up 1000000 0))
; expect: 1000000

; ── Pattern matching and quasiquote ────────────────────────────────────
(define (describe-shape s)
  (match s
    (('circle r) (format "circle of area ~a" (* 3 r r)))
    (('rect w h) (format "rect ~ax~a" w h))
    (_ "unknown")))
(println (map describe-shape (list '(circle 2) '(rect 3 4) 'blob)))
; expect: (circle of area 12 rect 3x4 unknown)
(define n 5)
(println `(n is ,n and twice is ,(* 2 n) ,@(list 'the 'end)))
; expect: (n is 5 and twice is 10 the end)

; ── Macros (late-bound, hygienic templates) ────────────────────────────
(defmacro unless-zero (x . body) `(if (= ,x 0) 'zero (begin ,@body)))
(println (unless-zero 0 'never) (unless-zero 2 'ran))
; expect: zero ran
(println (-> 5 (+ 1) (* 2)) (->> '(1 2 3) (map square) (foldl + 0)))
; expect: 12 14

; ── Errors are values you can catch ────────────────────────────────────
(println (try-catch (car '()) (e) (str "caught: " e)))
; expect: caught: car: not a pair

; ── Tensors and reverse-mode gradients ─────────────────────────────────
(define a (tensor '((1 2) (3 4))))
(println (tensor->list (matmul a a)) (tensor-sum a))
; expect: ((7 10) (15 22)) 10
(println (graph-grad (lambda (x y) (* x (+ x y))) 3 4))
; expect: (21 10 3)
(println ((grad (lambda (x) (* x x x))) 2))
; expect: 12
