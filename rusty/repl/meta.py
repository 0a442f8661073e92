"""Meta-commands: `,help ,doc ,apropos ,describe ,time ,expand ,load ,rust ,graph ,quit`,
and the debugging commands of debug.py.

Each command is a function (repl, cmd) in one table; `cmd.arg` is the text
after the command name and `cmd.code` is the whole input with the command name
blanked out, so evaluating it keeps the columns the user sees (carets line up).
"""
from __future__ import annotations

import os

import re
import time
from typing import NamedTuple

from .. import docs
from . import debug
from ..docs import SPECIAL_FORM_DOCS
from ..errors import RustyError
from ..printer import display_form
from ..reader import read
from ..suggest import closest, suggestion_text
from ..values import EMPTY, Builtin, Lambda, List, Macro, Native, NativeGrad, Symbol, Trainer, type_name

QUIT = object()
COMMAND = re.compile(r'^(\s*,)([^\s()"\']*)')


class Command(NamedTuple):
    name: str
    arg: str        # text after the command name, stripped
    code: str       # the input with ",name" blanked (same lines and columns)
    text: str       # the input as typed


class Spec(NamedTuple):
    fn: object
    usage: str
    help: str
    takes_code: bool    # the argument is an expression (may span lines)


COMMANDS: dict[str, Spec] = {}


def command(name, usage, help, takes_code=False):
    def register(fn):
        COMMANDS[name] = Spec(fn, usage, help, takes_code)
        return fn
    return register


def parse(text: str) -> Command | None:
    """The meta-command in `text` (which starts with ','), or None."""
    m = COMMAND.match(text)
    if not m:
        return None
    name = m.group(2)
    code = text[:m.start(2) - 1] + ' ' * (1 + len(name)) + text[m.end():]
    return Command(name, text[m.end():].strip(), code, text)


def takes_code(text: str) -> bool:
    """True when the input's command wants an expression (so Enter waits for it)."""
    cmd = parse(text)
    return cmd is not None and cmd.name in COMMANDS and COMMANDS[cmd.name].takes_code


def run(repl, text: str):
    """Run a meta-command line; QUIT to end the session."""
    cmd = parse(text)
    spec = COMMANDS.get(cmd.name) if cmd else None
    if spec is None:
        name = cmd.name if cmd else text.strip()
        near = closest(name, COMMANDS)
        hint = " — did you mean ',%s'?" % near if near else ''
        repl.write("Unknown command ',%s'%s (,help lists the commands)\n" % (name, hint))
        return None
    return spec.fn(repl, cmd)


def menu() -> dict:
    """',name' -> one-line help, for completion."""
    return {',' + name: spec.help for name, spec in COMMANDS.items()}


# ── Documentation ────────────────────────────────────────────────────────

def signature(repl, name: str) -> str | None:
    """A short signature for completion menus and ,apropos."""
    if name in SPECIAL_FORM_DOCS:
        return SPECIAL_FORM_DOCS[name][0]
    v = repl.session.global_value(name)
    if v is None:
        return None
    if v.__class__ is Builtin:
        return v.sig or '(%s ...)' % name
    if v.__class__ in (Lambda, Macro):
        return call_shape(name, v)
    return display_form(v) if v.__class__ in (Native, NativeGrad) else type_name(v)


def call_shape(name, proc) -> str:
    params = [p.name for p in proc.params]
    if proc.rest is not None:
        params += ['.', proc.rest.name]
    return '(%s)' % ' '.join([name] + params)


docstring = docs.docstring


def where_defined(proc) -> str | None:
    body = proc.body
    span = body.span if body.__class__ is List else None
    return '%s:%d' % (span.file, span.line) if span else None


