"""What escapes an evaluation at top level, as a rusty error (never a
traceback): shared by the runtime, the REPL and the embedding API."""
from .apply import Depth, recursion_message
from .errors import Abort, EvalError, Exit, Interrupted, RecursionLimit, RustyError, is_out_of_memory, out_of_memory


def top_level_error(e: BaseException, depth: Depth) -> RustyError:
    """Any failure escaping an evaluation in a session with this depth state,
    as a rusty error (never a traceback)."""
    depth.n = 0
    depth.tails = 0         # (one a Ctrl-C cut short: compile/calls.py's leaf_call)
    if isinstance(e, RustyError):
        return e
    if isinstance(e, Exit):
        raise e             # (exit) and closed pipes end the program, not as errors
    if isinstance(e, BrokenPipeError):
        raise Exit(141, broken_pipe=True) from None
    if isinstance(e, (KeyboardInterrupt, Abort)):
        return Interrupted()
    if isinstance(e, RecursionError):
        return RecursionLimit(recursion_message(depth))
    if is_out_of_memory(e):
        return out_of_memory()
    err = EvalError('internal error: %s: %s' % (type(e).__name__, e))
    err.__cause__ = e
    return err
