; macros (docs/reference.md §5, `defmacro`): hygiene, late binding, eval-when; stdlib macros
(defmacro my-swap! (a b) `(let ((tmp ,a)) (set! ,a ,b) (set! ,b tmp)))
(define tmp 1)
(define y 2)
(my-swap! tmp y)
(println tmp y)

(defmacro unless2 (test . body)
  (eval-when (compile)
    (define (negated t) (list 'not t)))
  `(if ,(negated test) (begin ,@body)))
(println (unless2 #f 'ran))

(define (h a) a)
(define (u) (h undefined-name))
(defmacro h (a) `(quote ,a))
(println (u))

(println (-> 5 (+ 1) (* 2)) (->> 5 (- 1)))
(define i 0)
(while (< i 3) (display i) (set! i (+ i 1)))
(newline)
(dotimes (k 3) (display k))
(dolist (x '(a b c)) (display x))
(repeat 2 (display "!"))
(newline)
(println (try-catch (assert (even? 3)) (e) e))
(println (field name (make-record "name" "rusty")))
(println `(1 ,@(list 2 3) ,(+ 2 2)))
(println `(a `(b ,(+ 1 2))))
; expect: 2 1
; expect: ran
; expect: undefined-name
; expect: 12 -4
; expect: 012
; expect: 012abc!!
; expect: assertion failed: (even? 3)
; expect: rusty
; expect: (1 2 3 4)
; expect: (a (quasiquote (b 3)))
