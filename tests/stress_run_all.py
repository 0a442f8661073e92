"""Run All through a real notebook server, as the browser does it, many times,
and count the runs where a cell after the failing one was not aborted (run by
hand; pytest does not collect it; needs jupyter_server, e.g. the `notebook`
extra, and the rusty kernel spec registered where that Jupyter finds it):

    python3 tests/stress_run_all.py [--kernel rusty] [--runs 16]

It starts `jupyter server` on a free port, starts the kernel through its REST
API, and for each run sends five execute_requests over the kernel's websocket
at once, each with one date in its header as the browser's Run All does: a
definition, a failing cell, then three cells that must come back `aborted`.
The server passes them on to the kernel one by one, so some reach it after
the error; before the kernel aborted those too, 3 to 6 runs in 16 ran the
later cells (the Python kernel: none, its error takes longer). Prints the
count and exits 1 if any run was wrong.
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import socket
import subprocess
import sys
import time
import uuid

CELLS = {'rusty': ['(define a 1)', '(car 5)', '(println "after")', '(define b 2)', '(+ 1 2)'],
         'python3': ['a = 1', '1/0', 'print("after")', 'b = 2', '1+2']}
WANT = ['ok', 'error', 'aborted', 'aborted', 'aborted']


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def request(code: str, session: str, date: str) -> str:
    header = {'msg_id': uuid.uuid4().hex, 'msg_type': 'execute_request', 'username': 'stress',
              'session': session, 'date': date, 'version': '5.3'}
    return json.dumps({'header': header, 'parent_header': {}, 'metadata': {}, 'channel': 'shell', 'buffers': [],
                       'content': {'code': code, 'silent': False, 'store_history': True, 'user_expressions': {},
                                   'allow_stdin': False, 'stop_on_error': True}})


async def run_all(base: str, token: str, kernel: str, runs: int) -> int:
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect
    auth = {'Authorization': 'token ' + token}
    http = AsyncHTTPClient()
    reply = await http.fetch(base + '/api/kernels', method='POST', body=json.dumps({'name': kernel}), headers=auth)
    kid = json.loads(reply.body)['id']
    ws = await websocket_connect(HTTPRequest('ws' + base[4:] + '/api/kernels/%s/channels?session_id=%s'
                                             % (kid, uuid.uuid4().hex), headers=auth))
    session, wrong = uuid.uuid4().hex, 0
    try:
        for run in range(runs):
            date = datetime.datetime.now(datetime.timezone.utc).isoformat().replace('+00:00', 'Z')
            msgs = [request(code, session, date) for code in CELLS[kernel]]
            ids = [json.loads(m)['header']['msg_id'] for m in msgs]
            for m in msgs:
                ws.write_message(m)
            statuses = {}
            while len(statuses) < len(ids):
                msg = json.loads(await asyncio.wait_for(ws.read_message(), 120))
                if msg['msg_type'] == 'execute_reply' and msg['parent_header'].get('msg_id') in ids:
                    statuses[msg['parent_header']['msg_id']] = msg['content']['status']
            got = [statuses[i] for i in ids]
            if got != WANT:
                wrong += 1
                print('run %d: %s' % (run, got), flush=True)
            await asyncio.sleep(0.3)
    finally:
        await http.fetch(base + '/api/kernels/' + kid, method='DELETE', headers=auth)
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel', default='rusty', choices=sorted(CELLS))
    ap.add_argument('--runs', type=int, default=16)
    args = ap.parse_args()
    port, token = free_port(), uuid.uuid4().hex
    server = subprocess.Popen([sys.executable, '-m', 'jupyter_server', '--no-browser', '--allow-root',
                               '--port=%d' % port, '--IdentityProvider.token=' + token],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.getcwd())
    base = 'http://127.0.0.1:%d' % port
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(('127.0.0.1', port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print('jupyter server did not start (is jupyter_server installed?)')
                    return 1
                time.sleep(0.3)
        wrong = asyncio.run(run_all(base, token, args.kernel, args.runs))
    finally:
        server.terminate()
        server.wait(30)
    print('%s: %d of %d Run All runs went on after the failing cell' % (args.kernel, wrong, args.runs))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
