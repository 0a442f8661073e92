; Every tensor error message of docs/reference.md §6.11 Tensors, caught with try-catch.
(defmacro show (expr) `(print (try-catch ,expr (e) e)))
(define a (tensor '((1 2) (3 4))))

(show (tensor '()))
; expect: tensor: elements must be numbers or non-empty nested lists of numbers
(show (tensor '((1 2) ())))
; expect: tensor: elements must be numbers or non-empty nested lists of numbers
(show (tensor '(1 "two")))
; expect: tensor: elements must be numbers or non-empty nested lists of numbers
(show (tensor "s"))
; expect: tensor: elements must be numbers or non-empty nested lists of numbers
(show (tensor '((1 2) (3))))
; expect: tensor: ragged nested list — all rows must have the same shape
(show (tensor '(1 (2))))
; expect: tensor: ragged nested list — all rows must have the same shape
(show (zeros '(2 0)))
; expect: zeros: dimensions must be positive numbers
(show (ones '(-1)))
; expect: ones: dimensions must be positive numbers
(show (ones 3))
; expect: ones: dimensions must be positive numbers
(show (tensor-shape 5))
; expect: tensor-shape: expected a tensor, got 5
(show (tensor->list '(1)))
; expect: tensor->list: expected a tensor, got (1)
(show (tensor-ref a 1))
; expect: tensor-ref: 1 index(es) for a rank-2 tensor
(show (tensor-ref (tensor 1) 0))
; expect: tensor-ref: 1 index(es) for a rank-0 tensor
(show (tensor-ref a 0 2))
; expect: tensor-ref: index 2 out of range [0, 2)
(show (tensor-ref a 7.9 0))
; expect: tensor-ref: expected an index, got 7.9
(show (tensor-ref a 7 0))
; expect: tensor-ref: index 7 out of range [0, 2)
(show (tensor-add a (tensor '(1 2 3))))
; expect: tensor-add: shape mismatch [2, 2] vs [3]
(show (tensor-sub (tensor 1) a))
; expect: tensor-sub: shape mismatch [] vs [2, 2]
(show (tensor-mul 1 2))
; expect: tensor-mul: arguments must be tensors or numbers
(show (tensor-div a "x"))
; expect: tensor-div: arguments must be tensors or numbers
(show (tensor-add a))
; expect: tensor-add: expected 2 arg(s), got 1
(show (tensor-sum "s"))
; expect: tensor-sum: expected a tensor, got "s"
(show (relu '(1 -1)))
; expect: relu: expected a number or tensor, got (1 -1)
(show (tensor-map (lambda (x) "no") a))
; expect: tensor-map: function must return a number, got "no"
(show (tensor-map (lambda (x) (list x)) a))
; expect: tensor-map: function must return a number, got (1)
(show (matmul a 1))
; expect: matmul: both arguments must be tensors
(show (matmul a (tensor '(1 2))))
; expect: matmul: both tensors must be rank 2
(show (matmul (tensor '((1 2 3) (4 5 6))) (tensor '((1 2) (3 4) (5 6) (7 8)))))
; expect: matmul: inner dimensions differ (2x3 · 4x2)
(show (transpose (tensor '(1 2))))
; expect: transpose: tensor must be rank 2
(show (transpose "t"))
; expect: transpose: expected a tensor, got "t"

; An uncaught error ends the run.
(tensor-add a 1 2)
; expect-error: tensor-add: expected 2 arg(s), got 3
