"""A minimal Language Server Protocol client over a subprocess's pipes, as an
editor drives `rusty lsp`: Content-Length framed JSON-RPC, requests matched
to responses by id, notifications (diagnostics) collected on the side."""
from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Client:
    def __init__(self, cwd=None):
        env = dict(os.environ)
        env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
        self.proc = subprocess.Popen([sys.executable, '-m', 'rusty', 'lsp'], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd or ROOT, env=env)
        self.next_id = 0
        self.responses: dict = {}
        self.notes: queue.Queue = queue.Queue()
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # ── Framing ──

    def _send(self, msg: dict) -> None:
        body = json.dumps(msg).encode('utf-8')
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b':')
                if name.lower() == b'content-length':
                    length = int(value)
            msg = json.loads(out.read(length))
            if 'id' in msg and 'method' not in msg:
                with self.lock:
                    self.responses[msg['id']] = msg
                    self.lock.notify_all()
            elif 'id' in msg:           # a request from the server: answer it empty
                self._send({'jsonrpc': '2.0', 'id': msg['id'], 'result': None})
            else:
                self.notes.put(msg)

    # ── Requests and notifications ──

    def request(self, method: str, params, timeout: float = 30.0):
        self.next_id += 1
        rid = self.next_id
        self._send({'jsonrpc': '2.0', 'id': rid, 'method': method, 'params': params})
        deadline = time.monotonic() + timeout
        with self.lock:
            while rid not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError('%s: no answer in %.0f s' % (method, timeout))
                self.lock.wait(left)
            msg = self.responses.pop(rid)
        if 'error' in msg:
            raise RuntimeError('%s: %s' % (method, msg['error']))
        return msg['result']

    def notify(self, method: str, params) -> None:
        self._send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def diagnostics(self, uri: str, timeout: float = 30.0) -> list:
        """The next diagnostics published for uri."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.notes.get(timeout=max(0.01, deadline - time.monotonic()))
            if msg.get('method') == 'textDocument/publishDiagnostics' and msg['params']['uri'] == uri:
                return msg['params']['diagnostics']

    def initialize(self, root_uri=None) -> dict:
        result = self.request('initialize', {'processId': os.getpid(), 'rootUri': root_uri,
                                             'capabilities': {}})
        self.notify('initialized', {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify('textDocument/didOpen', {'textDocument': {'uri': uri, 'languageId': 'rusty',
                                                              'version': version, 'text': text}})

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify('textDocument/didChange', {'textDocument': {'uri': uri, 'version': version},
                                               'contentChanges': [{'text': text}]})

    def at(self, method: str, uri: str, line: int, character: int, **extra):
        params = {'textDocument': {'uri': uri}, 'position': {'line': line, 'character': character}}
        params.update(extra)
        return self.request(method, params)

    def close(self) -> int:
        """shutdown, exit; the server's exit status."""
        try:
            self.request('shutdown', None, timeout=10)
            self.notify('exit', None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                f.close()


@contextlib.contextmanager
def started(folder):
    """A Client initialized on `folder` (as c.dir), shut down afterwards if still running."""
    c = Client(cwd=str(folder))
    c.initialize(folder.as_uri())
    c.dir = folder
    try:
        yield c
    finally:
        if c.proc.poll() is None:
            c.close()


def messages(diags):
    """Diagnostics as sorted (line, character, message)."""
    return sorted((d['range']['start']['line'], d['range']['start']['character'], d['message']) for d in diags)
