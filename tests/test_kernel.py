"""The Jupyter kernel driven as Jupyter drives it: the kernel spec installed by
`rusty kernel install`, started and spoken to with jupyter_client, and the
example notebook executed headless with nbclient."""
import os
import re
import subprocess
import sys
import time

import pytest

from extras import require

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, 'repl.lisp-examples', 'training.ipynb')


def rusty(*args, env=None):
    return subprocess.run([sys.executable, '-m', 'rusty', *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)


@pytest.fixture(scope='module')
def spec_dir(tmp_path_factory):
    """A prefix holding the installed kernel spec, on JUPYTER_PATH for this module."""
    require('ipykernel', 'jupyter_client', 'nbclient', 'nbformat')
    prefix = tmp_path_factory.mktemp('prefix')
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = rusty('kernel', 'install', '--prefix', str(prefix), env=env)
    assert r.returncode == 0, r.stderr
    share = prefix / 'share' / 'jupyter'
    assert r.stdout == 'installed the rusty kernel spec in %s\n' % (share / 'kernels' / 'rusty')
    saved = {k: os.environ.get(k) for k in ('JUPYTER_PATH', 'PYTHONPATH')}
    os.environ['JUPYTER_PATH'] = str(share)
    os.environ['PYTHONPATH'] = ROOT + os.pathsep + os.environ.get('PYTHONPATH', '')
    yield share
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope='module')
def kernel(spec_dir, tmp_path_factory):
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name='rusty', cwd=str(tmp_path_factory.mktemp('cwd')))
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def execute(kc, code, timeout=60):
    """(reply content, [(msg_type, content)] of the outputs) of one cell."""
    outputs = []

    def hook(msg):
        if msg['msg_type'] in ('stream', 'execute_result', 'display_data', 'error'):
            outputs.append((msg['msg_type'], msg['content']))
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    return reply['content'], outputs


def test_the_spec_runs_this_python():
    import json
    from rusty.kernel.command import kernel_spec
    spec = kernel_spec()
    assert spec['argv'] == [sys.executable, '-m', 'rusty.kernel', '-f', '{connection_file}']
    assert spec['language'] == 'rusty' and spec['interrupt_mode'] == 'signal'
    json.dumps(spec)


def test_install_options():
    r = rusty('kernel', 'install', '--user', '--prefix', '/tmp')
    assert r.returncode == 2
    assert r.stderr == ('rusty kernel: --user and --prefix cannot be used together\n'
                        'usage: rusty kernel install [--user] [--prefix P]\n')
    r = rusty('kernel', 'install', '--prefix')
    assert (r.returncode, r.stderr.split('\n')[0]) == (2, 'rusty kernel: --prefix needs a directory')
    r = rusty('kernel', 'frobnicate')
    assert (r.returncode, r.stderr.split('\n')[0]) == (2, 'rusty kernel: unknown command: frobnicate')
    r = rusty('kernel', 'install', '--help')          # help, not 'unknown option: --help'
    assert (r.returncode, r.stdout.split('\n')[0], r.stderr) == (0, 'usage: rusty kernel install [--user] [--prefix P]', '')


def test_execute_results_streams_and_definitions(kernel):
    _km, kc = kernel
    reply, out = execute(kc, '(define (sq x) (* x x))\n(println "hi")\n(eprint "to stderr")\n(list "a" (sq 5))')
    assert reply['status'] == 'ok'
    assert out == [('stream', {'name': 'stdout', 'text': 'hi\n'}),
                   ('stream', {'name': 'stderr', 'text': 'to stderr\n'}),
                   ('execute_result', {'execution_count': reply['execution_count'],
                                       'data': {'text/plain': '("a" 25)'}, 'metadata': {}})]
    reply, out = execute(kc, "(define big '(%s))\nbig" % ' '.join(['aaaaaaaaaa'] * 12))
    text = out[0][1]['data']['text/plain']
    lines = text.split('\n')                   # pretty-printed: a flat list is filled within 80 columns
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines) and lines[0].startswith('(aaaaaaaaaa aaaaaaaaaa')
    reply, out = execute(kc, '(define nothing 1)')
    assert reply['status'] == 'ok' and out == []                                      # Nil shows nothing


