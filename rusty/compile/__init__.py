"""The compiler to Python: each lambda, when first called, becomes one Python
function built with the `ast` module (lower.py), linked against the session
(link.py) and entered from the reference's run loop through an adapter; the
helpers its code calls live in support.py, the inlined builtins in inline.py.
The runtime is its one door (`Unit.compile_lambda`); the reference evaluator
imports nothing of it."""
