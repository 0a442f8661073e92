; The same function interpreted and compiled to native code with defrust.
; requires: rustc
;
; defrust hands the body to rustc (cached in ~/.rusty/jit-cache, so the second
; run of this file compiles nothing) and binds a native callable like any
; procedure. The numeric subset: numbers, parameters, let/let*, arithmetic,
; the math builtins, if/cond with comparisons, and calls to itself or to the
; other functions of a defrust* group.

(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(defrust fib-native (n) (if (< n 2) n (+ (fib-native (- n 1)) (fib-native (- n 2)))))

(println fib-native)
; expect: #<native:fib-native/1>

(define (timed label thunk)
  (let* ((t0 (now-micros)) (v (thunk)) (t1 (now-micros)))
    (println label v (str (/ (- t1 t0) 1000) " ms"))
    v))

; Same answer, very different speed (your timings will differ).
(define a (timed "interpreted fib(22):" (lambda () (fib 22))))
; expect-match: interpreted fib\(22\): 17711 [0-9.]+ ms
(define b (timed "native fib(22):     " (lambda () (fib-native 22))))
; expect-match: native fib\(22\):      17711 [0-9.]+ ms
(println (= a b))
; expect: #t
(println (fib-native 30))
; expect: 832040

; Natives are procedures: map, apply and the rest take them.
(println (map fib-native '(1 2 3 4 5 6)) (apply fib-native '(10)) (procedure? fib-native))
; expect: (1 1 2 3 5 8) 55 #t

; Arguments are checked before the call.
(println (try-catch (fib-native 1 2) (e) e))
; expect: fib-native: expected 1 arg(s), got 2
(println (try-catch (fib-native "x") (e) e))
; expect: fib-native: expected a number, got "x"

; Mutual recursion: a defrust* group compiles into one library.
(defrust* (my-even? (n) (if (= n 0) 1 (my-odd? (- n 1))))
  (my-odd? (n) (if (= n 0) 0 (my-even? (- n 1)))))
(println (my-even? 10) (my-odd? 7))
; expect: 1 1

; Runaway recursion in native code is a catchable error, not a crash.
(defrust down (n) (if (= n 0) 0 (+ 1 (down (- n 1)))))
(println (down 10000))
; expect: 10000
(println (try-catch (down 1e9) (e) e))
; expect: recursion limit exceeded in native code 'down': non-tail recursion too deep — rewrite with an accumulator / tail call

; Where the interpreter raises, compiled code follows IEEE (docs/reference.md, section 10).
(defrust ratio (a b) (/ a b))
(println (ratio 1 0) (try-catch (/ 1 0) (e) e))
; expect: inf Division by zero
