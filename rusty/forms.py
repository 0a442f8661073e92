"""The special forms, one row each: the single place
that knows their grammar.

Pure data: importing it imports nothing else of rusty, so the REPL, the
formatter and the documentation read it without loading the evaluator. Every
other view of the forms derives from this table:

- `eval.SPECIAL_FORM_NAMES` and the REPL lexer's keyword set: `NAMES`;
- each row's `module` registers its compile function when imported, which
  the runtime does on the form's first compile (eval.defer_specials);
- `resolve.body_defines`, the macro purity check (macro_cache.py) and
  hygiene (hygiene.py) dispatch on a row's `syntax`, one of `SYNTAXES`;
  the purity check refuses every `effectful` form without looking further,
  and `effectful` has no default, so a new form cannot be left out of it;
- the REPL indenter and `rusty fmt`: `BODY_INDENT`;
- `(doc 'name)`, `,doc` and the manual: `sig`, `doc`, `examples`.

Adding a special form is one row here and its compile function in `module`.
"""
from _operator import itemgetter   # operator.py and collections cost start-up time

# ── The vocabulary of a row ──────────────────────────────────────────────

# How a form's items are read: which are code in the current frame, which
# are data, which are binders and where their scope is. Each tool that walks
# code (body_defines, the purity check, hygiene) has a table over these.
SYNTAXES = (
    'quote',        # (quote d): data only
    'quasiquote',   # (quasiquote t): data with unquote holes
    'unquote',      # outside a template an ordinary (undefined) call
    'sequence',     # every item is code in the current frame
    'assign',       # (set! name value): a target, then code
    'cond',         # clauses (test body…), `else` not evaluated
    'case',         # key, then clauses ((datum…) body…) / (else body…)
    'try',          # body in the current frame, handler in a frame binding (var)
    'lambda',       # params, then a body in a new frame binding them
    'let',          # ((n v)…) or a name and ((n v)…): inits outside, body inside
    'let*',         # inits see the earlier names
    'letrec',       # inits see every name
    'do',           # ((n init step)…) (test result…) body…: steps, test, body inside
    'match',        # key, then (pattern body…) clauses, each its own frame
    'define',       # binds a name (or a signature's head) in the current frame
    'def',          # like define; (def name params body…) is a function
    'defmacro',     # binds a macro
    'defrust',      # binds a native
    'defrust*',     # binds each member of a group
    'eval-when',    # (eval-when (phase…) form…)
    'eval',         # code computed at run time
    'load',         # a file's forms, in the global frame
    'import',       # (import module …): data only, binds globals
    'attribute',    # (. obj name): obj is code, name data
)

INDENTS = ('body', 'call')   # the layout rules: body table (two columns) or aligned like a call


class Row(tuple):
    """A tuple with named fields (the subclass's `_fields`), as
    collections.namedtuple makes them, without that module's import."""
    __slots__ = ()
    _fields: tuple = ()

    def __new__(cls, *values):
        if len(values) != len(cls._fields):
            raise TypeError('%s takes %d fields, got %d' % (cls.__name__, len(cls._fields), len(values)))
        return tuple.__new__(cls, values)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for i, field in enumerate(cls._fields):
            setattr(cls, field, property(itemgetter(i), doc='field %d' % i))

    def __getnewargs__(self):
        return tuple(self)

    def __repr__(self) -> str:
        return '%s(%s)' % (self.__class__.__name__,
                           ', '.join('%s=%r' % fv for fv in zip(self._fields, self)))

    def _replace(self, **changes):
        """A copy with some fields changed."""
        values = [changes.pop(f, v) for f, v in zip(self._fields, self)]
        if changes:
            raise ValueError('unknown fields: %s' % ', '.join(changes))
        return self.__class__(*values)


