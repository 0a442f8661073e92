; list and standard library examples (docs/reference.md §6.3, §6)
(println (foldl cons '() '(1 2 3)) (foldr cons '() '(1 2 3)))
(println (sort '(3 1 2)) (sort '("b" "a" "B")))
(println (iota 5) (range 2 5))
(println (flatten '(1 (2 (3 4)) 5)) (flatten1 '((1 2) (3 4))))
(println (zip '(1 2) '(3 4)) (partition even? '(1 2 3 4)))
(println (interleave 0 '(1 2 3)) (assq 'b '((a . 1) (b . 2))))
(println (alist-get 'b '((a 1) (b 2)) 'none) (string-last-index "a.b.c" "."))
(println (extract-sexp "prose (foo 1 2) more"))
(println ((curry + 1 2) 3) ((flip -) 3 10) (average 4 6))
(println (string-split "a,,b," ",") (string-join '("a" "b") "-"))
(println (json-encode (list 1 "two" #t)))
(println (round 2.5) (round -1.5) (mod -7 3) (max 1 (sqrt -1) 3))
(println ((grad (lambda (x) (* x x))) 3) ((grad (lambda (x y) (* x y))) 2 5))
(describe 'car)
(describe 'if)
(apropos "string-app")
(println (type-of cadr) (type-of while))
; expect: (3 2 1) (1 2 3)
; expect: (1 2 3) (B a b)
; expect: (0 1 2 3 4) (2 3 4)
; expect: (1 2 3 4 5) (1 2 3 4)
; expect: ((1 3) (2 4)) ((2 4) (1 3))
; expect: (1 0 2 0 3) (b . 2)
; expect: 2 3
; expect: (foo 1 2)
; expect: 6 7 5
; expect: (a b) a-b
; expect: [1, "two", true]
; expect: 3 -2 -1 3
; expect: 6 5
; expect: car: #<builtin:car>
; expect: if: special form
; expect:   string-append
; expect:   string-append-list
; expect: lambda macro
