"""A job's outcome as the evaluation thread hands it to its caller:
(True, value) or (False, error), with the memory a failed job filled given
back and the host tracebacks that would keep its frames alive dropped."""
import gc

from .errors import hold_reserve, is_out_of_memory, out_of_memory

FAILED = (False, None)      # a job's outcome when even its error could not be made: out of memory


def settled(outcome):
    """A job's outcome as handed over: memory given back, tracebacks dropped."""
    if outcome is None:
        return FAILED
    if not outcome[0] and ran_out_of_memory(outcome[1]):
        return (False, release_memory(outcome[1]))
    if not outcome[0]:
        drop_tracebacks(outcome[1])
    hold_reserve()           # again, if the job gave back what an earlier one filled
    return outcome


def ran_out_of_memory(e: BaseException) -> bool:
    """Whether `e` is (or wraps) running out of memory."""
    while e is not None:
        if is_out_of_memory(e) or getattr(e, 'message', None) == 'out of memory':
            return True
        e = e.__cause__ or e.__context__
    return False


def drop_tracebacks(e: BaseException) -> None:
    """Cut `e` and the errors chained to it loose from the frames of the job
    that failed. An interrupted run loop holds its error in a local of a frame
    the error's own traceback reaches: a cycle that would keep every frame of
    the evaluation (and the tensors in them) alive until a full collection.
    Reports never show host tracebacks, so nothing is lost."""
    seen = 0
    while e is not None and seen < 100:
        e.__traceback__ = None
        e = e.__cause__ or e.__context__
        seen += 1


def release_memory(e: BaseException) -> BaseException:
    """`e` without the tracebacks and chained errors that keep the memory it
    ran out of alive; a bare MemoryError becomes the rusty error."""
    inner = e
    while inner is not None:
        inner.__traceback__ = None
        trace = getattr(inner, 'trace', None)
        if trace:                   # the frames its backtrace kept for ,locals
            trace[:] = [entry[:3] for entry in trace]
        nxt = inner.__cause__ or inner.__context__
        inner.__cause__ = inner.__context__ = None
        inner = nxt
    gc.collect()
    return out_of_memory() if is_out_of_memory(e) else e
