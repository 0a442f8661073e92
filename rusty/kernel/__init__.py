"""The Jupyter kernel (needs the `jupyter` extra: ipykernel, jupyter_client).

rich.py is plain rusty; kernel.py imports ipykernel, install.py jupyter_client.
"""
