"""The `rusty kernel install [--user] [--prefix P]` command."""
from __future__ import annotations

import json
import os
import sys
import tempfile

INSTALL_HINT = "rusty kernel needs ipykernel and jupyter_client: pip install 'rusty-lisp[jupyter]'"
USAGE = 'usage: rusty kernel install [--user] [--prefix P]'
HELP = USAGE + '''

Installs the Jupyter kernel spec "rusty" (display name "rusty"), so that
JupyterLab, Notebook and nbconvert can run notebooks in rusty:
  --user      in your own Jupyter data directory
  --prefix P  under P/share/jupyter/kernels (for instance a virtual environment's prefix)
Without either, in the system-wide directory.'''
KERNEL_NAME = 'rusty'
DIR_MODE = 0o755        # the spec is read by every user of the Jupyter it is installed in,
FILE_MODE = 0o644       # and written only by its owner, whatever the umask


def kernel_spec() -> dict:
    """The kernel.json contents: this Python running the kernel module."""
    return {'argv': [sys.executable, '-m', 'rusty.kernel', '-f', '{connection_file}'],
            'display_name': 'rusty', 'language': 'rusty', 'interrupt_mode': 'signal',
            'metadata': {'debugger': False}}


def parse(argv) -> tuple[bool, str | None]:
    """(user, prefix) from the options after `install`; ValueError on a bad one."""
    user, prefix = False, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--user':
            user = True
        elif a == '--prefix':
            if i + 1 >= len(argv):
                raise ValueError('--prefix needs a directory')
            prefix = argv[i + 1]
            i += 1
        elif a.startswith('--prefix='):
            prefix = a[len('--prefix='):]
            if not prefix:
                raise ValueError('--prefix needs a directory')
        else:
            raise ValueError('unknown option: %s' % a)
        i += 1
    if user and prefix is not None:
        raise ValueError('--user and --prefix cannot be used together')
    return user, prefix


def main(argv, stdout, stderr) -> int:
    """`rusty kernel …`; the exit status."""
    if not argv or '--help' in argv or '-h' in argv:       # `rusty kernel install --help` too
        (stdout if argv else stderr).write(HELP + '\n')
        return 0 if argv else 2
    if argv[0] != 'install':
        stderr.write('rusty kernel: unknown command: %s\n%s\n' % (argv[0], USAGE))
        return 2
    try:
        user, prefix = parse(argv[1:])
    except ValueError as e:
        stderr.write('rusty kernel: %s\n%s\n' % (e, USAGE))
        return 2
    from ..lsp.command import installed
    if not installed('ipykernel', 'jupyter_client'):
        stderr.write(INSTALL_HINT + '\n')
        return 1
    try:
        dest = install(user, prefix)
    except OSError as e:
        stderr.write('rusty kernel: cannot install the kernel spec: %s\n' % e)
        return 1
    stdout.write('installed the rusty kernel spec in %s\n' % dest)
    return 0


def install(user: bool, prefix: str | None) -> str:
    """Install the spec (folders 0755, files 0644, missing parents made 0755); its folder."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_core.paths import SYSTEM_JUPYTER_PATH
    manager = KernelSpecManager()
    if user:
        kernels = manager.user_kernel_dir
    elif prefix is not None:
        kernels = os.path.join(os.path.abspath(prefix), 'share', 'jupyter', 'kernels')
    else:
        kernels = os.path.join(SYSTEM_JUPYTER_PATH[0], 'kernels')
    make_dirs(kernels)
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, KERNEL_NAME)
        os.mkdir(spec)
        with open(os.path.join(spec, 'kernel.json'), 'w', encoding='utf-8') as fh:
            json.dump(kernel_spec(), fh, indent=1)
        set_modes(spec)                 # copytree copies the modes (a temporary folder's are 0700)
        dest = manager.install_kernel_spec(spec, KERNEL_NAME, user=user, prefix=prefix)
    set_modes(dest)
    return dest


def make_dirs(path: str) -> None:
    """Create `path` and its missing parents, each DIR_MODE whatever the umask."""
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for d in reversed(missing):
        os.mkdir(d, DIR_MODE)
        os.chmod(d, DIR_MODE)           # mkdir's mode is masked by the umask


def set_modes(top: str) -> None:
    """DIR_MODE on `top` and the folders in it, FILE_MODE on its files."""
    os.chmod(top, DIR_MODE)
    for root, dirs, files in os.walk(top):
        for d in dirs:
            os.chmod(os.path.join(root, d), DIR_MODE)
        for f in files:
            os.chmod(os.path.join(root, f), FILE_MODE)
