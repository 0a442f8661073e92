"""The `rusty lsp` command: start the server, or say how to install it."""
from __future__ import annotations

INSTALL_HINT = "rusty lsp needs pygls: pip install 'rusty-lisp[lsp]' (or pip install pygls)"
USAGE = '''usage: rusty lsp

Speaks the Language Server Protocol on standard input and output: point an
editor's language client at the command `rusty lsp` for *.lisp files.'''


def main(argv, stdout, stderr) -> int:
    """`rusty lsp [--help]`; the exit status."""
    if argv and argv[0] in ('--help', '-h'):
        stdout.write(USAGE + '\n')
        return 0
    if argv:
        stderr.write('rusty lsp: unexpected argument: %s\n%s\n' % (argv[0], USAGE.split('\n')[0]))
        return 2
    if not installed('pygls', 'lsprotocol'):
        stderr.write(INSTALL_HINT + '\n')
        return 1
    from .server import serve
    return serve()


def installed(*modules) -> bool:
    """Whether every one of these modules can be imported (without importing them)."""
    from importlib.util import find_spec
    try:
        return all(find_spec(m) is not None for m in modules)
    except (ImportError, ValueError):
        return False
