; Tensors: construction, access, arithmetic and printing (docs/reference.md §6.11 Tensors, §3).
(define a (tensor '((1 2) (3 4))))
(define b (tensor '((5 6) (7 8))))

; Tensor examples (docs/reference.md §6.11, §11).
(print (tensor->list (matmul a b)))
; expect: ((19 22) (43 50))
(print (tensor->list (tensor-div b a)))
; expect: ((5 3) (2.3333333333333335 2))
(print (tensor->list (relu (tensor '(-1 2 -3 4)))))
; expect: (0 2 0 4)

; Printing: up to 8 elements shown, rank 0 with two spaces, larger ones by shape.
(print a (tensor '(1 2 3)) (tensor 5))
; expect: #<tensor 2x2 [1 2 3 4]> #<tensor 3 [1 2 3]> #<tensor  [5]>
(print (zeros '(64 256)) (ones '(2 2 2)) (ones '(3 3)))
; expect: #<tensor 64x256> #<tensor 2x2x2 [1 1 1 1 1 1 1 1]> #<tensor 3x3>
(print (tensor '(0.5 -0.0 1e20)))
; expect: #<tensor 3 [0.5 0 100000000000000000000]>
(print (type-of a) (tensor? a) (tensor? '(1 2)))
; expect: tensor #t #f

; Shapes and conversion.
(print (tensor-shape (tensor '(((1 2 3)) ((4 5 6))))) (tensor-shape (tensor 7)))
; expect: (2 1 3) ()
(print (tensor->list (tensor 7)) (tensor->list (tensor '(((1) (2)) ((3) (4))))))
; expect: 7 (((1) (2)) ((3) (4)))
(print (zeros '()) (tensor-shape (zeros '(2.9 1))))
; expect: #<tensor  [0]> (2 1)

; Indexing: exact indices within each axis (a float with no fraction counts).
(print (tensor-ref a 1 0) (tensor-ref a 1.0 1) (tensor-ref a 0 1) (tensor-ref (tensor 9)))
; expect: 3 4 2 9

; Elementwise: tensor ⊕ tensor, tensor ⊕ number, number ⊕ tensor.
(print (tensor-add a b) (tensor-sub a 1) (tensor-sub 1 a) (tensor-mul 2 a))
; expect: #<tensor 2x2 [6 8 10 12]> #<tensor 2x2 [0 1 2 3]> #<tensor 2x2 [0 -1 -2 -3]> #<tensor 2x2 [2 4 6 8]>
(print (tensor-div (tensor '(1 -1 0)) 0) (tensor-div 1 (tensor '(2 4))))
; expect: #<tensor 3 [inf -inf NaN]> #<tensor 2 [0.5 0.25]>

; Sums are sequential from +0.0 in row-major order.
(print (tensor-sum a) (tensor-sum (tensor '(1e16 1 -1e16))) (tensor-sum (tensor '(0.1 0.2 0.3))))
; expect: 10 0 0.6000000000000001

; relu on numbers and tensors; NaN gives 0.
(print (relu -2) (relu 3.5) (relu (sqrt -1)) (relu (tensor '(-0.5 0.5))))
; expect: 0 3.5 0 #<tensor 2 [0 0.5]>

; tensor-map applies any procedure in row-major order.
(define seen '())
(print (tensor-map (lambda (x) (set! seen (cons x seen)) (* x x)) a))
; expect: #<tensor 2x2 [1 4 9 16]>
(print seen)
; expect: (4 3 2 1)
(print (tensor-map sqrt (tensor '(4 9))))
; expect: #<tensor 2 [2 3]>

; matmul and transpose.
(print (matmul (tensor '((1 2 3))) (tensor '((1) (2) (3)))) (transpose (tensor '((1 2 3) (4 5 6)))))
; expect: #<tensor 1x1 [14]> #<tensor 3x2 [1 4 2 5 3 6]>

; Equality compares shape and elements.
(print (equal? a (tensor '((1 2) (3 4)))) (equal? (tensor '(1 2 3 4)) a) (equal? (tensor 0) (tensor -0.0)))
; expect: #t #f #t
