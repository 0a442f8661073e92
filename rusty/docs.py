"""Signatures and one-line documentation of the special forms (LANGUAGE.md §6).

Builtins document themselves (`Builtin.sig`, `Builtin.doc`, in their tables);
special forms have no value to hang documentation on, so it lives here.
"""
from __future__ import annotations

SPECIAL_FORM_DOCS = {
    'define': ('(define name expr) | (define (name . params) body...)',
               'Bind name in the current frame (a function, with a signature); returns Nil.'),
    'def': ('(def name expr) | (def name (params...) body...)',
            'Short define: a value, or a function when parameters and a body follow.'),
    'lambda': ('(lambda params body...)', 'A closure; params (a b), (a . rest) or a bare symbol.'),
    'fn': ('(fn params body...)', 'Alias of lambda.'),
    'λ': ('(λ params body...)', 'Alias of lambda.'),
    'set!': ('(set! name expr)', 'Assign an existing binding (the nearest frame that has it).'),
    'set': ('(set name expr)', 'Like set!, but defines the name in the current frame when it is unbound.'),
    'let': ('(let ((name expr)...) body...) | (let loop ((var init)...) body...)',
            'Bind names to values computed outside, then run the body; named let loops.'),
    'let*': ('(let* ((name expr)...) body...)', 'Like let, each init seeing the earlier names.'),
    'letrec': ('(letrec ((name expr)...) body...)', 'Mutually recursive bindings (inits see every name).'),
    'letrec*': ('(letrec* ((name expr)...) body...)', 'Same as letrec.'),
    'do': ('(do ((var init [step])...) (test result...) body...)',
           'Loop: run body and steps until test is true, then return the results.'),
    'if': ('(if test then [else])', 'then when test is not #f, else else (Nil without one).'),
    'cond': ('(cond (test body...)... (else body...))', 'The body of the first clause whose test is true.'),
    'when': ('(when test body...)', 'Run body when test is not #f; else Nil.'),
    'unless': ('(unless test body...)', 'Run body when test is #f; else Nil.'),
    'and': ('(and expr...)', 'The first #f, else the last value; (and) is #t.'),
    'or': ('(or expr...)', 'The first value that is not #f, else #f; (or) is #f.'),
    'begin': ('(begin expr...)', 'Evaluate in order; the last value (Nil if none).'),
    'match': ('(match expr (pattern body...)...)',
              'The body of the first clause whose pattern matches (_, names, literals, \'d, (? pred), lists).'),
    'try-catch': ('(try-catch body (err) handler)', 'Run body; on any error run handler with err bound to the message.'),
    'quote': ("(quote datum) | 'datum", 'The datum itself, unevaluated.'),
    'quasiquote': ('(quasiquote template) | `template', 'Build data from a template with , and ,@ holes.'),
    'unquote': (',expr', 'Inside a quasiquote template: the value of expr.'),
    'unquote-splicing': (',@expr', 'Inside a quasiquote template: the elements of the list expr, spliced.'),
    'eval': ('(eval expr)', 'Evaluate the value of expr as code, in the current environment.'),
    'eval-when': ('(eval-when (phase...) form...)', 'Like begin; inside defmacro, definitions for the expander only.'),
    'defmacro': ('(defmacro name (params...) body...)', 'Define a macro: it gets its arguments as data and returns code.'),
    'define-macro': ('(define-macro name (params...) body...)', 'Alias of defmacro.'),
    'load': ('(load path)', 'Read a whole file, then evaluate its forms globally; the last value.'),
    'load-relative': ('(load-relative path)', "Like load, relative to the current file's directory."),
    'defrust': ('(defrust name (params...) body)', 'Define a numeric function compiled to native code by rustc.'),
    'defrust*': ('(defrust* (name (params...) body)...)',
                 'Compile several mutually recursive numeric functions in one library.'),
}