ANSI = re.compile(r'\x1b\[[0-9;]*m')


def test_errors_are_jupyter_errors_with_the_report_as_traceback(kernel):
    _km, kc = kernel
    reply, out = execute(kc, '(define (f x) (/ x 0))\n(f 2)')
    assert reply['status'] == 'error'
    assert (reply['ename'], reply['evalue']) == ('EvalError', 'Division by zero')
    [(kind, content)] = out                     # one output: the error, no second copy of the report
    n = reply['execution_count']
    assert kind == 'error'
    assert {k: content[k] for k in ('ename', 'evalue', 'traceback')} == {
        k: reply[k] for k in ('ename', 'evalue', 'traceback')}
    assert [ANSI.sub('', line) for line in content['traceback']] == [
        'Error: Division by zero',
        '  at <cell %d>:1:15' % n,
        '  1 | (define (f x) (/ x 0))',
        '    |               ^^^^^^^',
        'Backtrace (innermost last):',
        '  <cell %d>:2:1 in f' % n]
    assert content['traceback'][0] == '\x1b[1mError: Division by zero\x1b[0m'     # coloured as at the REPL
    assert '\x1b[1;31m^^^^^^^\x1b[0m' in content['traceback'][3]
    reply, out = execute(kc, '(sq 3)')           # the session goes on
    assert out[0][1]['data']['text/plain'] == '9'
    reply, out = execute(kc, '(car')
    assert (reply['ename'], out[0][0]) == ('IncompleteInput', 'error')     # the error's class


def test_rich_output_tensors_hashes_graph(kernel):
    _km, kc = kernel
    _r, out = execute(kc, '(tensor (list (list 1 2 3) (list 4 5 6)))')
    html = out[0][1]['data']['text/html']
    assert '<caption>tensor 2×3</caption>' in html and html.count('<tr>') == 3 and '>6</td>' in html
    _r, out = execute(kc, '(tensor (range 0 50))')
    html = out[0][1]['data']['text/html']
    assert html.count('<td') == 21 and '>19</td>' in html and '>20</td>' not in html     # 20 columns and …
    _r, out = execute(kc, '(define h (make-hash))\n(hash-set! h "a" 1)\n(hash-set! h \'b (list 2 3))\nh')
    html = out[0][1]['data']['text/html']
    assert '<caption>hash table, 2 entries</caption>' in html
    assert '>&quot;a&quot;</td>' in html and '>(2 3)</td>' in html
    _r, out = execute(kc, ',graph (lambda (x) (* x (+ x 1)))')
    data = out[0][1]['data']
    assert data['text/plain'].split('\n')[-1].endswith('<- output')
    assert '<td style="text-align:left;padding:0 .5em">mul</td>' in data['text/html']
    _r, out = execute(kc, '(plot (list 3 2 1.5 1.25) "loss")')
    assert out[0][0] == 'display_data'
    assert out[0][1]['data']['image/svg+xml'].startswith('<svg') and 'loss' in out[0][1]['data']['image/svg+xml']
    reply, _out = execute(kc, '(plot "nope")')
    assert reply['evalue'] == 'plot: expects a non-empty list or rank-1 tensor of numbers'


def test_complete_inspect_is_complete(kernel):
    _km, kc = kernel
    execute(kc, '(define (square-root-ish x) x)')
    reply = kc.complete('(squa', 5, reply=True, timeout=30)['content']
    assert reply['matches'] == ['square', 'square-root-ish'] and reply['cursor_start'] == 1
    reply = kc.inspect('(map f xs)', 3, reply=True, timeout=30)['content']
    assert reply['found'] and reply['data']['text/plain'].startswith('(map f lst ...)')
    for code, status in [('(define (f', 'incomplete'), ('(+ 1 2)', 'complete'), ('(+ 1 2))', 'invalid'),
                         ('"open string', 'incomplete')]:
        kc.is_complete(code)
        assert kc.get_shell_msg(timeout=30)['content']['status'] == status


