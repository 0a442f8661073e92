; docs/reference.md §5, `load-relative`: load-relative resolves against this file's directory, nested loads against theirs
(load-relative "lib/helpers.lisp")
(println (greet "rusty"))
(println lib-answer)
(println (try-catch (load-relative "lib/missing.lisp") (e) e))
(try-catch (load "no-such-file.lisp") (e) e)
; expect: hello, rusty
; expect: 42
; expect: load: cannot read 'lib/missing.lisp': No such file or directory (os error 2)
; expect: load: cannot read 'no-such-file.lisp': No such file or directory (os error 2)
