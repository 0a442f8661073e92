"""Matplotlib figures in notebooks: after each cell the kernel shows every open
pyplot figure as a PNG and closes it, only when matplotlib.pyplot is already
imported (the kernel never imports it). matplotlib is no extra of rusty's:
without it these tests skip (rusty code reaches matplotlib through Python
interop; here the figure is made by the kernel process's Python directly)."""
import base64
import json
import os
import subprocess
import sys

import pytest

from extras import require

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNG = b'\x89PNG\r\n\x1a\n'


def test_no_pyplot_no_figures_and_no_import():
    code = ('import sys\nfrom rusty.kernel.figures import show_figures\n'
            'shown = []\nn = show_figures(shown.append, shown.append)\n'
            'print(n, shown, "matplotlib" in sys.modules)\n')
    r = subprocess.run([sys.executable, '-c', code], env=dict(os.environ, PYTHONPATH=ROOT),
                       capture_output=True, text=True, timeout=60)
    assert r.stdout == '0 [] False\n', r.stderr


def test_open_figures_are_sent_as_png_and_closed():
    pytest.importorskip('matplotlib', reason='matplotlib not installed (not an extra of rusty)')
    code = ('import os, sys, json\nfrom rusty.kernel.figures import show_figures, use_agg_backend\n'
            'os.environ.pop("MPLBACKEND", None)\nuse_agg_backend()\n'
            'import matplotlib.pyplot as plt\n'
            'plt.plot([1, 3, 2]); plt.figure(); plt.bar([1, 2], [3, 4])\n'
            'sent = []\nn = show_figures(sent.append, sent.append)\n'
            'print(json.dumps([n, sent, plt.get_fignums(), plt.get_backend()]))\n')
    r = subprocess.run([sys.executable, '-c', code], env=dict(os.environ, PYTHONPATH=ROOT),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    n, sent, left, backend = json.loads(r.stdout)
    assert (n, len(sent), left, backend.lower()) == (2, 2, [], 'agg')
    for bundle in sent:
        assert base64.b64decode(bundle['image/png']).startswith(PNG)
        assert bundle['text/plain'].startswith('<Figure size ') and bundle['text/plain'].endswith(' with 1 Axes>')


def test_the_kernel_shows_a_figure_after_the_cell(tmp_path):
    """A kernel whose process has pyplot imported and a figure open (made by
    Python before the kernel starts): the next cell's outputs end in the PNG,
    and the cell after it shows none (the figure was closed)."""
    require('ipykernel', 'jupyter_client')
    pytest.importorskip('matplotlib', reason='matplotlib not installed (not an extra of rusty)')
    from jupyter_client.manager import start_new_kernel
    start = ('import sys; sys.path.insert(0, %r)\n'
             'from rusty.kernel import figures; figures.use_agg_backend()\n'
             'import matplotlib.pyplot as plt; plt.plot([1, 2, 4])\n'
             'from rusty.kernel.kernel import launch; launch()\n' % ROOT)
    spec = tmp_path / 'share' / 'jupyter' / 'kernels' / 'rusty-mpl'
    spec.mkdir(parents=True)
    (spec / 'kernel.json').write_text(json.dumps({'argv': [sys.executable, '-c', start, '-f', '{connection_file}'],
                                                  'display_name': 'rusty-mpl', 'language': 'rusty'}))
    saved = os.environ.get('JUPYTER_PATH')
    os.environ['JUPYTER_PATH'] = str(tmp_path / 'share' / 'jupyter')
    try:
        km, kc = start_new_kernel(kernel_name='rusty-mpl')
    finally:
        if saved is None:
            os.environ.pop('JUPYTER_PATH')
        else:
            os.environ['JUPYTER_PATH'] = saved
    try:
        def run(code):
            outputs = []
            kc.execute_interactive(code, timeout=60, output_hook=lambda m: outputs.append(m)
                                   if m['msg_type'] in ('display_data', 'execute_result', 'stream') else None)
            return [(m['msg_type'], sorted(m['content'].get('data', {}))) for m in outputs], outputs
        kinds, outputs = run('(println "drawn") (+ 1 2)')
        assert kinds == [('stream', []), ('display_data', ['image/png', 'text/plain']),
                         ('execute_result', ['text/plain'])]
        assert base64.b64decode(outputs[1]['content']['data']['image/png']).startswith(PNG)
        assert run('(+ 1 2)')[0] == [('execute_result', ['text/plain'])]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
