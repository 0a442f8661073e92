; Error handling. Errors are strings; try-catch binds the message.

(println (try-catch (/ 1 0) (e) e))
; expect: Division by zero
(println (try-catch (error "bad value:" 42) (e) e))
; expect: bad value: 42
(println (try-catch (undefined-function 1) (e) e))
; expect: Undefined: 'undefined-function' (try (apropos "undefined"))
(println (try-catch (fitler even? '(1 2)) (e) e))
; expect: Undefined: 'fitler' — did you mean 'filter'?
(println (try-catch ((lambda (x) x)) (e) e))
; expect: lambda: expected 1 args, got 0

; Parse errors from eval-string are catchable, and nothing of that text runs.
(println (try-catch (eval-string "(println 1) (+ 1") (e) e))
; expect: unexpected end of input: a '(' is never closed

; A handler can recover with a default.
(define (safe-div a b) (try-catch (/ a b) (e) 'undefined))
(println (safe-div 10 4) (safe-div 1 0))
; expect: 2.5 undefined

; An uncaught error stops the program: the report goes to stderr with the
; failing form underlined and the calls that led there.
(define (checked-sqrt x)
  (if (< x 0) (error "negative input:" x) (sqrt x)))
(define (hypotenuse a b) (checked-sqrt (+ (* a a) (* b b))))
(println (hypotenuse 3 4))
; expect: 5
(hypotenuse 3 (checked-sqrt -1))
(println "never printed")
; expect-exit: 1
; expect-stderr: Error: negative input: -1
; expect-stderr:   at errors.lisp:26:15
; expect-stderr:   26 |   (if (< x 0) (error "negative input:" x) (sqrt x)))
; expect-stderr:      |               ^^^^^^^^^^^^^^^^^^^^^^^^^^^
; expect-stderr: Backtrace (innermost last):
; expect-stderr:   errors.lisp:30:15 in checked-sqrt