# A row's fields:
#   names      tuple of str: the name, then aliases
#   module     the rusty module whose compile function handles it
#   syntax     one of SYNTAXES
#   frame      bool: creates a frame of its own
#   effectful  bool: evaluating it can have effects beyond its value
#   indent     one of INDENTS
#   parts      ((min, max), …): how many items may follow the head, one pair
#              per alternative of `sig` written as a form (max None: no
#              bound); syntax.py checks every form against them
#   sig        call signature, e.g. '(if test then [else])'
#   doc        what it does
#   examples   tuple of (expression text, expected write form) pairs
class Form(Row):
    """One special form; `names[0]` is its name, the rest are aliases with
    the same meaning and messages."""
    __slots__ = ()
    _fields = ('names', 'module', 'syntax', 'frame', 'effectful', 'indent', 'parts', 'sig', 'doc', 'examples')

    @property
    def name(self) -> str:
        """The form's own name (the first of `names`)."""
        return self.names[0]


def _form(names, module, syntax, *, frame, effectful, indent, parts, sig, doc, examples) -> Form:
    """A row, with every field named (none has a default)."""
    return Form(tuple(names.split()), module, syntax, frame, effectful, indent, parts, sig, doc, tuple(examples))


# ── The table ────────────────────────────────────────────────────────────

