"""What each builtin and special form may do to the world outside the session.

One table classifies every name a program starts with by the effect it can
have beyond computing a value: a restricted session (the editor's macro
expansion, `rusty.lsp.restricted`) binds each name whose class is refused to
a stand-in that refuses, so the restriction is a property of the session and
not a test scattered through the builtins. A test walks every builtin table
and the special forms and fails on a name this table does not classify.
"""
from __future__ import annotations

# class -> what it means
CLASSES = {
    'pure': 'computes a value (may use the clock or the random generator)',
    'output': "writes to the session's own output streams",
    'session': "changes the session's own state (tracing)",
    'reads-files': 'reads files or lists directories',
    'reads-env': 'reads the environment or the command line',
    'writes-files': 'writes, deletes or renames files, or creates directories',
    'process': 'runs another process',
    'env': 'changes the environment or the working directory',
    'stdin': 'reads standard input',
    'exit': 'ends the process',
    'load': 'loads and runs another file',
    'import': 'imports a Python module',
    'native-build': 'runs rustc to build native code',
    'debugger': 'stops at an interactive prompt',
    'python': "reaches into Python objects (an attribute read or method call can run any code)",
}

# the classes a session expanding macros for an editor refuses
REFUSED_FOR_EDITOR = frozenset({'writes-files', 'process', 'env', 'stdin', 'exit', 'load', 'import',
                                'native-build', 'debugger', 'python'})

_BY_CLASS = {
    'output': 'print println display displayln newline eprint eprintln pretty-print describe doc help apropos',
    'session': 'trace untrace',
    'reads-files': 'file-read file-exists? dir-list load-model',
    'reads-env': 'getenv command-line-args',
    'writes-files': 'file-write file-append file-delete dir-create save-model',
    'stdin': 'read-line read-stdin',
    'exit': 'exit',
    'load': 'load load-relative',
    'import': 'import',
    'native-build': 'defrust defrust* graph-compile graph-compile-grad graph-compile-train',
    'debugger': 'breakpoint',
    'python': '. py-get py-set! py-item-set! py->lisp',
    'pure': (
        # numbers, integers, randomness
        '+ add * mul - sub / div mod expt abs floor ceiling round sqrt exp log sin cos tan atan atan2 max min '
        'gcd zero? positive? negative? odd? even? number? exact? inexact? exact inexact now-micros = < lt > gt '
        '<= le >= ge neq quotient remainder modulo truncate integer? random random-seed! '
        # core, lists
        'string? boolean? symbol? tensor? macro? list? pair? procedure? native? nil? null? type-of eq? equal? '
        'eq not nil cons car cdr first rest second third fourth fifth empty? list length append reverse nth list-ref member '
        'list-tail map filter filter-map append-map for-each foldl reduce foldr apply sort '
        # io that stays in the session, grad
        'error eval-string gensym grad '
        # strings, text, layout
        'string-length string-append string-append-list substring string-ref string=? string->list '
        'list->string string-prefix? string-suffix? str string-split number->string string->number '
        'symbol->string string->symbol format json-encode json-decode string-upcase string-downcase '
        'string-trim string-trim-left string-trim-right string-replace string-ends-with? string-pad-left '
        'string-pad-right char-code code-char repr fmt-string pretty-string '
        # tensors (their native kernels are the project's own, never a program's)
        'tensor zeros ones tensor-shape tensor->list tensor-ref tensor-add tensor-sub tensor-mul tensor-div '
        'tensor-sum relu tensor-map matmul transpose '
        # hashes, vectors
        'make-hash hash alist->hash hash-copy hash-ref hash-set! hash-remove! hash-update! hash-for-each '
        'hash-has? hash-count hash-keys hash-values hash->list hash? vector make-vector list->vector '
        'vector-copy vector? vector-length vector-ref vector-set! vector-fill! vector->list vector-map '
        'vector-for-each '
        # graphs and interpreted training
        'graph-ir graph-node-count graph-eval graph-grad sgd adam graph-train train! trainer-params '
        'trainer-reset! '
        # Python values made from the program's own data
        'lisp->py memoryview '
        # the standard library's private primitives
        '%assoc %take %drop %string-join %string-first-index %string-last-index %range %last %caar %cadr %cdar '
        '%cddr %caddr %cadddr %string-repeat %string-starts-with? %string-contains? %string<? %any? %all? %find '
        '%count %take-while %drop-while %zip-with '
        # special forms that only compute
        'define def lambda fn λ set! set let let* letrec letrec* do if cond case when unless and or begin '
        'match try-catch quote quasiquote unquote unquote-splicing eval eval-when defmacro define-macro'),
}

CAPABILITY = {name: cls for cls, names in _BY_CLASS.items() for name in names.split()}


def capability(name: str) -> str | None:
    """The class of builtin or special form `name`, or None if unclassified;
    a `.method` name (a method call on a Python value) is of class python."""
    if len(name) > 1 and name[0] == '.':
        return 'python'
    return CAPABILITY.get(name)


def refused_for_editor(name: str) -> bool:
    """Whether a session expanding macros for an editor refuses `name`
    (an unclassified name is refused: nothing slips in unjudged)."""
    return (capability(name) or 'unclassified') not in ('pure', 'output', 'session', 'reads-files', 'reads-env')
