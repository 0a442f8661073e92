; Training a small network two ways: with graph-grad (the graph is built once
; and evaluated by the interpreter) and with graph-compile-grad (the same
; forward+backward graph compiled to one native kernel). Both give the same
; bits, so the final losses are identical.
; requires: rustc

; The MLP SMALL workload: 8 examples of 16 features, one 16x8 layer with a
; bias, relu, mean squared error against 8x8 targets.
(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define x (matrix 8 16 0))
(define t (matrix 8 8 5))
(define nn 64)

(define loss
  (lambda (x W b t nn)
    (tensor-sum (tensor-div (tensor-mul (tensor-sub (relu (tensor-add (matmul x W) b)) t)
                                        (tensor-sub (relu (tensor-add (matmul x W) b)) t))
                            nn))))

; One SGD step takes (loss grad-x grad-W grad-b grad-t grad-nn) from `step`
; and moves W and b against their gradients: W <- W - 0.01 gW, b <- b - 0.01 gb.
(define (train step W b steps)
  (if (= steps 0)
      (car (step x W b t nn))
      (let ((r (step x W b t nn)))
        (train step
               (tensor-sub W (tensor-mul 0.01 (nth r 2)))
               (- b (* 0.01 (nth r 3)))
               (- steps 1)))))

(define W0 (matrix 16 8 3))
(define b0 (val 1 0))

; The compiled kernel is specialised to the example arguments' shapes.
(define kernel (graph-compile-grad loss x W0 b0 t nn))
(println kernel)
; expect: #<native-grad:grad-kernel (8x16 16x8 scalar 8x8 scalar)>

; Its result is exactly graph-grad's.
(println (equal? (kernel x W0 b0 t nn) (graph-grad loss x W0 b0 t nn)))
; expect: #t

(define interpreted (train (lambda (x W b t nn) (graph-grad loss x W b t nn)) W0 b0 1000))
(define compiled (train kernel W0 b0 1000))
(println "initial loss:" (car (kernel x W0 b0 t nn)))
; expect: initial loss: 1.2212867736816406
(println "final loss, graph-grad:" interpreted)
; expect: final loss, graph-grad: 0.35312804084655014
(println "final loss, graph-compile-grad:" compiled)
; expect: final loss, graph-compile-grad: 0.35312804084655014
(println (= interpreted compiled))
; expect: #t

; The kernel checks its arguments against the shapes it was compiled for.
(println (try-catch (kernel (matrix 4 16 0) W0 b0 t nn) (e) e))
; expect: grad-kernel: compiled for shape [8, 16], got [4, 16] — run graph-compile-grad again for new shapes
