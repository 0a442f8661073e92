"""What ,frames and ,locals show of compiled code that failed: the variables
a compiled function had (FrameView, frame_of), built into the frames the
reference's run would have recorded (reference_frame), over the env of the
lambda values compiled code makes (LazyEnv, built when asked: env_of) or,
for an inlined walk's lambda (_Lambda), the enclosing function's frame."""
from ..resolve import UNBOUND
from ..values import Lambda


class FrameView:
    """A compiled function's variables when it failed, as a backtrace entry's
    frame for ,frames and ,locals: its scope's Lisp names and their values."""
    __slots__ = ('names', 'vals')

    def __init__(self, names, vals):
        self.names, self.vals = names, vals

    def values(self):
        return self.vals


def frame_of(e, names, lets=None) -> None:
    """Record on `e` the variables of the compiled function whose handler
    caught it (the first frame of its traceback), once: `names` pairs each
    Lisp name of its scope with its Python local; `lets` maps the line it
    failed at to the lets around it (Lowering.let_frames), whose frames are
    built over the function's, as the reference's would be."""
    tb = e.__traceback__
    if tb is None or 'rusty_frame' in e.__dict__:
        return
    here = tb.tb_frame.f_locals
    frame = FrameView([n for n, _ in names], [here.get(py, UNBOUND) for _, py in names])
    chain = lets.get(tb.tb_lineno, ()) if lets else ()
    for scope, pairs in reversed(chain):
        frame = [frame, scope] + [here.get(py, UNBOUND) for _, py in pairs]
    e.rusty_frame = frame
    walk = e.__dict__.get('rusty_walk')
    if walk is not None and walk[0] is None:
        walk[0] = frame         # (the frame of an inlined walk's lambda failing in it: reference_frame)


def function_view(frame):
    """The compiled function's own FrameView under the let frames frame_of built."""
    while frame.__class__ is list:
        frame = frame[0]
    return frame


class LazyEnv:
    """The env of the values one nested lambda expression of compiled code
    makes (LambdaMaker): the reference frames of the compiled locals they
    see, built when asked (`frames`, `env_of`) from the closure cells of a
    value's function, which names them all, with their values then (as the
    reference's shared frames would hold them). `layout`: ((scope, the
    Python names of its slots)…), outermost first, over E."""
    __slots__ = ('layout',)

    def __init__(self, layout):
        self.layout = layout

    def frames(self, lam):
        """lam's env, built now."""
        return self.frames_of(lam.code.direct)

    def frames_of(self, fn):
        """The env of a value whose function is fn, built now."""
        code = fn.__code__
        cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
        e = cells.get('E')
        f = _content(e) if e is not None else fn.__globals__['E']
        for sc, names in self.layout:
            f = [f, sc] + [_content(cells.get(n)) for n in names]
        return f


def _content(cell):
    """A closure cell's value (UNBOUND: none yet)."""
    try:
        return cell.cell_contents
    except (ValueError, AttributeError):
        return UNBOUND


def env_of(lam):
    """Lambda lam's env as a frame chain (a LazyEnv's built now)."""
    env = lam.env
    return env.frames(lam) if env.__class__ is LazyEnv else env


def reference_frame(e, seen, lam):
    """The frame the reference's run records for compiled lambda lam failing
    with frame_of's frame `seen` (its FrameView, under the lets it failed
    in): the values in a frame over lam's env, the lets moved onto it (a
    direct call's failure, compile/sites.py: ,locals shows the enclosing
    variables as the reference's does). An inlined walk's lambda (_Lambda)
    has no env: its frame sits on the enclosing function's once that fails
    too (frame_of, `rusty_walk`)."""
    view = function_view(seen)
    if lam.__class__ is _Lambda and lam.scope is not None:
        by = dict(zip(view.names, view.vals))
        fr = [None, lam.scope] + [by.get(s.name, UNBOUND) for s in lam.scope.names]
    elif lam.__class__ is Lambda and len(view.vals) == len(lam.scope.names):
        fr = [env_of(lam), lam.scope] + view.vals
    else:
        return seen
    on_view(e, view, fr)
    if lam.__class__ is _Lambda:
        e.rusty_walk = fr
    if seen is view:
        return fr
    _reparent(seen, view, fr)
    return seen


def on_view(e, view, fr) -> None:
    """An inlined walk's frame that frame_of set on FrameView `view` moved onto fr, view's reference frame."""
    w = e.__dict__.pop('rusty_walk', None)
    if w is not None and w[0] is view:
        w[0] = fr


def _reparent(frame, view, fr) -> None:
    """The let frames above `view` made to sit on the reference frame fr."""
    while frame[0] is not view:
        frame = frame[0]
    frame[0] = fr


class _Lambda:
    """Stands for the lambda value an inlined walk's loop never makes
    (walks.py), in the backtrace entry call_failed adds for it: its name,
    and its scope for the entry's frame (reference_frame)."""
    __slots__ = ('scope',)
    name = 'lambda'

    def __init__(self, scope=None):
        self.scope = scope

    def __repr__(self):
        return '#<the lambda of an inlined walk>'
