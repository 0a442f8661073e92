; Training a small network with trainers: graph-compile-train compiles the
; whole step (forward, backward and the optimizer's update) to native code and
; runs any number of steps in one call; graph-train is the same trainer run by
; the interpreter (graph-grad and the tensor ops). Both give the same bits.
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

(define W0 (matrix 16 8 3))
(define b0 (val 1 0))

; W and b are trained, with SGD at learning rate 0.01; x, t and nn are data.
; The arguments are the starting values, and their shapes are the trainer's.
(define fast (graph-compile-train loss '(W b) (sgd 0.01) x W0 b0 t nn))
(define slow (graph-train loss '(W b) (sgd 0.01) x W0 b0 t nn))
(println fast)
; expect: #<native-train:loss (16x8 scalar) sgd>
(println slow)
; expect: #<train:loss (16x8 scalar) sgd>

; (train! tr 0) is the loss at the current parameters; (train! tr N) runs N
; steps and gives the loss of the last one.
(println "initial loss:" (train! fast 0))
; expect: initial loss: 1.2212867736816406
(println "after 1000 steps:" (train! fast 1000) (train! slow 1000))
; expect: after 1000 steps: 0.3531348049950783 0.3531348049950783
(println "final loss:" (train! fast 0))
; expect: final loss: 0.35312804084655014
(println (equal? (trainer-params fast) (trainer-params slow)))
; expect: #t
(println "b:" (cadr (trainer-params fast)))
; expect: b: -1.2891070557052173

; Adam and SGD with momentum, as PyTorch defines them.
(define adam-fast (graph-compile-train loss '(W b) (adam 0.01) x W0 b0 t nn))
(define adam-slow (graph-train loss '(W b) (adam 0.01) x W0 b0 t nn))
(println (= (train! adam-fast 200) (train! adam-slow 200)))
; expect: #t
(define heavy (graph-compile-train loss '(W b) (sgd 0.002 'momentum 0.9) x W0 b0 t nn))
(println (train! heavy 100))
; expect: 0.4307423939233498

; trainer-reset! starts over: the same steps give the same losses.
(trainer-reset! adam-fast)
(define first-run (train! adam-fast 50))
(trainer-reset! adam-fast)
(println (= (train! adam-fast 50) first-run))
; expect: #t

; New data (same shapes) replaces the old for this and later calls.
(println (train! fast 0 (matrix 8 16 4) (matrix 8 8 9) 64))
; expect: 0.41718813671752736

; A trainer checks new data against the shapes it was compiled for.
(println (try-catch (train! fast 1 (matrix 4 16 0) t nn) (e) e))
; expect: train!: compiled for shape [8, 16], got [4, 16] — run graph-compile-train again for new shapes
(println (try-catch (graph-compile-train loss '(W w) (sgd 0.01) x W0 b0 t nn) (e) e))
; expect: graph-compile-train: w is not a parameter of loss (x W b t nn)
