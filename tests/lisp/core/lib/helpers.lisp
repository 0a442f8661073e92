; loaded by load_relative.lisp (runs silently on its own)
(define (greet name) (string-append "hello, " name))
(load-relative "more.lisp")
