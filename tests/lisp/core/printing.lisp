; docs/reference.md §3 Values and how they print: display form vs print form, number formatting, Nil vs ()
(display (list 'a "s"))
(newline)
(print (list 'a "s"))
(display "s")
(newline)
(print 3.0 -7.0 -0.0 (/ 1 3) (/ 7 3) (+ 0.1 0.2))
(print 1e-7 1e15 1e20 (sqrt -1) 1e400 -1e400)
(print (list car add equal? (lambda (a . rest) a) (lambda args 1) (lambda () 1)))
(defmacro m (p1 p2 . more) p1)
(print m)
(display (list "a\"b" (list "nested")))
(newline)
(print ''a)
(display '(b . 2))
(newline)
(print (equal? () '()) (type-of ()) (type-of '()))
(println (format "~a + ~s = ~a" "x" "y" 3))
(println (json-encode '((a 1) (b (2 3)))))
(str "final " 'value)
; expect: (a "s")
; expect: (a s)
; expect: s
; expect: 3 -7 0 0.3333333333333333 2.3333333333333335 0.30000000000000004
; expect: 0.0000001 1000000000000000 100000000000000000000 NaN inf -inf
; expect: (#<builtin:car> #<builtin:+> #<builtin:eq?> #<lambda (a . rest)> #<lambda ( . args)> #<lambda ()>)
; expect: #<macro (p1 p2)>
; expect: ("a"b" ("nested"))
; expect: (quote a)
; expect: (b . 2)
; expect: #f nil list
; expect: x + "y" = 3
; expect: {"a": 1, "b": [2, 3]}
; expect: final value
