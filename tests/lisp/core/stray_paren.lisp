(display "never printed")
(+ 1 2))
; a syntax error anywhere means nothing runs
; expect-stderr: Error: unexpected ')' with no matching '('
; expect-stderr:   at stray_paren.lisp:2:8
; expect-stderr:   2 | (+ 1 2))
; expect-stderr:     |        ^
; expect-exit: 1
