"""The Jupyter kernel driven as Jupyter drives it: the kernel spec installed by
`rusty kernel install`, started and spoken to with jupyter_client, and the
example notebook executed headless with nbclient."""
import os
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


def test_errors_show_the_report_as_text_and_html(kernel):
    _km, kc = kernel
    reply, out = execute(kc, '(define (f x) (/ x 0))\n(f 2)')
    assert reply['status'] == 'error'
    assert (reply['ename'], reply['evalue']) == ('Error', 'Division by zero')
    [(kind, content)] = out
    n = reply['execution_count']
    assert kind == 'display_data'
    assert content['data']['text/plain'] == (
        'Error: Division by zero\n'
        '  at <cell %d>:1:15\n'
        '  1 | (define (f x) (/ x 0))\n'
        '    |               ^^^^^^^\n'
        'Backtrace (innermost last):\n'
        '  <cell %d>:2:1 in f\n' % (n, n))
    html = content['data']['text/html']
    assert html.startswith('<pre>') and 'Division by zero' in html and '&lt;cell %d&gt;:1:15' % n in html
    assert '<span style="color: ' in html        # the source line is highlighted
    reply, out = execute(kc, '(sq 3)')           # the session goes on
    assert out[0][1]['data']['text/plain'] == '9'


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
