; Reverse mode (docs/reference.md §11 Tensors and graphs).
(print (graph-grad (lambda (x) (* x x)) 5))
; expect: (25 10)
(print (graph-grad (lambda (x) (relu x)) -3))
; expect: (0 0)
(print (graph-grad (lambda (x y) (* x 3)) 2 7))
; expect: (6 3 0)
(print (graph-grad (lambda (x y) (/ x y)) 3 2))
; expect: (1.5 0.5 -0.75)
; A constant-condition if is pruned before differentiation.
(print (graph-grad (lambda (x) (if (< 1 2) (* x x) (/ x 0))) 3))
; expect: (9 6)

(define a (tensor '((1 2) (3 4))))
(define b (tensor '((5 6) (7 8))))
(print (graph-grad (lambda (a b) (tensor-sum (matmul a b))) a b))
; expect: (134 #<tensor 2x2 [11 15 11 15]> #<tensor 2x2 [4 4 6 6]>)
(print (graph-grad (lambda (t s) (tensor-sum (tensor-mul t s))) a 2))
; expect: (20 #<tensor 2x2 [2 2 2 2]> 10)
(print (graph-grad (lambda (t) (tensor-sum (relu (tensor-sub t 2)))) a))
; expect: (3 #<tensor 2x2 [0 0 1 1]>)
; A parameter the loss does not use gets a zero of its shape.
(print (graph-grad (lambda (x t) (* x x)) 3 a))
; expect: (9 6 #<tensor 2x2 [0 0 0 0]>)
; Repeated calls reuse the cached graph and give the same result.
(define f (lambda (t) (tensor-sum (tensor-mul t t))))
(print (graph-grad f a) (graph-grad f a) (graph-grad f (tensor '(1 2 3))))
; expect: (30 #<tensor 2x2 [2 4 6 8]>) (30 #<tensor 2x2 [2 4 6 8]>) (14 #<tensor 3 [2 4 6]>)

(defmacro show (expr) `(print (try-catch ,expr (e) e)))
(show (graph-grad (lambda (x y) (if (< x y) x y)) 1 2))
; expect: graph-grad: cannot differentiate through 'if' — comparisons and data-dependent `if` are not differentiable (a constant-condition if is pruned before this pass and is fine)
(show (graph-grad (lambda (t) (tensor-mul t 2)) a))
; expect: graph-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)
(show (graph-grad (lambda (t) (relu t)) a))
; expect: graph-grad: the loss must evaluate to a scalar (use tensor-sum or a mean)
(show (graph-grad (lambda (x y) (* x y)) 1))
; expect: graph-grad: expected 2 arg(s), got 1
(show (graph-grad (lambda (x) x) '(1)))
; expect: graph-grad: arguments must be numbers or tensors, got (1)
(show (graph-grad (lambda (x y) (tensor-sum (tensor-add x y))) a (tensor '(1 2))))
; expect: graph-eval: tensor-add: shape mismatch [2, 2] vs [2]
(show (graph-grad 5 1))
; expect: graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda
