; Macros: code that writes code, expanded each time the call is evaluated.

; A macro receives its arguments as data and returns a form.
(defmacro my-unless (test . body) `(if ,test () (begin ,@body)))
(my-unless #f (println "ran because the test was false"))
; expect: ran because the test was false

; Templates are hygienic for the names they bind: swap! uses a `tmp` of its
; own, so swapping a variable called tmp works.
(define tmp 1)
(define other 2)
(swap! tmp other)
(println tmp other)
; expect: 2 1

; The standard loops are macros.
(define total 0)
(dotimes (i 5) (set! total (+ total i)))
(dolist (x '(10 20)) (set! total (+ total x)))
(println total)
; expect: 40
(define i 0)
(while (< i 3) (display i " ") (set! i (+ i 1)))
(newline)
; expect: 0 1 2 

; eval-when blocks define helpers only the expander sees.
(defmacro square-of-sum (a b)
  (eval-when (compile) (define (plus x y) (list '+ x y)))
  (let ((s (plus a b))) `(* ,s ,s)))
(println (square-of-sum 2 3))
; expect: 25

; Late binding: redefining a function as a macro changes existing callers.
(define (show x) x)
(define (caller) (show not-evaluated))
(defmacro show (x) `(quote ,x))
(println (caller))
; expect: not-evaluated

; gensym gives fresh symbols for hand-written hygiene.
(println (symbol? (gensym "tmp")))
; expect: #t

; assert is a macro too: it reports the failing expression.
(println (try-catch (assert (> 1 2)) (e) e))
; expect: assertion failed: (> 1 2)
