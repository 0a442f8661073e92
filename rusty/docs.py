"""Documentation of every name (LANGUAGE.md §15.11): signature, what it does,
and examples with their results.

Builtins document themselves (`Builtin.sig`, `doc`, `examples`, in their
tables); standard-library functions carry a docstring in the structured form
`format_doc` writes; special forms have no value to hang documentation on, so
it lives here and is read only through `special_form_doc`. `(doc 'name)`, the
REPL's `,doc` and the reference manual all go through `entry` or
`documentation`.
"""
from __future__ import annotations

from typing import NamedTuple

from .values import Builtin, Lambda, List, Macro

ARROW = ' ⇒ '           # between an example and its result
EXAMPLE_INDENT = '  '   # examples are the indented lines of a doc


class Doc(NamedTuple):
    """One name's documentation: a call signature, prose, (expression, result) pairs."""
    sig: str
    text: str
    examples: tuple


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


# ── Reading the three sources ────────────────────────────────────────────

def special_form_doc(name: str) -> Doc | None:
    """The documentation of a special form, or None."""
    entry = SPECIAL_FORM_DOCS.get(name)
    if entry is None:
        return None
    sig, text, *rest = entry
    return Doc(sig, text, tuple(rest[0]) if rest else ())


def builtin_doc(b: Builtin) -> Doc:
    """A builtin's table entry as documentation."""
    return Doc(b.sig or '(%s ...)' % b.name, b.doc, tuple(b.examples))


def docstring(proc) -> str | None:
    """A lambda's docstring: a string first body form followed by more forms."""
    body = proc.body
    if body.__class__ is List and body.len > 1 and body.car.__class__ is str:
        return body.car
    return None


def parse_doc(text: str) -> Doc:
    """A structured docstring: signature line, prose lines, then indented
    `EXPR ⇒ RESULT` example lines (the last arrow separates the two)."""
    lines = text.split('\n')
    prose, examples = [], []
    for line in lines[1:]:
        if line.startswith(EXAMPLE_INDENT) and ARROW in line:
            expr, result = line[len(EXAMPLE_INDENT):].rsplit(ARROW, 1)
            examples.append((expr, result))
        else:
            prose.append(line)
    return Doc(lines[0], '\n'.join(prose).strip('\n'), tuple(examples))


def format_doc(d: Doc) -> str:
    """The documentation text: signature, prose, one indented line per example."""
    lines = [d.sig]
    if d.text:
        lines.append(d.text)
    lines += [EXAMPLE_INDENT + expr + ARROW + result for expr, result in d.examples]
    return '\n'.join(lines)


# ── Looking a name up ────────────────────────────────────────────────────

def entry(host, name: str) -> Doc | None:
    """The structured documentation of a name in `host`'s global environment."""
    if name in host.special_names:
        return special_form_doc(name) or Doc('(%s ...)' % name, 'A special form.', ())
    v = host.global_value(name)
    if v.__class__ is Builtin:
        return builtin_doc(v)
    if v.__class__ is Lambda or v.__class__ is Macro:
        text = docstring(v)
        return parse_doc(text) if text is not None else None
    return None


def documentation(host, name: str) -> str | None:
    """What `(doc 'name)` returns: a lambda's own docstring as written, else
    the formatted entry; None when the name has no documentation."""
    v = None if name in host.special_names else host.global_value(name)
    if v.__class__ is Lambda or v.__class__ is Macro:
        return docstring(v)
    d = entry(host, name)
    return format_doc(d) if d is not None else None
