"""Matplotlib in notebooks: after each cell, the figures the cell left open are
shown as PNG images and closed, as matplotlib-inline does for Python.

Nothing here imports matplotlib: a session whose code never imported
matplotlib.pyplot has no figures, and pays nothing. The kernel process uses
the Agg backend (no window opens) unless MPLBACKEND says otherwise.
"""
from __future__ import annotations

import base64
import io
import os
import sys

BACKEND = 'Agg'


def use_agg_backend() -> None:
    """Agg for this process's matplotlib, unless MPLBACKEND is set (call before it is imported)."""
    if not os.environ.get('MPLBACKEND'):
        os.environ['MPLBACKEND'] = BACKEND


def png_bundle(fig) -> dict:
    """A figure as a MIME bundle: the PNG, and a line of text."""
    buf = io.BytesIO()
    fig.savefig(buf, format='png', bbox_inches='tight')
    w, h = fig.get_size_inches() * fig.dpi
    return {'image/png': base64.b64encode(buf.getvalue()).decode('ascii'),
            'text/plain': '<Figure size %dx%d with %d Axes>' % (w, h, len(fig.axes))}


def show_figures(display, warn) -> int:
    """Send every open pyplot figure to `display` as a PNG bundle and close them
    all; a figure that cannot be drawn is reported through `warn`. Only if
    matplotlib.pyplot is already imported. The number of figures shown."""
    plt = sys.modules.get('matplotlib.pyplot')
    if plt is None:
        return 0
    shown = 0
    try:
        for num in plt.get_fignums():
            try:
                display(png_bundle(plt.figure(num)))
                shown += 1
            except Exception as e:      # a bad figure must not take the cell's result with it
                warn('figure %s could not be drawn: %s: %s\n' % (num, type(e).__name__, e))
    finally:
        plt.close('all')
    return shown
