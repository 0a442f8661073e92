"""trace, untrace and breakpoint: the debugging tools a program can call."""
from ..values import BuiltinTable, Symbol
from .args import expected

TABLE = BuiltinTable()


def _names(args, who: str) -> list:
    out = []
    for a in args:
        if a.__class__ is not Symbol:
            raise expected(who, 'symbol naming a procedure', a)
        out.append(a.name)
    return out


@TABLE.fn('trace', 0, None, host=True, sig="(trace 'name ...)",
          doc='Trace the named procedures: every call prints `> (name arg ...)` to standard error, '
              'indented two spaces per traced call in progress, and its return `< value`; a tail call '
              'keeps the depth. With no names, the list of traced names.',
          examples=(("(begin (define (sq x) (* x x)) (trace 'sq) (sq 3))", '9'),
                    ("(begin (define (sq x) (* x x)) (trace 'sq))", '(sq)')))
def trace(host, *names):
    return host.trace(_names(names, 'trace'))


@TABLE.fn('untrace', 0, None, host=True, sig="(untrace ['name ...])",
          doc='Stop tracing the named procedures (all of them with no names); the names still traced.',
          examples=(("(begin (define (sq x) (* x x)) (trace 'sq) (untrace 'sq))", '()'),))
def untrace(host, *names):
    return host.untrace(_names(names, 'untrace'))


@TABLE.fn('breakpoint', 0, 0, host=True, sig='(breakpoint)',
          doc='At the prompt: open a nested prompt `rusty[1]> ` in the environment of the call (its '
              'local variables can be read and set); `,continue` or Ctrl-D resumes, and the value of '
              'the last expression there is the value of (breakpoint). Without a terminal: prints a '
              'one-line notice to standard error and returns Nil.',
          examples=(("(begin (breakpoint) 'after)", 'after'),))
def breakpoint_(host):
    return host.breakpoint()

