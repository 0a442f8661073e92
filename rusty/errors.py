"""Source spans and the one error hierarchy every layer raises."""
from _operator import itemgetter   # operator.py costs start-up time

STDLIB_FILE = '<stdlib>'   # the file name of the standard library's spans


class Span(tuple):
    """Where a form sits in its source: 1-based line/column, end exclusive.
    A plain tuple (file, line, col, end_line, end_col) with field names; not
    a typing.NamedTuple, whose import would weigh on every start-up."""
    __slots__ = ()

    def __new__(cls, file, line, col, end_line, end_col):
        return tuple.__new__(cls, (file, line, col, end_line, end_col))

    def __getnewargs__(self):
        return tuple(self)

    def __repr__(self) -> str:
        return 'Span(file=%r, line=%r, col=%r, end_line=%r, end_col=%r)' % self

    def _replace(self, **fields) -> 'Span':
        """A copy with some fields changed (as a namedtuple's _replace)."""
        file, line, col, end_line, end_col = self
        new = dict(file=file, line=line, col=col, end_line=end_line, end_col=end_col)
        new.update(fields)
        return Span(**new)

    file = property(itemgetter(0), doc='source file name')
    line = property(itemgetter(1), doc='first line (1-based)')
    col = property(itemgetter(2), doc='first column (1-based)')
    end_line = property(itemgetter(3), doc='last line')
    end_col = property(itemgetter(4), doc='column after the end')


class RustyError(Exception):
    """A user-visible error: an exact message, plus where it happened.

    `message` is the string `try-catch` binds. `span` is the failing form (set by
    the innermost form that knows its position); `trace` collects the Lisp call
    frames as (call-site span or None, callee name) while the error unwinds,
    innermost first; a lambda's frame adds, third, the site its run was
    entered at (before tail calls replaced it), and fourth its Lisp frame
    (for the debugger). `source` optionally holds the text the span points
    into. `hints` are extra report lines (`  hint: ` + each) that show what
    the message does not.
    """

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.trace: list[tuple[Span | None, str]] = []
        self.source: str | None = None
        self.hints: list[str] = []

    def __str__(self) -> str:
        return self.message


class ReadError(RustyError):
    """The reader refused the text (syntax error)."""


class IncompleteInput(ReadError):
    """The text ended while a form was still open (the REPL reads more)."""


class EvalError(RustyError):
    """Raised while evaluating."""


class RecursionLimit(EvalError):
    """Non-tail recursion went past the configured depth."""


class Interrupted(EvalError):
    """The user pressed Ctrl-C during evaluation."""

    def __init__(self, span: Span | None = None):
        super().__init__("interrupted", span)


class Abort(BaseException):
    """A second Ctrl-C during one evaluation: stops it even through try-catch
    (the first one is the catchable error `interrupted`)."""


class Exit(BaseException):
    """`(exit status)`, or a write to a closed pipe (status 141): ends the
    program without a report. Not an error, so no try-catch stops it."""

    def __init__(self, status: int = 0, broken_pipe: bool = False):
        super().__init__(status)
        self.status = status
        self.broken_pipe = broken_pipe


class CompileError(RustyError):
    """Native compilation (codegen, rustc, cache, loading) failed."""


def os_error_text(e: BaseException) -> str:
    """The OSERR part of a file error: the OS message and its number, or the UTF-8 complaint."""
    if isinstance(e, UnicodeDecodeError):
        return 'stream did not contain valid UTF-8'
    if isinstance(e, ValueError) and 'null byte' in str(e):
        return 'file name contained an unexpected NUL byte'
    if isinstance(e, OSError) and e.errno is not None:
        return '%s (os error %d)' % (e.strerror, e.errno)
    return str(e)


def is_out_of_memory(e: BaseException) -> bool:
    """Whether host exception `e` means memory ran out: a MemoryError, or the
    SystemError CPython 3.11 raises when it cannot allocate a chunk for more
    Python frames (it returns failure without setting MemoryError)."""
    return isinstance(e, MemoryError) or (
        e.__class__ is SystemError and str(e) == 'error return without exception set')


# ── Memory to report with ────────────────────────────────────────────────
# When a program fills memory and a global keeps it full, reporting the error
# needs memory too (the error object, the report's text, the REPL's next
# prompt). A reserve is set aside while programs run and given back at the
# first sign of running out. bytes(N) is calloc'd: address space (what
# `ulimit -v` bounds), no pages touched until used. Above 32 MiB (the most
# glibc's sliding mmap threshold reaches) it is always its own mapping, so
# freeing it gives the address space back to every thread, not to one malloc
# arena; 32 MiB proved too little for the REPL to report and prompt again
# after a second fill.

RESERVE_BYTES = 64 << 20
RESERVE: list = [None, None]     # [the ready-made error, the reserved bytes]


def hold_reserve() -> None:
    """Set aside the reserve (and a ready-made error) unless it is held; quietly
    does without while memory is still short."""
    try:
        if RESERVE[0] is None:
            RESERVE[0] = EvalError('out of memory')
        if RESERVE[1] is None:
            RESERVE[1] = bytes(RESERVE_BYTES)
    except MemoryError:
        pass


def give_back_if_out_of_memory(e: BaseException) -> None:
    """Give back the reserve now if `e` is running out of memory.

    Unwinding needs memory before any report is made: CPython 3.11 allocates
    the resume index of every `except` block it leaves by re-raising, and when
    that allocation fails it retries forever, holding the lock every thread
    needs. So the first handler that sees the failure frees the reserve."""
    if e.__class__ is MemoryError or e.__class__ is SystemError:
        RESERVE[1] = None


def out_of_memory() -> 'EvalError':
    """The error `out of memory`, made after giving back the reserve."""
    ready, RESERVE[0], RESERVE[1] = RESERVE[0], None, None
    try:
        return EvalError('out of memory')
    except MemoryError:
        if ready is None:
            raise
        ready.span = ready.__traceback__ = ready.__cause__ = ready.__context__ = None
        del ready.trace[:]
        return ready
