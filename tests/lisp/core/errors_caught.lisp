; docs/reference.md §5 (`try-catch`), §7: errors are strings; the last one is uncaught
(define (show x) (println (try-catch x (e) e)))
(println (try-catch (car 5) (e) e))
(println (try-catch (car ()) (e) e))
(println (try-catch (error "bad value:" 5) (e) e))
(println (try-catch (filtr even? (list 1 2)) (e) e))
(println (try-catch (string-capitalize "hi") (e) e))
(println (try-catch ((lambda (x) x)) (e) e))
(println (try-catch (5 1) (e) e))
(println (try-catch (neq 1 2 3) (e) e))
(println (try-catch (+ 1 "a") (e) e))
(println (try-catch (match 7 ('seven 1)) (e) e))
(println (try-catch `(1 ,@5) (e) e))
(println (try-catch (eval-string "(+ 1") (e) e))
(println (try-catch (set! undefined-thing 1) (e) e))
(display "before the end")
(newline)
(error "the end:" (list "a" 1))
(println "not reached")
; expect: car: not a pair
; expect: car: empty list
; expect: bad value: 5
; expect: Undefined: 'filtr' — did you mean 'filter'?
; expect: Undefined: 'string-capitalize' (try (apropos "string"))
; expect: lambda: expected 1 args, got 0
; expect: Not callable: 5
; expect: neq: expected 2 arg(s), got 3
; expect: +: expected a number, got "a"
; expect: match: no clause matched 7
; expect: ,@: expected list, got 5
; expect: unexpected end of input: a '(' is never closed
; expect: set!: undefined variable 'undefined-thing'
; expect: before the end
; expect-error: the end: (a 1)