TABLE = (
    _form('define', 'specials', 'define', frame=False, effectful=False, indent='body', parts=((2, 2), (2, None)),
          sig='(define name value) | (define (name . params) body...)',
          doc='Binds name in the current frame to the value, or to a function with that '
              'signature; returns Nil. Inside a body it shadows an outer binding for that activation only.',
          examples=[('(begin (define x 5) (* x 2))', '10'),
                    ('(begin (define (sq n) (* n n)) (sq 4))', '16')]),
    _form('def', 'specials', 'def', frame=False, effectful=False, indent='body', parts=((2, 2), (3, None)),
          sig='(def name value) | (def name (params...) body...)',
          doc='Short define: with exactly one expression a value, with parameters and a body a function.',
          examples=[('(begin (def sq (x) (* x x)) (sq 3))', '9'),
                    ('(begin (def k 7) k)', '7')]),
    _form('lambda fn λ', 'specials', 'lambda', frame=True, effectful=False, indent='body', parts=((2, None),),
          sig='(lambda params body...)',
          doc='A closure over the current environment. params is (a b), (a b . rest) or a bare symbol '
              'receiving every argument as a list; the last body form is in tail position.',
          examples=[('((lambda (x y) (+ x y)) 1 2)', '3'),
                    ('((lambda (a . rest) rest) 1 2 3)', '(2 3)'),
                    ('((lambda args args) 1 2)', '(1 2)')]),
    _form('set!', 'specials', 'assign', frame=False, effectful=True, indent='call', parts=((2, 2),),
          sig='(set! name value)',
          doc='Assigns the nearest existing binding of name; returns Nil. An unbound name is an error.',
          examples=[('(let ((n 1)) (set! n 5) n)', '5')]),
    _form('set', 'specials', 'assign', frame=False, effectful=True, indent='call', parts=((2, 2),),
          sig='(set name value)',
          doc='Like set!, but defines name in the current frame when no binding exists.',
          examples=[('(begin (set fresh-name 7) fresh-name)', '7')]),
    _form('let', 'let_forms', 'let', frame=True, effectful=False, indent='body', parts=((2, None), (3, None)),
          sig='(let ((name expr)...) body...) | (let loop ((var init)...) body...)',
          doc='Evaluates every expr outside, then runs the body in one new frame binding the names. '
              'Named let binds loop to a procedure over the vars and calls it with the inits.',
          examples=[('(let ((a 1) (b 2)) (+ a b))', '3'),
                    ('(let loop ((i 0) (acc 0)) (if (= i 5) acc (loop (+ i 1) (+ acc i))))', '10')]),
    _form('let*', 'let_forms', 'let*', frame=True, effectful=False, indent='body', parts=((2, None),),
          sig='(let* ((name expr)...) body...)',
          doc='Like let, but each expr is evaluated in the new frame and sees the names bound before it.',
          examples=[('(let* ((a 2) (b (* a 10))) (+ a b))', '22')]),
    _form('letrec letrec*', 'let_forms', 'letrec', frame=True, effectful=False, indent='body', parts=((2, None),),
          sig='(letrec ((name expr)...) body...)',
          doc='Binds every name to Nil in a new frame, then evaluates the exprs there in order, so '
              'they can refer to each other (mutual recursion); then runs the body.',
          examples=[('(letrec ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1))))) '
                     '(od? (lambda (n) (if (= n 0) #f (ev? (- n 1)))))) (ev? 10))', '#t')]),
    _form('do', 'let_forms', 'do', frame=True, effectful=False, indent='body', parts=((2, None),),
          sig='(do ((var init [step])...) (test result...) body...)',
          doc='A loop in one frame: until test is true, run the body and then assign every step at '
              'once; then the last result (Nil if none). Nothing in do is in tail position.',
          examples=[('(do ((i 0 (+ i 1)) (acc 0 (+ acc i))) ((= i 5) acc))', '10')]),
    _form('if', 'specials', 'sequence', frame=False, effectful=False, indent='call', parts=((2, 3),),
          sig='(if test then [else])',
          doc='then when test is not #f, else the else form (Nil without one); both in tail position.',
          examples=[("(if (> 3 2) 'yes 'no)", 'yes'), ('(if #f 1)', '()')]),
    _form('cond', 'specials', 'cond', frame=False, effectful=False, indent='call', parts=((0, None),),
          sig='(cond (test body...)... (else body...))',
          doc='Runs the body of the first clause whose test is not #f (a clause with only a test '
              'gives its value); an else clause always fires; no clause fires gives Nil.',
          examples=[("(cond ((< 5 0) 'negative) ((= 5 0) 'zero) (else 'positive))", 'positive'),
                    ('(cond ((assq (quote b) (quote ((a 1) (b 2))))))', '(b 2)')]),
    _form('case', 'case_form', 'case', frame=False, effectful=False, indent='body', parts=((1, None),),
          sig='(case key ((datum...) body...)... (else body...))',
          doc='Evaluates key once and runs the body of the first clause listing a datum equal? to it '
              '(the data are not evaluated); else always matches; no match gives Nil.',
          examples=[("(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite) (else 'other))", 'composite'),
                    ("(case 'x ((a) 1) ((b) 2))", '()')]),
    _form('when', 'specials', 'sequence', frame=False, effectful=False, indent='body', parts=((2, None),),
          sig='(when test body...)',
          doc='Runs the body when test is not #f and returns its last value; else Nil.',
          examples=[("(when (> 2 1) 'a 'b)", 'b')]),
    _form('unless', 'specials', 'sequence', frame=False, effectful=False, indent='body', parts=((2, None),),
          sig='(unless test body...)',
          doc='Runs the body when test is #f and returns its last value; else Nil.',
          examples=[("(unless (> 2 1) 'a)", '()'), ("(unless #f 'ran)", 'ran')]),
    _form('and', 'specials', 'sequence', frame=False, effectful=False, indent='call', parts=((0, None),),
          sig='(and expr...)',
          doc='Evaluates left to right and stops at the first #f, returning it; else the last value. (and) is #t.',
          examples=[('(and 1 2 3)', '3'), ('(and 1 #f 3)', '#f')]),
    _form('or', 'specials', 'sequence', frame=False, effectful=False, indent='call', parts=((0, None),),
          sig='(or expr...)',
          doc='Evaluates left to right and returns the first value that is not #f; else #f. (or) is #f.',
          examples=[('(or #f 3)', '3'), ('(or)', '#f')]),
    _form('begin', 'specials', 'sequence', frame=False, effectful=False, indent='body', parts=((0, None),),
          sig='(begin expr...)',
          doc='Evaluates the forms in order and returns the last value; (begin) is Nil.',
          examples=[('(begin 1 2 3)', '3')]),
    _form('match', 'patterns', 'match', frame=True, effectful=False, indent='body', parts=((2, None),),
          sig='(match expr (pattern body...)...)',
          doc="Evaluates expr once and runs the body of the first clause whose pattern matches it: "
              "_ (anything), a name (anything, bound to it), a literal, 'datum, () (the empty list), "
              "(cons h t), (p1 p2) (a list of exactly as many elements), (p1 p2 . rest) (at least as "
              "many; rest is bound to the others), (p1 q ... p2): q matches each element between the "
              "first and the last ones, none or more, and each name in q is bound to the list of what it "
              "matched there (so (a b ...) binds b to the rest, as in Racket and syntax-rules; one ... "
              "per list, after a pattern), and (? pred p1 p2): pred is any expression giving a procedure "
              "the value must satisfy, and the patterns p1 p2 must match the same value.",
          examples=[("(match '(1 2) ((a b) (+ a b)) (_ 'none))", '3'),
                    ("(match '(1 2 3 4) ((a b ...) (list a b)))", '(1 (2 3 4))'),
                    ("(match '((x 1) (y 2)) (((k v) ...) (list k v)))", '((x y) (1 2))'),
                    ("(match '(1 2 3) ((a ... z) z))", '3'),
                    ("(match '(1) ((... a) a))",
                     "error: match: '...' must follow a pattern in a list pattern, as in (a b ...)"),
                    ("(match \"x\" ((? number?) 'n) ((? string?) 's))", 's'),
                    ("(match 4 ((? even?) 'even) (_ 'other))", 'even'),
                    ("(match 12 ((? (lambda (x) (> x 10)) n) (* n 2)) (_ 0))", '24'),
                    ("(match '() (() 'empty) (_ 'other))", 'empty'),
                    ("(match 1 ((? 5) 'x))", 'error: match: (? 5) needs a procedure')]),
    _form('try-catch', 'specials', 'try', frame=True, effectful=False, indent='body', parts=((3, 3),),
          sig='(try-catch body (err) handler)',
          doc='Evaluates body; if it raises any rusty error, runs handler with err bound to the message string.',
          examples=[('(try-catch (car 5) (e) e)', '"car: not a pair"'),
                    ('(try-catch (+ 1 2) (e) e)', '3')]),
    _form('quote', 'specials', 'quote', frame=False, effectful=False, indent='call', parts=((1, 1),),
          sig="(quote datum) | 'datum",
          doc='The datum itself, unevaluated.',
          examples=[("(quote (a b))", '(a b)'), ("'sym", 'sym')]),
    _form('quasiquote', 'quasiquote', 'quasiquote', frame=False, effectful=False, indent='call', parts=((1, 1),),
          sig='(quasiquote template) | `template',
          doc='Builds data from a template: ,expr is replaced by its value and ,@expr splices a list.',
          examples=[('`(1 ,(+ 1 1) ,@(list 3 4))', '(1 2 3 4)')]),
    _form('unquote', 'quasiquote', 'unquote', frame=False, effectful=False, indent='call', parts=((1, 1),),
          sig='(unquote expr) | ,expr',
          doc='Inside a quasiquote template: the value of expr; outside one, unquote is an unbound name.',
          examples=[('`(x ,(* 2 3))', '(x 6)'),
                    (',x', "error: Undefined: 'unquote' — ',' (unquote) works only inside a quasiquote (`) template")]),
    _form('unquote-splicing', 'quasiquote', 'unquote', frame=False, effectful=False, indent='call', parts=((1, 1),),
          sig='(unquote-splicing expr) | ,@expr',
          doc='Inside a quasiquote template: the elements of the list expr, spliced in place.',
          examples=[('`(0 ,@(list 1 2) 3)', '(0 1 2 3)')]),
    _form('eval', 'specials', 'eval', frame=False, effectful=True, indent='call', parts=((1, 1),),
          sig='(eval expr)',
          doc='Evaluates the value of expr as code, in the current environment and in tail position.',
          examples=[("(eval (list '+ 1 2))", '3')]),
    _form('eval-when', 'specials', 'eval-when', frame=False, effectful=True, indent='body', parts=((1, None),),
          sig='(eval-when (phase...) form...)',
          doc='Like begin (phases ignored); inside defmacro its definitions are seen by the expander only.',
          examples=[('(eval-when (compile) 1 2)', '2')]),
    _form('defmacro define-macro', 'quasiquote', 'defmacro', frame=False, effectful=True, indent='body',
          parts=((3, None),),
          sig='(defmacro name (params...) body...)',
          doc='Defines a macro: each call passes its arguments unevaluated, and the code the body '
              'returns is evaluated in place of the call. Binders in its templates are renamed.',
          examples=[("(begin (defmacro my-unless (c x) `(if ,c () ,x)) (my-unless #f 'ran))", 'ran'),
                    ('(begin (defmacro twice (e) `(begin ,e ,e)) (define n 0) (twice (set! n (+ n 1))) n)', '2')]),
    _form('load', 'specials', 'load', frame=False, effectful=True, indent='call', parts=((1, 1),),
          sig='(load path)',
          doc='Reads a whole file, then evaluates its forms in the global environment; the last value.',
          examples=[('(try-catch (load "no/such/file.lisp") (e) e)',
                     '"load: cannot read \'no/such/file.lisp\': No such file or directory (os error 2)"')]),
    _form('load-relative', 'specials', 'load', frame=False, effectful=True, indent='call', parts=((1, 1),),
          sig='(load-relative path)',
          doc="Like load, but a relative path is resolved against the directory of the file being run.",
          examples=[('(try-catch (load-relative 5) (e) e)', '"load: expects 1 string argument"')]),
    _form('defrust', 'defrust_form', 'defrust', frame=False, effectful=True, indent='body', parts=((3, 3),),
          sig='(defrust name (params...) body)',
          doc='Compiles a numeric function to native code with rustc and binds name to it.',
          examples=[('(begin (defrust cube3 (x) (* x x x)) (cube3 3))', '27')]),
    _form('defrust*', 'defrust_form', 'defrust*', frame=False, effectful=True, indent='body', parts=((0, None),),
          sig='(defrust* (name (params...) body)...)',
          doc='Compiles a group of numeric functions into one library, so they can call each other.',
          examples=[('(begin (defrust* (ev1 (n) (if (= n 0) 1 (od1 (- n 1)))) '
                     '(od1 (n) (if (= n 0) 0 (ev1 (- n 1))))) (ev1 10))', '1')]),
    _form('import', 'import_form', 'import', frame=False, effectful=True, indent='call',
          parts=((1, 1), (3, 3), (1, 1)),
          sig='(import module) | (import module :as alias) | (import (module name...))',
          doc='Imports a Python module and binds it globally (a dotted module binds its first part, as in '
              'Python); with :as under the alias; with a list, binds just the names given from it. A name it '
              'binds makes name.attr.attr read attributes. Nil.',
          examples=[('(begin (import math) math.pi)', '3.141592653589793'),
                    ('(begin (import (math sqrt)) (sqrt 16))', '4'),
                    ("(try-catch (import nosuch) (e) e)", '"import: no module named \'nosuch\'"')]),
    _form('.', 'import_form', 'attribute', frame=False, effectful=True, indent='call', parts=((2, 2),),
          sig='(. obj name)',
          doc='The attribute name of obj as Python sees it (name is not evaluated).',
          examples=[('(begin (import math) (. math e))', '2.718281828459045'),
                    ('(. "abc" upper)', '#<py builtin_function_or_method str.upper>')]),
)