def _interrupt(km, kc, code, after=1.0):
    """Run `code` (which first prints `started`), interrupt it once it has
    started and `after` more seconds passed: (reply content, seconds the
    interrupt took). Waiting for the output, not a fixed time, keeps a slow
    machine from interrupting before the cell runs. The cell is sent without
    stop_on_error: its error would have ipykernel abort the requests that
    reach it just after (the next cell replied `aborted` about one run in ten)."""
    mid = kc.execute('(display "started") (newline) ' + code, stop_on_error=False)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=120)
        if (msg['parent_header'].get('msg_id') == mid and msg['msg_type'] == 'stream'
                and 'started' in msg['content']['text']):
            break
    time.sleep(after)
    start = time.monotonic()
    km.interrupt_kernel()
    while True:
        msg = kc.get_shell_msg(timeout=180)
        if msg['parent_header'].get('msg_id') == mid:
            return msg['content'], time.monotonic() - start


def test_interrupt_keeps_the_definitions(kernel):
    km, kc = kernel
    assert execute(kc, '(define kept 42)')[0]['status'] == 'ok'
    reply, took = _interrupt(km, kc, '(define (spin n) (spin (+ n 1)))\n(spin 0)')
    assert (reply['status'], reply.get('evalue')) == ('error', 'interrupted'), reply
    assert took < 10
    _r, out = execute(kc, 'kept')
    assert out[0][1]['data']['text/plain'] == '42'


@pytest.mark.rustc
def test_interrupt_stops_native_code(kernel):
    km, kc = kernel
    assert execute(kc, '(define m (ones (list 2000 2000)))')[0]['status'] == 'ok'
    chain = 'm'
    for _ in range(12):          # 12 products of 2000x2000: seconds even for the native kernels
        chain = '(matmul m %s)' % chain
    reply, took = _interrupt(km, kc, '(tensor-sum %s)' % chain, after=0.2)
    assert (reply['status'], reply.get('evalue')) == ('error', 'interrupted'), reply
    assert took < 10
    r, out = execute(kc, '(tensor-shape m)')
    assert r['status'] == 'ok', r
    assert out[0][1]['data']['text/plain'] == '(2000 2000)', out


