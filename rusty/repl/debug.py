"""The debugging commands: `,trace ,untrace ,profile ,frames ,locals ,frame ,up ,down ,continue`.

Each command is a row of COMMANDS (name, usage, help, takes_code, fn), which
meta adds to its table.
`,frames` and `,locals` look at the last uncaught error of the prompt (the
REPL keeps it: `Repl.last_error`) or, inside a breakpoint, at its frame.
"""
from __future__ import annotations

from ..errors import RustyError
from ..frames import bindings, error_frames, outer_bindings, where

COMMANDS = []
RESUME = object()       # what ,continue returns: the breakpoint's prompt ends


def command(name, usage, help, takes_code=False):
    def register(fn):
        COMMANDS.append((name, usage, help, takes_code, fn))
        return fn
    return register


# ── Trace ────────────────────────────────────────────────────────────────


def _names(cmd) -> list:
    return [n.strip("'") for n in cmd.arg.split()]


@command('trace', ',trace NAME…', 'trace calls of procedures (entry and return on stderr)')
def _trace(repl, cmd):
    names = _names(cmd)
    try:
        traced = repl.session.trace(names)
    except RustyError as e:
        repl.report(e)
        return
    shown = ' '.join(s.name for s in traced) if traced is not None else ''
    repl.write(repl.paint('; tracing: %s' % (shown or 'nothing'), 'ansibrightblack') + '\n')


@command('untrace', ',untrace [NAME…]', 'stop tracing them (all with no names)')
def _untrace(repl, cmd):
    traced = repl.session.untrace(_names(cmd))
    shown = ' '.join(s.name for s in traced) if traced is not None else ''
    repl.write(repl.paint('; tracing: %s' % (shown or 'nothing'), 'ansibrightblack') + '\n')


# ── Profile ──────────────────────────────────────────────────────────────

@command('profile', ',profile EXPR', 'evaluate EXPR, then a table of the Lisp procedures that ran',
         takes_code=True)
def _profile(repl, cmd):
    if not cmd.arg:
        repl.write('usage: ,profile EXPR\n')
        return
    session = repl.session
    file = repl.new_file(cmd.text)
    before = session.last_profile
    try:
        value = session.profile(cmd.code, file, repl.breaks[-1] if repl.breaks else None)
    except RustyError as e:
        repl.post_mortem(e)
        repl.report(e)
    else:
        repl.remember(value)
        repl.show(value)
    if session.last_profile is not before:         # this run's (an outer one's stays unprinted)
        repl.fresh_line()
        repl.write(session.last_profile.table())


# ── Post-mortem frames ───────────────────────────────────────────────────

def _frames(repl) -> list | None:
    err = repl.last_error
    if err is None:
        repl.write('No error to inspect: ,frames lists the frames of the last uncaught error.\n')
        return None
    frames = error_frames(err)
    if not frames:
        repl.write('The last error (%s) happened outside any procedure: no frames.\n' % repl.short(err.message, 60))
        return None
    return frames


def _frame_line(repl, i: int, fr, current: bool) -> str:
    mark = '>' if current else ' '
    return '%s %2d: %s  at %s' % (mark, i, repl.paint(fr.name, 'bold'), where(fr.span))


INNER_FRAMES = 20      # ,frames of a deep error: this many innermost, then the outermost
OUTER_FRAMES = 3


@command('frames', ',frames', 'the Lisp frames of the last error, innermost first')
def _list_frames(repl, cmd):
    frames = _frames(repl)
    if frames is None:
        return
    repl.write('Error: %s\n' % repl.short(repl.last_error.message))
    shown = range(len(frames))
    if len(frames) > INNER_FRAMES + OUTER_FRAMES + 1:
        shown = list(range(INNER_FRAMES)) + [None] + list(range(len(frames) - OUTER_FRAMES, len(frames)))
    for i in shown:
        if i is None:
            repl.write('  ... %d more (,locals N shows any of them)\n' % (len(frames) - INNER_FRAMES - OUTER_FRAMES))
        else:
            repl.write(_frame_line(repl, i, frames[i], i == repl.frame_at) + '\n')


def _show_locals(repl, title: str, frame, missing: str = 'no local variables recorded') -> None:
    repl.write(title + '\n')
    own = bindings(frame)
    outer = outer_bindings(frame) if frame is not None else []
    if frame is None:
        repl.write('  (%s)\n' % missing)
    elif not own and not outer:
        repl.write('  (no local variables)\n')
    for name, value in own:
        repl.write('  %s = %s\n' % (name, repl.wrap(value, len(name) + 5)))
    if outer:
        repl.write('  enclosing:\n')
        for name, value in outer:
            repl.write('    %s = %s\n' % (name, repl.wrap(value, len(name) + 7)))


def _frame_number(repl, cmd, frames, usage: str) -> int | None:
    """The frame number the argument names, or None after a usage line."""
    if not cmd.arg.isdigit() or int(cmd.arg) >= len(frames):
        repl.write('usage: ,%s with N a frame number from 0 to %d (,frames lists them)\n'
                   % (usage, len(frames) - 1))
        return None
    return int(cmd.arg)


@command('locals', ',locals [N]', "frame N's variables, without moving there (default: current)")
def _locals(repl, cmd):
    if not cmd.arg and repl.breaks:
        env = repl.breaks[-1]
        _show_locals(repl, 'breakpoint at %s' % where(env.span), env.frame, 'top level: globals only')
        return
    frames = _frames(repl)
    if frames is None:
        return
    n = repl.frame_at
    if cmd.arg:
        n = _frame_number(repl, cmd, frames, 'locals [N]')
        if n is None:           # looking at a frame does not move to it (,frame N does)
            return
    fr = frames[n]
    _show_locals(repl, _frame_line(repl, n, fr, n == repl.frame_at).lstrip('> '), fr.frame)


def _move(repl, step: int) -> None:
    frames = _frames(repl)
    if frames is None:
        return
    n = repl.frame_at + step
    if not 0 <= n < len(frames):
        repl.write('Already at the %s frame.\n' % ('innermost' if n < 0 else 'outermost'))
        return
    repl.frame_at = n
    repl.write(_frame_line(repl, n, frames[n], True) + '\n')


@command('frame', ',frame N', 'make frame N current (,locals, ,up, ,down start there)')
def _frame(repl, cmd):
    frames = _frames(repl)
    if frames is None:
        return
    n = _frame_number(repl, cmd, frames, 'frame N')
    if n is not None:
        repl.frame_at = n
        repl.write(_frame_line(repl, n, frames[n], True) + '\n')


@command('up', ',up', 'move to the calling frame (outward)')
def _up(repl, cmd):
    _move(repl, 1)


@command('down', ',down', 'move to the called frame (inward)')
def _down(repl, cmd):
    _move(repl, -1)


# ── Breakpoints ──────────────────────────────────────────────────────────

@command('continue', ',continue', 'leave a breakpoint: the evaluation goes on (so does Ctrl-D)')
def _continue(repl, cmd):
    if not repl.level:
        repl.write('Not at a breakpoint: (breakpoint) in code opens one.\n')
        return None
    return RESUME
