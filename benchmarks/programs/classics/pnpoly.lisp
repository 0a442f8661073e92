;; pnpoly: test whether points lie inside a 2D polygon, in floating point
;; (r7rs-benchmarks src/pnpoly.scm, ecraven/r7rs-benchmarks), ported to rusty
;; unchanged but for the driver and the float literals: rusty reads .5 as a
;; symbol, so it is written 0.5 (and 0. as 0.0); the polygon is the benchmark's
;; input. Usage: rusty pnpoly.lisp REPEAT — prints how many of the 12 points are inside.

(define (pt-in-poly2 xp yp x y)
  (let loop ((c #f) (i (- (vector-length xp) 1)) (j 0))
    (if (< i 0)
        c
        (if (or (and (or (> (vector-ref yp i) y)
                         (>= y (vector-ref yp j)))
                     (or (> (vector-ref yp j) y)
                         (>= y (vector-ref yp i))))
                (>= x
                    (+ (vector-ref xp i)
                       (/ (*
                           (- (vector-ref xp j)
                              (vector-ref xp i))
                           (- y (vector-ref yp i)))
                          (- (vector-ref yp j)
                             (vector-ref yp i))))))
            (loop c (- i 1) i)
            (loop (not c) (- i 1) i)))))

(define (run input1 input2)
  (let ((count 0)
        (xp (list->vector (vector->list input1)))
        (yp (list->vector (vector->list input2))))
    (when (pt-in-poly2 xp yp 0.5 0.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp 0.5 1.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -0.5 1.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp 0.75 2.25) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp 0.0 2.01) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -0.5 2.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -1.0 -0.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -1.5 0.5) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -2.25 -1.0) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp 0.5 -0.25) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp 0.5 -1.25) (set! count (+ count 1)))
    (when (pt-in-poly2 xp yp -0.5 -2.5) (set! count (+ count 1)))
    count))

(define xs #(0.0 1.0 1.0 0.0 0.0 1.0 -0.5 -1.0 -1.0 -2.0 -2.5 -2.0 -1.5 -0.5 1.0 1.0 0.0 -0.5 -1.0 -0.5))
(define ys #(0.0 0.0 1.0 1.0 2.0 3.0 2.0 3.0 0.0 -0.5 -1.0 -1.5 -2.0 -2.0 -1.5 -1.0 -0.5 -1.0 -1.0 -0.5))

(define (run-benchmark k)
  (let loop ((i 1) (result (run xs ys)))
    (if (< i k)
        (loop (+ i 1) (run xs ys))
        result)))

(println (run-benchmark (string->number (car (command-line-args)))))
