; The MLP MEDIUM workload (64x256 by 256x64) on compiled trainers: 100 SGD
; steps (lr 0.01), the final loss 30.441642167811 to 13 digits (its last bits
; are rusty's fixed summation order), and the same bits from graph-train.
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
