; Building, hash-consing, folding and printing graphs (docs/reference.md §11 Tensors and graphs, §6.12 Graphs).
(print (graph-ir (lambda (x) (* x x))))
; expect: (((0 param 0) (1 mul 0 0)) 1)
(print (graph-ir (lambda (x) (- x))))
; expect: (((0 param 0) (1 const 0) (2 sub 1 0)) 2)
(print (graph-ir (lambda (x y) (if (< x y) x y))))
; expect: (((0 param 0) (1 param 1) (2 lt 0 1) (3 if 2 0 1)) 3)
(print (graph-ir (lambda (x) (+ (* 2 3) x))))
; expect: (((0 const 6) (1 param 0) (2 add 0 1)) 2)
(print (graph-node-count (lambda (x) (+ (* x x) (* x x)))))
; expect: 3
(print (graph-node-count (lambda (x w) (tensor-add (matmul x w) (matmul x w)))))
; expect: 4
(print (graph-node-count (lambda (x) (if (< 1 2) x (/ x 0)))))
; expect: 1

; Left folds; no commutativity normalisation; 0 and -0 are different constants (both print 0).
(print (graph-ir (lambda (a b c) (- a b c))))
; expect: (((0 param 0) (1 param 1) (2 sub 0 1) (3 param 2) (4 sub 2 3)) 4)
(print (graph-node-count (lambda (a b) (* (+ a b) (+ b a)))))
; expect: 5
(print (graph-ir (lambda (x) (+ x 0 -0.0))))
; expect: (((0 param 0) (1 const 0) (2 add 0 1) (3 const 0) (4 add 2 3)) 4)
(print (graph-ir (lambda (x) (/ 1 0))))
; expect: (((0 const inf)) 0)

; Tensor ops are never folded.
(print (graph-ir (lambda (x w b) (relu (tensor-add (matmul x w) b)))))
; expect: (((0 param 0) (1 param 1) (2 matmul 0 1) (3 param 2) (4 tensor-add 2 3) (5 relu 4)) 5)
(print (graph-ir (lambda (x) (tensor-sum (transpose (tensor-mul 2 3))))))
; expect: (((0 const 2) (1 const 3) (2 tensor-mul 0 1) (3 transpose 2) (4 tensor-sum 3)) 4)

; The printed graph is ordinary data.
(define g (graph-ir (lambda (x) (* x 2))))
(print (cadr g) (car (car g)) (symbol? (cadr (car (car g)))))
; expect: 2 (0 param 0) #t

; Building errors, all with the graph-ir: prefix.
(defmacro show (expr) `(print (try-catch ,expr (e) e)))
(show (graph-ir 5))
; expect: graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda
(show (graph-ir car))
; expect: graph-ir: (graph-ir (lambda (params...) expr)) — argument must be a lambda
(show (graph-ir (lambda (x . r) x)))
; expect: graph-ir: rest parameters are not supported
(show (graph-ir (lambda (x) x x)))
; expect: graph-ir: lambda body must be a single expression
(show (graph-ir (lambda (x) (+ x y))))
; expect: graph-ir: unsupported reference to 'y' — only params, numbers, + - * /, if, and the tensor ops are supported
(show (graph-ir (lambda (x) (sin x))))
; expect: graph-ir: unsupported operator 'sin'
(show (graph-ir (lambda (x) (< x 1))))
; expect: graph-ir: unsupported operator '<'
(show (graph-ir (lambda (x) (+ x "one"))))
; expect: graph-ir: unsupported expression "one"
(show (graph-ir (lambda (x) (if (< x 1) x))))
; expect: graph-ir: if needs exactly 3 operands (if cond then else)
(show (graph-ir (lambda (x) (if x 1 2))))
; expect: graph-ir: an `if` condition must be a comparison (< > <= >= =)
(show (graph-ir (lambda (x) (+))))
; expect: graph-ir: '+' expects at least 1 operand(s), got 0
(show (graph-ir (lambda (x) (matmul x))))
; expect: graph-ir: 'matmul' expects 2 operand(s), got 1
(show (graph-node-count (lambda (x) (relu x x))))
; expect: graph-ir: 'relu' expects 1 operand(s), got 2
(show (graph-ir))
; expect: graph-ir: expected 1 arg(s), got 0
