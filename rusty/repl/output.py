"""The REPL's output stream and the names and sources its error reports
look input lines up in."""


class Out:
    """The REPL's stdout: remembers whether the cursor is at a line start."""

    def __init__(self, stream):
        self.stream = stream
        self.at_line_start = True

    def write(self, s: str) -> int:
        if s:
            self.stream.write(s)
            self.at_line_start = s.endswith('\n')
        return len(s)

    def write_raw(self, s: str) -> None:
        """Terminal control text that does not move the logical position."""
        self.stream.write(s)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False


class ReplName(str):
    """The source name `<repl:N>` of the N-th input, remembering N, so
    an error in a function defined by an earlier input shows that input's line."""

    def __new__(cls, number: int):
        self = super().__new__(cls, '<repl:%d>' % number)
        self.number = number
        return self


class Sources:
    """What report.render looks source lines up in: past inputs, then loaded files."""

    def __init__(self, repl):
        self.repl = repl

    def get(self, file, default=None):
        number = getattr(file, 'number', None)
        if number is not None:
            return self.repl.inputs.get(number, default)
        session = self.repl._session
        return session.sources.get(file, default) if session is not None else default