@pytest.mark.rustc
def test_the_example_notebook_runs_headless(spec_dir):
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name='rusty',
                   resources={'metadata': {'path': os.path.dirname(NOTEBOOK)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == 'code' for o in c.outputs]
    assert not [o for o in outputs if o.output_type == 'error']
    text = ''.join(o.get('text', '') for o in outputs if o.output_type == 'stream')
    assert text == 'initial loss: 1.2212867736816406\nfinal loss: 0.35312804084655014\n'
    svgs = [o for o in outputs if 'image/svg+xml' in o.get('data', {})]
    assert len(svgs) == 1 and '<polyline' in svgs[0]['data']['image/svg+xml']
    tables = [o for o in outputs if 'text/html' in o.get('data', {})]
    assert any('<caption>tensor 16×8</caption>' in o['data']['text/html'] for o in tables)
    assert any('matmul' in o['data']['text/html'] for o in tables)        # the ,graph table


def test_without_ipykernel_install_says_how():
    code = ('import sys, importlib.util\n'
            'real = importlib.util.find_spec\n'
            'importlib.util.find_spec = lambda n, *a: None if n == "ipykernel" else real(n, *a)\n'
            'from rusty.cli import main\n'
            'sys.exit(main(["kernel", "install", "--user"]))\n')
    r = subprocess.run([sys.executable, '-c', code], env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True,
                       text=True, timeout=60)
    assert (r.returncode, r.stderr) == (
        1, "rusty kernel needs ipykernel and jupyter_client: pip install 'rusty-lisp[jupyter]'\n")


def test_stdin_is_empty_and_exit_keeps_the_session(kernel):
    _km, kc = kernel
    reply, out = execute(kc, '(read-line)', timeout=30)
    assert reply['status'] == 'ok'
    reply, _out = execute(kc, '(define still 1)\n(exit 3)')
    assert (reply['status'], reply['evalue']) == (
        'error', 'exit: (exit 3) ends a script; the notebook session goes on')
    _r, out = execute(kc, 'still')
    assert out[0][1]['data']['text/plain'] == '1'


@pytest.mark.parametrize('umask', [0o077, 0o000])
@pytest.mark.parametrize('where', ['--prefix', '--user'])
def test_install_modes_do_not_follow_the_umask(tmp_path, umask, where):
    """Folders 0755 and files 0644, missing parents made 0755: a system-wide
    spec is readable by everyone (under umask 077 it was 0700) and nothing is
    world-writable (under umask 000 the parents were)."""
    require('jupyter_client')
    top = tmp_path / 'top'
    env = dict(os.environ, PYTHONPATH=ROOT, JUPYTER_DATA_DIR=str(top / 'data' / 'jupyter'))
    args = ['kernel', 'install'] + (['--prefix', str(top / 'p' / 'q')] if where == '--prefix' else ['--user'])
    r = subprocess.run([sys.executable, '-m', 'rusty', *args], capture_output=True, text=True, timeout=120,
                       env=env, cwd=ROOT, preexec_fn=lambda: os.umask(umask))
    assert r.returncode == 0, r.stderr
    spec = (top / 'p' / 'q' / 'share' / 'jupyter' if where == '--prefix' else top / 'data' / 'jupyter') / 'kernels'
    assert r.stdout == 'installed the rusty kernel spec in %s\n' % (spec / 'rusty')
    modes = {}
    for root, dirs, files in os.walk(top):
        for name in dirs + files:
            path = os.path.join(root, name)
            modes[os.path.relpath(path, top)] = os.stat(path).st_mode & 0o777
    assert modes.pop(os.path.relpath(spec / 'rusty' / 'kernel.json', top)) == 0o644
    assert set(modes.values()) == {0o755}, modes
    assert len(modes) >= 4


# ── A failing cell stops the notebook, as in Python ──────────────────────

def run_all(kc, cells, gap):
    """The browser's Run All: every execute_request made at once (one date in
    their headers), reaching the kernel `gap` seconds apart as the notebook
    server passes them on; the statuses of their replies, in order."""
    msgs = [kc.session.msg('execute_request', {'code': c, 'silent': False, 'store_history': True,
                                               'user_expressions': {}, 'allow_stdin': False,
                                               'stop_on_error': True}) for c in cells]
    for m in msgs:
        kc.shell_channel.send(m)
        time.sleep(gap)
    ids = [m['header']['msg_id'] for m in msgs]
    replies = {}
    while len(replies) < len(ids):
        reply = kc.get_shell_msg(timeout=60)
        if reply['parent_header'].get('msg_id') in ids:
            replies[reply['parent_header']['msg_id']] = reply['content']['status']
    return [replies[i] for i in ids]


def test_run_all_stops_at_the_failing_cell(kernel):
    """The cells after a failing one are aborted, however their requests trickle
    in (before: a request arriving a few ms after the error ran in most runs);
    a client that waits for each reply and goes on after an error is not."""
    _km, kc = kernel
    cells = ['(define ran 0)', '(car 5)', '(set! ran 1)', '(println "after")', '(set! ran 2)']
    for trial in range(30):
        statuses = run_all(kc, cells, gap=(0, 0.002, 0.02)[trial % 3])
        assert statuses == ['ok', 'error', 'aborted', 'aborted', 'aborted'], (trial, statuses)
        reply, out = execute(kc, 'ran')
        assert out[0][1]['data']['text/plain'] == '0'
    assert execute(kc, '(car 5)')[0]['status'] == 'error'
    assert execute(kc, '(+ 1 2)')[0]['status'] == 'ok'        # sent after the error's reply


def notebook(tmp_path, cells):
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells],
                                  metadata={'kernelspec': {'name': 'rusty', 'display_name': 'rusty',
                                                           'language': 'rusty'}})
    path = tmp_path / 'failing.ipynb'
    nbformat.write(nb, str(path))
    return path


