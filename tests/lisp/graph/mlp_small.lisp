; The MLP SMALL workload of benchmarks/README.md, trained 1000 steps with graph-grad.
; loss = tensor-sum(d*d / N), d = relu(matmul(x, W) + b) - t; SGD with lr 0.01:
; W ← W − gW·0.01, b ← b − gb·0.01. The final loss is exact (PyTorch agrees).
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define m 8)
(define k 16)
(define n 8)
(define x (matrix m k 0))
(define t (matrix m n 5))
(define loss
  (lambda (x W b t nn)
    (tensor-sum (tensor-div (tensor-mul (tensor-sub (relu (tensor-add (matmul x W) b)) t)
                                        (tensor-sub (relu (tensor-add (matmul x W) b)) t))
                            nn))))
(print (graph-node-count loss))
; expect: 12
(define (train W b steps)
  (let ((r (graph-grad loss x W b t (* m n))))
    (if (= steps 0)
        (car r)
        (train (tensor-sub W (tensor-mul (caddr r) 0.01))
               (- b (* (cadddr r) 0.01))
               (- steps 1)))))
(print (train (matrix k n 3) (val 1 0) 1000))
; expect: 0.35312804084655014
