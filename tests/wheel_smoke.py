"""The installed distribution used as a user uses it. `make wheel-check` runs
this with the Python of a fresh virtual environment holding the wheel (not
editable) and its lsp and jupyter extras:

- `rusty` is the installed one, not this checkout's;
- every example in repl.lisp-examples/ runs with the installed `rusty` to the
  output, error and exit status its `; expect…` comments state (the subset of
  the golden format the examples use), and no internal error;
- `rusty lsp` answers initialize, diagnoses a misspelt name and shuts down
  over stdio;
- `rusty kernel install --prefix` (this environment) gives a kernel that
  jupyter_client runs cells in (a value, an error), and the example notebook
  runs headless with `jupyter nbconvert --execute`.

Usage: python tests/wheel_smoke.py CHECKOUT   (exit 0, or 1 with what failed)
"""
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading

DIRECTIVE = re.compile(r'^\s*;+ ?(expect|expect-match|expect-error|expect-exit|args|stdin): ?(.*)$')
BIN = os.path.dirname(sys.executable)
RUSTY = os.path.join(BIN, 'rusty')
ENV = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
failures = []


def check(ok: bool, what: str) -> None:
    print(('ok    ' if ok else 'FAIL  ') + what, flush=True)
    if not ok:
        failures.append(what)


def installed(root: str) -> None:
    import rusty
    where = os.path.realpath(rusty.__file__)
    check(where.startswith(os.path.realpath(sys.prefix) + os.sep)
          and where != os.path.realpath(os.path.join(root, 'rusty', '__init__.py')),
          'rusty is imported from this environment (%s)' % where)
    done = subprocess.run([RUSTY, '--version'], capture_output=True, text=True, env=ENV, timeout=60)
    check(done.returncode == 0 and done.stdout.startswith('rusty '), 'rusty --version: %s' % done.stdout.strip())


# ── Examples ─────────────────────────────────────────────────────────────

def expectations(path: str) -> dict:
    found = {'lines': [], 'expect-error': [], 'expect-exit': [], 'args': [], 'stdin': []}
    with open(path, encoding='utf-8') as fh:
        for line in fh:
            m = DIRECTIVE.match(line.rstrip('\n'))
            if m is None:
                continue
            kind, value = m.groups()
            if kind in ('expect', 'expect-match'):
                found['lines'].append((kind == 'expect-match', value))
            else:
                found[kind].append(value)
    return found


def example(path: str) -> None:
    exp = expectations(path)
    args = [a for line in exp['args'] for a in line.split()]
    stdin = ''.join(line + '\n' for line in exp['stdin'])
    done = subprocess.run([RUSTY, os.path.basename(path), *args], input=stdin, capture_output=True, text=True,
                          cwd=os.path.dirname(path), env=ENV, timeout=600)
    want_exit = int(exp['expect-exit'][0]) if exp['expect-exit'] else (1 if exp['expect-error'] else 0)
    got = done.stdout.split('\n')
    lines_ok = got[-1] == '' and len(got) - 1 == len(exp['lines']) and all(
        (re.fullmatch(want, line) is not None) if is_re else want == line
        for (is_re, want), line in zip(exp['lines'], got))
    error_ok = not exp['expect-error'] or done.stderr.startswith('Error: %s\n' % exp['expect-error'][0])
    clean = 'internal error' not in done.stderr and 'Traceback' not in done.stderr
    check(done.returncode == want_exit and lines_ok and error_ok and clean,
          'example %s (exit %d, %d output lines)' % (os.path.basename(path), done.returncode, len(got) - 1))
    if not (lines_ok and error_ok and clean):
        print(done.stdout[-2000:] + done.stderr[-2000:])


# ── rusty lsp ────────────────────────────────────────────────────────────

class Lsp:
    def __init__(self):
        self.proc = subprocess.Popen([RUSTY, 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=ENV)
        self.inbox = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.partition(b':')
                if name.strip().lower() == b'content-length':
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, **msg):
        body = json.dumps(dict(jsonrpc='2.0', **msg)).encode('utf-8')
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def wait(self, test, seconds=60):
        while True:
            msg = self.inbox.get(timeout=seconds)
            if test(msg):
                return msg