def doc_lines(repl, name: str) -> list[str]:
    """Signature and documentation of a name (the ,doc text)."""
    d = docs.entry(repl.session, name)
    if name in repl.session.special_names:
        return [d.sig, '  special form. ' + d.text] + _example_lines(d)
    v = repl.session.global_value(name)
    if v is None:
        return [undefined(repl, name)]
    if v.__class__ is Builtin:
        return [d.sig, '  builtin. ' + (d.text or 'No documentation.')] + _example_lines(d)
    if v.__class__ in (Lambda, Macro):
        kind = 'macro' if v.__class__ is Macro else 'function'
        where = where_defined(v)
        tail = ' (body at %s)' % where if where else ''
        if d is not None and d.sig.startswith('(' + name) and '\n' in docstring(v):
            return [d.sig, '  %s%s. %s' % (kind, tail, d.text)] + _example_lines(d)
        return [call_shape(name, v), '  %s%s. %s' % (kind, tail, docstring(v) or 'No docstring.')]
    if v.__class__ in (Native, NativeGrad):
        return [display_form(v), '  compiled to native code; ,rust %s shows its Rust.' % name]
    return ['%s: %s' % (name, repl.short(display_form(v))), '  a %s value (not a procedure).' % type_name(v)]


def _example_lines(d) -> list[str]:
    return [docs.EXAMPLE_INDENT + expr + docs.ARROW + result for expr, result in d.examples]


def undefined(repl, name: str) -> str:
    candidates = list(repl.session.special_names) + repl.session.genv.names()
    text = suggestion_text(name, candidates)
    return '%s: undefined' % name if text is None else '%s: undefined — %s' % (name, text)


def _name_arg(repl, cmd) -> str | None:
    name = cmd.arg.strip("'")
    if not name or ' ' in name:
        repl.write('usage: %s\n' % COMMANDS[cmd.name].usage)
        return None
    return name


@command('help', ',help', 'this list of commands and keys')
def _help(repl, cmd):
    lines = ['Commands:']
    for spec in COMMANDS.values():
        lines.append('  %-18s %s' % (spec.usage, spec.help))
    lines += [
        '  %-18s %s' % ('/TEXT', 'same as (apropos "TEXT")'),
        '  %-18s %s' % ('quit, exit', 'leave (so does Ctrl-D)'),
        'Keys:',
        '  Enter        evaluate a complete input; inside an open form, a new indented line',
        '  Meta-Enter   evaluate now (Esc then Enter)',
        '  Tab          complete a name (or a path inside a string); indent on a blank line',
        '  Ctrl-R       search the history (~/.rusty/history)',
        '  Ctrl-C       clear the input; during evaluation, stop it (definitions stay)',
        'Results: *1 *2 *3 are the last three values, *e the last error message.',
        'Debugging, for example:',
        '  ,trace fact          then (fact 2) prints > (fact 2) … < 2 on stderr, indented by depth',
        '  ,profile (fib 20)    the value, then calls, total and own time of each procedure',
        '  ,frames  ,locals 1   after an error: the frames, innermost first; frame 1\'s variables',
        '  (breakpoint)         in code: a rusty[1]> prompt there (set! its locals); ,continue resumes',
    ]
    repl.write('\n'.join(lines) + '\n')


@command('doc', ',doc NAME', 'signature and documentation of NAME')
def _doc(repl, cmd):
    name = _name_arg(repl, cmd)
    if name:
        lines = doc_lines(repl, name)
        repl.write(repl.paint(lines[0], 'bold') + '\n' + ''.join(line + '\n' for line in lines[1:]))


@command('apropos', ',apropos TEXT', 'names containing TEXT, with signatures')
def _apropos(repl, cmd):
    text = cmd.arg.strip('"')
    s = repl.session
    names = sorted(set(n for n in list(s.special_names) + s.genv.names() if text in n))
    if not names:
        repl.write('No names contain %r.\n' % text)
        return
    width = max(len(n) for n in names)
    limit = repl.width()
    for n in names:
        line = '  %-*s  %s' % (width, n, signature(repl, n) or '')
        repl.write(repl.short(line.rstrip(), limit) + '\n')