FAILING = ['(define (f x) (/ x 0))', '(f 2)', '(println "after")']


def test_nbconvert_stops_at_an_error_and_keeps_it_with_allow_errors(spec_dir, tmp_path):
    require('nbconvert')
    import nbformat
    path = notebook(tmp_path, FAILING)
    run = [sys.executable, '-m', 'nbconvert', '--to', 'notebook', '--execute', str(path)]
    r = subprocess.run(run + ['--output', 'out1.ipynb'], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    text = ANSI.sub('', r.stderr)
    assert 'CellExecutionError' in text and '(f 2)\n------------------\n' in text
    assert 'Error: Division by zero\n  at <cell 1>:1:15\n' in text
    r = subprocess.run(run + ['--allow-errors', '--output', 'out2.ipynb'], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    nb = nbformat.read(str(tmp_path / 'out2.ipynb'), as_version=4)
    outputs = [c.outputs for c in nb.cells]
    assert outputs[0] == []
    [error] = outputs[1]
    assert (error.output_type, error.ename, error.evalue) == ('error', 'EvalError', 'Division by zero')
    assert ANSI.sub('', error.traceback[0]) == 'Error: Division by zero'
    assert [(o.output_type, o.text) for o in outputs[2]] == [('stream', 'after\n')]     # went on


def test_papermill_names_the_error(spec_dir, tmp_path):
    pytest.importorskip('papermill', reason='papermill is not an extra; installed, it is checked too')
    path = notebook(tmp_path, FAILING)
    r = subprocess.run([sys.executable, '-m', 'papermill', str(path), str(tmp_path / 'out.ipynb')],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    text = ANSI.sub('', r.stderr)
    assert 'Exception encountered at "In [2]":\nError: Division by zero\n  at <cell 1>:1:15' in text


def test_request_dates_are_read_as_utc():
    require('ipykernel')
    from datetime import datetime, timedelta, timezone

    from rusty.kernel.kernel import sent_at
    utc = datetime(2026, 1, 2, 3, 4, 5, 123000, tzinfo=timezone.utc)
    assert sent_at('2026-01-02T03:04:05.123Z') == utc                      # a browser's header
    assert sent_at(utc.astimezone(timezone(timedelta(hours=2)))) == utc    # jupyter_client's
    assert sent_at(None) is None and sent_at('yesterday') is None


def test_a_notebook_plot_shows_inline_with_nbconvert(spec_dir, tmp_path):
    """A cell drawing with matplotlib through Python interop (manual chapter 12)
    runs headless under `jupyter nbconvert --execute` and its figure is saved
    in the notebook as a PNG, once: the next cell shows none."""
    require('nbconvert')
    pytest.importorskip('matplotlib', reason='matplotlib not installed (CI installs it with the plot extra)')
    import base64

    import nbformat
    path = notebook(tmp_path, ['(import matplotlib.pyplot :as plt)',
                               '(plt.plot (list 1 3 2)) (plt.title "loss") 7',
                               '(+ 1 2)'])
    r = subprocess.run([sys.executable, '-m', 'nbconvert', '--to', 'notebook', '--execute', str(path),
                        '--output', 'plotted.ipynb'], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    nb = nbformat.read(str(tmp_path / 'plotted.ipynb'), as_version=4)
    outputs = [[(o.output_type, sorted(o.get('data', {}))) for o in c.outputs] for c in nb.cells]
    assert outputs == [[], [('display_data', ['image/png', 'text/plain']), ('execute_result', ['text/plain'])],
                       [('execute_result', ['text/plain'])]]
    png = base64.b64decode(nb.cells[1].outputs[0].data['image/png'])
    assert png.startswith(b'\x89PNG\r\n\x1a\n') and len(png) > 2000
