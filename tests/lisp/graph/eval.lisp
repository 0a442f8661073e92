; Evaluating graphs (docs/reference.md §11 Tensors and graphs).
(print (graph-eval (lambda (x y) (+ (* x x) y)) 3 4))
; expect: 13
(print (graph-eval (lambda (x) (/ x 0)) 1))
; expect: inf
(print (graph-eval (lambda (x y) (if (< x y) (- y x) (- x y))) 3 10))
; expect: 7
(define a (tensor '((1 2) (3 4))))
(define b (tensor '((5 6) (7 8))))
(print (graph-eval (lambda (a b) (matmul a b)) a b))
; expect: #<tensor 2x2 [19 22 43 50]>
(print (graph-eval (lambda (a s) (tensor-sum (relu (tensor-sub a s)))) a 2.5))
; expect: 2
(print (graph-eval (lambda (x y) (tensor-add x y)) 1 2))
; expect: 3
(print (graph-eval (lambda (x) (tensor-sum x)) 4))
; expect: 4
(print (graph-eval (lambda (a) (transpose a)) (tensor '((1 2 3)))))
; expect: #<tensor 3x1 [1 2 3]>
; `if` is eager: both branches are computed, the condition picks one.
(print (graph-eval (lambda (x) (if (> x 0) x (/ 1 x))) 0))
; expect: inf

(defmacro show (expr) `(print (try-catch ,expr (e) e)))
(show (graph-eval (lambda (x y) (+ x y)) 1))
; expect: graph-eval: expected 2 arg(s), got 1
(show (graph-eval (lambda (x) x) "s"))
; expect: graph-eval: arguments must be numbers or tensors, got "s"
(show (graph-eval (lambda (x y) (+ x y)) 1 (tensor '((1 2 3) (4 5 6)))))
; expect: graph-eval: + expects a number, got a 2x3 tensor — use the tensor-* ops
(show (graph-eval (lambda (x y) (if (<= x y) 1 2)) a 1))
; expect: graph-eval: <= expects a number, got a 2x2 tensor — use the tensor-* ops
(show (graph-eval (lambda (x y) (tensor-add x y)) a (tensor '(1 2 3))))
; expect: graph-eval: tensor-add: shape mismatch [2, 2] vs [3]
(show (graph-eval (lambda (x y) (matmul x y)) a 2))
; expect: graph-eval: matmul: both arguments must be rank-2 tensors
(show (graph-eval (lambda (x y) (matmul x y)) (tensor '((1 2 3))) a))
; expect: graph-eval: matmul: inner dimensions differ (3 vs 2)
(show (graph-eval (lambda (x) (transpose x)) (tensor '(1 2))))
; expect: graph-eval: transpose: argument must be a rank-2 tensor
(show (graph-eval (lambda (x) (foo x)) 1))
; expect: graph-ir: unsupported operator 'foo'
