; loaded relative to lib/helpers.lisp
(define lib-answer 42)
