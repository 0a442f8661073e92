"""`rusty lsp`: a language server for editors (needs the `lsp` extra, pygls).

analysis.py and features.py are plain rusty; only server.py imports pygls.
"""