def lsp() -> None:
    server = Lsp()
    try:
        server.send(id=1, method='initialize', params={'processId': None, 'rootUri': None, 'capabilities': {}})
        reply = server.wait(lambda m: m.get('id') == 1)
        check('hoverProvider' in reply.get('result', {}).get('capabilities', {}), 'rusty lsp: initialize')
        server.send(method='initialized', params={})
        uri = 'file:///tmp/smoke.lisp'
        server.send(method='textDocument/didOpen', params={'textDocument': {
            'uri': uri, 'languageId': 'rusty', 'version': 1, 'text': "(filtr even? '(1 2))\n"}})
        diags = server.wait(lambda m: m.get('method') == 'textDocument/publishDiagnostics'
                            and m['params']['uri'] == uri and m['params']['diagnostics'])
        messages = [d['message'] for d in diags['params']['diagnostics']]
        check(any("did you mean 'filter'" in m for m in messages), 'rusty lsp: diagnostics %s' % messages)
        server.send(id=2, method='shutdown', params=None)
        server.wait(lambda m: m.get('id') == 2)
        server.send(method='exit', params=None)
        check(server.proc.wait(timeout=30) == 0, 'rusty lsp: shutdown and exit')
    except queue.Empty:
        check(False, 'rusty lsp: no answer (stderr: %s)' % server.proc.stderr.read1(4000))
    finally:
        if server.proc.poll() is None:
            server.proc.kill()


# ── rusty kernel ─────────────────────────────────────────────────────────

def kernel(root: str) -> None:
    done = subprocess.run([RUSTY, 'kernel', 'install', '--prefix', sys.prefix], capture_output=True, text=True,
                          env=ENV, timeout=120)
    check(done.returncode == 0, 'rusty kernel install --prefix %s: %s' % (sys.prefix, done.stdout + done.stderr))
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name='rusty')
    try:
        outputs = []
        reply = kc.execute_interactive('(define (sq x) (* x x))\n(sq 12)', timeout=120,
                                       output_hook=outputs.append)['content']
        values = [m['content']['data']['text/plain'] for m in outputs if m['msg_type'] == 'execute_result']
        check(reply['status'] == 'ok' and values == ['144'], 'rusty kernel: a cell gives %s' % values)
        outputs.clear()
        reply = kc.execute_interactive('(sq "a")', timeout=120, output_hook=outputs.append)['content']
        errors = [m['content']['ename'] for m in outputs if m['msg_type'] == 'error']
        check(reply['status'] == 'error' and errors == [reply['ename']], 'rusty kernel: an error is a Jupyter error')
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    with tempfile.TemporaryDirectory() as out:
        notebook = os.path.join(root, 'repl.lisp-examples', 'training.ipynb')
        done = subprocess.run([os.path.join(BIN, 'jupyter'), 'nbconvert', '--to', 'notebook', '--execute',
                               notebook, '--output-dir', out, '--output', 'trained'],
                              capture_output=True, text=True, env=ENV, timeout=900)
        ok = done.returncode == 0
        if ok:
            with open(os.path.join(out, 'trained.ipynb'), encoding='utf-8') as fh:
                cells = json.load(fh)['cells']
            kinds = [o['output_type'] for c in cells for o in c.get('outputs', [])]
            ok = 'error' not in kinds and any('image/svg+xml' in o.get('data', {})
                                               for c in cells for o in c.get('outputs', []))
        check(ok, 'jupyter nbconvert --execute training.ipynb')
        if not ok:
            print(done.stderr[-3000:])


def main(root: str) -> int:
    root = os.path.abspath(root)
    installed(root)
    examples = os.path.join(root, 'repl.lisp-examples')
    for name in sorted(os.listdir(examples)):
        if name.endswith('.lisp'):
            example(os.path.join(examples, name))
    for part in (lsp, lambda: kernel(root)):
        try:
            part()
        except Exception as e:          # report it and go on to the next part
            check(False, '%s: %s' % (type(e).__name__, e))
    print('%d failed' % len(failures) if failures else 'all passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