# Standard-library macros and other heads indented as bodies.
MACRO_BODY_INDENT = ('let-values', 'while', 'dotimes', 'dolist', 'repeat')


# ── Views ────────────────────────────────────────────────────────────────

BY_NAME = {n: f for f in TABLE for n in f.names}
NAMES = tuple(BY_NAME)                 # every special-form name, table order
BODY_INDENT = frozenset([n for f in TABLE if f.indent == 'body' for n in f.names] + list(MACRO_BODY_INDENT))
EFFECTFUL = frozenset(n for f in TABLE if f.effectful for n in f.names)


def modules() -> tuple:
    """The modules holding the compile functions, each once, in table order."""
    return tuple(dict.fromkeys(f.module for f in TABLE))


def names_with(syntax: str) -> tuple:
    """Every name of the forms read with this syntax."""
    return tuple(n for f in TABLE if f.syntax == syntax for n in f.names)


class Entry(Row):
    """The documentation of one name (an alias gets its own wording): its
    signature, prose and (expression, result) examples."""
    __slots__ = ()
    _fields = ('name', 'sig', 'doc', 'examples')


def entry(name: str) -> Entry | None:
    """Documentation of the special form `name`, or None."""
    f = BY_NAME.get(name)
    if f is None:
        return None
    if name == f.name:
        return Entry(name, f.sig, f.doc, f.examples)
    head, alias = '(' + f.name + ' ', '(' + name + ' '
    return Entry(name, f.sig.replace(head, alias), 'Alias of %s. %s' % (f.name, f.doc),
                 tuple((e.replace(head, alias), r) for e, r in f.examples))
