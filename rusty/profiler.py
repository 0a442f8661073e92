"""The Lisp profiler: calls, total and own time per procedure, and its table.

Each call in progress keeps, in its own host frame, its row, its start time
and what `Profiler.inner` was when it began (`enter` … `leave`): `inner` is
the time of the finished calls the innermost call in progress made, so a
call's own time is its time less `inner` at its end. The tools' stand-ins
(tools.py) count lambdas run by the reference evaluator, one hop of a
tail-call chain each; compiled code counts its own calls inline, with the
same steps (rusty/compile/counting.py); builtins and
natives are timed by wrapping their host function while the profiler runs
(`Profiling`, `timed`). Total time counts only the outermost of a
procedure's calls in progress (recursion is not counted twice). No host
profiling hook (sys.setprofile) is used.
"""
from time import perf_counter

from .errors import give_back_if_out_of_memory
from .values import Builtin, Lambda, List, Native, NativeGrad

BUILTIN_SHARE = 0.01        # builtins taking more than this share get a row of their own
OTHER_BUILTINS = '(other builtins)'
TOP_LEVEL = '(top level)'


class Row:
    """One procedure's counts."""
    __slots__ = ('label', 'builtin', 'calls', 'total', 'own', 'active', 'of')

    def __init__(self, label: str, builtin: bool, of=None):
        self.label = label
        self.of = of            # the row's key: a lambda's body, a builtin, a native
        self.builtin = builtin
        self.calls = 0
        self.total = 0.0
        self.own = 0.0
        self.active = 0


class Profiler:
    """A Row per procedure, and the own-time bookkeeping of the calls in progress."""

    def __init__(self):
        self.rows = {}          # the lambda's body, the builtin or native -> its Row
        self.inner = 0.0        # time of the finished calls the innermost call in progress made
        self.start = perf_counter()
        self.elapsed = None
        self.counts_itself = None   # the entry (a partial's function) of code that counts its own calls: set by the compiler

    def new_row(self, p) -> Row:
        """The row of lambda (or macro) `p`, keyed by its body (lists hash by identity)."""
        return self.named_row(p.body, p.name, p.__class__ is not Lambda)

    def named_row(self, body, name: str, macro: bool = False) -> Row:
        """The row of the lambda named `name` with `body` (compiled code, which
        knows a nested lambda's body and name but not its value)."""
        row = self.rows.get(body)
        if row is None:
            row = self.rows[body] = Row(lambda_label(name, body, macro), False, body)
        return row

    def row_of(self, p) -> Row:
        return self.rows.get(p.body) or self.new_row(p)

    def builtin_row(self, b) -> Row:
        """The row of builtin or native `b`."""
        row = self.rows.get(b)
        if row is None:
            label = b.name if b.__class__ is Builtin else '%s [native]' % b.name
            row = self.rows[b] = Row(label, True, b)
        return row

    def enter(self, row: Row) -> float:
        """A call counted in `row` begins: what `leave` needs back (the caller
        then takes the start time)."""
        row.calls += 1
        row.active += 1
        saved, self.inner = self.inner, 0.0
        return saved

    def leave(self, row: Row, saved: float, start: float) -> None:
        """The call counted in `row` since `start` ends (`saved`: enter's answer)."""
        spent = perf_counter() - start
        row.own += spent - self.inner
        row.active -= 1
        if not row.active:
            row.total += spent
        self.inner = saved + spent

    def stop(self) -> None:
        self.elapsed = perf_counter() - self.start

    # ── The table ──

    def table(self) -> str:
        """The report: one row per Lisp procedure, builtins over 1 % each, the rest."""
        elapsed = self.elapsed if self.elapsed is not None else perf_counter() - self.start
        rows = self.shown_rows(elapsed)
        calls = sum(r.calls for r in rows)
        width = max([len('procedure')] + [len(r.label) for r in rows])
        lines = ['; profile: %s, %d call%s' % (seconds(elapsed), calls, '' if calls == 1 else 's'),
                 '%-*s %9s %11s %11s %7s' % (width, 'procedure', 'calls', 'total ms', 'own ms', 'share')]
        for r in rows:
            share = 100.0 * r.own / elapsed if elapsed > 0 else 0.0
            lines.append('%-*s %9s %11.3f %11.3f %6.1f%%' % (
                width, r.label, r.calls if r.label != TOP_LEVEL else '', r.total * 1e3, r.own * 1e3, share))
        return '\n'.join(lines) + '\n'

    def shown_rows(self, elapsed: float) -> list:
        """The table's rows, by own time: the Lisp procedures, the builtins over
        BUILTIN_SHARE of `elapsed`, the other builtins as one; then the time
        outside any procedure."""
        rows = [r for r in self.rows.values() if not r.builtin]
        others = Row(OTHER_BUILTINS, True)
        for r in self.rows.values():
            if not r.builtin:
                continue
            if elapsed > 0 and r.own / elapsed > BUILTIN_SHARE:
                rows.append(r)
            else:
                others.calls += r.calls
                others.own += r.own
                others.total += r.total
        if others.calls:
            rows.append(others)
        top = Row(TOP_LEVEL, False)
        top.own = top.total = max(0.0, elapsed - sum(r.own for r in rows))
        rows.sort(key=lambda r: -r.own)
        return rows + [top]


def lambda_label(name: str, body, macro: bool) -> str:
    """A lambda's row label: its name, and where it was written."""
    span = body.span if body.__class__ is List else None
    where = ' (%s:%d)' % (span.file, span.line) if span is not None else ''
    return '%s%s%s' % (name, ' [macro]' if macro else '', where)


def seconds(t: float) -> str:
    if t < 1:
        return '%.2f ms' % (t * 1e3)
    return '%.3f s' % t


# ── Timing builtins and natives ──────────────────────────────────────────

class Profiling:
    """A profiler switched on for one session's run: its builtins' and natives'
    host functions wrapped (and put back by `close`)."""

    def __init__(self, profiler: Profiler):
        self.profiler = profiler
        self.wrapped = []       # (object, attribute, original)

    def wrap(self, proc) -> None:
        """Time calls of builtin or native `proc` until `close`."""
        if proc.__class__ is Builtin:
            attr = 'fn'
        elif proc.__class__ in (Native, NativeGrad):
            attr = 'call'
        else:
            return
        original = getattr(proc, attr)
        if getattr(original, 'profiled', False):
            return
        setattr(proc, attr, timed(original, self.profiler.builtin_row(proc), self.profiler))
        self.wrapped.append((proc, attr, original))

    def close(self) -> None:
        for proc, attr, original in reversed(self.wrapped):
            setattr(proc, attr, original)
        self.wrapped.clear()
        self.profiler.stop()


def timed(fn, row: Row, profiler: Profiler):
    """`fn` counted in `row` by `profiler` (as the stand-ins count a lambda)."""
    enter, leave = profiler.enter, profiler.leave

    def call(*args):
        saved = enter(row)
        start = perf_counter()
        try:
            value = fn(*args)
        except BaseException as e:
            give_back_if_out_of_memory(e)       # first, as every handler on the evaluation path
            leave(row, saved, start)
            raise
        leave(row, saved, start)
        return value
    call.profiled = True
    return call