@command('describe', ',describe NAME', 'what NAME is bound to, in detail')
def _describe(repl, cmd):
    name = _name_arg(repl, cmd)
    if not name:
        return
    s = repl.session
    if name in s.special_names:
        sig, doc = SPECIAL_FORM_DOCS.get(name, ('(%s ...)' % name, ''))
        repl.write('%s: special form\n  %s\n  %s\n' % (name, sig, doc))
        return
    v = s.global_value(name)
    if v is None:
        repl.write(undefined(repl, name) + '\n')
        return
    lines = ['%s: %s' % (name, repl.short(display_form(v)))]
    lines.append('  type: %s' % type_name(v))
    if v.__class__ is Builtin:
        hi = 'any' if v.hi >= 1 << 29 else str(v.hi)
        lines.append('  arity: %s' % (str(v.lo) if hi == str(v.lo) else '%d..%s' % (v.lo, hi)))
        lines.append('  %s' % (v.sig or ''))
        lines.append('  %s' % (v.doc or ''))
    elif v.__class__ in (Lambda, Macro):
        n = len(v.params)
        lines.append('  parameters: %s' % (call_shape(name, v)[len(name) + 2:-1] or '(none)'))
        lines.append('  arity: %s' % (('at least %d' % n) if v.rest is not None else str(n)))
        where = where_defined(v)
        if where:
            lines.append('  body at: %s' % where)
        lines.append('  body:')
        for form in (v.body if v.body.__class__ is List else ()):
            lines.append('    ' + repl.wrap(form, 4))
    elif v.__class__ in (Native, NativeGrad):
        lines.append('  compiled by rustc; ,rust %s shows the generated Rust' % name)
    repl.write('\n'.join(lines) + '\n')


# ── Evaluation helpers ───────────────────────────────────────────────────

def _fmt_seconds(t: float) -> str:
    if t < 1e-3:
        return '%.1f µs' % (t * 1e6)
    if t < 1:
        return '%.2f ms' % (t * 1e3)
    return '%.3f s' % t


@command('stats', ',stats', 'show what the compiler to Python has done so far')
def _stats(repl, cmd):
    from ..runtime import compile_stats
    repl.write(compile_stats() + '\n')


@command('time', ',time EXPR', 'evaluate EXPR and show wall and CPU time', takes_code=True)
def _time(repl, cmd):
    if not cmd.arg:
        repl.write('usage: ,time EXPR\n')
        return
    wall0, cpu0 = time.perf_counter(), time.process_time()
    ok, value = repl.evaluate(cmd.code, cmd.text)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if ok:
        repl.show(value)
    repl.fresh_line()
    repl.write(repl.paint('; wall %s, cpu %s' % (_fmt_seconds(wall), _fmt_seconds(cpu)), 'ansibrightblack') + '\n')


@command('expand', ',expand FORM', 'the macro expansion of FORM (one step of a derived special form)',
         takes_code=True)
def _expand(repl, cmd):
    try:
        forms = read(cmd.code, repl.new_file(cmd.text))
    except RustyError as e:
        repl.report(e)
        return
    if forms is EMPTY:
        repl.write('usage: ,expand FORM\n')
        return
    form = forms.car
    head = form.car if form.__class__ is List and form is not EMPTY and form.car.__class__ is Symbol else None
    if head is not None and head.name in repl.session.special_names:
        return _expand_special(repl, form, head.name)
    if head is None or repl.session.global_value(head.name).__class__ is not Macro:
        repl.write(repl.highlight(repl.wrap(form)) + '\n')
        what = '%s is not a macro' % head.name if head is not None else 'not a list with a name first'
        repl.write(repl.paint('; not a macro call (%s): nothing to expand' % what, 'ansibrightblack') + '\n')
        return
    try:
        form = repl.session.macroexpand(form)
    except RustyError as e:
        repl.report(e)
        return
    repl.write(repl.highlight(repl.wrap(form)) + '\n')


