"""Small helpers for table tests: evaluate text in a fresh session.

    ev(src)    print form of the last form's value (Nil and () both print "()")
    value(src) the raw value of the last form
    out(src)   everything written to standard output
    err(src)   the message of the error the text raises (fails if none)
    run_capture(src)  (stdout so far, error message or None)
    dv(src)    display form of the last value
    session_on_path(monkeypatch, fast)  a session with the fast paths on or off
    leave_at_prompt(child)  end a REPL run by pexpect with Ctrl-D
"""
import io

from rusty.errors import RustyError
from rusty.printer import display_form, print_form
from rusty.runtime import Session


def session():
    """A fresh session whose output goes to a StringIO (`s.out`)."""
    return Session(out=io.StringIO())


def session_on_path(monkeypatch, fast: bool) -> Session:
    """A fresh session with the fast paths on (fast) or off (the reference),
    standard output and error going to StringIOs (`s.out`, `s.err`)."""
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if fast else '0')
    s = Session(out=io.StringIO(), err=io.StringIO())
    monkeypatch.delenv('RUSTY_SPECIALIZE')
    return s


def leave_at_prompt(child) -> None:
    """End the REPL that pexpect `child` runs: Ctrl-D once its prompt is up
    (one typed before that is the tty's, not the REPL's), then its goodbye."""
    import time

    import pexpect
    child.expect('rusty>')
    time.sleep(0.2)
    child.sendcontrol('d')
    child.expect('Goodbye.')
    child.expect(pexpect.EOF)


def value(src):
    return session().run(src, '<test>')


def ev(src):
    return print_form(value(src))


def dv(src):
    return display_form(value(src))


def out(src):
    s = session()
    s.run(src, '<test>')
    return s.out.getvalue()


def run_capture(src):
    """(stdout so far, error message or None) for a fresh session."""
    s = session()
    try:
        s.run(src, '<test>')
    except RustyError as e:
        return s.out.getvalue(), e.message
    return s.out.getvalue(), None


def err(src):
    s = session()
    try:
        s.run(src, '<test>')
    except RustyError as e:
        return e.message
    raise AssertionError('no error raised by %r' % src)


def builtin_caller(table):
    """(call, msg) for one builtin table, through the runtime's own path (the
    generic arity check, host binding, error conversion): call(name, *args)
    returns the value, msg(name, *args) the message of the error it raises."""
    from rusty.apply import call_builtin
    from rusty.values import sym
    s = session()
    s.install(table)

    def call(name, *args):
        return call_builtin(s.genv.lookup(sym(name)), list(args), None, s.depth)

    def msg(name, *args):
        try:
            call(name, *args)
        except RustyError as e:
            return e.message
        raise AssertionError('no error raised by %s' % name)
    return call, msg


# The MLP workload of the training benchmarks and examples (the manual's
# Graphs section): its data generator and loss, for tests that train it.
MLP_DEFS = '''(define (val i off) (/ (- (mod (+ (* 7 i) off) 17) 8) 8))
(define (matrix rows cols off)
  (tensor (map (lambda (r) (map (lambda (c) (val (+ (* r cols) c) off)) (range 0 cols)))
               (range 0 rows))))
(define loss
  (lambda (x W b t nn)
    (tensor-sum (tensor-div (tensor-mul (tensor-sub (relu (tensor-add (matmul x W) b)) t)
                                        (tensor-sub (relu (tensor-add (matmul x W) b)) t))
                            nn))))
'''
