; The MLP SMALL workload of the manual's training section, on a compiled
; trainer: 1000 SGD steps (lr 0.01) of W and b in one native call. The loss at
; the final weights is exact, the same as the graph-grad loop of mlp_small.lisp.
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