def _expand_special(repl, form, name: str) -> None:
    """,expand of a special form: its one-step rewrite, or why there is none."""
    from .expand import one_step
    from ..syntax import problem
    message = problem(form)
    if message is not None:
        repl.write('Error: %s\n' % message)
        return
    step = one_step(form)
    if step is None:
        repl.write(repl.highlight(repl.wrap(form)) + '\n')
        repl.write(repl.paint('; %s is a primitive special form: nothing to expand' % name, 'ansibrightblack')
                   + '\n')
        return
    repl.write(repl.highlight(repl.wrap(step)) + '\n')
    repl.write(repl.paint('; %s is a special form: one step into simpler forms' % name, 'ansibrightblack') + '\n')


@command('load', ',load FILE', 'load a file of rusty code')
def _load(repl, cmd):
    path = cmd.arg
    if len(path) >= 2 and path[0] == path[-1] == '"':
        path = path[1:-1]
    if not path:
        repl.write('usage: ,load FILE\n')
        return
    code = '(load "%s")' % path.replace('\\', '\\\\').replace('"', '\\"')
    ok, value = repl.evaluate(code, code)
    if ok:
        repl.show(value)
        repl.write(repl.paint('; loaded %s' % path, 'ansibrightblack') + '\n')


def on_global(fn):
    """A command `fn(repl, name, value)` of the global its NAME argument names
    (an undefined one is said so)."""
    def run_it(repl, cmd):
        name = _name_arg(repl, cmd)
        if not name:
            return
        v = repl.session.global_value(name)
        if v is None:
            repl.write(undefined(repl, name) + '\n')
        else:
            fn(repl, name, v)
    return run_it


@command('rust', ',rust NAME', 'the generated Rust of a native (defrust) function')
@on_global
def _rust(repl, name, v):
    if v.__class__ is Trainer and getattr(v.run, 'source', ''):      # a compiled trainer
        repl.write(repl.highlight(v.run.source.rstrip('\n'), 'rust') + '\n')
    elif v.__class__ not in (Native, NativeGrad) or not v.source:
        repl.write('%s is %s, not a native function (define one with defrust)\n'
                   % (name, repl.short(display_form(v))))
    else:
        repl.write(repl.highlight(v.source.rstrip('\n'), 'rust') + '\n')
        path = getattr(v.handle, 'path', None)
        if v.__class__ is Native and path:
            repl.write('// the whole library, shared prelude included: %s\n'
                       % (os.path.splitext(path)[0] + '.rs'))


@command('py', ',py NAME', 'the Python the compiler makes of a lambda')
@on_global
def _py(repl, name, v):
    source = repl.session.python_source(v)
    if source is None:
        repl.write('%s is %s, not a lambda\n' % (name, repl.short(display_form(v))))
    else:
        repl.write(repl.highlight(source, 'python') + '\n')


@command('graph', ',graph EXPR', 'the optimised graph IR of a lambda, as a table', takes_code=True)
def _graph(repl, cmd):
    from .show import graph_table
    graph_ir = repl.session.global_value('graph-ir')
    if graph_ir is None:
        repl.write('graph-ir is not available in this build\n')
        return
    if not cmd.arg:
        repl.write('usage: ,graph EXPR\n')
        return
    ok, fn = repl.evaluate(cmd.code, cmd.text)
    if not ok:
        return
    ok, data = repl.apply(graph_ir, [fn])
    if ok:
        names = [p.name for p in fn.params] if fn.__class__ is Lambda else []
        repl.write(graph_table(data, names) + '\n')


# ,trace ,untrace ,profile ,frames ,locals ,up ,down ,continue (debug.py)
for _row in debug.COMMANDS:
    command(*_row[:4])(_row[4])


@command('quit', ',quit', 'leave the REPL')
def _quit(repl, cmd):
    return QUIT

