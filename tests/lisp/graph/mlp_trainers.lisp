; The MLP workloads of the manual's training section on compiled trainers.
; SMALL: 1000 SGD steps (lr 0.01) of W and b in one native call; the loss at
; the final weights is exact, the same as the graph-grad loop of mlp_small.lisp.
; MEDIUM (64x256 by 256x64): 100 steps, the final loss 30.441642167811 to 13
; digits (its last bits are rusty's fixed summation order), and the same bits
; from graph-train.
; requires: rustc
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define loss
  (lambda (x W b t nn)
    (tensor-sum (tensor-div (tensor-mul (tensor-sub (relu (tensor-add (matmul x W) b)) t)
                                        (tensor-sub (relu (tensor-add (matmul x W) b)) t))
                            nn))))
(define tr (graph-compile-train loss '(W b) (sgd 0.01)
                                (matrix 8 16 0) (matrix 16 8 3) (val 1 0) (matrix 8 8 5) 64))
(train! tr 1000)
(print (train! tr 0))
; expect: 0.35312804084655014

(define args (list (matrix 64 256 0) (matrix 256 64 3) (val 1 0) (matrix 64 64 5) (* 64 64)))
(define fast (apply graph-compile-train (append (list loss '(W b) (sgd 0.01)) args)))
(define slow (apply graph-train (append (list loss '(W b) (sgd 0.01)) args)))
(train! fast 100)
(define final (train! fast 0))
(println (< (abs (- final 30.441642167811)) 5e-12))
; expect: #t
(train! slow 100)
(println (= final (train! slow 0)))
; expect: #t
(println (equal? (trainer-params fast) (trainer-params slow)))
; expect: #t
